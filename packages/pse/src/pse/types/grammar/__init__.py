"""Grammar state machines: context-free grammars in Lark syntax, masked natively."""

from pse.types.grammar.lark import GrammarError, LarkGrammar, LarkGrammarStateMachine

__all__ = ["GrammarError", "LarkGrammar", "LarkGrammarStateMachine"]
