"""Ready-made grammars: Python 3.11 (``python``) and Bash (``bash``)."""
