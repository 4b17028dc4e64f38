"""Measured tables in the README and docs are copies of the benchmarks' result files.

``benchmarks/render_tables.py`` fills every ``<!-- results: NAME -->`` region
from ``benchmarks/results/NAME.json``; a page edited by hand, or a result file
rerun without re-rendering, fails here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_results  # noqa: E402
import render_tables  # noqa: E402


@pytest.mark.parametrize("page", render_tables.pages(), ids=lambda p: p.name)
def test_page_matches_result_files(page: Path) -> None:
    text = page.read_text()
    assert render_tables.rendered(text) == text, (
        f"{page} is out of date with benchmarks/results/: run python benchmarks/render_tables.py"
    )


def test_every_result_file_is_cited() -> None:
    cited = {
        name
        for page in render_tables.pages()
        for match in render_tables.REGION.finditer(page.read_text())
        for name in match["names"].split()
    }
    saved = {path.stem for path in bench_results.RESULTS.glob("*.json")}
    assert saved <= cited, f"result files no page shows: {sorted(saved - cited)}"


def test_round_trip(tmp_path: Path) -> None:
    rows = [{"engine": "a", "mean µs": 2.5, "n": 1200}, {"engine": "b|c", "mean µs": None}]
    bench_results.save_table("demo-table", rows, notes="two rows.", directory=tmp_path)
    record = json.loads((tmp_path / "demo-table.json").read_text())
    assert record["columns"] == ["engine", "mean µs", "n"]
    assert record["commit"] and record["command"] and record["date"]
    page = "intro\n<!-- results: demo-table -->\nold\n<!-- /results -->\nend\n"
    out = render_tables.rendered(page, tmp_path)
    assert "| engine | mean µs | n |" in out
    assert "| a | 2.50 | 1,200 |" in out
    assert "| b\\|c |  |  |" in out
    assert "two rows." in out and "old" not in out and out.endswith("<!-- /results -->\nend\n")


def test_mismatched_columns_are_refused(tmp_path: Path) -> None:
    bench_results.save_table("one", [{"a": 1}], directory=tmp_path)
    bench_results.save_table("two", [{"b": 1}], directory=tmp_path)
    with pytest.raises(ValueError, match="same columns"):
        render_tables.rendered("<!-- results: one two -->\n<!-- /results -->", tmp_path)
