"""Worker processes that end with their parent, even when it is killed with SIGKILL.

Shared by the web server's bot workers and ``ludothek match``'s process pool. Call
:func:`die_with_parent` first thing in the worker, with the parent's pid read in the parent.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time


def die_with_parent(parent_pid: int) -> None:
    """Exit when ``parent_pid`` does: ``PR_SET_PDEATHSIG`` on Linux (note: it fires when the
    *thread* that started this process ends), and everywhere a thread that notices being
    orphaned while the GIL is free."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(1)

    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="ludothek-parent-watch").start()
