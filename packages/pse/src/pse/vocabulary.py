"""Build the native :class:`pse_core._core.Vocabulary` from a tokenizer.

A tokenizer is duck-typed: anything with the Hugging Face interface
(``get_vocab`` or ``convert_ids_to_tokens``, ``__len__``, ``eos_token_id``,
``added_tokens_decoder``, ``all_special_ids``). Token strings are converted
to the exact bytes each token stands for:

* byte-level BPE (GPT-2 alphabet, ``Ġ`` for a space): every character maps
  back to one byte, so tokens that end mid-character keep their raw bytes;
* SentencePiece style (``▁`` for a space, ``<0xNN>`` byte-fallback tokens);
* anything else: the token string encoded as UTF-8.

Special added tokens are control tokens (no bytes); non-special added tokens
stand for their literal content. The result is built once per tokenizer and
cached, so every engine made with the same tokenizer shares one vocabulary.
"""

from __future__ import annotations

import json
import re
import threading
import weakref
from collections.abc import Iterable, Iterator
from typing import Any

from pse_core._core import Vocabulary
from pse_core.errors import VocabularyError

__all__ = ["load_vocabulary", "token_bytes_list"]

_SPACE_MARKER = "\u2581"  # SentencePiece "▁"
_BYTE_FALLBACK = re.compile(r"<0x([0-9A-Fa-f]{2})>")

_lock = threading.Lock()
_weak_cache: weakref.WeakKeyDictionary[Any, Vocabulary] = weakref.WeakKeyDictionary()
_id_cache: dict[tuple[int, str, int], tuple[Any, Vocabulary]] = {}


def load_vocabulary(tokenizer: Any) -> Vocabulary:
    """Return the (cached) native vocabulary of ``tokenizer``.

    The same tokenizer object always yields the same ``Vocabulary`` object.

    Raises:
        VocabularyError: ``tokenizer`` has no usable vocabulary.
    """
    with _lock:
        cached = _cache_get(tokenizer)
        if cached is not None:
            return cached
        tokens, control_ids, eos_ids = token_bytes_list(tokenizer)
        vocabulary = Vocabulary(tokens, control_ids, eos_ids)
        _cache_put(tokenizer, vocabulary)
        return vocabulary


def token_bytes_list(tokenizer: Any) -> tuple[list[bytes | None], list[int], list[int]]:
    """Return ``(tokens, control_token_ids, eos_token_ids)`` for ``tokenizer``.

    ``tokens[i]`` is the byte string of token ``i``, or ``None`` for control
    tokens and for ids that map to nothing.
    """
    vocab = _token_strings(tokenizer)
    size = max(_safe_len(tokenizer), max(vocab.values(), default=-1) + 1)
    if size <= 0 or not vocab:
        raise VocabularyError(
            f"{type(tokenizer).__name__} has an empty vocabulary; "
            "expected a tokenizer with at least one token"
        )

    convert = _converter(tokenizer, vocab)
    tokens: list[bytes | None] = [None] * size
    for text, token_id in vocab.items():
        if 0 <= token_id < size:
            data = convert(text)
            tokens[token_id] = data or None

    control: set[int] = set()
    for token_id, text, special in _added_tokens(tokenizer):
        if not 0 <= token_id < size:
            continue
        if special:
            control.add(token_id)
            tokens[token_id] = None
        else:
            tokens[token_id] = text.encode("utf-8") or None
    for token_id in _int_ids(getattr(tokenizer, "all_special_ids", None)):
        if 0 <= token_id < size:
            control.add(token_id)
            tokens[token_id] = None

    eos = [i for i in _eos_token_ids(tokenizer) if 0 <= i < size]
    for token_id in eos:
        tokens[token_id] = None
    return tokens, sorted(control), eos


# --------------------------------------------------------------------------- cache


def _cache_get(tokenizer: Any) -> Vocabulary | None:
    try:
        return _weak_cache.get(tokenizer)
    except TypeError:  # not weak-referenceable or not hashable
        entry = _id_cache.get(_fallback_key(tokenizer))
        if entry is not None and entry[0] is tokenizer:
            return entry[1]
        return None


def _cache_put(tokenizer: Any, vocabulary: Vocabulary) -> None:
    try:
        _weak_cache[tokenizer] = vocabulary
    except TypeError:
        # Holding the tokenizer keeps its id from being reused by another object.
        _id_cache[_fallback_key(tokenizer)] = (tokenizer, vocabulary)


def _fallback_key(tokenizer: Any) -> tuple[int, str, int]:
    return (id(tokenizer), str(getattr(tokenizer, "name_or_path", "")), _safe_len(tokenizer))


# ------------------------------------------------------------------ token strings


def _token_strings(tokenizer: Any) -> dict[str, int]:
    get_vocab = getattr(tokenizer, "get_vocab", None)
    if callable(get_vocab):
        vocab = get_vocab()
        if not isinstance(vocab, dict):
            raise VocabularyError(
                f"{type(tokenizer).__name__}.get_vocab() returned {type(vocab).__name__}, "
                "expected a dict mapping token strings to ids"
            )
        return vocab
    convert_ids = getattr(tokenizer, "convert_ids_to_tokens", None)
    if callable(convert_ids) and _safe_len(tokenizer) > 0:
        strings = convert_ids(list(range(_safe_len(tokenizer))))
        return {s: i for i, s in enumerate(strings) if isinstance(s, str)}
    raise VocabularyError(
        f"{type(tokenizer).__name__} is not a tokenizer: it has no get_vocab() "
        "method and no convert_ids_to_tokens() method with a len(); "
        "pass a Hugging Face style tokenizer"
    )


