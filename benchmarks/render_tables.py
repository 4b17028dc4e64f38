"""Copy measured tables from ``benchmarks/results/*.json`` into the pages that cite them.

    python benchmarks/render_tables.py          # rewrite the marked regions
    python benchmarks/render_tables.py --check  # exit 1 if a page is out of date

A page cites tables with a marked region::

    <!-- results: e2e-torch e2e-mlx -->
    (rendered table, replaced on every run)
    <!-- /results -->

Several names in one marker become one table (they must share columns), with
one source line per file: command, commit, date, machine, load average.
Pages: README.md, every package README and everything under docs/.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from bench_results import ROOT, load_table, render_markdown

# Markers start their line (an indented example of one, as in docs/contributing.md, is not one).
REGION = re.compile(
    r"^(?P<open><!-- results: (?P<names>[\w\- ]+?) -->\n)(?P<body>.*?)"
    r"^(?P<close><!-- /results -->)",
    re.DOTALL | re.MULTILINE,
)


def pages() -> list[Path]:
    """Every Markdown page that may cite a table."""
    found = [ROOT / "README.md", *sorted((ROOT / "packages").glob("*/README.md"))]
    found += sorted((ROOT / "docs").rglob("*.md"))
    return [page for page in found if page.is_file()]


def rendered(text: str, results: Path | None = None) -> str:
    """``text`` with every marked region filled from its result files."""

    def fill(match: re.Match[str]) -> str:
        records = [load_table(name, results) for name in match["names"].split()]
        return match["open"] + render_markdown(records) + match["close"]

    return REGION.sub(fill, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale pages, change nothing")
    args = parser.parse_args(argv)
    stale = []
    for page in pages():
        text = page.read_text()
        new = rendered(text)
        if new == text:
            continue
        stale.append(page.relative_to(ROOT))
        if not args.check:
            page.write_text(new)
    verb = "out of date" if args.check else "updated"
    for page in stale:
        print(f"{verb}: {page}")
    if args.check and stale:
        print("run: python benchmarks/render_tables.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
