"""The keyword table: docs/json_schema.md lists exactly it, and declines behave as listed."""

from __future__ import annotations

from pathlib import Path

import pytest
from _support.json_schema import compiled
from pse_core.errors import SchemaError

from pse.types.json.keywords import DECLINED, KEYWORDS, markdown_table

DOC = Path(__file__).resolve().parents[4] / "docs" / "json_schema.md"


def test_docs_embed_the_table():
    assert markdown_table() in DOC.read_text(encoding="utf-8")


def test_names_unique():
    names = [k.name for k in KEYWORDS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("keyword", sorted(DECLINED))
def test_declined_keywords_raise(keyword):
    with pytest.raises(SchemaError) as info:
        compiled({keyword: {}})
    assert info.value.keyword == keyword
    assert info.value.pointer == f"/{keyword}"
