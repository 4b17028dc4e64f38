"""An engine remembers the masks of positions it has filled before (keyed on
the structure of the stacks): a remembered mask must equal one computed
afresh, and editing a machine in use must not serve a stale mask."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pse_core._core import (
    CharacterStateMachine,
    Engine,
    LoopStateMachine,
    PhraseStateMachine,
    StateMachine,
    StringStateMachine,
    Vocabulary,
    fill_masks,
)

from .conftest import json_grammar, real_vocab


def fill(engine: Engine) -> tuple[int, bytes]:
    bits = np.zeros((engine.vocab_size + 31) // 32, dtype=np.int32)
    allowed = int(engine.fill_bitmask(bits))
    return allowed, bits.tobytes()


def assert_remembered_masks_equal_fresh_ones(machine: StateMachine, text: str) -> None:
    tok, vocab = real_vocab()
    ids = tok.encode(text, add_special_tokens=False)
    engine = Engine(vocab)
    walks: list[list[tuple[int, bytes]]] = []
    for _ in range(3):  # the same machine again: later walks recall every mask
        engine.state_machine = machine
        masks = []
        for token_id in ids:
            masks.append(fill(engine))
            masks.append(fill(engine))  # the same position twice in a row
            engine.consume_token(token_id)
        masks.append(fill(engine))
        walks.append(masks)
    assert walks[1] == walks[0] and walks[2] == walks[0]
    # Each position's mask from an engine that never filled before.
    for step in range(len(ids) + 1):
        fresh = Engine(vocab)
        fresh.state_machine = machine
        for token_id in ids[:step]:
            fresh.consume_token(token_id)
        assert fill(fresh) == walks[0][2 * step], f"step {step}"


def test_remembered_masks_equal_fresh_ones() -> None:
    text = '{"id":1042,"tags":["a","bc"],"ok":true,"score":97.25,"n":{"x":null,"y":[]}}'
    assert_remembered_masks_equal_fresh_ones(json_grammar(), text)


def chain(*machines: StateMachine) -> StateMachine:
    return StateMachine({i: [(m, i + 1)] for i, m in enumerate(machines)}, 0, [len(machines)])


def test_positions_that_differ_only_in_counts_past_their_bounds() -> None:
    """The memo keys a string's count, a character run's and an unbounded loop's
    only as far as the mask can tell them apart (the room a bound leaves within
    one token; a loop count below its minimum): the middle tokens of a long
    string and the items of an array past its minimum share a key. Bounded
    strings, runs and loops near their bounds must still get their own masks."""
    words = ["lorem", "ipsum dolor", "sit amet consectetur", "adipiscing elit sed"]
    for low, high in ((0, -1), (3, -1), (0, 5), (2, 4)):
        run = CharacterStateMachine("abcdegilmnoprstu ", char_min=1, char_limit=24)
        item = chain(PhraseStateMachine('"'), run, PhraseStateMachine('"'))
        items = LoopStateMachine(item, low, high, PhraseStateMachine(","))
        text = "[" + ",".join(f'"{words[i % 4]}"' for i in range(high if high > 0 else 7)) + "]"
        assert_remembered_masks_equal_fresh_ones(
            chain(PhraseStateMachine("["), items, PhraseStateMachine("]")), text
        )
    long_text = " ".join(words * 3)
    for low, high in ((None, None), (40, None), (None, 200), (len(long_text), len(long_text))):
        strings = LoopStateMachine(StringStateMachine(low, high), 1, 3, PhraseStateMachine(","))
        assert_remembered_masks_equal_fresh_ones(strings, f'"{long_text}","{long_text}"')


def test_an_edited_machine_is_not_served_a_remembered_mask(synthetic_vocab: Vocabulary) -> None:
    machine = StateMachine({0: [(PhraseStateMachine("true"), 1)]}, 0, [1])
    engine = Engine(synthetic_vocab)
    engine.state_machine = machine
    before = fill(engine)
    assert fill(engine) == before
    machine.state_graph = {0: [(PhraseStateMachine("null"), 1)]}
    fresh = Engine(synthetic_vocab)
    fresh.state_machine = machine
    after = fill(fresh)
    assert after != before
    assert fill(engine) == after


def test_fill_masks_mixes_remembered_and_walked_rows() -> None:
    tok, vocab = real_vocab()
    ids = tok.encode('{"a":[1,"b",true],"c":{"d":-2.5}}', add_special_tokens=False)
    machine = json_grammar()
    engines = []
    for step in range(len(ids)):
        engine = Engine(vocab)
        engine.state_machine = machine
        for token_id in ids[:step]:
            engine.consume_token(token_id)
        if step % 2:
            fill(engine)  # odd rows remember their mask, even rows walk
        engines.append(engine)
    words = (engines[0].vocab_size + 31) // 32
    out = np.zeros((len(engines), words), dtype=np.int32)
    statuses = fill_masks(engines, out, list(range(len(engines))), threads=2)
    for row, engine in enumerate(engines):
        allowed, bits = fill(engine)
        assert out[row].tobytes() == bits, f"row {row}"
        assert statuses[row][0] == allowed


def test_a_small_mask_cache_limit_changes_no_mask() -> None:
    """Past `Vocabulary.mask_cache_limit` the shared cache empties and refills (with
    a limit of one byte, at every new entry): the masks of a walk are those of a
    walk with the default limit."""
    tok, _ = real_vocab()
    text = '{"id":1042,"tags":["a","bc"],"ok":true,"score":97.25,"n":{"x":null,"y":[]}}'
    ids = tok.encode(text, add_special_tokens=False)
    walks = []
    for limit in (None, 1):
        _, vocab = real_vocab()
        if limit is not None:
            vocab.mask_cache_limit = limit
        assert vocab.mask_cache_limit == (limit or 1 << 30)
        engine = Engine(vocab)
        engine.state_machine = json_grammar()
        masks = []
        for token_id in ids:
            masks.append(fill(engine))
            engine.consume_token(token_id)
        walks.append(masks)
    assert walks[1] == walks[0]


PYTHON_TEXT = '''"""A module docstring,
over two lines."""


def first(a, b):
    """Add."""
    total = a + b
    total = total * 2
    return total


def second(a, b):
    """Subtract."""
    total = a - b
    total = total * 3
    return total
'''

BASH_TEXT = """for f in a b c; do
  echo "$f" > "/tmp/$f"
  echo "$f" >> "/tmp/$f"
