"""Damage model: real JSON documents broken the ways LLMs break them.

Each case is ``(kind, text, expected)``: ``text`` is a real document from
``../shared/data`` (valid MaskBench instances and BFCL ground-truth calls)
rendered as an LLM might write it and then damaged in one way; ``expected``
is the value a repair should give back. For every damage that loses nothing
``expected`` is the original document. Where the damage removes content
(truncation), ``expected`` is what pydantic-core's jiter (an independent
parser) returns for the undamaged text cut at the same place with
``allow_partial="trailing-strings"``.

The generator is deterministic for a given seed; nothing is written to disk
unless asked: ``python benchmarks/bench_repair_damage.py --out corpus.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SEED = 20260401

_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_BARE_VALUE_RE = re.compile(r"[A-Za-z][A-Za-z0-9_.\- ]*[A-Za-z0-9]\Z")
_LITERAL_WORDS = {"true", "false", "null", "none", "nan", "infinity", "undefined"}


@dataclass(frozen=True)
class Case:
    """One damaged document and the value a repair should return."""

    kind: str
    text: str
    expected: Any
    source: str


@dataclass
class Tok:
    """A token of a rendered document. ``kind`` is one of ``{ } [ ] : ,``
    ``key str num lit``; ``text`` is how it is written (damage rewrites it)."""

    kind: str
    value: Any
    text: str


def tokenize(value: Any) -> list[Tok]:
    """The tokens of ``value`` as strict JSON."""
    out: list[Tok] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            out.append(Tok("{", None, "{"))
            for n, (k, x) in enumerate(v.items()):
                if n:
                    out.append(Tok(",", None, ","))
                out.append(Tok("key", k, json.dumps(k, ensure_ascii=False)))
                out.append(Tok(":", None, ":"))
                walk(x)
            out.append(Tok("}", None, "}"))
        elif isinstance(v, list):
            out.append(Tok("[", None, "["))
            for n, x in enumerate(v):
                if n:
                    out.append(Tok(",", None, ","))
                walk(x)
            out.append(Tok("]", None, "]"))
        elif isinstance(v, str):
            out.append(Tok("str", v, json.dumps(v, ensure_ascii=False)))
        elif isinstance(v, bool) or v is None:
            out.append(Tok("lit", v, json.dumps(v)))
        else:
            out.append(Tok("num", v, json.dumps(v)))

    walk(value)
    return out


def render(toks: list[Tok], pretty: bool) -> str:
    """Tokens as text: indented (two spaces) or on one line with ``", "``."""
    parts: list[str] = []
    depth = 0
    for n, t in enumerate(toks):
        nxt = toks[n + 1].kind if n + 1 < len(toks) else ""
        if t.kind in "}]" and pretty and n and toks[n - 1].kind not in "{[":
            parts.append("\n" + "  " * max(0, depth - 1))
        parts.append(t.text)
        if t.kind in "{[":
            depth += 1
            if pretty and nxt not in ("}", "]"):
                parts.append("\n" + "  " * depth)
        elif t.kind in "}]":
            depth -= 1
        elif t.kind == ",":
            parts.append("\n" + "  " * depth if pretty else " ")
        elif t.kind == ":":
            parts.append(" ")
    return "".join(parts)


def partial_value(prefix: str) -> Any:
    """jiter's reading of a cut document (``trailing-strings``), or None."""
    from pydantic_core import from_json

    try:
        return from_json(prefix, allow_partial="trailing-strings")
    except ValueError:
        return None


# ---------------------------------------------------------------- damages

Damage = Callable[[Any, random.Random, bool], "tuple[str, Any] | None"]


def _pick(rng: random.Random, items: list[int], most: int) -> list[int]:
    return rng.sample(items, min(len(items), rng.randint(1, most)))


def _where(toks: list[Tok], *kinds: str) -> list[int]:
    return [n for n, t in enumerate(toks) if t.kind in kinds]


