"""TrieMap: the vocabulary map (token string -> ids) with prefix queries."""

from __future__ import annotations

import pytest
from pse_core._core import TrieMap
from pse_core.trie import TrieMap as DocumentedPath


def test_documented_import_path() -> None:
    assert DocumentedPath is TrieMap


def test_insert_get_contains_len() -> None:
    t = TrieMap([("ab", 1), ("a", 2)])
    t.insert("abc", 3)
    t.insert("ab", 4)
    t.insert_all([(b"\xc3", 5)])
    assert len(t) == 4
    assert t["ab"] == [1, 4] and t.get("abc") == [3] and t.get("zz") is None
    assert t.get("zz", []) == []
    assert "a" in t and b"\xc3" in t and "b" not in t and 3 not in t
    with pytest.raises(KeyError):
        t["nope"]


def test_longest_prefix() -> None:
    t = TrieMap([("ex", 1), ("example", 2), ("exam", 3)])
    assert t.longest_prefix("examples") == ("example", [2])
    assert t.longest_prefix("exa") == ("ex", [1])
    assert t.longest_prefix("zzz") is None


def test_keys_and_node_count() -> None:
    t = TrieMap([("b", 1), ("ab", 2), ("a", 3)])
    assert t.keys() == ["a", "ab", "b"]
    assert t.node_count == 4  # root, a, ab, b
