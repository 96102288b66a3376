"""Where numba keeps compiled kernels.

numba's disk cache checks only the source file of the function it loads, so a cached kernel
that calls kernels in another module keeps their old machine code after that module changes.
We therefore key one cache folder by the contents of all of Ludothek's source: any edit gives
a fresh folder, and unchanged code loads from disk. Must run before numba is imported.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

_KEEP_OLD_SECONDS = 24 * 3600  # another process may still be using an older folder

_PACKAGE = Path(__file__).resolve().parent.parent


def source_digest() -> str:
    digest = hashlib.sha1()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def configure() -> None:
    """Point numba at ``~/.cache/ludothek/numba-<digest>`` unless the user chose a folder."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ludothek"
    folder = root / f"numba-{source_digest()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in root.glob("numba-*"):
            if old != folder and time.time() - old.stat().st_mtime > _KEEP_OLD_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return  # a read-only home: numba falls back to its own default
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
