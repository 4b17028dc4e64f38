"""Token bytes from a Hugging Face tokenizer, independent of PSE.

Both benchmark tokenizers are byte-level BPE (GPT-2 alphabet): every
character of a token string stands for one byte. Special added tokens have
no bytes (``None``); anything outside the alphabet is taken as UTF-8 text.
"""

from __future__ import annotations

from typing import Any


def _byte_decoder() -> dict[str, int]:
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    codepoints = printable[:]
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            codepoints.append(256 + extra)
            extra += 1
    return {chr(cp): byte for byte, cp in zip(printable, codepoints, strict=True)}


_DECODER = _byte_decoder()


def token_bytes(tokenizer: Any) -> list[bytes | None]:
    """``result[i]`` is the byte string of token ``i`` (``None`` for special tokens)."""
    special = set(tokenizer.all_special_ids)
    for token_id, added in getattr(tokenizer, "added_tokens_decoder", {}).items():
        if getattr(added, "special", False):
            special.add(int(token_id))
    size = len(tokenizer)
    strings = tokenizer.convert_ids_to_tokens(list(range(size)))
    out: list[bytes | None] = []
    for token_id, text in enumerate(strings):
        if token_id in special or not text:
            out.append(None)
        elif all(ch in _DECODER for ch in text):
            out.append(bytes(_DECODER[ch] for ch in text))
        else:
            out.append(text.encode("utf-8"))
    return out
