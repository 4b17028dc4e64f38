"""The PSE quickstart on the embedded SmolLM2-135M-Instruct: ``python -m pse_torch.demo``.

1. The documented quickstart: a Pydantic ``UserProfile`` -> ``PSE_Llama.from_pretrained``
   -> ``engine.configure`` -> ``generate`` -> ``get_structured_output``.
2. A function call from a Python signature.
3. A nested JSON Schema.

Each prints the raw output, the parsed object, the validation result and the
decoding speed (new tokens / wall time of ``generate``); the last line is the
median over the three. The schema-based parts need the JSON-Schema compiler
(``pse.types.json.schema_machine``); where it is not available yet
the demo says so and shows the same flow with ``JsonStateMachine`` instead.

The first run converts the embedded GGUF into the model cache in a child
process: dequantizing in the demo's own process left its first generation
several times slower than the rest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

import torch
from pydantic import BaseModel
from transformers import AutoTokenizer, LlamaForCausalLM

from pse import StructuringEngine
from pse.types.json.json_value import JsonStateMachine
from pse_torch.mixin import PSETorchMixin
from pse_torch.model import cache_dir, convert


class PSE_Llama(PSETorchMixin, LlamaForCausalLM):  # type: ignore[misc]  # noqa: N801
    pass


class UserProfile(BaseModel):
    user_id: int
    username: str
    is_active: bool
    roles: list[str]


def book_flight(origin: str, destination: str, passengers: int, window_seat: bool = False) -> None:
    """Book a flight.

    Args:
        origin: IATA code of the departure airport.
        destination: IATA code of the arrival airport.
        passengers: number of travellers.
        window_seat: whether to reserve window seats.
    """


ORDER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "order_id": {"type": "string"},
        "customer": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
            "required": ["name", "email"],
        },
        "items": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "sku": {"type": "string"},
                    "quantity": {"type": "integer", "minimum": 1},
                },
                "required": ["sku", "quantity"],
            },
        },
    },
    "required": ["order_id", "customer", "items"],
}


def _prompt_ids(tokenizer: Any, prompt: str, device: Any) -> torch.Tensor:
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt}], add_generation_prompt=True, return_dict=False
    )
    return torch.tensor([ids], device=device)


def _configure(engine: StructuringEngine, structure: Any) -> bool:
    """Configure ``structure``; fall back on any JSON value when schemas are not supported yet."""
    try:
        engine.configure(structure)
        return True
    except TypeError as exc:
        print(f"  (schema sources are not supported yet: {exc}; using JsonStateMachine)")
        engine.configure(JsonStateMachine())
        return False


def _validate(value: Any, structure: Any) -> str:
    if isinstance(structure, type) and issubclass(structure, BaseModel):
        return "valid" if isinstance(value, structure) else "INVALID"
    if isinstance(structure, dict):
        try:
            import jsonschema
        except ImportError:
            return "not checked (pip install jsonschema)"
        try:
            jsonschema.validate(value, structure)
            return "valid (jsonschema)"
        except jsonschema.ValidationError as exc:
            return f"INVALID: {exc.message}"
    if callable(structure):
        import inspect

        try:
            arguments = value.get("arguments", value) if isinstance(value, dict) else value
            inspect.signature(structure).bind(**arguments)
            return "valid (binds to the signature)"
        except TypeError as exc:
            return f"INVALID: {exc}"
    return "n/a"


def run_case(
    model: Any,
    tokenizer: Any,
    title: str,
    structure: Any,
    prompt: str,
    do_sample: bool,
    max_new_tokens: int,
) -> float:
    """Run one example; return its decoding speed in tokens/s."""
    print(f"\n=== {title} ===")
    model.engine.reset()
    schema_ok = _configure(model.engine, structure)
    input_ids = _prompt_ids(tokenizer, prompt, model.device)
    started = time.perf_counter()
    output_ids = model.generate(input_ids, max_new_tokens=max_new_tokens, do_sample=do_sample)
    elapsed = time.perf_counter() - started
    new = output_ids.shape[1] - input_ids.shape[1]
    output_text = tokenizer.decode(output_ids[0][input_ids.shape[-1] :], skip_special_tokens=True)
    print(f"Raw Output (Guided by PSE, {new} tokens, {new / elapsed:.1f} tok/s):\n{output_text}")
    output_type = structure if schema_ok and isinstance(structure, type) else None
    parsed = model.engine.get_structured_output(output_type)
    print(f"\nParsed Object:\n{parsed!r}")
    if schema_ok:
        print(f"\nValidation: {_validate(parsed, structure)}")
    else:
        try:
            json.loads(output_text)
            print("\nValidation: valid JSON (schema not enforced: compiler unavailable)")
        except json.JSONDecodeError as exc:
            print(f"\nValidation: INVALID JSON: {exc}")
    return float(new / elapsed)


def model_path() -> Any:
    """The converted model, converting it first in a child process when it is missing."""
    if not (cache_dir() / "config.json").is_file():
        subprocess.run(
            [sys.executable, "-c", "from pse_torch.model import convert; convert()"], check=True
        )
    return convert()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--greedy", action="store_true", help="greedy decoding (default: sampling)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-new-tokens", type=int, default=200)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_flush_denormal(True)  # denormals slow CPU decoding of some prompts 10x

    # 3. Load the model and tokenizer: the embedded default, converted once to bf16.
    path = model_path()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = PSE_Llama.from_pretrained(path, dtype=torch.bfloat16)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if model.config.pad_token_id is None:
        model.config.pad_token_id = tokenizer.pad_token_id

    # 4. The engine, attached as model.engine.
    model.engine = StructuringEngine(tokenizer, multi_token_sampling=True)

    do_sample = not args.greedy
    speeds = []
    speeds.append(
        run_case(
            model,
            tokenizer,
            "Quickstart: Pydantic UserProfile",
            UserProfile,
            "Generate a user profile for user ID 999, username 'tester', active status true, "
            "roles ['qa', 'dev']. Output ONLY the JSON object.",
            do_sample,
            args.max_new_tokens,
        )
    )
    speeds.append(
        run_case(
            model,
            tokenizer,
            "Function call from a signature: book_flight",
            book_flight,
            "Book a flight from SFO to JFK for 2 passengers with window seats. "
            "Answer with the function call arguments as JSON.",
            do_sample,
            args.max_new_tokens,
        )
    )
    speeds.append(
        run_case(
            model,
            tokenizer,
            "Nested JSON Schema: an order",
            ORDER_SCHEMA,
            "Order A-17: Jane Doe (jane@example.com) buys 2 of SKU X1 and 1 of SKU Y9. "
            "Output the order as JSON.",
            do_sample,
            args.max_new_tokens,
        )
    )
    shown = ", ".join(f"{speed:.1f}" for speed in speeds)
    median = statistics.median(speeds)
    threads = torch.get_num_threads()
    print(f"\nDecoding speed: {median:.1f} tok/s median ({shown}), {threads} CPU threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
