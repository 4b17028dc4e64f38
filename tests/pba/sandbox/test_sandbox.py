"""The Python sandbox: limits hold, secrets stay out, and the caller survives runaway code."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pytest
from agent.sandbox import run_python


def test_runs_code_and_captures_output() -> None:
    result = run_python("import sys\nprint('hello', 6 * 7)\nprint('oops', file=sys.stderr)")
    assert result.ok
    assert result.stdout == "hello 42\n"
    assert result.stderr == "oops\n"
    assert not result.truncated and not result.timed_out and not result.memory_exceeded


def test_failure_is_reported_with_traceback() -> None:
    result = run_python("raise KeyError('missing')")
    assert result.exit_code == 1 and not result.ok
    assert "KeyError: 'missing'" in result.stderr
    assert "[exit status 1]" in result.summary()


def test_text_that_is_not_unicode_is_a_syntax_error_in_the_child() -> None:
    result = run_python("print('a\ud800b')")
    assert not result.ok and "SyntaxError" in result.stderr


def test_environment_is_an_allow_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-secret")
    monkeypatch.setenv("PBA_HARMLESS", "x")
    result = run_python(
        "import os, json\nprint(json.dumps(dict(os.environ)))", env={"GIVEN": "yes"}
    )
    assert result.ok, result.stderr
    assert "secret" not in result.stdout
    names = set(__import__("json").loads(result.stdout))
    assert names <= {
        "PATH",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "TZ",
        "HOME",
        "TMPDIR",
        "PYTHONIOENCODING",
        "PYTHONDONTWRITEBYTECODE",
        "GIVEN",
    }
    assert "GIVEN" in names


def test_fresh_working_directory_is_removed_afterwards() -> None:
    code = "import os\nprint(os.getcwd())\nprint(os.listdir('.'))\nopen('note.txt', 'w').write('x')"
    first = run_python(code)
    second = run_python(code)
    assert first.ok and second.ok, first.stderr
    first_dir = first.stdout.splitlines()[0]
    assert first_dir != second.stdout.splitlines()[0]
    assert first.stdout.splitlines()[1] == "['main.py']"  # nothing left from earlier runs
    assert not Path(first_dir).exists()


def test_output_is_truncated() -> None:
    result = run_python("print('x' * 100_000)", max_output_chars=1000)
    assert result.ok and result.truncated
    assert len(result.stdout) == 1000
    assert "[output truncated]" in result.summary()


def test_endless_output_is_bounded() -> None:
    result = run_python(
        "while True:\n    print('y' * 10_000)", timeout_s=5, max_file_mb=1, max_output_chars=500
    )
    assert not result.ok and result.truncated
    assert len(result.stdout) == 500
    assert "File too large" in result.stderr or result.exit_code != 0


def test_infinite_loop_is_stopped() -> None:
    started = time.monotonic()
    result = run_python("while True:\n    pass", timeout_s=1.5)
    elapsed = time.monotonic() - started
    assert result.timed_out and result.exit_code is None and not result.ok
    assert 1.4 < elapsed < 6
    assert "time limit" in result.summary()


def test_ten_gigabyte_allocation_is_stopped() -> None:
    result = run_python("data = bytearray(10 * 1024**3)\nprint('allocated')", memory_mb=512)
    assert result.memory_exceeded and not result.ok
    assert "allocated" not in result.stdout
    assert "memory limit" in result.summary()


def test_gradual_allocation_is_stopped() -> None:
    code = "chunks = []\nwhile True:\n    chunks.append(bytearray(50 * 1024**2))"
    result = run_python(code, memory_mb=300, timeout_s=20)
    assert result.memory_exceeded, result.summary()


def _processes_are_capped() -> bool:
    probe = run_python(
        "import os, time\nkids = []\n"
        "for _ in range(12):\n"
        "    try:\n        pid = os.fork()\n    except OSError:\n        break\n"
        "    if pid == 0:\n        time.sleep(5)\n        os._exit(0)\n"
        "    kids.append(pid)\n"
        "print(len(kids))",
        max_processes=4,
        timeout_s=10,
    )
    return probe.ok and int(probe.stdout) < 12


def test_fork_bomb_is_stopped_and_leaves_nothing_behind() -> None:
    if not _processes_are_capped():
        pytest.skip("no process cap here (neither a writable pids cgroup nor RLIMIT_NPROC)")
    code = (
        "import os, sys\nprint(os.getcwd(), flush=True)\n"
        "while True:\n    try:\n        os.fork()\n    except OSError:\n        pass"
    )
    result = run_python(code, timeout_s=2, max_processes=16)
    assert result.timed_out and not result.ok
    marker = result.stdout.split()[0]
    assert marker.startswith(tempfile.gettempdir())
    time.sleep(0.2)
    survivors = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    survivors.append(entry.name)
            except OSError:
                continue
    assert survivors == []


def test_background_children_do_not_outlive_the_run() -> None:
    code = (
        "import subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print(child.pid)"
    )
    result = run_python(code, timeout_s=10)
    assert result.ok, result.stderr
    pid = int(result.stdout)
    time.sleep(0.2)
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()


def test_crashes_are_reported_and_the_caller_survives() -> None:
    assert run_python("import os\nos._exit(9)").exit_code == 9
    aborted = run_python("import os\nos.abort()")
    assert aborted.exit_code == -6 and "SIGABRT" in aborted.summary()
    crashed = run_python("import ctypes\nctypes.string_at(0)")
    assert crashed.exit_code == -11 and "SIGSEGV" in crashed.summary()
    assert run_python("print(1)").stdout == "1\n"
