"""Running Python code in a separate, limited process (see packages/pba/SANDBOX.md).

The code runs in a child interpreter with a wall-clock limit, an address-space
limit, a cap on processes, a fresh temporary working directory that is
removed afterwards, and an environment built from an allow-list (no API keys
or tokens of the caller). Its output is captured and truncated. This contains
mistakes and runaway code; it is not a security boundary against hostile code.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import IO

MEMORY_EXIT_CODE = 86
"""The child's exit status when the code ran out of memory (a ``MemoryError``)."""

_SAFE_VARIABLES = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
_PIDS_CGROUP = Path("/sys/fs/cgroup/pids")

_BOOTSTRAP = """\
import os, resource, runpy, sys
memory, cpu, files, nproc, cgroup, code_file, memory_exit = sys.argv[1:8]
if cgroup:
    with open(os.path.join(cgroup, "cgroup.procs"), "w") as procs:
        procs.write(str(os.getpid()))
for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CPU, cpu),
                     (resource.RLIMIT_FSIZE, files), (resource.RLIMIT_NPROC, nproc),
                     (resource.RLIMIT_CORE, "0")):
    if value:
        resource.setrlimit(limit, (int(value), int(value)))
sys.argv = [code_file]
sys.path.insert(0, os.getcwd())
try:
    runpy.run_path(code_file, run_name="__main__")
except MemoryError:
    sys.stderr.write("\\nMemoryError: the sandbox's memory limit was reached\\n")
    sys.stderr.flush()
    os._exit(int(memory_exit))
"""


@dataclass(frozen=True)
class SandboxResult:
    """What happened to one run: output, exit status and which limit stopped it."""

    stdout: str
    stderr: str
    exit_code: int | None
    """The child's exit status; negative for a signal; None if it was killed on timeout."""
    timed_out: bool
    memory_exceeded: bool
    truncated: bool
    duration_s: float

    @property
    def ok(self) -> bool:
        """Whether the code ran to completion with exit status 0."""
        return self.exit_code == 0 and not self.timed_out

    def summary(self) -> str:
        """The output and the outcome, as text for the agent's memory."""
        parts = []
        if self.stdout:
            parts.append(self.stdout.rstrip("\n"))
        if self.stderr:
            parts.append(f"[stderr]\n{self.stderr.rstrip()}")
        if self.timed_out:
            parts.append(f"[stopped: the time limit was reached after {self.duration_s:.1f} s]")
        elif self.memory_exceeded:
            parts.append("[stopped: the memory limit was reached]")
        elif self.exit_code is not None and self.exit_code < 0:
            parts.append(f"[stopped by signal {signal.Signals(-self.exit_code).name}]")
        elif self.exit_code:
            parts.append(f"[exit status {self.exit_code}]")
        if self.truncated:
            parts.append("[output truncated]")
        return "\n".join(parts) if parts else "[no output]"


