"""Long runs of the grammar property tests: generated programs and their edits, judged by
``ast.parse`` (CPython 3.11) and ``bash -n``.

    python benchmarks/bench_grammar_properties.py [--examples N] [--mutants K] [--save NAME]
    python benchmarks/bench_grammar_properties.py --completions [--step S] [--save NAME]
    python benchmarks/bench_grammar_properties.py --agreement [--save NAME]

Sources: ``hypothesmith.from_grammar()`` and ``hypothesmith.from_node()`` (Python),
``bash_scripts()`` (Bash, ``tests/_support/program_generators.py``), and the programs of
``../shared/data/code-snippets`` (``python_snippets``, ``bash_snippets``: their edits reach
constructs the generators do not write), and token soups (``python_soups``, ``bash_soups``:
glued or blank-separated tokens, mostly invalid; each one the grammar accepts as complete must
be one the reference accepts). For each generated program
the reference accepts (and that avoids the documented gaps: CR, non-ASCII), the grammar must
accept it and every prefix of it non-strictly; for ``K`` edits of each program, the grammar
must not accept as complete an edit the reference rejects. Unlike the CI-sized tests in
``tests/pse/grammar_properties`` this counts failures instead of stopping at the first, and
prints each one.

``--agreement``: the snippet agreement table. For every snippet of
``../shared/data/code-snippets`` and every prefix of it, the grammar's strict verdict against
the reference's; every prefix of a snippet the reference accepts must stay viable
(non-strict); nothing the reference rejects may be accepted as complete.

``--completions``: after every ``S``-th prefix of each ``../shared/data/code-snippets`` program
the reference accepts, the shortest completion (``Engine.shortest_completion``, one token per
byte): how many are found, how many the reference accepts once appended, and their CPU time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT / "tests", ROOT / "benchmarks"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import hypothesmith  # noqa: E402
from _support.code_reference import bash_accepts, python_accepts  # noqa: E402
from _support.program_generators import bash_scripts, mutants, token_soups  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pse.types.grammar import LarkGrammar  # noqa: E402

COLUMNS = [
    "language",
    "source",
    "programs",
    "reference accepts",
    "grammar accepts",
    "accepted wrongly",
    "prefixes checked",
    "prefixes rejected",
    "edits",
    "edits grammar accepts",
    "edits accepted wrongly",
    "cpu s",
]


def run_source(
    language: str,
    source: str,
    strategy: st.SearchStrategy[str],
    grammar: LarkGrammar,
    reference: Callable[[str], bool],
    examples: int,
    edits: int,
) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, 0)
    row.update(language=language, source=source)
    failures: list[str] = []
    started = time.process_time()

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(data=st.data(), code=strategy)
    def check(data: st.DataObject, code: str) -> None:
        row["programs"] += 1
        if "\r" in code or not code.isascii():
            return
        if not reference(code):
            if grammar.validate(code, strict=True):
                row["accepted wrongly"] += 1
                failures.append(f"accepted wrongly: {code!r}")
            return
        row["reference accepts"] += 1
        if not grammar.validate(code, strict=True):
            failures.append(f"rejected: {code!r}")
        else:
            row["grammar accepts"] += 1
        for cut in range(len(code)):
            row["prefixes checked"] += 1
            if not grammar.validate(code[:cut], strict=False):
                row["prefixes rejected"] += 1
                failures.append(f"dead prefix: {code[:cut]!r}")
                break
        for _ in range(edits):
            mutant = data.draw(mutants(code))
            row["edits"] += 1
            if grammar.validate(mutant, strict=True):
                row["edits grammar accepts"] += 1
                if not reference(mutant):
                    row["edits accepted wrongly"] += 1
                    failures.append(f"accepted wrongly: {mutant!r}")

    check()
    row["cpu s"] = round(time.process_time() - started, 1)
    print(" ".join(f"{k}={row[k]}" for k in COLUMNS), flush=True)
    for failure in failures:
        print("   ", failure[:400])
    return row


COMPLETION_COLUMNS = [
    "language",
    "prefixes",
    "found",
    "reference accepts",
    "mean ms",
    "p99 ms",
    "max ms",
    "slowest prefix ends with",
]


def snippets() -> list[dict[str, Any]]:
    """The rows of ``../shared/data/code-snippets/public.jsonl``."""
    corpus = ROOT.parent / "shared" / "data" / "code-snippets" / "public.jsonl"
    if not corpus.exists():
        sys.exit(f"{corpus} is absent (../shared is not checked out)")
    return [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]


def snippet_programs(language: str) -> st.SearchStrategy[str]:
    """The snippets of ``language`` (Python rows carry a ``cpython_parses`` field)."""
    codes = [r["code"] for r in snippets() if ("cpython_parses" in r) == (language == "python")]
    return st.sampled_from(codes)


def completion_rows(step: int) -> list[dict[str, Any]]:
    """Shortest completions after the prefixes of the code snippets, per language."""
    from pse_core._core import Engine, Vocabulary

    from pse.types.grammar.default_grammars.bash import BashStateMachine
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    rows = snippets()
    by_byte = Vocabulary([bytes([b]) for b in range(256)] + [None], [], [256])
    out = []
    for language, machine, reference in (
        ("python", PythonStateMachine, python_accepts),
        ("bash", BashStateMachine, bash_accepts),
    ):
        codes = [r["code"] for r in rows if ("cpython_parses" in r) == (language == "python")]
        times: list[tuple[float, str]] = []
        found = accepted = 0
        for code in codes:
            if not reference(code):
                continue
            for cut in range(0, len(code), step):
                engine = Engine(by_byte)
                engine.state_machine = machine
                engine.consume_text(code[:cut])
                started = time.process_time()
                rest = engine.shortest_completion()
                times.append((time.process_time() - started, code[:cut]))
                if rest is not None:
                    found += 1
                    accepted += reference(code[:cut] + rest)
                else:
                    print(f"    no completion: {code[:cut][-80:]!r}", flush=True)
        times.sort()
        out.append(
            {
                "language": language,
                "prefixes": len(times),
                "found": found,
                "reference accepts": accepted,
                "mean ms": round(1000 * sum(t for t, _ in times) / len(times), 2),
                "p99 ms": round(1000 * times[int(0.99 * (len(times) - 1))][0], 2),
                "max ms": round(1000 * times[-1][0], 1),
                "slowest prefix ends with": repr(times[-1][1][-40:]),
            }
        )
        print(" ".join(f"{k}={out[-1][k]}" for k in COMPLETION_COLUMNS), flush=True)
    return out


AGREEMENT_COLUMNS = [
    "language",
    "reference",
    "snippets agreeing / total",
    "prefixes viable / total",
    "prefixes judged alike / total",
    "accepted wrongly",
]


def agreement_rows() -> list[dict[str, Any]]:
    """Grammar against reference on every code snippet and every prefix of each.

    "prefixes viable": the prefixes of the snippets the reference accepts that validate
    non-strictly. "prefixes judged alike": every prefix of every snippet, the grammar's strict
    verdict equal to the reference's (a reference that accepts what the grammar leaves
    uncovered, such as an unterminated heredoc, makes the difference). "accepted wrongly":
    snippets and prefixes the grammar accepts as complete and the reference rejects.
    """
    import subprocess

    from pse.types.grammar.default_grammars.bash import BashStateMachine
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    bash_version = subprocess.run(
        ["bash", "-c", "echo ${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}.${BASH_VERSINFO[2]}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    out = []
    for language, grammar, reference, judge in (
        (
            "python",
            PythonStateMachine.grammar,
            python_accepts,
            f"ast.parse {sys.version.split()[0]}",
        ),
        ("bash", BashStateMachine.grammar, bash_accepts, f"bash -n {bash_version}"),
    ):
        codes = [r["code"] for r in snippets() if ("cpython_parses" in r) == (language == "python")]
        agree = viable = viable_total = alike = alike_total = wrong = 0
        for code in codes:
            accepted = reference(code)
            verdict = grammar.validate(code, strict=True)
            agree += verdict == accepted
            wrong += verdict and not accepted
            for cut in range(len(code)):
                prefix = code[:cut]
                if accepted:
                    viable_total += 1
                    viable += grammar.validate(prefix, strict=False)
                strict = grammar.validate(prefix, strict=True)
                expected = reference(prefix)
                alike_total += 1
                alike += strict == expected
                wrong += strict and not expected
                if strict != expected:
                    print(f"    {language} prefix, reference {expected}: {prefix[-60:]!r}")
            if verdict != accepted:
                print(f"    {language} snippet, reference {accepted}: {code[:60]!r}", flush=True)
        out.append(
            {
                "language": language,
                "reference": judge,
                "snippets agreeing / total": f"{agree:,} / {len(codes):,}",
                "prefixes viable / total": f"{viable:,} / {viable_total:,}",
                "prefixes judged alike / total": f"{alike:,} / {alike_total:,}",
                "accepted wrongly": wrong,
            }
        )
        print(" ".join(f"{k}={out[-1][k]}" for k in AGREEMENT_COLUMNS), flush=True)
    return out


def print_table(rows: list[dict[str, Any]], columns: list[str]) -> None:
    print("\n| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in columns) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500, help="programs per source")
    parser.add_argument("--mutants", type=int, default=5, help="edits per program")
    parser.add_argument("--sources", default="from_grammar,from_node,bash_scripts")
    parser.add_argument("--save", help="save the table as benchmarks/results/NAME.json")
    parser.add_argument("--completions", action="store_true", help="time shortest completions")
    parser.add_argument("--step", type=int, default=1, help="--completions: every S-th prefix")
    parser.add_argument("--agreement", action="store_true", help="the snippet agreement table")
    args = parser.parse_args(argv)
    if args.agreement:
        rows = agreement_rows()
        print_table(rows, AGREEMENT_COLUMNS)
        if args.save:
            from bench_results import save_table

            save_table(
                args.save,
                rows,
                columns=AGREEMENT_COLUMNS,
                notes="every snippet of ../shared/data/code-snippets (tree-sitter's test corpora) "
                "and every prefix of it; a prefix is the text before each character",
            )
        return 0
    if args.completions:
        rows = completion_rows(args.step)
        print_table(rows, COMPLETION_COLUMNS)
        if args.save:
            from bench_results import save_table

            save_table(
                args.save,
                rows,
                columns=COMPLETION_COLUMNS,
                notes=f"every {args.step}-th prefix of the code snippets the reference accepts "
                "(ast.parse, bash -n); CPU time of Engine.shortest_completion, one token per byte",
            )
        return 0
    from pse.types.grammar.default_grammars.bash import BashStateMachine
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    python, bash = PythonStateMachine.grammar, BashStateMachine.grammar
    sources: dict[str, tuple[str, st.SearchStrategy[str], LarkGrammar, Callable[[str], bool]]] = {
        "from_grammar": ("python", hypothesmith.from_grammar(), python, python_accepts),
        "from_node": ("python", hypothesmith.from_node(), python, python_accepts),
        "bash_scripts": ("bash", bash_scripts(), bash, bash_accepts),
        "python_snippets": ("python", snippet_programs("python"), python, python_accepts),
        "bash_snippets": ("bash", snippet_programs("bash"), bash, bash_accepts),
        "python_soups": ("python", token_soups("python"), python, python_accepts),
        "bash_soups": ("bash", token_soups("bash"), bash, bash_accepts),
    }
    rows = [
        run_source(language, name, strategy, grammar, reference, args.examples, args.mutants)
        for name in args.sources.split(",")
        for language, strategy, grammar, reference in [sources[name]]
    ]
    print_table(rows, COLUMNS)
    if args.save:
        from bench_results import save_table

        save_table(
            args.save,
            rows,
            columns=COLUMNS,
            notes=f"{args.examples} generated programs per source, {args.mutants} one-character "
            f"edits each; references ast.parse (CPython {sys.version.split()[0]}) and bash -n",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
