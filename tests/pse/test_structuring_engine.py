"""pse.StructuringEngine on NumPy arrays with the SmolLM2 tokenizer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pse_core._core import (
    NumberStateMachine,
    PhraseStateMachine,
    StateMachine,
    StringStateMachine,
)
from pydantic import BaseModel, ValidationError

from pse import StructuringEngine
from pse.errors import NoValidTokenError, SamplingError, SchemaError
from pse.vocabulary import token_bytes_list

EOS = 2  # <|im_end|>
IM_START = 1  # <|im_start|>, a control token


@pytest.fixture
def engine(smollm2: Any) -> StructuringEngine:
    return StructuringEngine(smollm2)


@pytest.fixture(scope="module")
def utf8_tokens(smollm2: Any) -> list[tuple[int, str]]:
    """(id, text) of every token whose bytes are valid UTF-8."""
    tokens, _, _ = token_bytes_list(smollm2)
    out = []
    for token_id, data in enumerate(tokens):
        if data is None:
            continue
        try:
            out.append((token_id, data.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return out


def greedy(logprobs: Any) -> Any:
    return np.argmax(logprobs, axis=-1)


def random_scores(
    width: int, seed: int = 0, dtype: Any = np.float32, rows: int | None = None
) -> Any:
    shape = (width,) if rows is None else (rows, width)
    return np.random.default_rng(seed).normal(size=shape).astype(dtype)


def allowed_ids(engine: StructuringEngine, width: int | None = None) -> set[int]:
    width = engine.vocab_size if width is None else width
    out = engine.process_logits(None, np.zeros(width, dtype=np.float32))
    return set(np.flatnonzero(np.isfinite(out)).tolist())


def walk(
    engine: StructuringEngine, sampler: Callable[[Any], Any] = greedy, limit: int = 200
) -> list[int]:
    """Generate with random logits until the structure is complete."""
    emitted: list[int] = []
    for step in range(limit):
        if engine.has_reached_accept_state:
            return emitted
        scores = engine.process_logits(None, random_scores(engine.vocab_size, seed=step))
        emitted.extend(engine.sample(scores, sampler).tolist())
    raise AssertionError(f"no accept state after {limit} steps: {emitted}")


def reference_allowed(engine: StructuringEngine, utf8_tokens: list[tuple[int, str]]) -> set[int]:
    """Brute force: tokens some active stepper consumes completely."""
    allowed = set()
    for token_id, text in utf8_tokens:
        for stepper in engine.steppers:
            if any(not s.remaining_input for s in stepper.consume(text)):
                allowed.add(token_id)
                break
    return allowed


class TestConfigure:
    def test_engines_share_the_vocabulary(self, smollm2: Any) -> None:
        first, second = StructuringEngine(smollm2), StructuringEngine(smollm2)
        assert first.native_vocabulary is second.native_vocabulary
        assert first.vocab_size == len(smollm2)
        assert first.tokenizer is smollm2

    def test_state_machine(self, engine: StructuringEngine) -> None:
        machine = PhraseStateMachine("hello")
        engine.configure(machine)
        assert engine.state_machine is not None
        assert engine.steppers
        assert not engine.has_reached_accept_state
        assert engine.tokenizer is not None

    def test_reconfigure_resets_steppers(self, engine: StructuringEngine, smollm2: Any) -> None:
        engine.configure(PhraseStateMachine("hello"))
        start = allowed_ids(engine)
        engine.sample(engine.process_logits(None, random_scores(engine.vocab_size)), greedy)
        assert allowed_ids(engine) != start
        engine.configure(PhraseStateMachine("hello"))
        assert allowed_ids(engine) == start

    def test_schema_sources_compile_and_bad_sources_are_refused(
        self, engine: StructuringEngine
    ) -> None:
        engine.configure({"type": "string"})
        allowed = engine.allowed_token_ids()
        assert allowed and all(engine.reverse_vocabulary[i].startswith('"') for i in allowed)
        with pytest.raises(SchemaError, match="unsupported schema source"):
            engine.configure(42)


class TestProcessLogits:
    def test_1d_float32_in_place(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello world"))
        scores = random_scores(engine.vocab_size)
        original = scores.copy()
        out = engine.process_logits(None, scores)
        assert out.dtype == np.float32
        assert out.shape == scores.shape
        allowed = np.isfinite(out)
        assert set(np.flatnonzero(allowed).tolist()) == set(engine.allowed_token_ids())
        np.testing.assert_array_equal(out[allowed], original[allowed])
        assert np.all(out[~allowed] == -np.inf)
        assert 1 <= allowed.sum() < 50

    def test_2d_float64(self, engine: StructuringEngine) -> None:
        engine.configure(StringStateMachine())
        scores = random_scores(engine.vocab_size, dtype=np.float64, rows=3)
        original = scores.copy()
        out = engine.process_logits(None, scores)
        assert out.dtype == np.float64
        assert out.shape == (3, engine.vocab_size)
        allowed = np.isfinite(out)
        assert (allowed == allowed[0]).all()
        np.testing.assert_array_equal(out[allowed], original[allowed])
        assert set(np.flatnonzero(allowed[0]).tolist()) == set(engine.allowed_token_ids())

    def test_list_and_float16(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello"))
        expected = set(engine.allowed_token_ids())
        out = engine.process_logits(None, [0.5] * engine.vocab_size)
        assert isinstance(out, np.ndarray)
        assert set(np.flatnonzero(np.isfinite(out)).tolist()) == expected
        half = engine.process_logits(None, np.ones(engine.vocab_size, dtype=np.float16))
        assert half.dtype == np.float16
        assert set(np.flatnonzero(np.isfinite(half)).tolist()) == expected

    def test_float16_in_place(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello"))
        scores = np.ones((2, engine.vocab_size), dtype=np.float16)
        out = engine.process_logits(None, scores)
        assert out is scores
        assert set(np.flatnonzero(np.isfinite(out[1])).tolist()) == set(engine.allowed_token_ids())

    def test_unconfigured_passes_through(self, engine: StructuringEngine) -> None:
        scores = random_scores(engine.vocab_size)
        np.testing.assert_array_equal(engine.process_logits(None, scores.copy()), scores)
        engine.configure(PhraseStateMachine("hello"))
        engine.reset(hard_reset=True)
        np.testing.assert_array_equal(engine.process_logits(None, scores.copy()), scores)

    def test_read_only_input_is_copied(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello"))
        scores = np.ones(engine.vocab_size, dtype=np.float32)
        scores.flags.writeable = False
        out = engine.process_logits(None, scores)
        assert np.isinf(out).any()
        assert np.isfinite(scores).all()

    def test_columns_beyond_vocabulary_are_masked(self, engine: StructuringEngine) -> None:
        engine.configure(StringStateMachine())
        width = engine.vocab_size + 77
        out = engine.process_logits(None, np.zeros(width, dtype=np.float32))
        assert np.all(out[engine.vocab_size :] == -np.inf)
        assert np.isfinite(out[: engine.vocab_size]).any()

    def test_narrow_logits_without_allowed_column_raise(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("zzzzzz"))
        assert min(engine.allowed_token_ids()) > 40
        with pytest.raises(NoValidTokenError):
            engine.process_logits(None, np.zeros(40, dtype=np.float32))

    @pytest.mark.parametrize(
        ("machine", "prefix"),
        [
            (lambda: PhraseStateMachine("hello world"), ""),
            (lambda: PhraseStateMachine("hello world"), "hel"),
            (lambda: StringStateMachine(), ""),
            (lambda: StringStateMachine(), '"ab'),
            (lambda: StringStateMachine(), '"a\\'),
            (lambda: NumberStateMachine(), "-1"),
            (lambda: NumberStateMachine(), "3.5e"),
        ],
    )
    def test_mask_matches_brute_force(
        self,
        engine: StructuringEngine,
        utf8_tokens: list[tuple[int, str]],
        machine: Callable[[], StateMachine],
        prefix: str,
    ) -> None:
        engine.configure(machine())
        if prefix:
            assert engine.consume_text(prefix)
        expected = reference_allowed(engine, utf8_tokens)
        candidates = {token_id for token_id, _ in utf8_tokens}
        assert allowed_ids(engine) & candidates == expected

    def test_partial_utf8_tokens_inside_string(
        self, engine: StructuringEngine, smollm2: Any
    ) -> None:
        """A token ending mid-character is allowed when a continuation can complete it."""
        import codecs

        tokens, _, _ = token_bytes_list(smollm2)
        prefixes, broken = [], []
        for i in smollm2.encode("日本語の文字列とカタカナ 🙂", add_special_tokens=False):
            data = tokens[i] or b""
            try:
                data.decode("utf-8")
                continue
            except UnicodeDecodeError:
                pass
            try:
                codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
                prefixes.append(i)
            except UnicodeDecodeError:
                broken.append(i)  # starts with a continuation byte
        assert prefixes
        engine.configure(StringStateMachine())
        engine.consume_text('"')
        allowed = allowed_ids(engine)
        assert set(prefixes) <= allowed
        assert not set(broken) & allowed
        text = "日本語の文字列"
        engine.configure(PhraseStateMachine(text))
        assert smollm2.encode(text, add_special_tokens=False)[0] in allowed_ids(engine)


class TestSample:
    def test_greedy_walk_to_accept(self, engine: StructuringEngine, smollm2: Any) -> None:
        phrase = '{"name": "Ada", "tags": [1, 2]}'
        engine.configure(PhraseStateMachine(phrase))
        emitted = walk(engine)
        assert smollm2.decode(emitted) == phrase
        assert engine.has_reached_accept_state
        assert engine.get_structured_output() == {"name": "Ada", "tags": [1, 2]}

    def test_returns_int_array(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello"))
        scores = engine.process_logits(None, random_scores(engine.vocab_size))
        out = engine.sample(scores, greedy)
        assert isinstance(out, np.ndarray)
        assert out.ndim == 1
        assert np.issubdtype(out.dtype, np.integer)

    @pytest.mark.parametrize("shape", ["scalar", "int", "(1,)", "(1, 1)"])
    def test_sampler_output_shapes(
        self, engine: StructuringEngine, smollm2: Any, shape: str
    ) -> None:
        engine.configure(PhraseStateMachine("hello"))
        token_id = smollm2.encode("hello", add_special_tokens=False)[0]
        value = {
            "scalar": np.int64(token_id),
            "int": token_id,
            "(1,)": np.array([token_id]),
            "(1, 1)": np.array([[token_id]]),
        }[shape]
        out = engine.sample(np.zeros((1, engine.vocab_size)), lambda _: value)
        assert out.tolist()[0] == token_id

    def test_eos_only_at_accept(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello there"))
        assert EOS not in allowed_ids(engine)
        engine.consume_text("hello")
        assert EOS not in allowed_ids(engine)
        engine.consume_text(" there")
        assert engine.has_reached_accept_state
        assert EOS in allowed_ids(engine)

    def test_control_tokens_masked(self, engine: StructuringEngine) -> None:
        engine.configure(StringStateMachine())
        engine.consume_text('"')
        assert IM_START not in allowed_ids(engine)

    def test_resample_then_fail(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello"))
        calls = []

        def bad(_: Any) -> int:
            calls.append(1)
            return EOS

        with pytest.raises(SamplingError, match=r"2\b.*im_end"):
            engine.sample(np.zeros(engine.vocab_size), bad)
        assert len(calls) == 1 + engine.max_resample_attempts

    def test_resample_recovers(self, engine: StructuringEngine, smollm2: Any) -> None:
        engine.configure(PhraseStateMachine("hello"))
        good = smollm2.encode("hello", add_special_tokens=False)[0]
        answers = iter([EOS, EOS, good])
        out = engine.sample(np.zeros(engine.vocab_size), lambda _: next(answers))
        assert out.tolist()[0] == good

    def test_zero_resample_attempts(self, smollm2: Any) -> None:
        engine = StructuringEngine(smollm2, max_resample_attempts=0)
        engine.configure(PhraseStateMachine("hello"))
        calls = []

        def bad(_: Any) -> int:
            calls.append(1)
            return EOS

        with pytest.raises(SamplingError):
            engine.sample(np.zeros(engine.vocab_size), bad)
        assert len(calls) == 1

    def test_batch_of_ids_rejected(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello"))
        with pytest.raises(ValueError, match="one engine per batch row"):
            engine.sample(np.zeros((2, engine.vocab_size)), lambda _: np.array([1, 2]))

    def test_whitelisted_control_token(self, smollm2: Any) -> None:
        engine = StructuringEngine(smollm2, whitelist_control_tokens=["<|im_start|>"])
        assert list(engine.whitelist_control_token_ids) == [IM_START]
        engine.configure(PhraseStateMachine("hello"))
        before = allowed_ids(engine)
        assert IM_START in before
        out = engine.sample(np.zeros(engine.vocab_size), lambda _: IM_START)
        assert out.tolist() == [IM_START]
        assert allowed_ids(engine) == before  # does not advance the steppers
        engine.consume_text("hel")
        assert IM_START in allowed_ids(engine)

    def test_unknown_whitelist_token(self, smollm2: Any) -> None:
        with pytest.raises(ValueError, match="not a single token"):
            StructuringEngine(smollm2, whitelist_control_tokens=["<|no such token|> and more"])

    def test_multi_token_sampling(self, smollm2: Any) -> None:
        phrase = "The quick brown fox jumps over the lazy dog"
        engine = StructuringEngine(smollm2, multi_token_sampling=True)
        assert engine.multi_token_sampling
        engine.configure(PhraseStateMachine(phrase))
        first = smollm2.encode(phrase, add_special_tokens=False)[0]
        out = engine.sample(np.zeros(engine.vocab_size), lambda _: first)
        assert len(out) > 1
        assert out[0] == first
        assert smollm2.decode(out.tolist()) == phrase
        assert engine.has_reached_accept_state

    def test_single_token_without_multi_token_sampling(
        self, engine: StructuringEngine, smollm2: Any
    ) -> None:
        phrase = "The quick brown fox jumps over the lazy dog"
        engine.configure(PhraseStateMachine(phrase))
        first = smollm2.encode(phrase, add_special_tokens=False)[0]
        out = engine.sample(np.zeros(engine.vocab_size), lambda _: first)
        assert out.tolist() == [first]


class TestReset:
    def test_reset_keeps_machine(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello world"))
        start = allowed_ids(engine)
        engine.consume_text("hello")
        assert allowed_ids(engine) != start
        engine.reset()
        assert engine.state_machine is not None
        assert allowed_ids(engine) == start

    def test_hard_reset_drops_machine(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello world"))
        engine.consume_text("hello")
        engine.reset(hard_reset=True)
        assert engine.state_machine is None
        assert not engine.steppers


class Person(BaseModel):
    name: str
    age: int


class TestOutput:
    def _generate(self, engine: StructuringEngine, text: str) -> None:
        engine.configure(PhraseStateMachine(text))
        walk(engine)

    def test_pydantic_model(self, engine: StructuringEngine) -> None:
        self._generate(engine, '{"name": "Ada", "age": 36}')
        assert engine.get_structured_output(Person) == Person(name="Ada", age=36)

    def test_validation_failure(self, engine: StructuringEngine) -> None:
        self._generate(engine, '{"name": "Ada", "age": "old"}')
        assert engine.get_structured_output(Person) == {"name": "Ada", "age": "old"}
        with pytest.raises(ValidationError):
            engine.get_structured_output(Person, raise_on_error=True)

    def test_type_adapter(self, engine: StructuringEngine) -> None:
        self._generate(engine, "[1, 2, 3]")
        assert engine.get_structured_output(tuple[int, ...]) == (1, 2, 3)
        assert engine.get_structured_output() == [1, 2, 3]

    def test_plain_text(self, engine: StructuringEngine) -> None:
        self._generate(engine, "hello world")
        assert engine.get_structured_output() == "hello world"
        assert engine.get_structured_output(str) == "hello world"

    def test_string_machine_value(self, engine: StructuringEngine, smollm2: Any) -> None:
        engine.configure(StringStateMachine())
        for piece in ['"', "caf", "é", '"']:
            for token_id in smollm2.encode(piece, add_special_tokens=False):
                engine.consume_token(token_id)
        assert engine.has_reached_accept_state
        assert engine.get_structured_output() == "café"

    def test_stateful_output(self, engine: StructuringEngine, smollm2: Any) -> None:
        machine = StateMachine(
            {
                0: [(PhraseStateMachine("Hi", identifier="greeting"), 1)],
                1: [(PhraseStateMachine(" there", identifier="rest"), 2)],
            },
            start_state=0,
            end_states=[2],
        )
        engine.configure(machine)
        assert engine.get_live_structured_output() is None
        for piece in ["Hi", " th"]:
            (token_id,) = smollm2.encode(piece, add_special_tokens=False)
            engine.consume_token(token_id)
        assert engine.get_live_structured_output() == ("rest", " th")
        for token_id in smollm2.encode("ere", add_special_tokens=False):
            engine.consume_token(token_id)
        assert engine.has_reached_accept_state
        assert list(engine.get_stateful_structured_output()) == [
            ("greeting", "Hi"),
            ("rest", " there"),
        ]

    def test_stateful_output_without_identifiers(self, engine: StructuringEngine) -> None:
        self._generate(engine, '{"name": "Ada", "age": 36}')
        pairs = list(engine.get_stateful_structured_output())
        assert pairs == [("", {"name": "Ada", "age": 36})]
        pairs = list(engine.get_stateful_structured_output(Person))
        assert pairs == [("", Person(name="Ada", age=36))]

    def test_live_output_without_identifier(self, engine: StructuringEngine) -> None:
        engine.configure(PhraseStateMachine("hello"))
        engine.consume_text("he")
        assert engine.get_live_structured_output() is None
