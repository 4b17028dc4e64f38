"""Language-model access: :class:`~agent.llm.local.LocalInference` holds a
:class:`~agent.llm.frontend.Frontend` (PyTorch or MLX) and the
``StructuringEngine``; :class:`~agent.llm.tokenizer.Tokenizer` wraps the
model's tokenizer and chat template; ``prompts/`` holds the system prompts.
"""
