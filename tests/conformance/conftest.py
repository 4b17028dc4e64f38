"""Options of the conformance runs.

``--update-baseline`` rewrites ``expected/*.json`` from the current results
(run ``pytest tests/conformance --update-baseline``). ``PSE_MASKBENCH_FULL=1``
runs all 5,653 MaskBench schemas instead of the deterministic subset.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-baseline",
        action="store_true",
        default=False,
        help="rewrite tests/conformance/expected/*.json from this run",
    )


@pytest.fixture(scope="session")
def update_baseline(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-baseline", default=False))
