"""The references the Python and Bash grammars are judged against.

``python_accepts``: CPython's own parser (``ast.parse``), the judge of ``PythonGrammar``.
``bash_accepts``: ``bash -n`` (syntax only, nothing runs), the judge of ``BashGrammar``.
Shared by the grammar tests and ``benchmarks/bench_code_model.py``.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import warnings

BASH = shutil.which("bash")


def python_accepts(code: str) -> bool:
    """Whether ``ast.parse`` accepts ``code`` (warnings such as invalid escapes are ignored)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(code)
        except (SyntaxError, ValueError):  # ValueError: NUL bytes
            return False
    return True


def bash_accepts(code: str) -> bool:
    """Whether ``bash -n`` accepts ``code`` (exit status 0; warnings are not errors)."""
    if BASH is None:
        raise RuntimeError("bash is not installed: `bash -n` is the Bash reference")
    run = subprocess.run([BASH, "-n"], input=code.encode(), capture_output=True, check=False)
    return run.returncode == 0
