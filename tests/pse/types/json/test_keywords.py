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


def test_declines_name_the_keyword_and_its_pointer():
    """Keywords the table marks declined (none today) and draft 7's content
    keywords with a media type it cannot assert raise SchemaError naming both."""
    draft7 = "http://json-schema.org/draft-07/schema#"
    cases = [({keyword: {}}, keyword) for keyword in sorted(DECLINED)]
    cases.append(({"$schema": draft7, "contentMediaType": "image/png"}, "contentMediaType"))
    for schema, keyword in cases:
        with pytest.raises(SchemaError) as info:
            compiled(schema)
        assert info.value.keyword == keyword
        assert info.value.pointer == f"/{keyword}"
