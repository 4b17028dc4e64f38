"""The compile budgets of the JSON Schema compiler, in one table.

Every budget bounds work or size at compile time; going over one gives a
``SchemaError`` (code ``too-complex`` or ``unsupported-keyword``) naming the
keyword and its JSON pointer, never a hang or a crash. ``LIMITS`` lists them
with their defaults and what they bound (docs/json_schema.md and
docs/concepts/limits.md render from it). The automata behind ``pattern`` and
``format`` have budgets of their own (``pse.automata``: NFA/DFA states).
"""

from __future__ import annotations

from typing import NamedTuple

#: Alternatives (one per JSON type and branch) one subschema may expand to.
MAX_ALTERNATIVES = 1024
#: Overlapping ``oneOf`` branches that are negated pairwise (more are declined).
MAX_ONE_OF_NEGATED = 16
#: Named properties of an object closed by ``additionalProperties: false`` that
#: ``not`` (or an overlapping ``oneOf``) negates: "a key beyond them" takes one
#: alternative per subset of them present (``2**n``).
MAX_NEGATED_NAMES = 4
#: ``anyOf`` branches under ``unevaluatedProperties``/``unevaluatedItems``
#: (the expansion has ``2**n - 1`` conjunctions).
MAX_ANY_OF_BRANCHES = 8
#: Items an array graph counts explicitly (``contains`` counts, small ``uniqueItems``),
#: and properties an object graph counts (past it, the native key check counts).
MAX_EXPLICIT_ITEMS = 256
#: Count keywords (``minLength``, ``maxItems``, ``minProperties``, ...): a larger
#: maximum is no bound (nothing generated comes near it), a larger minimum is
#: declined.
MAX_COUNT = 2**31 - 1
#: Values of a finite item set that ``uniqueItems`` tracks in the array graph.
MAX_UNIQUE_DOMAIN = 6
#: Numbers (and as many other values) of a finite item set that the native
#: ``uniqueItems`` check is given, to refuse an item's beginning whose unseen
#: values are all out of reach; larger sets get the check without it.
MAX_UNIQUE_CHECK_DOMAIN = 1024
#: ``patternProperties`` regions an object graph splits the undeclared keys into.
MAX_PATTERN_REGIONS = 4
#: Default of the ``max_object_states`` option: property-set states of one
#: object in any-order mode (``ordered_properties=False``).
MAX_OBJECT_STATES = 2048
#: Nesting of schema objects (objects in objects, arrays in arrays, ...).
MAX_DEPTH = 256
#: Python frames one nesting level takes while it compiles (measured); the
#: recursion limit is raised to ``MAX_DEPTH * FRAMES_PER_LEVEL`` + 1000 during
#: a compilation when it is lower.
FRAMES_PER_LEVEL = 16
#: Nesting the emptiness test follows before it answers "maybe not empty".
EMPTINESS_DEPTH = 8


class Limit(NamedTuple):
    name: str
    default: int
    bounds: str


LIMITS: tuple[Limit, ...] = (
    Limit("MAX_ALTERNATIVES", MAX_ALTERNATIVES, "typed alternatives one subschema expands to"),
    Limit("MAX_ONE_OF_NEGATED", MAX_ONE_OF_NEGATED, "overlapping oneOf branches negated"),
    Limit(
        "MAX_NEGATED_NAMES",
        MAX_NEGATED_NAMES,
        "named properties of a closed object that not negates (2**n alternatives)",
    ),
    Limit(
        "MAX_ANY_OF_BRANCHES",
        MAX_ANY_OF_BRANCHES,
        "anyOf branches when unevaluatedProperties/unevaluatedItems track annotations",
    ),
    Limit(
        "MAX_EXPLICIT_ITEMS",
        MAX_EXPLICIT_ITEMS,
        "items counted by contains/uniqueItems graphs, properties by object graphs",
    ),
    Limit("MAX_COUNT", MAX_COUNT, "count keywords: a larger maximum is no bound"),
    Limit("MAX_UNIQUE_DOMAIN", MAX_UNIQUE_DOMAIN, "finite item values uniqueItems tracks in-graph"),
    Limit(
        "MAX_UNIQUE_CHECK_DOMAIN",
        MAX_UNIQUE_CHECK_DOMAIN,
        "finite item values the native uniqueItems check keeps in reach",
    ),
    Limit("MAX_PATTERN_REGIONS", MAX_PATTERN_REGIONS, "patternProperties regions of one object"),
    Limit(
        "max_object_states",
        MAX_OBJECT_STATES,
        "property-set states of one object in any-order mode (a compile option)",
    ),
    Limit("MAX_DEPTH", MAX_DEPTH, "nesting depth of schema objects"),
    Limit("EMPTINESS_DEPTH", EMPTINESS_DEPTH, "nesting the emptiness test follows"),
)


def markdown_table() -> str:
    """``LIMITS`` as the Markdown table of docs/json_schema.md."""
    lines = ["| budget | default | bounds |", "|---|---|---|"]
    lines += [f"| `{x.name}` | {x.default:,} | {x.bounds} |" for x in LIMITS]
    return "\n".join(lines)


__all__ = [
    "EMPTINESS_DEPTH",
    "FRAMES_PER_LEVEL",
    "LIMITS",
    "MAX_ALTERNATIVES",
    "MAX_ANY_OF_BRANCHES",
    "MAX_NEGATED_NAMES",
    "MAX_COUNT",
    "MAX_DEPTH",
    "MAX_EXPLICIT_ITEMS",
    "MAX_ONE_OF_NEGATED",
    "MAX_OBJECT_STATES",
    "MAX_PATTERN_REGIONS",
    "MAX_UNIQUE_CHECK_DOMAIN",
    "MAX_UNIQUE_DOMAIN",
    "Limit",
    "markdown_table",
]
