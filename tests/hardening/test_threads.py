"""Thread safety: engines that share one vocabulary (and its mask cache) and one
compiled grammar give, from a thread pool, exactly what they give one at a time.

The single-threaded reference runs on one vocabulary; the threaded runs use a
second, cold one (a second tokenizer object), so the mask cache is filled by
several threads at once. See docs/concepts/threads.md for what may be shared.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from _support.tokenizers import SMOLLM2_DIR
from hardening.promise import LogitSource, run_case

from pse import StructuringEngine

SCHEMAS: list[Any] = [
    {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 12},
            "age": {"type": "integer", "minimum": 0, "maximum": 120},
            "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 3},
        },
        "required": ["name", "age"],
    },
    {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "v": {"type": "number"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2},
                },
                "required": ["v"],
            }
        },
        "$ref": "#/$defs/node",
    },
    {
        "anyOf": [
            {"type": "string", "pattern": "^[a-z]{2,8}@[a-z]{2,5}\\.(com|org)$"},
            {"type": "null"},
        ]
    },
    {"type": "array", "items": {"type": "string", "format": "date"}, "minItems": 1, "maxItems": 4},
]
#: (schema index, seed, greedy, budget)
JOBS = [
    (s, seed, seed % 2 == 0, [None, 25][seed % 2]) for s in range(len(SCHEMAS)) for seed in range(6)
]


def fresh_tokenizer() -> Any:
    transformers = pytest.importorskip("transformers")
    if not (SMOLLM2_DIR / "tokenizer.json").is_file():
        pytest.skip(f"needs {SMOLLM2_DIR}")
    return transformers.AutoTokenizer.from_pretrained(str(SMOLLM2_DIR))


def run_job(
    engine: StructuringEngine, source: LogitSource, job: tuple[int, int, bool, Any]
) -> list[int]:
    _, seed, greedy, budget = job
    return run_case(
        engine, source, seed, greedy=greedy, bias=3.0, budget=budget, max_tokens=60
    ).tokens


def reference(tokenizer: Any) -> dict[tuple[int, int, bool, Any], list[int]]:
    engine = StructuringEngine(tokenizer)
    source = LogitSource(engine)
    out = {}
    for job in JOBS:
        engine.configure(SCHEMAS[job[0]])
        out[job] = run_job(engine, source, job)
    return out


@pytest.mark.parametrize("shared_grammar", [False, True], ids=["own-grammar", "shared-grammar"])
def test_engines_in_a_thread_pool_match_the_single_threaded_run(shared_grammar: bool) -> None:
    """JSON Schemas: each engine compiles its own grammar, or all share one per schema."""
    expected = reference(fresh_tokenizer())
    tokenizer = fresh_tokenizer()  # a new vocabulary: its mask cache starts empty
    grammars = []
    if shared_grammar:  # one compiled grammar per schema, used by every engine at once
        compiler = StructuringEngine(tokenizer)
        for schema in SCHEMAS:
            compiler.configure(schema)
            grammars.append(compiler.state_machine)
    source = LogitSource(StructuringEngine(tokenizer))

    vocabularies = set()

    def work(job: tuple[int, int, bool, Any]) -> list[int]:
        engine = StructuringEngine(tokenizer)  # one engine per sequence, never shared
        vocabularies.add(id(engine.native_vocabulary))
        if shared_grammar:
            engine.configure(grammars[job[0]])
        else:
            engine.configure(SCHEMAS[job[0]])
        return run_job(engine, source, job)

    jobs = JOBS * 2
    random.Random(0).shuffle(jobs)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, jobs))
    assert len(vocabularies) == 1  # every engine used the one vocabulary and mask cache
    for job, tokens in zip(jobs, results, strict=True):
        assert tokens == expected[job], job


ARITH = r"""
?start: sum
?sum: sum ("+" | "-") product | product
?product: product ("*" | "/") atom | atom
?atom: NUMBER | NAME | "(" sum ")"
NAME: /[a-z_]+/
%import common.NUMBER
%ignore " "
"""


def test_engines_sharing_a_lark_grammar_in_a_thread_pool() -> None:
    """A Lark grammar (native Earley parser and lexer) shared by engines on 8 threads."""
    pytest.importorskip("lark")
    from pse.types.grammar import LarkGrammar, LarkGrammarStateMachine

    machine = LarkGrammarStateMachine(LarkGrammar("arith", ARITH))
    jobs = [(0, seed, seed % 2 == 0, None) for seed in range(8)]

    def generate(tokenizer: Any, source: LogitSource, job: tuple[int, int, bool, Any]) -> list[int]:
        engine = StructuringEngine(tokenizer)
        engine.configure(machine)
        _, seed, greedy, _ = job
        outcome = run_case(
            engine, source, seed, greedy=greedy, bias=0.0, budget=None, max_tokens=20
        )
        return outcome.tokens

    reference_tokenizer = fresh_tokenizer()
    source = LogitSource(StructuringEngine(reference_tokenizer))
    expected = {job: generate(reference_tokenizer, source, job) for job in jobs}
    tokenizer = fresh_tokenizer()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda job: generate(tokenizer, source, job), jobs * 2))
    for job, tokens in zip(jobs * 2, results, strict=True):
        assert tokens == expected[job], job


def test_fill_masks_on_threads_matches_each_engines_own_mask() -> None:
    """``pse_core.fill_masks`` (many engines, native threads, GIL released) fills what
    each engine fills alone, at every step of several generations."""
    import numpy as np
    from pse_core import _core

    fill_masks = getattr(_core, "fill_masks", None)
    if fill_masks is None:
        pytest.skip("this pse_core has no fill_masks")
    tokenizer = fresh_tokenizer()
    engines = []
    for index, schema in enumerate(SCHEMAS * 2):
        engine = StructuringEngine(tokenizer)
        engine.configure(schema)
        engine.consume_text(['{"name": "a', '{"v": 1, "kids": [', "null", '["2024-'][index % 4])
        engines.append(engine)
    words = -(-engines[0].vocab_size // 32)
    out = np.zeros((len(engines), words), dtype=np.int32)
    rows = list(range(len(engines)))[::-1]
    fill_masks(engines, out, rows, threads=4)
    for engine, row in zip(engines, rows, strict=True):
        own = np.zeros(words, dtype=np.int32)
        engine.fill_bitmask(own)
        assert np.array_equal(out[row], own)
