"""One small adapter per structured-generation engine, for ``bench_peers.py``.

Every adapter exposes the same few calls, so the benchmark loop is identical
for all engines:

* ``Adapter(tokenizer)``: per-tokenizer setup (vocabulary / tokenizer info);
* ``compile(schema) -> compiled``: JSON Schema (a dict) to the engine's
  compiled grammar, compact-JSON whitespace (no whitespace between tokens);
* ``clear_cache()``: drop any compiled-grammar cache, so a repeated
  ``compile`` does the work again ("warm" compile: a warmed-up process, but
  no result cache);
* ``start(compiled) -> matcher`` and ``reset(matcher)``;
* ``fill(matcher)``: fill ``self.mask`` (int32 words, bit ``i % 32`` of word
  ``i // 32`` is token ``i``) with the full-vocabulary mask;
* ``consume(matcher, token_id) -> bool`` and ``accepting(matcher) -> bool``;
* ``memory_bytes(compiled) -> int | None``: the engine's own size report.

``ADAPTERS`` maps an engine name to ``"module:Class"``; modules are imported
lazily, so a missing peer only loses its own rows.
"""

from __future__ import annotations

import importlib
from typing import Any

ADAPTERS = {
    "pse": "peers.pse_engine:PseAdapter",
    "xgrammar": "peers.xgrammar_engine:XGrammarAdapter",
    "llguidance": "peers.llguidance_engine:LLGuidanceAdapter",
    "outlines-core": "peers.outlines_engine:OutlinesCoreAdapter",
}

# pip distribution names, for version reporting
DISTRIBUTIONS = {
    "pse": "proxy-structuring-engine",
    "xgrammar": "xgrammar",
    "llguidance": "llguidance",
    "outlines-core": "outlines_core",
}


def load_adapter(name: str) -> type[Any]:
    module_name, _, class_name = ADAPTERS[name].partition(":")
    return getattr(importlib.import_module(module_name), class_name)  # type: ignore[no-any-return]


def version_of(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTIONS[name])
    except PackageNotFoundError:
        return "not installed"
