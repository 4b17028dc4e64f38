"""LoopStateMachine: docs examples (guide + API page) and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.character import CharacterStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.json_value import JsonStateMachine
from pse.types.number import NumberStateMachine
from pse.types.whitespace import WhitespaceStateMachine


def test_guide_json_values_separated_by_whitespace(harness):
    sm = LoopStateMachine(JsonStateMachine(), min_loop_count=1, whitespace_seperator=True)
    assert harness.matches(sm, '1 "two" [3] {"four": 4}')
    assert harness.matches(sm, "true\nfalse")
    assert harness.matches(sm, "null")
    assert not harness.matches(sm, "")
    assert not harness.matches(sm, "1 , 2")


def test_guide_words(harness):
    word_loop_sm = LoopStateMachine(
        state_machine=CharacterStateMachine(blacklist_charset=" \t\n\r"),
        min_loop_count=1,
        whitespace_seperator=True,
    )
    # This would match "word1 word2 word3"
    assert harness.matches(word_loop_sm, "word1 word2 word3")
    assert harness.matches(word_loop_sm, "word1\n\tword2")
    assert not harness.matches(word_loop_sm, " word1")


def test_api_numbers_list(harness):
    numbers_list = LoopStateMachine(
        NumberStateMachine(),
        min_loop_count=1,  # At least one number
        max_loop_count=5,  # Maximum five numbers
        whitespace_seperator=True,  # Allow whitespace between elements
    )
    assert harness.matches(numbers_list, "1")
    assert harness.matches(numbers_list, "1 2.5 -3 4e2 5")
    assert not harness.matches(numbers_list, "1 2 3 4 5 6")
    assert not harness.matches(numbers_list, "")
    assert numbers_list.min_loop_count == 1
    assert numbers_list.max_loop_count == 5


def test_both_spellings_give_whitespace_separator():
    for kwargs in ({"whitespace_seperator": True}, {"whitespace_separator": True}):
        sm = LoopStateMachine(PhraseStateMachine("a"), **kwargs)
        assert isinstance(sm.separator, WhitespaceStateMachine)
    assert LoopStateMachine(PhraseStateMachine("a")).separator is None
    with pytest.raises(ValueError):
        LoopStateMachine(
            PhraseStateMachine("a"), separator=PhraseStateMachine(","), whitespace_separator=True
        )


def test_separator_is_required_between_repetitions(harness):
    sm = LoopStateMachine(PhraseStateMachine("a"), separator=PhraseStateMachine(","))
    assert harness.matches(sm, "a,a,a")
    assert not harness.matches(sm, "aa")
    assert not harness.matches(sm, "a,")
    assert not harness.matches(sm, ",a")


def test_unbounded_max_loop_count_reads_back_minus_one():
    assert LoopStateMachine(PhraseStateMachine("ab")).max_loop_count == -1
    assert LoopStateMachine(PhraseStateMachine("ab"), max_loop_count=-1).max_loop_count == -1


def test_default_is_unbounded_and_min_zero_is_skippable(harness):
    sm = LoopStateMachine(PhraseStateMachine("ab"))
    assert harness.matches(sm, "ab" * 50)
    assert not harness.matches(sm, "")
    optional = LoopStateMachine(PhraseStateMachine("ab"), min_loop_count=0)
    assert harness.matches(optional, "")
    assert harness.matches(optional, "abab")


@given(
    count=st.integers(0, 7),
    lo=st.integers(0, 3),
    hi=st.integers(1, 5),
    cuts=st.lists(st.integers(0, 30), max_size=5),
)
def test_counts_property(harness, count, lo, hi, cuts):
    hi = max(hi, lo, 1)
    sm = LoopStateMachine(
        PhraseStateMachine("ab"),
        min_loop_count=lo,
        max_loop_count=hi,
        separator=PhraseStateMachine(";"),
    )
    text = ";".join(["ab"] * count)
    expected = lo <= count <= hi or (count == 0 and lo == 0)
    assert harness.matches(sm, text) == expected
    if text:
        chunked = harness.accepting(harness.run_chunks(sm, harness.chunked(text, cuts)))
        assert bool(chunked) == expected