def truncated(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    text = render(tokenize(doc), pretty)
    cut = rng.randrange(1, len(text))
    expected = partial_value(text[:cut])
    return None if expected is None else (text[:cut], expected)


def unclosed_containers(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    text = render(tokenize(doc), pretty)
    cut = text.rstrip("}] \n")
    return None if cut == text or not cut.strip("{[ \n") else (cut, doc)


def _open_string(toks: list[Tok], n: int, pretty: bool) -> tuple[str, Any] | None:
    """Everything up to string token ``n`` without its closing quote."""
    head = toks[: n + 1]
    raw = render(head, pretty)
    expected = partial_value(render(tokenize_like(head), pretty)[:-1])
    return None if expected is None else (raw[:-1], expected)


def tokenize_like(toks: list[Tok]) -> list[Tok]:
    """The same tokens written as strict JSON again (undoes text damage)."""
    return [
        Tok(t.kind, t.value, json.dumps(t.value, ensure_ascii=False))
        if t.kind in ("key", "str")
        else t
        for t in toks
    ]


def unclosed_string(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    strings = [n for n in _where(toks, "str") if toks[n].value.strip()]
    return _open_string(toks, rng.choice(strings), pretty) if strings else None


def open_string_newlines(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """An unclosed string whose text has raw line breaks (a model writing prose)."""
    toks = tokenize(doc)
    strings = [n for n in _where(toks, "str") if " " in toks[n].value.strip()]
    if not strings:
        return None
    n = rng.choice(strings)
    words = toks[n].value.split(" ")
    cut = rng.randrange(1, len(words))
    toks[n].value = " ".join(words[:cut]) + "\n" + " ".join(words[cut:])
    toks[n].text = json.dumps(toks[n].value, ensure_ascii=False).replace("\\n", "\n")
    return _open_string(toks, n, pretty)


def open_string_fence(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """A fenced answer whose last string runs into the closing fence."""
    toks = tokenize(doc)
    strings = [n for n in _where(toks, "str") if toks[n].value.strip()]
    if not strings:
        return None
    found = _open_string(toks, rng.choice(strings), pretty)
    if found is None:
        return None
    return f"```json\n{found[0]}\n```\nThat is the result.", found[1]


def missing_commas(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    commas = _where(toks, ",")
    if not commas:
        return None
    for n in _pick(rng, commas, 3):
        toks[n].text = ""
    return render(toks, pretty), doc


def extra_commas(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    closers = [n for n in _where(toks, "}", "]") if toks[n - 1].kind not in "{["]
    commas = _where(toks, ",")
    if not closers:
        return None
    for n in _pick(rng, closers, 3):
        toks[n].text = "," + toks[n].text
    for n in _pick(rng, commas, 1) if commas and rng.random() < 0.5 else []:
        toks[n].text = ",,"
    return render(toks, pretty), doc


def _quoted(s: str, q: str) -> str:
    body = json.dumps(s, ensure_ascii=False)[1:-1]
    return q + body.replace('\\"', '"') + q


def single_quotes(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    changed = False
    for t in toks:
        if t.kind in ("key", "str") and "'" not in t.value and "\\" not in t.value:
            t.text = _quoted(t.value, "'")
            changed = True
    return (render(toks, pretty), doc) if changed else None


def mixed_quotes(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """Some strings in single quotes, a few written with doubled quotes."""
    toks = tokenize(doc)
    spots = [
        n
        for n in _where(toks, "key", "str")
        if "'" not in toks[n].value and '"' not in toks[n].value and "\\" not in toks[n].value
    ]
    if not spots:
        return None
    for n in spots:
        if rng.random() < 0.4:
            toks[n].text = _quoted(toks[n].value, "'")
    for n in _pick(rng, [n for n in spots if toks[n].value], 2):
        toks[n].text = '""' + toks[n].text[1:-1] + '""'
    return render(toks, pretty), doc


def unquoted_keys(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    keys = [n for n in _where(toks, "key") if _IDENT_RE.match(toks[n].value)]
    for n in keys:
        toks[n].text = toks[n].value
    return (render(toks, pretty), doc) if keys else None


def _bare_ok(s: str) -> bool:
    return bool(_BARE_VALUE_RE.match(s)) and s.lower() not in _LITERAL_WORDS and "  " not in s


def unquoted_values(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    spots = [n for n in _where(toks, "str") if _bare_ok(toks[n].value)]
    for n in _pick(rng, spots, 3):
        toks[n].text = toks[n].value
    return (render(toks, pretty), doc) if spots else None


def python_literals(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    lits = _where(toks, "lit")
    for n in lits:
        toks[n].text = repr(toks[n].value)
    return (render(toks, pretty), doc) if lits else None


def python_repr(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """``print(answer)`` in Python: single quotes, True/False/None."""
    text = repr(doc)
    return None if "\\x" in text or "inf" in text else (text, doc)


def js_object(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """A JavaScript object literal: bare keys, single quotes, trailing commas."""
    toks = tokenize(doc)
    for t in toks:
        if t.kind == "key" and _IDENT_RE.match(t.value):
            t.text = t.value
        elif t.kind in ("key", "str") and "'" not in t.value and "\\" not in t.value:
            t.text = _quoted(t.value, "'")
        elif t.kind in "}]":
            t.text = "," + t.text
    for n, t in enumerate(toks):
        if t.kind in "}]" and toks[n - 1].kind in "{[":
            t.text = t.text[1:]
    return render(toks, pretty), doc


def comments(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    spots = _where(toks, ",", "{", "[")
    for n in _pick(rng, spots, 3):
        style = rng.choice(["//", "/*", "#"])
        note = rng.choice(["the main entry", "see above", "optional, may be empty"])
        if style == "/*":
            toks[n].text += f" /* {note} */"
        else:
            toks[n].text += f" {style} {note}\n"
    return render(toks, pretty), doc


def code_fence(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    text = render(tokenize(doc), pretty)
    lang = rng.choice(["json", "JSON", "", "javascript"])
    return f"Here is the JSON you asked for:\n\n```{lang}\n{text}\n```\n\nLet me know.", doc


def prose(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    text = render(tokenize(doc), pretty)
    lead = rng.choice(["Sure! ", "The answer is: ", "Output:\n", "Okay, here it is.\n\n"])
    tail = rng.choice(["", " Hope this helps.", "\n\nThis follows the schema you gave."])
    return lead + text + tail, doc


def raw_newlines(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """Line breaks written raw inside strings (one added where there was a space)."""
    toks = tokenize(doc)
    spots = [
        n for n in _where(toks, "str") if " " in toks[n].value.strip() or "\n" in toks[n].value
    ]
    if not spots:
        return None
    for n in _pick(rng, spots, 2):
        t = toks[n]
        if "\n" not in t.value:
            words = t.value.split(" ")
            cut = rng.randrange(1, len(words))
            t.value = " ".join(words[:cut]) + "\n" + " ".join(words[cut:])
        t.text = json.dumps(t.value, ensure_ascii=False).replace("\\n", "\n")
    return render(toks, pretty), _value_of(toks)


def inner_quotes(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """A word inside a string put in unescaped double quotes."""
    toks = tokenize(doc)
    spots = [
        n
        for n in _where(toks, "str")
        if len(toks[n].value.split(" ")) >= 2 and '"' not in toks[n].value
    ]
    if not spots:
        return None
    for n in _pick(rng, spots, 2):
        t = toks[n]
        words = t.value.split(" ")
        w = rng.randrange(len(words))
        words[w] = f'"{words[w]}"'
        t.value = " ".join(words)
        t.text = json.dumps(t.value, ensure_ascii=False).replace('\\"', '"')
    return render(toks, pretty), _value_of(toks)


def doubled_closers(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    last = len(toks) - 1
    spots = [n for n in _where(toks, "}", "]") if n != last and toks[n + 1].kind != ","]
    for n in _pick(rng, [*spots, last], 2):
        toks[n].text += toks[n].text
    return render(toks, pretty), doc


def early_close(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """The root object closed too early: ``{"a": 1}, "b": 2}``."""
    toks = tokenize(doc)
    if toks[0].kind != "{":
        return None
    depth = 0
    roots = []
    for n, t in enumerate(toks):
        depth += t.kind in "{[" and 1 or (-1 if t.kind in "}]" else 0)
        if t.kind == "," and depth == 1:
            roots.append(n)
    if not roots:
        return None
    toks[rng.choice(roots)].text = "},"
    return render(toks, pretty), doc


def number_spellings(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """Numbers as programming languages write them: ``1_000``, ``+5``, ``.5``, ``5.``."""
    toks = tokenize(doc)
    changed = False
    for t in toks:
        if t.kind != "num":
            continue
        v = t.value
        if isinstance(v, int) and abs(v) >= 10000:
            t.text = f"{v:_}"
        elif isinstance(v, float) and 0 < abs(v) < 1 and "e" not in t.text:
            t.text = t.text.replace("0.", ".", 1)
        elif isinstance(v, int) and v > 0:
            t.text = rng.choice([f"+{v}", f"{v}."])
        else:
            continue
        changed = True
    return (render(toks, pretty), doc) if changed else None


def back_to_back(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """The answer twice in a row (a model restating it): ``{...}\\n{...}``."""
    if not isinstance(doc, dict):
        return None
    other = {"status": "done", "count": 2}
    text = render(tokenize(doc), pretty) + "\n" + render(tokenize(other), pretty)
    return text, [doc, other]


def curly_quotes(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """Typographic quotes from a chat interface: \u201cword\u201d."""
    toks = tokenize(doc)
    spots = [
        n
        for n in _where(toks, "key", "str")
        if not any(q in toks[n].value for q in '"\u201c\u201d\\')
    ]
    for n in spots:
        toks[n].text = "\u201c" + toks[n].value + "\u201d"
    return (render(toks, pretty), doc) if spots else None


def missing_colons(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    toks = tokenize(doc)
    colons = _where(toks, ":")
    for n in _pick(rng, colons, 2):
        toks[n].text = ""
    return (render(toks, pretty), doc) if colons else None


def unclosed_key_quote(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """A key whose closing quote is missing: ``{"name: "Ada"}``."""
    toks = tokenize(doc)
    keys = [n for n in _where(toks, "key") if toks[n].value and ":" not in toks[n].value]
    for n in _pick(rng, keys, 1):
        toks[n].text = toks[n].text[:-1]
    return (render(toks, pretty), doc) if keys else None


def escaped_document(doc: Any, rng: random.Random, pretty: bool) -> tuple[str, Any] | None:
    """The document escaped as a string body (a tool result passed on as text)."""
    return json.dumps(render(tokenize(doc), pretty), ensure_ascii=False)[1:-1], doc


def _value_of(toks: list[Tok]) -> Any:
    return json.loads(render(tokenize_like(toks), False))


DAMAGES: dict[str, Damage] = {
    f.__name__: f
    for f in (
        truncated,
        unclosed_containers,
        unclosed_string,
        open_string_newlines,
        open_string_fence,
        missing_commas,
        extra_commas,
        single_quotes,
        mixed_quotes,
        unquoted_keys,
        unquoted_values,
        python_literals,
        python_repr,
        js_object,
        comments,
        code_fence,
        prose,
        raw_newlines,
        inner_quotes,
        doubled_closers,
        early_close,
        number_spellings,
        back_to_back,
        curly_quotes,
        missing_colons,
        unclosed_key_quote,
        escaped_document,
    )
}


# ---------------------------------------------------------------- documents


def documents(max_chars: int = 4000) -> Iterator[tuple[str, Any]]:
    """``(source, value)`` for the real documents: valid MaskBench instances
    (objects and arrays only) and BFCL ground-truth calls (first accepted value
    of each argument). Raises FileNotFoundError without ../shared/data."""
    mask = DATA / "maskbench" / "public.jsonl"
    bfcl = DATA / "bfcl" / "public.jsonl"
    if not mask.is_file() or not bfcl.is_file():
        raise FileNotFoundError("needs ../shared/data/maskbench and ../shared/data/bfcl")
    with mask.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            for n, test in enumerate(row["tests"]):
                data = test["data"]
                small = len(json.dumps(data)) <= max_chars
                if test["valid"] and isinstance(data, (dict, list)) and data and small:
                    yield f"maskbench:{row['unique_id']}:{n}", data
    with bfcl.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            for call in row["ground_truth"]:
                if isinstance(call, dict):
                    for name, args in call.items():
                        first = {k: v[0] for k, v in args.items() if isinstance(v, list) and v}
                        yield f"bfcl:{row['id']}", {"name": name, "arguments": first}


def corpus(per_kind: int = 300, seed: int = SEED) -> list[Case]:
    """``per_kind`` cases of each damage, drawn with a fixed seed."""
    docs = list(documents())
    cases: list[Case] = []
    for kind, damage in DAMAGES.items():
        rng = random.Random(f"{seed}:{kind}")
        order = rng.sample(range(len(docs)), len(docs))
        made = 0
        for n in order:
            if made == per_kind:
                break
            source, doc = docs[n]
            got = damage(doc, rng, rng.random() < 0.6)
            if got is None or got[1] is None:
                continue
            cases.append(Case(kind, got[0], got[1], source))
            made += 1
    return cases


def same(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but True != 1; dict order ignored."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=300)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    with args.out.open("w", encoding="utf-8") as fh:
        for case in corpus(args.per_kind, args.seed):
            row = {"kind": case.kind, "text": case.text, "expected": case.expected}
            fh.write(json.dumps({**row, "source": case.source}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
