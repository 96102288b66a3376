"""The CLI's progress bars when stderr is a log file rather than a terminal."""

from __future__ import annotations

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

from ludothek import progress_bars


def _run_job(steps: int) -> None:
    with progress_bars.bars(TextColumn("job"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}")) as p:
        task = p.add_task("job", total=steps, note="")
        for step in range(1, steps + 1):
            p.update(task, advance=1, note=f"step {step}")
        p.update(task, note="done")  # a finished job's last line is written once


def test_a_long_job_writes_plain_lines_to_a_log(monkeypatch, capsys):
    monkeypatch.setattr(progress_bars, "LOG_EVERY", 0.0)
    _run_job(3)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("] ", 1)[1] for line in lines] == ["job 1/3 step 1", "job 2/3 step 2", "job 3/3 step 3"]
    assert all(line.startswith("[0:00:") for line in lines)


def test_a_quick_job_writes_nothing(capsys):
    _run_job(3)
    assert capsys.readouterr().err == ""
