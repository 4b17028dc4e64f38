"""JsonStateMachine: any JSON value."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import RefStateMachine, StateMachine, Stepper

from pse.process_caches import process_cache
from pse.types._values import children, is_machine
from pse.types.array import ArrayStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.boolean import BooleanStateMachine
from pse.types.json.machines import seal_grammar
from pse.types.number import NumberStateMachine
from pse.types.object import ObjectStateMachine
from pse.types.string import StringStateMachine


class JsonStepper(Stepper):
    """A position in a ``JsonStateMachine``."""

    __slots__ = ()


class JsonStateMachine(StateMachine):
    """Matches one JSON value: object, array, string, ``null``, boolean or number.

    Objects and arrays nested inside refer back to this same machine (through a
    ``RefStateMachine``), so construction is finite. The value is the Python
    value ``json.loads`` would give.
    """

    stepper_class: ClassVar[type[Stepper]] = JsonStepper

    def __init__(self, is_optional: bool = False, identifier: str | None = None) -> None:
        self_ref = RefStateMachine()
        null = PhraseStateMachine("null")
        super().__init__(
            {
                0: [
                    (ObjectStateMachine(value_state_machine=self_ref), "$"),
                    (ArrayStateMachine(value_state_machine=self_ref), "$"),
                    (StringStateMachine(), "$"),
                    (null, "$"),
                    (BooleanStateMachine(), "$"),
                    (NumberStateMachine(), "$"),
                ]
            },
            start_state=0,
            end_states=["$"],
            is_optional=is_optional,
            identifier=identifier,
        )
        self_ref.set_target(self)
        seal_grammar(self)  # the self-reference becomes a back-edge: no cycle
        self.null_state_machine = null

    def stepper_value(self, stepper: Stepper) -> Any:
        """The value of the alternative being read (``None`` for ``null``)."""
        kids = children(stepper)
        if not kids:
            return None
        child = kids[-1]
        if is_machine(child.state_machine, self.null_state_machine):
            return None
        return child.get_current_value()


@process_cache()
def default_json_value() -> JsonStateMachine:
    """The shared ``JsonStateMachine`` used as the value of generic objects and arrays."""
    return JsonStateMachine()
