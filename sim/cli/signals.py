"""Ctrl-C and SIGTERM for every command: the first stops the command cleanly (as Ctrl-C does:
KeyboardInterrupt, so a run keeps its finished batches and kills its workers); a second one
while that happens stops the process at once."""

import contextlib
import os
import signal
import threading

_received: list[int] = []


def interrupted() -> bool:
    """Whether a signal stopped the command (then its exit skips the interpreter's shutdown)."""
    return bool(_received)


def ignore_signals() -> None:
    """Ignore SIGINT and SIGTERM from here on (an interrupted command on its way out): Python's
    shutdown keeps an ignored signal ignored but resets a handled one to the default."""
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_IGN)


def interrupt_status() -> int:
    """The exit status of an interrupted command: 128 + the signal (130 for Ctrl-C)."""
    return 128 + (_received[0] if _received else signal.SIGINT)


def _on_signal(signum, frame):
    _received.append(signum)
    if len(_received) > 1:
        os.write(2, b"mobsim: interrupted again: stopped at once\n")
        os._exit(128 + signum)
    raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals():
    """Handle SIGINT and SIGTERM as above while the block runs (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            # once interrupted, the process is on its way out: a later signal still ends it at
            # once with its status, never with a traceback from the interpreter's shutdown
            signal.signal(s, _on_signal if _received else handler)
