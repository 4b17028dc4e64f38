"""Shared pytest configuration for every test folder.

Markers, warning filters, timeouts and import mode live in the root
pyproject.toml ([tool.pytest.ini_options]); fixtures and helpers shared between
folders live in tests/_support/. This file only sets up Hypothesis profiles:

* ``dev`` (default): Hypothesis' usual settings without a per-example deadline,
  since two shared CPU cores make wall-clock deadlines flaky.
* ``ci`` (selected when ``CI`` is set): derandomized, so a CI failure reproduces.

Pick one explicitly with ``HYPOTHESIS_PROFILE=dev|ci``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
