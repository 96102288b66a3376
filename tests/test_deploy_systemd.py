"""The deployment guide's systemd unit (docs/deploy/ludothek.service): systemd accepts it, and
``ludothek serve`` accepts the options it starts the server with."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludothek.cli import main

UNIT = Path(__file__).resolve().parent.parent / "docs" / "deploy" / "ludothek.service"
BINARY = "/opt/ludothek/bin/ludothek"


def exec_start() -> list[str]:
    """The unit's ExecStart as arguments (continuation lines joined)."""
    text = UNIT.read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def test_the_unit_starts_ludothek_serve_with_options_it_takes():
    args = exec_start()
    assert args[:2] == [BINARY, "serve"]
    options = [arg.replace("${LUDOTHEK_DB}", "postgresql://ludothek@/ludothek?host=/run/postgresql") for arg in args[2:]]
    serve = main.get_command(None, "serve")
    context = serve.make_context("serve", options)  # a missing or mistyped option raises here
    assert context.params["host"] == "127.0.0.1"
    assert context.params["trusted_proxy"] == "127.0.0.1"
    assert "play.example.org" in context.params["allowed_hosts"]


def test_systemd_accepts_the_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (a machine without systemd)")
    # the unit as installed, but starting an executable that exists here
    (tmp_path / "ludothek.service").write_text(UNIT.read_text().replace(BINARY, sys.executable))
    checked = subprocess.run([analyze, "verify", str(tmp_path / "ludothek.service")], capture_output=True,
                             text=True, timeout=60, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "ludothek.service" not in checked.stderr, checked.stderr
