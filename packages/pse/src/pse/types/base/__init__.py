"""The composable building blocks of every grammar."""

from pse.types.base.any import AnyStateMachine
from pse.types.base.chain import ChainStateMachine
from pse.types.base.character import CharacterStateMachine
from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.base.wait_for import WaitFor

__all__ = [
    "AnyStateMachine",
    "ChainStateMachine",
    "CharacterStateMachine",
    "EncapsulatedStateMachine",
    "LoopStateMachine",
    "PhraseStateMachine",
    "WaitFor",
]
