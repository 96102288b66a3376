"""The fifth game, Race ("wettlauf", in tests/plugin), is a plugin like a third party's: Ludothek
finds it through its ``ludothek.games`` entry point. The tests register it for their own
processes only, never in the Python environment where a user's ``ludothek`` would list it: a
folder holding the plugin's metadata (``*.dist-info`` with its entry points, made from
tests/plugin/pyproject.toml) and the plugin's sources go on ``sys.path`` and on ``PYTHONPATH``,
which every server and command the tests start inherits."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

PLUGIN = Path(__file__).parent / "plugin"


def register_race_plugin() -> None:
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text())["project"]
    folder = Path(tempfile.mkdtemp(prefix="ludothek-test-plugin-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    info = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    entry_points = []
    for group, points in project["entry-points"].items():
        entry_points.append(f"[{group}]")
        entry_points += [f"{name} = {target}" for name, target in points.items()]
    (info / "entry_points.txt").write_text("\n".join(entry_points) + "\n")
    paths = [str(PLUGIN), str(folder)]
    sys.path[:0] = paths
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + inherited)
