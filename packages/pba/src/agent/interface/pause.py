"""The pause key: press space while the agent generates to pause, again to resume.

It needs a POSIX terminal on standard input (``termios``); elsewhere (pipes,
tests, Windows) :class:`PauseKey` does nothing and says so in ``reason``. The
original used ``pynput``, which needs a display server: reading the terminal
works over SSH and in tmux, with no extra dependency.
"""

from __future__ import annotations

import select
import sys
import threading
from types import TracebackType
from typing import Any

__all__ = ["PauseKey"]


class PauseKey:
    """A context manager: while active, space toggles :attr:`paused`."""

    def __init__(self, enabled: bool = True) -> None:
        self.paused = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved: Any = None
        self.reason = self._unavailable() if enabled else "disabled"

    @staticmethod
    def _unavailable() -> str | None:
        try:
            import termios  # noqa: F401, PLC0415 - POSIX only
        except ImportError:
            return "no termios (not a POSIX terminal)"
        if not sys.stdin.isatty():
            return "standard input is not a terminal"
        return None

    @property
    def available(self) -> bool:
        return self.reason is None

    def __enter__(self) -> PauseKey:
        if not self.available:
            return self
        import termios  # noqa: PLC0415
        import tty  # noqa: PLC0415

        fd = sys.stdin.fileno()
        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        self._stop.clear()
        self._thread = threading.Thread(target=self._watch, args=(fd,), daemon=True)
        self._thread.start()
        return self

    def _watch(self, fd: int) -> None:
        import os  # noqa: PLC0415

        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready and os.read(fd, 1) == b" ":
                if self.paused.is_set():
                    self.paused.clear()
                else:
                    self.paused.set()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._thread is None:
            return
        import termios  # noqa: PLC0415

        self._stop.set()
        self._thread.join()
        self._thread = None
        self.paused.clear()
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._saved)
