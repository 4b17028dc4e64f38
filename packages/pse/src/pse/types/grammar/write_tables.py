"""Write the shipped tables of the ready-made grammars (see ``shipped.py``).

Run ``python -m pse.types.grammar.write_tables``.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from pse.types.grammar.default_grammars.bash import BashGrammar
from pse.types.grammar.default_grammars.python import PythonGrammar
from pse.types.grammar.lark import LarkGrammar, encode_tables, lower_tables
from pse.types.grammar.shipped import FOLDER, SUFFIX, table_key


def ready_made() -> dict[str, LarkGrammar]:
    """The ready-made grammars whose tables are shipped: file stem -> grammar."""
    return {"python": PythonGrammar(), "bash": BashGrammar()}


def lowered_document(grammar: LarkGrammar) -> dict[str, Any]:
    """A shipped file's content for ``grammar``: its key and its tables, lowered now."""
    tables = lower_tables(grammar, grammar.start)
    key = table_key(grammar.lark_grammar, grammar.start, grammar.lexer)
    tables_doc: dict[str, Any] = json.loads(encode_tables(tables))
    return {"key": key} | tables_doc


def main() -> None:
    folder = Path(str(files(FOLDER)))
    for stem, grammar in ready_made().items():
        path = folder / (stem + SUFFIX)
        path.write_text(json.dumps(lowered_document(grammar)) + "\n", encoding="utf-8")
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