def _safe_len(tokenizer: Any) -> int:
    try:
        return len(tokenizer)
    except TypeError:
        return 0


def _added_tokens(tokenizer: Any) -> Iterator[tuple[int, str, bool]]:
    decoder = getattr(tokenizer, "added_tokens_decoder", None)
    if not isinstance(decoder, dict):
        return
    for token_id, token in decoder.items():
        content = getattr(token, "content", token)
        if isinstance(token_id, int) and isinstance(content, str):
            yield token_id, content, bool(getattr(token, "special", False))


def _eos_token_ids(tokenizer: Any) -> list[int]:
    ids: list[int] = []
    for source in (
        getattr(tokenizer, "eos_token_id", None),
        getattr(tokenizer, "eos_token_ids", None),
    ):
        for token_id in _int_ids(source):
            if token_id not in ids:
                ids.append(token_id)
    return ids


def _int_ids(value: Any) -> list[int]:
    if value is None or isinstance(value, str):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, Iterable):
        return [int(v) for v in value if isinstance(v, int)]
    return []


# ---------------------------------------------------------------- byte conversion


def _bytes_to_unicode() -> dict[int, int]:
    """GPT-2's reversible byte -> code point table."""
    printable = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("\xa1"), ord("\xac") + 1),
        *range(ord("\xae"), ord("\xff") + 1),
    ]
    table = {b: b for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = 256 + extra
            extra += 1
    return table


# code point -> byte, usable with str.translate followed by .encode("latin-1")
_BYTE_DECODER = {cp: b for b, cp in _bytes_to_unicode().items()}


def _byte_level(text: str) -> bytes:
    try:
        return text.translate(_BYTE_DECODER).encode("latin-1")
    except UnicodeEncodeError:  # a character outside the byte alphabet
        return b"".join(
            bytes([_BYTE_DECODER[ord(c)]]) if ord(c) in _BYTE_DECODER else c.encode("utf-8")
            for c in text
        )


def _sentencepiece(marker: str) -> Any:
    def convert(text: str) -> bytes:
        if len(text) == 6 and text.startswith("<0x"):
            match = _BYTE_FALLBACK.fullmatch(text)
            if match:
                return bytes([int(match.group(1), 16)])
        return text.replace(marker, " ").encode("utf-8")

    return convert


def _utf8(text: str) -> bytes:
    return text.encode("utf-8")


def _converter(tokenizer: Any, vocab: dict[str, int]) -> Any:
    kind, marker = _detect_kind(tokenizer, vocab)
    if kind == "byte_level":
        return _byte_level
    if kind == "sentencepiece":
        return _sentencepiece(marker)
    return _utf8


def _detect_kind(tokenizer: Any, vocab: dict[str, int]) -> tuple[str, str]:
    """Return ``("byte_level" | "sentencepiece" | "plain", space_marker)``."""
    components = list(_backend_components(tokenizer))
    if components:
        types = {c.get("type") for c in components}
        if "ByteLevel" in types:
            return "byte_level", ""
        for c in components:
            if c.get("type") == "Metaspace":
                return "sentencepiece", str(c.get("replacement") or _SPACE_MARKER)
        for c in components:
            pattern = c.get("pattern")
            if c.get("type") == "Replace" and isinstance(pattern, dict):
                old = pattern.get("String")
                if isinstance(old, str) and len(old) == 1 and c.get("content") == " ":
                    return "sentencepiece", old
        if "ByteFallback" in types:
            return "sentencepiece", _SPACE_MARKER
        return "plain", ""
    # No fast backend: slow tokenizers, or other duck-typed tokenizers.
    if getattr(tokenizer, "byte_encoder", None) is not None:
        return "byte_level", ""
    if getattr(tokenizer, "sp_model", None) is not None:
        return "sentencepiece", _SPACE_MARKER
    threshold = max(1, len(vocab) // 100)
    if sum("\u0120" in t for t in vocab) >= threshold:
        return "byte_level", ""
    if sum(_SPACE_MARKER in t for t in vocab) >= threshold:
        return "sentencepiece", _SPACE_MARKER
    return "plain", ""


def _backend_components(tokenizer: Any) -> Iterator[dict[str, Any]]:
    """Yield every typed component of the fast tokenizer's pipeline."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        return
    for name in ("decoder", "pre_tokenizer", "normalizer"):
        part = getattr(backend, name, None)
        if part is None:
            continue
        state = _component_state(part)
        if state is not None:
            yield from _walk(state)


def _component_state(part: Any) -> Any:
    try:
        raw = part.__getstate__()
        return json.loads(raw.decode() if isinstance(raw, bytes | bytearray) else raw)
    except Exception:  # noqa: BLE001 - unknown component: fall back on the class name
        return {"type": type(part).__name__}


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if "type" in node:
            yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)
