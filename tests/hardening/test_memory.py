"""What an engine keeps from one schema to the next (benchmarks/bench_rss.py
shows the process staying flat over 10,000 distinct schemas)."""

from __future__ import annotations

import gc

from _support.tokenizers import smollm2_tokenizer
from hardening.promise import LogitSource, run_case

from pse import StructuringEngine

SCHEMAS = [
    {
        "$defs": {
            "n": {
                "type": "object",
                "properties": {
                    "tag": {"enum": ["a", "b"]},
                    "kids": {"items": {"$ref": "#/$defs/n"}},
                },
                "required": ["tag"],
            }
        },
        "$ref": "#/$defs/n",
    },
    {"type": "object", "properties": {"when": {"type": "string", "format": "date"}}},
    {"type": "array", "items": {"type": "string", "pattern": "^[a-z]{2,4}-[0-9]+$"}},
]


def test_a_schema_configured_again_reuses_its_mask_entries() -> None:
    """Leaf classes outlive the machines that held them for a while (dormant), so
    a schema compiled again finds its masks in the vocabulary's cache."""
    engine = StructuringEngine(smollm2_tokenizer())
    source = LogitSource(engine)
    vocabulary = engine.native_vocabulary
    for round_ in range(2):
        for seed, schema in enumerate(SCHEMAS):
            engine.configure(schema)
            gc.collect()
            before = vocabulary.mask_cache_entries
            run_case(engine, source, seed, greedy=True, bias=3.0, budget=30)
            if round_:
                assert vocabulary.mask_cache_entries == before, schema
