"""WaitFor: docs examples (guide + API page) and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.phrase import PhraseStateMachine
from pse.types.base.wait_for import WaitFor


def test_guide_wait_for_start_default_buffer(harness):
    wait_for_start_sm = WaitFor(
        state_machine=PhraseStateMachine("<START>")
        # buffer_length=-1 (default) means it only looks for the start phrase
    )
    assert wait_for_start_sm.buffer_length == -1
    assert harness.matches(wait_for_start_sm, "<START>")
    # With buffer_length=-1 no free text is allowed (docs/semantics.md).
    assert not harness.matches(wait_for_start_sm, "preamble <START>")


def test_guide_preamble_is_skipped_with_buffer_zero(harness):
    sm = WaitFor(PhraseStateMachine("```json"), buffer_length=0)
    assert harness.matches(sm, "Let me think... ok:\n```json")
    assert harness.matches(sm, "```json")
    assert not harness.matches(sm, "no fence here")
    assert harness.is_prefix(sm, "no fence here")


def test_guide_wait_for_json_buffered(harness):
    wait_for_json_buffered_sm = WaitFor(
        state_machine=PhraseStateMachine("```json"),
        buffer_length=20,  # Requires at least 20 chars before ```json can match
    )
    assert harness.matches(wait_for_json_buffered_sm, "x" * 20 + "```json")
    assert harness.matches(wait_for_json_buffered_sm, "x" * 35 + "```json")
    assert not harness.matches(wait_for_json_buffered_sm, "x" * 19 + "```json")
    assert not harness.matches(wait_for_json_buffered_sm, "```json")


def test_api_json_block_start(harness):
    json_block_start = WaitFor(PhraseStateMachine("```json"), buffer_length=0)
    text = "Here is the data you asked for:\n\n```json"
    assert harness.matches(json_block_start, text)
    # A partial fence that fails is just more free text (strict=False).
    assert harness.matches(json_block_start, "``` not yet ```js ```json")


def test_api_strict_pattern(harness):
    strict_pattern = WaitFor(PhraseStateMachine("BEGIN DATA"), buffer_length=10, strict=True)
    assert strict_pattern.strict
    assert strict_pattern.buffer_length == 10
    assert harness.matches(strict_pattern, "0123456789BEGIN DATA")
    assert harness.matches(strict_pattern, "some text first, BEGIN DATA")
    assert not harness.matches(strict_pattern, "012345678BEGIN DATA")
    # Strict: once the pattern starts, an interruption fails the whole path.
    assert not harness.matches(strict_pattern, "0123456789BEGIN X BEGIN DATA")
    lenient = WaitFor(PhraseStateMachine("BEGIN DATA"), buffer_length=10)
    assert harness.matches(lenient, "0123456789BEGIN X BEGIN DATA")


def test_nothing_after_the_pattern(harness):
    sm = WaitFor(PhraseStateMachine("END"), buffer_length=0)
    assert harness.matches(sm, "abc END")
    assert not harness.matches(sm, "abc END more")


@given(
    preamble=st.text(alphabet="ab <>S", max_size=15),
    cuts=st.lists(st.integers(0, 25), max_size=5),
)
def test_free_text_then_pattern_property(harness, preamble, cuts):
    sm = WaitFor(PhraseStateMachine("<S>"), buffer_length=0)
    text = preamble + "<S>"
    assert harness.matches(sm, text)
    assert harness.accepting(harness.run_chunks(sm, harness.chunked(text, cuts)))
    assert harness.matches(sm, preamble) == preamble.endswith("<S>")


def _wait_for_reference(text: str, buffer_length: int, strict: bool) -> bool:
    """Whether WaitFor(Phrase("<S>"), buffer_length, strict) accepts ``text`` (semantics.md)."""
    if buffer_length == -1:
        return text == "<S>"
    if not strict:
        return text.endswith("<S>") and len(text) - 3 >= buffer_length
    for i, char in enumerate(text):
        if i >= buffer_length and char == "<":
            return text[i:] == "<S>"
    return False


@given(
    text=st.text(alphabet="ab<S>", max_size=12),
    buffer_length=st.integers(-1, 4),
    strict=st.booleans(),
)
def test_matches_reference_model_property(harness, text, buffer_length, strict):
    sm = WaitFor(PhraseStateMachine("<S>"), buffer_length=buffer_length, strict=strict)
    assert harness.matches(sm, text) == _wait_for_reference(text, buffer_length, strict)
