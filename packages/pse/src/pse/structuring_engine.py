"""The framework-neutral structuring engine.

:class:`StructuringEngine` extends the native ``pse_core._core.Engine`` with a
tokenizer, schema configuration, NumPy logit masking, a sampling hook and
output parsing. Framework adapters (``pse-torch``, ``pse-tf``, ...) build on
it; nothing here imports a framework.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from pse_core._core import Engine, StateMachine, Stepper, apply_token_bitmask_inplace
from pse_core.errors import NoValidTokenError, SchemaError

from pse.arrays import array_type_of, mask_logits, token_ids
from pse.batch import _custom_fill, choose_token
from pse.stock_loop import StockLoop
from pse.types.base.encapsulated import encapsulate
from pse.types.json.schema_machine import schema_to_state_machine
from pse.vocabulary import load_vocabulary

__all__ = ["StructuringEngine"]

logger = logging.getLogger(__name__)

OutputType = TypeVar("OutputType")

_MASKABLE = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def _brief(structure: Any, limit: int = 300) -> str:
    """``structure`` for an error message: JSON when it is JSON, cut at ``limit``."""
    try:
        text = json.dumps(structure, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(structure)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class StructuringEngine(Engine):
    """Constrains a language model's output to a structure.

    Args:
        tokenizer: a Hugging Face style tokenizer (duck-typed).
        whitelist_control_tokens: control tokens (e.g. ``"<|eot_id|>"``) that
            stay allowed at every step.
        multi_token_sampling: return the whole forced continuation at once.
        max_resample_attempts: how often ``sample`` asks the sampler again
            when it returns a token the grammar forbids.

    Attributes:
        budget_aware: adapters pass the remaining token budget to ``sample``
            when this is true (the default; see docs/budget.md).
    """

    _pse_stock_loop: StockLoop | None = None

    def __init__(
        self,
        tokenizer: Any,
        whitelist_control_tokens: list[str] | None = None,
        multi_token_sampling: bool = False,
        max_resample_attempts: int = 5,
    ) -> None:
        super().__init__(load_vocabulary(tokenizer), multi_token_sampling, max_resample_attempts)
        self.tokenizer = tokenizer
        self.budget_aware = True
        self.whitelist_control_token_ids = [
            self._token_id(token) for token in whitelist_control_tokens or []
        ]

    # ----------------------------------------------------------------- configure

    def configure(
        self,
        structure: Any,
        *,
        delimiters: tuple[str, str] | None = None,
        buffer_length: int = -1,
        **kwargs: Any,
    ) -> None:
        """Set the structure to enforce and reset the steppers.

        ``structure`` is a ``StateMachine`` or a schema source (Pydantic model,
        JSON Schema dict, callable, or a list/tuple of these); other keyword
        arguments go to the schema compiler, e.g. ``registry=`` (a mapping
        from URI to schema, or a ``referencing.Registry``: the other documents
        ``$ref`` may reach; nothing is fetched). As in the original library,
        ``delimiters=(open, close)`` wraps the machine in an
        ``EncapsulatedStateMachine`` (with ``buffer_length`` characters of free
        text allowed before ``open``), and ``buffer_length >= 0`` alone wraps
        it in ``WaitFor`` (see ``pse.types.base.encapsulated.encapsulate``).

        Raises:
            SchemaError: the schema is invalid, or provably accepts no instance
                (its compiled machine matches nothing); the engine keeps its
                previous configuration.
        """
        self._pse_stock_loop = None  # a new output starts
        if isinstance(structure, StateMachine) and not kwargs:
            machine = structure
        else:
            machine = schema_to_state_machine(structure, **kwargs)
            if machine.accepts_nothing():
                raise SchemaError(
                    f"schema accepts no instance: {_brief(structure)}", code="unsatisfiable"
                )
        self.state_machine = encapsulate(machine, delimiters, buffer_length)

    # -------------------------------------------------------------------- logits

    def process_logits(self, input_ids: Any, scores: Any) -> Any:
        """Mask the logits of tokens the structure forbids with ``-inf``.

        ``scores`` has shape ``(vocab,)`` or ``(batch, vocab)`` and comes back
        in its own array type (see :mod:`pse.arrays`): a torch tensor on its
        device and dtype, an ``mx.array``, a TF or JAX array, NumPy. NumPy
        float16/32/64 C-contiguous writable arrays are masked in place, other
        floats keep their dtype, anything else ``np.asarray`` accepts becomes
        float32. Columns beyond the tokenizer's vocabulary are masked. Without
        a configured structure the scores pass through unchanged.

        ``input_ids`` (the token ids so far, ``(length,)`` or ``(batch,
        length)``, any array type or a list) make this a logits processor for
        loops that choose tokens themselves, such as transformers'
        ``model.generate(input_ids, logits_processor=[engine.process_logits])``:
        the engine advances with the ids appended since the last call (a call
        whose ids are not longer starts afresh), each batch row with its own
        engine (see :mod:`pse.batch`). Ids that :meth:`sample` already
        consumed are matched, not consumed twice. With ``input_ids=None`` the
        engine's current mask applies to every row.

        Raises:
            NoValidTokenError: no token at all is allowed.
        """
        kind = array_type_of(scores)
        if kind is None:
            given = np.asarray(scores)
            work = _maskable(given)
        else:
            given = work = scores
        shape = tuple(work.shape)
        if len(shape) not in (1, 2):
            raise ValueError(f"scores must have shape (vocab,) or (batch, vocab), got {shape}")
        if self.state_machine is None:  # nothing configured: no constraint
            return work
        if input_ids is None:
            mask = self._step_bitmask(shape[-1])
        else:
            rows = shape[0] if len(shape) == 2 else 1
            batch, _ = self._stock_loop().masks(input_ids, rows)
            mask = batch.bitmask if rows > 1 else batch.bitmask[0]
        if kind is not None:
            return mask_logits(work, mask)
        apply_token_bitmask_inplace(work, mask)
        if work.dtype != given.dtype and np.issubdtype(given.dtype, np.floating):
            return work.astype(given.dtype)
        return work

    def _stock_loop(self) -> StockLoop:
        loop: StockLoop | None = getattr(self, "_pse_stock_loop", None)
        if loop is None:
            loop = self._pse_stock_loop = StockLoop(self)
        return loop

    def _step_bitmask(self, width: int) -> NDArray[np.int32]:
        """The current mask for ``width`` logit columns, in a buffer reused across
        steps (no allocation per step); like :meth:`token_bitmask` otherwise.

        Raises:
            NoValidTokenError: no token at all is allowed.
        """
        words = -(-max(width, self.vocab_size) // 32)
        buffer: NDArray[np.int32] | None = getattr(self, "_pse_step_mask", None)
        if buffer is None or buffer.shape[0] != words:
            buffer = self._pse_step_mask = np.zeros(words, dtype=np.int32)
        elif _custom_fill(self):  # the native fill clears every word itself
            buffer[:] = 0
        allowed = self.fill_bitmask(buffer)
        mask = buffer[: -(-width // 32)]
        if width < self.vocab_size or not isinstance(allowed, int):
            if width % 32:
                mask.view(np.uint32)[-1] &= np.uint32((1 << (width % 32)) - 1)
            allowed = int(mask.any())
        if not allowed:
            raise NoValidTokenError("no token is allowed by the structure at this step")
        return mask

    def token_bitmask(self, width: int | None = None) -> NDArray[np.int32]:
        """Return the allowed-token bitmask (bit ``i % 32`` of word ``i // 32``).

        ``width`` is the number of logit columns; bits at and beyond it are
        cleared, and so are bits beyond the tokenizer's vocabulary.
        """
        width = self.vocab_size if width is None else width
        words = -(-max(width, self.vocab_size) // 32)
        mask = np.zeros(words, dtype=np.int32)
        self.fill_bitmask(mask)
        out: NDArray[np.int32] = mask[: -(-width // 32)].copy()
        if width % 32:
            out.view(np.uint32)[-1] &= np.uint32((1 << (width % 32)) - 1)
        return out

    # ------------------------------------------------------------------ sampling

    def sample(self, logprobs: Any, sampler: Callable[..., Any], budget: int | None = None) -> Any:
        """Sample a token with ``sampler``, advance the engine, return the ids to emit.

        ``sampler(logprobs)`` returns a token id (scalar, shape ``(1,)`` or
        ``(1, 1)``, any array type). A forbidden token is resampled up to
        ``max_resample_attempts`` times. The result is an int64 array of
        shape ``(n,)`` in ``logprobs``' array type (NumPy for lists and
        unregistered types): ``n > 1`` when multi-token sampling appends a
        forced continuation.

        ``budget`` is the number of tokens that may still be emitted, this one
        included. With it, the output stays completable within the budget:
        a sampled token after which the shortest completion no longer fits is
        excluded and the sampler asked again (so greedy decoding picks the best
        token that fits, and sampling draws from the distribution restricted
        to those tokens); when no slack is left, the shortest completion is
        emitted. See docs/budget.md.

        Raises:
            SamplingError: the sampler kept returning forbidden tokens.
            BudgetError: ``budget`` is below the shortest completion at the start
                of an output.
        """
        emitted = choose_token(self, logprobs, sampler, budget)[0]
        loop: StockLoop | None = getattr(self, "_pse_stock_loop", None)
        if loop is not None and loop.batch is not None and loop.seen is not None:
            loop.batch.pending[0].extend(emitted)  # the next input_ids will hold them
        return token_ids(emitted, logprobs)

    # -------------------------------------------------------------------- output

    def get_structured_output(
        self, output_type: type[OutputType] | None = None, raise_on_error: bool = False
    ) -> OutputType | Any:
        """Return the generated output, parsed as JSON and validated against ``output_type``.

        On a parse or validation failure the raw text (or parsed value) is
        returned and the error logged, unless ``raise_on_error``.
        """
        stepper = self._best_stepper()
        if stepper is not None:
            text = self._safe_output(stepper)
        else:
            text = self._decode(self.token_ids_history)
        return _parse(text, output_type, raise_on_error)

    def get_stateful_structured_output(
        self, output_type: type[OutputType] | None = None, raise_on_error: bool = False
    ) -> Iterator[tuple[str, OutputType | Any]]:
        """Yield ``(identifier, value)`` for each labelled part of the output."""
        root = self._best_stepper()
        if root is None:
            return
        labelled = list(_labelled_parts(root))
        if not labelled:
            labelled = [(root.get_identifier() or "", root)]
        for identifier, stepper in labelled:
            value = stepper.get_current_value()
            if output_type is not None:
                value = _validate(value, output_type, raise_on_error)
            yield identifier, value

    def get_live_structured_output(self) -> tuple[str, str] | None:
        """Return ``(identifier, text)`` of the innermost labelled active stepper."""
        root = stepper = self._best_stepper()
        found: Stepper | None = None
        while stepper is not None:
            if stepper.get_identifier():
                found = stepper
            stepper = stepper.sub_stepper
        if found is None:
            return None
        # Token ids belong to the whole path, so only the root decodes them;
        # an inner frame's own text is its raw value.
        text = self._safe_output(found) if found is root else found.get_raw_value()
        return found.get_identifier() or "", text

    # ------------------------------------------------------------------- helpers

    def _best_stepper(self) -> Stepper | None:
        steppers = self.steppers
        for stepper in steppers:
            if stepper.has_reached_accept_state():
                return stepper
        return steppers[0] if steppers else None

    def _safe_output(self, stepper: Stepper) -> str:
        """The stepper's text decoded from its token ids (raw text when it has none)."""
        if not stepper.get_token_ids_history():  # e.g. advanced with consume_text
            return stepper.get_raw_value()
        try:
            return stepper.get_token_safe_output(self._decode)
        except Exception:  # noqa: BLE001 - fall back on the consumed text
            logger.debug("get_token_safe_output failed; using the raw value", exc_info=True)
            return stepper.get_raw_value()

    def _decode(self, token_ids: list[int]) -> str:
        return str(self.tokenizer.decode(list(token_ids)))

    def _token_id(self, token: str) -> int:
        vocab = self.tokenizer.get_vocab() if hasattr(self.tokenizer, "get_vocab") else {}
        if token in vocab:
            return int(vocab[token])
        ids = self.tokenizer.encode(token, add_special_tokens=False)
        if len(ids) == 1:
            return int(ids[0])
        raise ValueError(f"control token {token!r} is not a single token of this tokenizer")


