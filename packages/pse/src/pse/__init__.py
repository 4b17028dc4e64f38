"""Proxy Structuring Engine: constrain language model output to a structure.

Framework-neutral: no deep-learning framework or ``transformers`` is imported
here; adapters (``pse-torch``, ``pse-tf``, ``pse-jax``, ``pse-mlx``) add them.
"""

from pse.structuring_engine import StructuringEngine
from pse.vocabulary import load_vocabulary

__all__ = ["StructuringEngine", "load_vocabulary"]
