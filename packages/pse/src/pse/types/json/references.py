"""The references family: ``$ref``, ``$id`` (``id`` in draft 4), ``$anchor``,
``$dynamicRef``/``$dynamicAnchor``, 2019-09's ``$recursiveRef``/``$recursiveAnchor``,
``registry=``.

``References`` indexes the resources (documents and subschemas with an
identifier) and anchors of one compilation, the root schema's and those of the
registry's documents, and resolves a ``$ref`` to the schema it names with that
schema's base URI and JSON pointer. Nothing is ever fetched.

Up to draft 7 a ``$ref`` overrides all of its siblings, the identifier
included; from 2019-09 on, siblings of ``$ref`` apply.

Dynamic scope (2020-12): every schema node carries the ``$dynamicAnchor``
names bound by the schema resources entered on the way to it (the root's,
those of nested ``$id`` subschemas, those a ``$ref`` jumps into), each name
bound to its outermost resource. A ``$dynamicRef`` resolves like ``$ref``;
when that target declares ``$dynamicAnchor`` with the fragment's name (the
"bookend"), the outermost binding of the name wins. Nodes are interned with
their scope, so the same subschema reached through different scopes compiles
apart; names are finitely many, so recursion stays finite. 2019-09's
``$recursiveRef`` works alike: when its target's root declares
``$recursiveAnchor: true``, it goes to the outermost resource of the unbroken
run of such resources entered last (``RECURSIVE`` in the scope).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pse_core.errors import SchemaError

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext
    from pse.types.json.schema_ir import Alt, Node, Scope

#: Keywords whose value maps names to subschemas.
SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
#: Keywords whose value is a subschema or a list of them.
SCHEMA_PLACES = frozenset(
    {
        "items",
        "prefixItems",
        "additionalItems",
        "additionalProperties",
        "contains",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
        "allOf",
        "anyOf",
        "oneOf",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

#: The scope entry of 2019-09's recursive anchor (no $dynamicAnchor name starts with "$").
RECURSIVE = "$recursiveAnchor"

#: A resolved reference: the schema, its base URI and its JSON pointer.
Target = tuple[Any, str, str]


def escape_pointer(part: str) -> str:
    """One JSON pointer token (RFC 6901)."""
    return part.replace("~", "~0").replace("/", "~1")


def join_uri(base: str, ref: str) -> str:
    """RFC 3986 reference resolution that also works for ``urn:`` and ``file:`` bases."""
    if not base or _SCHEME.match(ref):
        return ref
    if ref.startswith("#"):
        return base.split("#", 1)[0] + ref
    m = _SCHEME.match(base)
    scheme = m.group(0)[:-1] if m else ""
    if not scheme or scheme in urllib.parse.uses_relative:
        return urllib.parse.urljoin(base, ref)
    if "/" not in base[len(scheme) + 1 :]:
        return ref  # e.g. a URN: nothing to resolve against
    joined = urllib.parse.urljoin("http" + base[len(scheme) :], ref)
    return scheme + joined[len("http") :] if joined.startswith("http:") else joined


def schema_uri_of(schema: Any) -> str:
    """The ``$schema`` a schema declares ("" when none)."""
    declared = schema.get("$schema", "") if isinstance(schema, dict) else ""
    return declared if isinstance(declared, str) else ""


def draft_of(schema_uri: str) -> str:
    """The draft a ``$schema`` URI selects: "4", "7" (drafts 6 and 7) or "2020-12"."""
    if "draft-04" in schema_uri or "draft-03" in schema_uri:
        return "4"
    if "draft-07" in schema_uri or "draft-06" in schema_uri:
        return "7"
    return "2020-12"


def dialect_of(schema_uri: str) -> str:
    """What a ``$schema`` URI names, finer than ``draft_of``: "6" and "2019-09" apart."""
    if "draft-06" in schema_uri:
        return "6"
    if "2019-09" in schema_uri:
        return "2019-09"
    return draft_of(schema_uri)


def registry_documents(registry: Any) -> dict[str, Any]:
    """The documents of a ``registry=`` option by URI (without an empty fragment).

    Accepts a mapping from URI to schema or a ``referencing.Registry`` (a
    mapping from URI to ``Resource``, whose ``contents`` is the schema); only
    what it already holds is used, nothing is retrieved.
    """
    if registry is None:
        return {}
    if not isinstance(registry, Mapping):
        raise SchemaError(
            "registry must map URIs to schemas (a dict or a referencing.Registry), "
            f"got {type(registry).__name__}",
            code="invalid-schema",
        )
    documents: dict[str, Any] = {}
    for uri in registry:
        if not isinstance(uri, str) or not _SCHEME.match(uri):
            raise SchemaError(f"registry key {uri!r} is not an absolute URI", code="invalid-schema")
        value = registry[uri]
        document = value if isinstance(value, dict | bool) else getattr(value, "contents", value)
        if not isinstance(document, dict | bool):
            raise SchemaError(
                f"registry entry {uri!r} is not a schema (an object or a boolean)",
                code="invalid-schema",
            )
        documents[uri.split("#", 1)[0]] = document
    return documents


#: A JSON pointer as ``References._index`` keeps it: the text, or (the parent's
#: pointer, a token, an optional second token), spelt out by ``_spelt``.
_Where = str | tuple[Any, str, str | None]


def _spelt(where: _Where) -> str:
    """The JSON pointer text of ``where``."""
    tokens: list[str] = []
    while not isinstance(where, str):
        where, first, second = where
        if second is not None:
            tokens.append(escape_pointer(second))
        tokens.append(escape_pointer(first))
    return where + "".join(f"/{token}" for token in reversed(tokens))


class References:
    """The resources and anchors of one compilation, and ``$ref`` resolution.

    ``draft`` is "4", "7" or "2020-12"; ``dialect`` what the root's
    ``$schema`` names (see ``dialect_of``): registry documents that declare
    another one are declined when a ``$ref`` reaches them.
    """

    def __init__(self, root: Any, draft: str, dialect: str, registry: Any = None) -> None:
        self.draft = draft
        #: Draft 4 spells the base-URI keyword `id`; `$id` is unknown there.
        self.id_keyword = "id" if draft == "4" else "$id"
        self._resources: dict[str, tuple[Any, str]] = {}
        self._anchors: dict[str, Target] = {}
        self._other_drafts: dict[str, str] = {}
        #: Per resource URI: its ``$dynamicAnchor`` names and their anchor URIs.
        self._dynamic: dict[str, dict[str, str]] = {}
        #: Resource URIs whose root declares ``$recursiveAnchor: true`` (2019-09).
        self._recursive: set[str] = set()
        self._index(root, "", "", dialect == "2019-09")
        #: The dialect of each registry document that declares one of its own.
        self.dialects: dict[str, str] = {}
        for uri, document in registry_documents(registry).items():
            declared = schema_uri_of(document)
            if declared and dialect_of(declared) != dialect:
                if "4" in (draft, dialect_of(declared)):  # `id` spells the base there
                    self._other_drafts[uri] = declared
                    continue
                self.dialects[uri] = dialect_of(declared)
            self._resources.setdefault(uri, (document, f"{uri}#"))
            self._index(document, uri, f"{uri}#", self.dialects.get(uri, dialect) == "2019-09")
        #: The base URI of the root schema.
        self.root_base = self.base_of(root, "")
        #: Whether any ``$dynamicAnchor`` or ``$recursiveAnchor`` is declared
        #: (else scopes stay empty).
        self.has_dynamic = bool(self._dynamic or self._recursive)

    def schema_id(self, schema: Any) -> str | None:
        """The identifier (``$id``, or ``id`` in draft 4) that ``schema`` declares.

        Up to draft 7 a ``$ref`` overrides all of its siblings, the identifier
        included: such an object declares nothing and keeps the base URI in
        force around it.
        """
        if not isinstance(schema, dict):
            return None
        if "$ref" in schema and self.draft in ("4", "7"):
            return None
        sid = schema.get(self.id_keyword)
        return sid if isinstance(sid, str) else None

    def base_of(self, schema: Any, base: str) -> str:
        """The base URI in force inside ``schema`` when ``base`` is in force around it."""
        sid = self.schema_id(schema)
        if sid is not None and not sid.startswith("#"):
            return join_uri(base, sid).split("#", 1)[0]
        return base

    def _index(self, schema: Any, base: str, pointer: str, recursive: bool) -> None:
        """Record the resources and anchors below ``schema`` (depth first, in
        document order; iterative, so any nesting depth is indexed);
        ``recursive``: the document is read as 2019-09 (``$recursiveAnchor``).
        A child's pointer is kept as (parent, token, token) and spelt out only
        where a resource or anchor records it."""
        if recursive and isinstance(schema, dict) and schema.get("$recursiveAnchor") is True:
            self._recursive.add(self.base_of(schema, base))
        stack: list[tuple[Any, str, _Where]] = [(schema, base, pointer)]
        while stack:
            schema, base, where = stack.pop()
            if isinstance(schema, list):
                stack += reversed([(x, base, (where, str(i), None)) for i, x in enumerate(schema)])
                continue
            if not isinstance(schema, dict):
                continue
            sid = self.schema_id(schema)
            if sid is not None and not sid.startswith("#"):
                base = join_uri(base, sid).split("#", 1)[0]
                self._resources[base] = (schema, _spelt(where))
                if recursive and schema.get("$recursiveAnchor") is True:
                    self._recursive.add(base)
            elif sid is not None and sid.startswith("#") and len(sid) > 1:
                self._anchors[join_uri(base, sid)] = (schema, base, _spelt(where))
            dynamic = schema.get("$dynamicAnchor") if self.draft == "2020-12" else None
            if isinstance(dynamic, str):  # also a plain anchor
                self._anchors[f"{base}#{dynamic}"] = (schema, base, _spelt(where))
                self._dynamic.setdefault(base, {})[dynamic] = f"{base}#{dynamic}"
            anchor = schema.get("$anchor")
            if isinstance(anchor, str):
                self._anchors[f"{base}#{anchor}"] = (schema, base, _spelt(where))
            if where == "":
                self._resources.setdefault(base, (schema, ""))
            children: list[tuple[Any, str, _Where]] = []
            for key, value in schema.items():
                if key in SCHEMA_MAPS and isinstance(value, dict):
                    for name, sub in value.items():
                        children.append((sub, base, (where, key, name)))
                elif key in SCHEMA_PLACES:
                    children.append((value, base, (where, key, None)))
            stack += reversed(children)

    def enter(self, scope: Scope, resource: str) -> Scope:
        """``scope`` once ``resource`` is entered: its dynamic anchors bind the
        names that are not bound yet (the outermost binding wins). 2019-09:
        ``RECURSIVE`` is bound to the outermost resource of the unbroken run of
        entered resources whose roots declare ``$recursiveAnchor: true``."""
        anchors = self._dynamic.get(resource)
        if anchors:
            bound = {name for name, _ in scope}
            scope += tuple((n, uri) for n, uri in sorted(anchors.items()) if n not in bound)
        if self._recursive:
            run = [uri for name, uri in scope if name == RECURSIVE]
            scope = tuple(e for e in scope if e[0] != RECURSIVE)
            if resource in self._recursive:
                scope += ((RECURSIVE, run[0] if run else resource),)
        return scope

    def resolve_recursive(self, ref: str, base: str, pointer: str, scope: Scope) -> Target:
        """What a 2019-09 ``$recursiveRef`` at ``pointer`` names within ``scope``."""
        target = self.resolve(ref, base, pointer)
        if isinstance(target[0], dict) and target[0].get("$recursiveAnchor") is True:
            for name, uri in scope:
                if name == RECURSIVE:
                    schema, root_pointer = self._resources[uri]
                    return schema, uri, root_pointer
        return target

    def resolve_dynamic(self, ref: str, base: str, pointer: str, scope: Scope) -> Target:
        """What a ``$dynamicRef`` at ``pointer`` names within the dynamic ``scope``."""
        target = self.resolve(ref, base, pointer)
        name = join_uri(base, ref).partition("#")[2]
        schema = target[0]
        bookended = isinstance(schema, dict) and schema.get("$dynamicAnchor") == name
        if bookended:
            for bound, uri in scope:
                if bound == name:
                    return self._anchors[uri]
        return target

    def resolve(self, ref: str, base: str, pointer: str) -> Target:
        """What ``ref`` (a ``$ref`` at ``pointer``, with ``base`` in force) names."""

        def unresolved(message: str, code: str = "unresolved-ref") -> SchemaError:
            return SchemaError(message, code=code, keyword="$ref", pointer=pointer)

        uri = join_uri(base, ref)
        doc_uri, _, fragment = uri.partition("#")
        if uri in self._anchors:
            return self._anchors[uri]
        if doc_uri in self._other_drafts:
            raise unresolved(
                f"$ref {ref!r}: document {doc_uri!r} declares another draft "
                f"({self._other_drafts[doc_uri]}); references across draft 4 are not supported",
                code="unsupported-keyword",
            )
        if doc_uri not in self._resources:
            raise unresolved(
                f"$ref {ref!r}: no document {doc_uri!r} in this schema or its "
                "registry (nothing is fetched; pass it with registry=)"
            )
        target, target_pointer = self._resources[doc_uri]
        fragment = urllib.parse.unquote(fragment)
        if fragment and not fragment.startswith("/"):
            raise unresolved(f"$ref {ref!r}: unknown anchor")
        target_base = doc_uri
        for part in fragment.split("/")[1:] if fragment else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                raise unresolved(f"$ref {ref!r} does not resolve")
            target_pointer += "/" + escape_pointer(part)
            target_base = self.base_of(target, target_base)
        return target, target_base, target_pointer


def ref_alts(ctx: SchemaContext, node: Node, ref: Any, keyword: str = "$ref") -> list[Alt]:
    """The alternatives of the schema a ``$ref`` (``$dynamicRef``, ``$recursiveRef``)
    of ``node`` names."""
    if not isinstance(ref, str):
        raise SchemaError(
            f"{keyword} must be a string",
            code="invalid-schema",
            keyword=keyword,
            pointer=f"{node.pointer}/{keyword}",
        )
    return ctx.ir(ctx.resolve(ref, node, keyword))


__all__ = [
    "SCHEMA_MAPS",
    "SCHEMA_PLACES",
    "References",
    "dialect_of",
    "draft_of",
    "escape_pointer",
    "join_uri",
    "ref_alts",
    "registry_documents",
    "schema_uri_of",
]