def _labelled_parts(stepper: Stepper) -> Iterator[tuple[str, Stepper]]:
    """Completed children with an identifier, looking through unlabelled ones."""
    children = list(stepper.history)
    current = stepper.sub_stepper
    if current is not None and current.has_reached_accept_state():
        children.append(current)
    for child in children:
        identifier = child.get_identifier()
        if identifier:
            yield identifier, child
        else:
            yield from _labelled_parts(child)


def _parse(text: str, output_type: type[Any] | None, raise_on_error: bool) -> Any:
    try:
        value: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        if output_type is not None:
            logger.info("output is not JSON (%s); validating the raw text", exc)
        value = text
    if output_type is None:
        return value
    # Models validate the JSON text itself (JSON-mode coercions); other types the value.
    source = text if _is_model(output_type) else value
    try:
        return _validate_or_raise(source, output_type)
    except Exception as exc:
        if raise_on_error:
            raise
        logger.warning("output does not validate as %s: %s", _type_name(output_type), exc)
        return value


def _validate(value: Any, output_type: type[Any], raise_on_error: bool) -> Any:
    try:
        return _validate_or_raise(value, output_type)
    except Exception as exc:
        if raise_on_error:
            raise
        logger.warning("value does not validate as %s: %s", _type_name(output_type), exc)
        return value


def _validate_or_raise(value: Any, output_type: type[Any]) -> Any:
    if _is_model(output_type):
        if isinstance(value, str | bytes):
            return output_type.model_validate_json(value)
        return output_type.model_validate(value)
    from pydantic import TypeAdapter

    return TypeAdapter(output_type).validate_python(value)


def _type_name(output_type: Any) -> str:
    return str(getattr(output_type, "__name__", output_type))


def _is_model(output_type: Any) -> bool:
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic is a dependency of pse
        return False
    return isinstance(output_type, type) and issubclass(output_type, BaseModel)


def _maskable(given: NDArray[Any]) -> NDArray[Any]:
    """``given`` itself when it can be masked in place, else a float copy."""
    if given.dtype in _MASKABLE and given.flags.c_contiguous and given.flags.writeable:
        return given
    if np.issubdtype(given.dtype, np.floating):
        return np.array(given, dtype=given.dtype if given.dtype in _MASKABLE else np.float32)
    return np.array(given, dtype=np.float32)
