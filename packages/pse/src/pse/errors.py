"""Exceptions raised by the structuring engine (re-exported from ``pse_core.errors``)."""

from pse_core.errors import *  # noqa: F403 - the one hierarchy, defined in pse_core
from pse_core.errors import __all__ as __all__