done
cat <<EOF
one $x
EOF
"""


def test_grammar_masks_remembered_by_structure_equal_fresh_ones() -> None:
    """Grammar positions are remembered by the shape of their parse (open items
    with their origins' shapes, and the lexer hooks' context), so repeated
    statements, docstrings and loop bodies recall masks filled at other
    positions; each must equal the mask of an engine that never filled."""
    from pse.types.grammar.default_grammars.bash import BashStateMachine
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    assert_remembered_masks_equal_fresh_ones(PythonStateMachine, PYTHON_TEXT)
    assert_remembered_masks_equal_fresh_ones(BashStateMachine, BASH_TEXT)


def test_a_string_begun_at_a_line_start_keys_one_lexer_state() -> None:
    """At a line start the Python lexer counts columns (a blank or comment lexeme
    sets the indentation), but only while such a lexeme is possible: inside a
    docstring every token after the first few needs no new mask-cache entry."""
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    tok, vocab = real_vocab()
    engine = Engine(vocab)
    engine.state_machine = PythonStateMachine
    words = " ".join(f"word{i % 7}" for i in range(300))
    ids = tok.encode(f'"""{words}"""\n', add_special_tokens=False)
    entries = []
    for token_id in ids:
        fill(engine)
        entries.append(vocab.mask_cache_entries)
        engine.consume_token(token_id)
    middle = entries[len(ids) // 4 : 3 * len(ids) // 4]
    assert middle[-1] == middle[0], middle


def test_grammar_masks_recalled_along_real_files_equal_computed_ones() -> None:
    """Two engines walk this repository's own Python and shell files in step, one
    recalling masks by shape and one computing every mask: they must agree at
    every position (the shapes of earlier sets keep only the items a text can
    still reach, so positions whose pasts differ share keys)."""
    from pse.types.grammar.default_grammars.bash import BashGrammar, BashStateMachine
    from pse.types.grammar.default_grammars.python import PythonStateMachine

    root = Path(__file__).resolve().parents[2]
    python = [p.read_text() for p in sorted((root / "packages/pse/src/pse").glob("*.py"))[:6]]
    shell = [(root / ".ci/run").read_text(), BASH_TEXT]
    assert all(BashGrammar().validate(t, strict=True) for t in shell)
    tok, vocab = real_vocab()
    for machine, texts in ((PythonStateMachine, python), (BashStateMachine, shell)):
        recalled, computed = Engine(vocab), Engine(vocab)
        computed.remember_masks = False
        for text in texts:
            ids = tok.encode(text, add_special_tokens=False)[:400]
            recalled.state_machine = computed.state_machine = machine
            for token_id in [*ids, None]:
                assert fill(recalled) == fill(computed), (text[:40], token_id)
                if token_id is not None:
                    recalled.consume_token(token_id)
                    computed.consume_token(token_id)
