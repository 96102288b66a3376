"""Progress bars for the CLI's long jobs that also show in a log file.

On a terminal these are rich's bars on stderr. Elsewhere (``nohup … 2> log``, a pipe, CI) a
bar would only be drawn once at the end, so instead a plain line of the bar's text goes to
stderr every :data:`LOG_EVERY` seconds, and a last one when a logged job ends. Jobs shorter
than that print nothing, so quick commands (and tests reading their output) stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import Any

#: seconds between two plain progress lines
LOG_EVERY = 30.0


def stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def bars(*columns: Any, transient: bool = True) -> Any:
    """A ``rich.progress.Progress`` over ``columns`` on stderr (see the module's text)."""
    from rich.progress import Progress, TaskID
    from rich.text import Text

    class LoggedProgress(Progress):
        def __init__(self) -> None:
            console = stderr_console()
            super().__init__(*columns, console=console, transient=transient, disable=not console.is_terminal)
            self._started = self._logged_at = time.monotonic()
            self._logged = False
            self._ended: set[TaskID] = set()

        def update(self, task_id: TaskID, **changes: Any) -> None:
            super().update(task_id, **changes)
            if self.disable:
                self._log(task_id)

        def _log(self, task_id: TaskID) -> None:
            task = next(t for t in self.tasks if t.id == task_id)
            now = time.monotonic()
            if task.finished:
                if not self._logged or task_id in self._ended:
                    return
                self._ended.add(task_id)
            elif now - self._logged_at < LOG_EVERY:
                return
            self._logged_at, self._logged = now, True
            texts = (column(task) for column in self.columns if not isinstance(column, str))
            line = " ".join(t.plain.strip() for t in texts if isinstance(t, Text) and t.plain.strip())
            print(f"[{_clock(now - self._started)}] {line}", file=sys.stderr, flush=True)

    return LoggedProgress()


def _clock(seconds: float) -> str:
    minutes, s = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{s:02d}"
