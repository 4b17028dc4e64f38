"""Measured tables as files: what a benchmark saves and what the docs render.

A benchmark that produces a table for the README or the docs ends with::

    from bench_results import save_table
    save_table("e2e-torch", rows, columns=["variant", "tok/s", "ratio"], notes="greedy")

which writes ``benchmarks/results/<name>.json``: the rows, and how they were
made (the command line, the commit and whether the tree had uncommitted
changes, the date, the machine and its load average). Those files are
committed; ``python benchmarks/render_tables.py`` copies each table into the
pages that cite it (between ``<!-- results: NAME -->`` and
``<!-- /results -->``), and a test fails when a page and its file disagree.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


def provenance() -> dict[str, Any]:
    """The command, commit, date and machine of the running benchmark."""
    command = " ".join(shlex.quote(part) for part in [Path(sys.executable).name, *_relative_argv()])
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no", "--", "packages"))
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "command": command,
        "commit": _git("rev-parse", "--short=7", "HEAD") or "unknown",
        "dirty": dirty,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "python": platform.python_version(),
        "load_average": round(load[0], 2),
    }


def _relative_argv() -> list[str]:
    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    first = []
    if script is not None and script.is_file():
        try:
            first = [str(script.relative_to(ROOT))]
        except ValueError:
            first = [str(script)]
    return first + sys.argv[1:]


def save_table(
    name: str,
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str] | None = None,
    notes: str = "",
    directory: Path | None = None,
) -> Path:
    """Write ``rows`` (dicts keyed by column) as ``<directory or results>/<name>.json``.

    ``columns`` fixes the order (default: the keys of the first row, then any
    new key in later rows). Values are written as given: format numbers the
    way the table should show them, or leave floats to the renderer (two
    decimals). The file is overwritten: one file per table, the latest run.
    """
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"bad table name {name!r}: use letters, digits, '-' and '_'")
    cols = list(columns) if columns is not None else []
    if columns is None:
        for row in rows:
            cols.extend(key for key in row if key not in cols)
    unknown = {key for row in rows for key in row} - set(cols)
    if unknown:
        raise ValueError(f"rows of {name!r} have keys outside columns: {sorted(unknown)}")
    out = (directory or RESULTS) / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "name": name,
        "columns": cols,
        "rows": [{col: row.get(col) for col in cols} for row in rows],
        "notes": notes,
        **provenance(),
    }
    out.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"saved {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return out


def load_table(name: str, directory: Path | None = None) -> dict[str, Any]:
    """The record ``save_table`` wrote for ``name``."""
    path = (directory or RESULTS) / f"{name}.json"
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def render_markdown(records: Sequence[Mapping[str, Any]]) -> str:
    """One Markdown table from one or more records with the same columns, and its source line."""
    if not records:
        raise ValueError("no records to render")
    columns = list(records[0]["columns"])
    for record in records[1:]:
        if list(record["columns"]) != columns:
            raise ValueError(
                f"{record['name']!r} has columns {record['columns']}, "
                f"{records[0]['name']!r} has {columns}: one table needs the same columns"
            )
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
    ]
    for record in records:
        lines.extend(
            "| " + " | ".join(_cell(row[c]) for c in columns) + " |" for row in record["rows"]
        )
    lines.append("")
    for record in records:
        commit = record["commit"] + (" with uncommitted changes" if record.get("dirty") else "")
        source = (
            f"`{record['command']}` at commit {commit}, {record['date']}, "
            f"{record['machine']}, load average {record['load_average']}"
        )
        note = f" {record['notes']}" if record.get("notes") else ""
        lines.append(f"<sub>{record['name']}: {source}.{note}</sub>  ")
    return "\n".join(lines).rstrip() + "\n"
