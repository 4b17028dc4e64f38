"""``Tokenizer``: a Hugging Face tokenizer with the model's chat template."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["Tokenizer"]


class Tokenizer:
    """Encodes prompts (plain text or chat messages) and decodes token ids.

    ``hf`` is the wrapped Hugging Face tokenizer (what ``StructuringEngine``
    takes).
    """

    def __init__(self, hf_tokenizer: Any) -> None:
        self.hf = hf_tokenizer

    @staticmethod
    def load(model_path: str | Path) -> Tokenizer:
        """The tokenizer saved in a local model directory.

        Raises:
            FileNotFoundError: ``model_path`` is not a directory with tokenizer files.
        """
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise FileNotFoundError(f"no model directory at {path}")
        if not any((path / name).is_file() for name in ("tokenizer.json", "tokenizer_config.json")):
            raise FileNotFoundError(
                f"{path} has no tokenizer.json or tokenizer_config.json: not a Hugging Face "
                "model directory"
            )
        from transformers import AutoTokenizer  # noqa: PLC0415 - optional framework

        return Tokenizer(AutoTokenizer.from_pretrained(path))

    def encode(
        self,
        prompt: str | list[dict[str, Any]],
        add_generation_prompt: bool = True,
    ) -> list[int]:
        """Token ids of ``prompt``: chat messages go through the chat template."""
        if isinstance(prompt, str):
            return [int(i) for i in self.hf.encode(prompt, add_special_tokens=False)]
        if getattr(self.hf, "chat_template", None):
            text = self.hf.apply_chat_template(
                prompt, tokenize=False, add_generation_prompt=add_generation_prompt
            )
        else:  # no template: a plain transcript
            text = "".join(f"{m['role']}: {m['content']}\n" for m in prompt)
            if add_generation_prompt:
                text += "assistant: "
        return [int(i) for i in self.hf.encode(text, add_special_tokens=False)]

    def decode(self, token_ids: list[int], skip_special_tokens: bool = True) -> str:
        return str(self.hf.decode(token_ids, skip_special_tokens=skip_special_tokens))