def run_python(
    code: str,
    *,
    timeout_s: float = 10.0,
    memory_mb: int = 512,
    max_output_chars: int = 10_000,
    max_file_mb: int = 64,
    max_processes: int = 32,
    env: dict[str, str] | None = None,
) -> SandboxResult:
    """Run ``code`` as a script in a separate, limited Python process and wait for it.

    ``timeout_s`` is wall-clock time: past it the whole process group (and,
    where a pids cgroup is available, every process the code started) is
    killed. ``memory_mb`` caps each process's address space, ``max_file_mb``
    the size of any file written (the captured output included) and
    ``max_processes`` the processes the code may run at once. ``env`` adds
    variables to the allow-listed environment. Blocking: from async code call
    it through ``asyncio.to_thread``.
    """
    workdir = Path(tempfile.mkdtemp(prefix="pba-sandbox-"))
    cgroup = _make_pids_cgroup(max_processes)
    started = time.monotonic()
    try:
        code_file = workdir / "main.py"
        # A lone surrogate is written as is: the child reports a SyntaxError, the caller goes on.
        code_file.write_text(code, encoding="utf-8", errors="surrogatepass")
        environment = _environment(workdir, env)
        with (
            tempfile.TemporaryFile() as out,
            tempfile.TemporaryFile() as err,
        ):
            arguments = [
                sys.executable,
                "-I",
                "-c",
                _BOOTSTRAP,
                str(memory_mb * 1024 * 1024),
                str(int(timeout_s) + 2),
                str(max_file_mb * 1024 * 1024),
                "" if cgroup else str(_user_process_count() + max_processes),
                str(cgroup or ""),
                str(code_file),
                str(MEMORY_EXIT_CODE),
            ]
            process = subprocess.Popen(
                arguments,
                cwd=workdir,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
            timed_out = False
            try:
                process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
            _kill_all(process, cgroup)
            duration = time.monotonic() - started
            stdout, cut_out = _read(out, max_output_chars)
            stderr, cut_err = _read(err, max_output_chars)
        exit_code = None if timed_out else process.returncode
        return SandboxResult(
            stdout=stdout,
            stderr=stderr,
            exit_code=exit_code,
            timed_out=timed_out,
            memory_exceeded=exit_code == MEMORY_EXIT_CODE and "MemoryError" in stderr,
            truncated=cut_out or cut_err,
            duration_s=duration,
        )
    finally:
        if cgroup is not None:
            _remove_cgroup(cgroup)
        shutil.rmtree(workdir, ignore_errors=True)


def _environment(workdir: Path, extra: dict[str, str] | None) -> dict[str, str]:
    """An environment from an allow-list: nothing secret of the caller's is inherited."""
    environment = {name: os.environ[name] for name in _SAFE_VARIABLES if name in os.environ}
    environment.setdefault("PATH", os.defpath)
    environment.update(
        HOME=str(workdir),
        TMPDIR=str(workdir),
        PYTHONIOENCODING="utf-8",
        PYTHONDONTWRITEBYTECODE="1",
    )
    environment.update(extra or {})
    return environment


def _kill_all(process: subprocess.Popen[bytes], cgroup: Path | None) -> None:
    """Kill the child's process group and every process left in its cgroup, then reap."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.kill()
    process.wait()
    if cgroup is None:
        return
    procs = cgroup / "cgroup.procs"
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        try:
            pids = [int(line) for line in procs.read_text().split()]
        except OSError:
            return
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)


def _read(stream: IO[bytes], limit: int) -> tuple[str, bool]:
    """At most ``limit`` characters of a captured stream, and whether some were cut."""
    stream.seek(0)
    data = stream.read(limit * 4 + 4)
    more = bool(stream.read(1))
    text = data.decode("utf-8", errors="replace")
    if len(text) > limit or more:
        return text[:limit], True
    return text, False


def _make_pids_cgroup(max_processes: int) -> Path | None:
    """A fresh cgroup (v1 pids controller) capping the run's processes, where we may make one.

    ``RLIMIT_NPROC`` is not enforced for root, so as root the process cap
    needs a cgroup; elsewhere (or if cgroups cannot be written) this returns
    None and the rlimit is used.
    """
    if os.geteuid() != 0 or not (_PIDS_CGROUP / "cgroup.procs").exists():
        return None
    path = _PIDS_CGROUP / f"pba-sandbox-{uuid.uuid4().hex[:12]}"
    try:
        path.mkdir()
        (path / "pids.max").write_text(str(max_processes))
    except OSError:
        with contextlib.suppress(OSError):
            path.rmdir()
        return None
    return path


def _remove_cgroup(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.rmdir()


def _user_process_count() -> int:
    """How many processes this user runs now (``RLIMIT_NPROC`` counts them all)."""
    uid = os.getuid()
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += 1
    return count


__all__ = ["MEMORY_EXIT_CODE", "SandboxResult", "run_python"]
