"""The framework-neutral structuring engine.

:class:`StructuringEngine` extends the native ``pse_core._core.Engine`` with a
tokenizer, schema configuration, NumPy logit masking, a sampling hook and
output parsing. Framework adapters (``pse-torch``, ``pse-tf``, ...) build on
it; nothing here imports a framework.
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from pse_core._core import Engine, StateMachine, Stepper, apply_token_bitmask_inplace
from pse_core.errors import BudgetError, NoValidTokenError, SamplingError

from pse.vocabulary import load_vocabulary

__all__ = ["StructuringEngine"]

logger = logging.getLogger(__name__)

OutputType = TypeVar("OutputType")

_SCHEMA_MODULE = "pse.types.json.json_schema_state_machine"
_MASKABLE = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


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

    def configure(self, structure: Any, **kwargs: Any) -> None:
        """Set the structure to enforce and reset the steppers.

        ``structure`` is a ``StateMachine`` or a schema source (Pydantic model,
        JSON Schema dict, callable, or a list/tuple of these); keyword
        arguments go to the schema compiler.
        """
        if isinstance(structure, StateMachine) and not kwargs:
            self.state_machine = structure
            return
        try:
            module = importlib.import_module(_SCHEMA_MODULE)
        except ModuleNotFoundError as exc:
            if exc.name is None or not _SCHEMA_MODULE.startswith(exc.name):
                raise
            raise TypeError(
                "configure() accepts a StateMachine; schema sources (Pydantic models, "
                "JSON Schema dicts, callables, sequences of these) need "
                f"{_SCHEMA_MODULE}, which is not available (got {type(structure).__name__})"
            ) from exc
        self.state_machine = module.schema_to_state_machine(structure, **kwargs)

    # -------------------------------------------------------------------- logits

    def process_logits(self, input_ids: Any, scores: Any) -> NDArray[np.floating[Any]]:
        """Mask the logits of tokens the structure forbids with ``-inf``.

        ``scores`` has shape ``(vocab,)`` or ``(batch, vocab)``; anything
        ``np.asarray`` accepts works. Float arrays keep their dtype (float16,
        float32 and float64 C-contiguous writable arrays are masked in place);
        other inputs come back as float32. Columns beyond the tokenizer's
        vocabulary are masked. Without a configured structure the scores pass
        through unchanged.

        Raises:
            NoValidTokenError: no token at all is allowed.
        """
        del input_ids  # the engine tracks its own history
        given = np.asarray(scores)
        if given.ndim not in (1, 2):
            raise ValueError(
                f"scores must have shape (vocab,) or (batch, vocab), got {given.shape}"
            )
        if given.dtype in _MASKABLE and given.flags.c_contiguous and given.flags.writeable:
            work = given
        elif np.issubdtype(given.dtype, np.floating):
            work = np.array(given, dtype=given.dtype if given.dtype in _MASKABLE else np.float32)
        else:
            work = np.array(given, dtype=np.float32)
        if self.state_machine is None:  # nothing configured: no constraint
            return work

        mask = self.token_bitmask(work.shape[-1])
        if not mask.any():
            raise NoValidTokenError("no token is allowed by the structure at this step")
        apply_token_bitmask_inplace(work, mask)  # one mask row applies to every batch row
        if work.dtype != given.dtype and np.issubdtype(given.dtype, np.floating):
            return work.astype(given.dtype)
        return work

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

    def sample(
        self, logprobs: Any, sampler: Callable[..., Any], budget: int | None = None
    ) -> NDArray[np.int64]:
        """Sample a token with ``sampler``, advance the engine, return the ids to emit.

        ``sampler(logprobs)`` returns a token id (scalar, shape ``(1,)`` or
        ``(1, 1)``). A forbidden token is resampled up to
        ``max_resample_attempts`` times. The result has shape ``(n,)``:
        ``n > 1`` when multi-token sampling appends a forced continuation.

        ``budget`` is the number of tokens that may still be emitted, this one
        included. With it, the output stays completable within the budget:
        a sampled token after which the shortest completion no longer fits is
        excluded and the sampler asked again (so greedy decoding picks the best
        token that fits, and sampling draws from the distribution restricted
        to those tokens); when no slack is left, the shortest completion is
        emitted. See docs/budget.md.

        Raises:
            SamplingError: the sampler kept returning forbidden tokens.
            BudgetError: ``budget`` is below the shortest completion.
        """
        plan = self.completion_token_ids() if budget is not None else None
        if budget is not None and plan is not None:
            if budget < len(plan):
                raise BudgetError(
                    f"a budget of {budget} token(s) cannot complete the structure: "
                    f"the shortest completion needs {len(plan)}"
                )
            if plan and budget == len(plan):  # no slack: finish now
                return self._emit_plan(plan)
        token_id = self._sampled_id(sampler(logprobs))
        allowed = self.is_token_allowed(token_id)
        attempts = 0
        while not allowed and attempts < self.max_resample_attempts:
            attempts += 1
            token_id = self._sampled_id(sampler(logprobs))
            allowed = self.is_token_allowed(token_id)
        if not allowed:
            raise SamplingError(
                f"sampled token {token_id} ({self._token_text(token_id)!r}) is not allowed "
                f"by the structure after {attempts} resample attempt(s)"
            )
        if budget is not None and plan is not None:
            token_id = self._fit_budget(token_id, logprobs, sampler, budget, plan)
        return np.asarray(self.consume_token(token_id), dtype=np.int64)

    def _fit_budget(
        self,
        token_id: int,
        logprobs: Any,
        sampler: Callable[..., Any],
        budget: int,
        plan: list[int],
    ) -> int:
        """The sampled token if a completion still fits after it; otherwise resample
        without it (bounded), falling back on the shortest completion's first token
        (or end-of-sequence when the structure is already complete)."""
        excluded: Any = None
        eos = set(self.native_vocabulary.eos_token_ids)
        for _ in range(max(self.max_resample_attempts, 1) * 4):
            if token_id in eos:  # allowed, hence complete: nothing more to fit
                return token_id
            after = self.completion_length_after(token_id)
            if after is not None and 1 + after <= budget:
                return token_id
            excluded = _without(logprobs if excluded is None else excluded, token_id)
            token_id = self._sampled_id(sampler(excluded))
            if not self.is_token_allowed(token_id):
                break
        return plan[0] if plan else self.native_vocabulary.eos_token_ids[0]

    def _emit_plan(self, plan: list[int]) -> NDArray[np.int64]:
        """Emit the shortest completion (all of it with multi-token sampling)."""
        emitted = plan if self.multi_token_sampling else plan[:1]
        multi, self.multi_token_sampling = self.multi_token_sampling, False
        try:  # the plan is already the whole continuation: no forced extras
            for token_id in emitted:
                self.consume_token(token_id)
        finally:
            self.multi_token_sampling = multi
        return np.asarray(emitted, dtype=np.int64)

    @staticmethod
    def _sampled_id(sampled: Any) -> int:
        ids = np.asarray(sampled).reshape(-1)
        if ids.size != 1:
            raise ValueError(
                f"the sampler returned {ids.size} token ids; a StructuringEngine tracks one "
                "sequence, so use one engine per batch row"
            )
        return int(ids[0])

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

    def _token_text(self, token_id: int) -> str:
        try:
            return self._decode([token_id])
        except Exception:  # noqa: BLE001 - out-of-range ids and odd tokenizers
            return "<unknown>"

    def _token_id(self, token: str) -> int:
        vocab = self.tokenizer.get_vocab() if hasattr(self.tokenizer, "get_vocab") else {}
        if token in vocab:
            return int(vocab[token])
        ids = self.tokenizer.encode(token, add_special_tokens=False)
        if len(ids) == 1:
            return int(ids[0])
        raise ValueError(f"control token {token!r} is not a single token of this tokenizer")


def _without(logprobs: Any, token_id: int) -> Any:
    """A copy of ``logprobs`` with ``token_id`` excluded (NumPy or any array with
    ``clone``/``copy`` and item assignment, such as a torch tensor)."""
    copy = logprobs.clone() if hasattr(logprobs, "clone") else np.array(logprobs, copy=True)
    copy[..., token_id] = float("-inf")
    return copy


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
