"""Native core of the Proxy Structuring Engine.

The C++ engine lives in ``pse_core._core``; the submodules re-export it at the
documented paths (``pse_core.state_machine.StateMachine``, ...).
"""

from pse_core import errors
from pse_core._core import (
    Engine,
    StateMachine,
    Stepper,
    StepperDelta,
    TrieMap,
    Vocabulary,
    apply_token_bitmask_inplace,
)

StateId = int | str

__all__ = [
    "Engine",
    "StateId",
    "StateMachine",
    "Stepper",
    "StepperDelta",
    "TrieMap",
    "Vocabulary",
    "apply_token_bitmask_inplace",
    "errors",
]
