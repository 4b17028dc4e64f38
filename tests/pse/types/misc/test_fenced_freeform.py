"""FencedFreeformStateMachine: docs examples (formats page, PBA custom state)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.misc.fenced_freeform import FencedFreeformStateMachine


def test_identifier_fences(harness):
    python_block_sm = FencedFreeformStateMachine(identifier="python")
    assert isinstance(python_block_sm, EncapsulatedStateMachine)
    assert python_block_sm.delimiters == ("```python\n", "\n```")
    assert python_block_sm.identifier == "python"
    text = "```python\ndef f():\n    return 1\n```"
    assert harness.matches(python_block_sm, text)
    assert harness.value(python_block_sm, text) == "def f():\n    return 1"
    assert not harness.matches(python_block_sm, "```bash\nls\n```")
    assert not harness.matches(python_block_sm, "def f(): pass")


def test_no_identifier(harness):
    sm = FencedFreeformStateMachine()
    assert sm.delimiters == ("```\n", "\n```")
    assert harness.value(sm, "```\nplain\n```") == "plain"
    # char_min=0: the content may be empty.
    assert harness.matches(sm, "```\n\n```")


def test_custom_delimiters(harness):
    custom_block_sm = FencedFreeformStateMachine(
        delimiters=("<START>", "<END>"),
        char_min=10,
        char_max=1000,
        is_optional=False,
    )
    assert harness.value(custom_block_sm, "<START>ten chars!<END>") == "ten chars!"
    assert not harness.matches(custom_block_sm, "<START>short<END>")
    assert harness.matches(custom_block_sm, "<START>" + "x" * 1000 + "<END>")
    assert not harness.matches(custom_block_sm, "<START>" + "x" * 1001 + "<END>")
    assert not harness.matches(custom_block_sm, "")


def test_character_limits(harness):
    description_sm = FencedFreeformStateMachine(
        delimiters=("<desc>", "</desc>"),
        char_min=10,
        char_max=50,
    )
    assert harness.matches(description_sm, "<desc>A short description.</desc>")
    assert not harness.matches(description_sm, "<desc>Too short</desc>")
    assert not harness.matches(description_sm, "<desc>" + "y" * 51 + "</desc>")


def test_pba_summarization_state(harness):
    sm = FencedFreeformStateMachine(
        identifier="summarize",
        delimiters=("```summary\n", "\n```"),
        char_min=10,
        char_max=500,
    )
    sm.identifier = "summarize"
    assert sm.identifier == "summarize"
    text = "```summary\nThe user asked for a summary.\n```"
    assert harness.value(sm, text) == "The user asked for a summary."


def test_content_may_contain_fence_text(harness):
    sm = FencedFreeformStateMachine(identifier="md")
    text = "```md\nuse ``` inline\n```"
    assert harness.value(sm, text) == "use ``` inline"
    # The closing fence text inside the content leaves the content open too.
    assert harness.is_prefix(sm, "```md\na\n```b")


def test_optional_and_buffer(harness):
    assert harness.matches(FencedFreeformStateMachine(is_optional=True), "")
    sm = FencedFreeformStateMachine(identifier="x", buffer_length=0)
    assert harness.matches(sm, "Thinking first.\n```x\ncontent\n```")
    assert not harness.matches(FencedFreeformStateMachine(identifier="x"), "pre```x\nc\n```")


@given(
    body=st.text(alphabet="ab\n`", max_size=15),
    cuts=st.lists(st.integers(0, 40), max_size=6),
)
def test_any_content_property(harness, body, cuts):
    sm = FencedFreeformStateMachine(delimiters=("<<", ">>"))
    text = "<<" + body + ">>"
    steppers = harness.run_chunks(sm, harness.chunked(text, cuts))
    assert harness.values(steppers) == [body]
