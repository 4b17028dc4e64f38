"""``uniqueItems`` for any item schema: a native node masks the duplicate item.

No automaton can remember which items an array already holds, but a stepper
can. The array is compiled as usual without ``uniqueItems`` (items, prefix
items, counts, ``contains``) and wrapped by the core's native check
(``pse_core._core.unique_items``): its stepper keeps, beside the array's own
positions, a canonical key of every complete item (JSON equality: numbers by
value, ``1 == 1.0``; objects in any key order; strings after unescaping), and
a token that completes an item equal to an earlier one is masked. The mask is
the array's mask less those tokens; no Python runs per token. An item is
complete when the text can only end there: a closed string, object or array,
a full ``true``, ``false`` or ``null``; a number when the ``,``, ``]`` or
whitespace after it arrives. A number whose exponent has more than 18 digits
is never complete (not compared, so never accepted).

An item's beginning is masked too when every value it may still become has
been seen, so that generation never reaches an item it cannot finish. Where
the beginning fixes the value (a literal's first byte; a number whose digits
are all zeros once its exponent begins), that value must be unseen. For a
finite item set of at most ``MAX_UNIQUE_CHECK_DOMAIN`` numbers (and as many
other scalars), the check is given the set and keeps an unseen value in
reach: a string's decoded prefix (an escape cut short included), a number's
sign and significant digits (its exponent, once begun) must fit one.

Small finite item sets keep the exact explicit graph of ``array_graph.py``;
for larger finite sets (enums, bounded integers or multiples) the array is
capped at the size of the set. Not covered (docs/json_schema.md): an item
schema with infinitely many values, or more than the check is given, whose
beginning leaves only seen values in reach through its own constraints (an
``anyOf`` whose other branches the sign or digits rule out, a bounded range
once an exponent begins); there generation can still reach an item it cannot
finish.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pse_core._core import StateMachine, unique_items

from pse.types.json.schema_ir import ArrAlt

if TYPE_CHECKING:
    from pse.types.json.compiler import Compiler


def needs_stepper(comp: Compiler, alt: ArrAlt) -> bool:
    """Whether ``alt`` has ``uniqueItems`` that the explicit graph cannot enforce."""
    from pse.types.json.json_array import MAX_UNIQUE_DOMAIN, _domain  # noqa: PLC0415

    if not alt.unique or (alt.max_items is not None and alt.max_items <= 1):
        return False
    domain = None if alt.prefix else _domain(comp, alt.items)
    return domain is None or len(domain) > MAX_UNIQUE_DOMAIN


def build_unique(comp: Compiler, alt: ArrAlt) -> StateMachine:
    """The array of ``alt`` under the uniqueness stepper, inside a native graph."""
    from pse.types.json.array_graph import (  # noqa: PLC0415
        domain_size,
        unique_check_domain,
        unique_check_machines,
    )
    from pse.types.json.json_array import ArraySchemaStateMachine  # noqa: PLC0415
    from pse.types.json.machines import NeverStateMachine  # noqa: PLC0415

    plain = replace(alt, unique=False)
    size = None if alt.prefix else domain_size(comp, alt.items)
    if size is not None and (plain.max_items is None or plain.max_items > size):
        plain = replace(plain, max_items=size)
        if plain.min_items > size:  # more distinct items than values: a dead end
            return NeverStateMachine()
    array = ArraySchemaStateMachine.from_alt(comp, plain)
    if isinstance(array, NeverStateMachine):  # no array at all: wrapped, it would look like one
        return array
    domain = None if alt.prefix else unique_check_domain(comp, alt.items)
    numbers, strings = (
        unique_check_machines(comp, alt.items) if domain is None and not alt.prefix else ([], [])
    )
    inner = unique_items(array, domain or (), numbers, strings)
    # An external node cannot be a grammar's root: it stands inside a graph.
    return StateMachine({0: [(inner, "$")]}, start_state=0, end_states=["$"])


__all__ = ["build_unique", "needs_stepper"]
