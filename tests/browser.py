"""What the browser tests share: Debian's Chromium driven by Playwright against
``ludothek serve``. Never downloads a browser: Debian's packages (``scripts/install-browser.sh``);
a test module importing this is skipped with a reason when they are missing. Screenshots go to
tests/artifacts/ (ignored by git).

The tests run in Chromium's headless shell (package chromium-headless-shell: the same Blink and
V8 as /usr/bin/chromium, without the desktop browser around them), which costs about 40 % less
CPU on a page; a module that sets ``BROWSER = CHROMIUM`` runs in the desktop browser, so that one
keeps being checked. ``LUDOTHEK_TEST_BROWSER=/usr/bin/chromium`` runs every module in it.

The fixtures ``server``, ``browser`` and ``page`` are registered by tests/conftest.py; a browser
test module calls :func:`require_browser` at import and gets Playwright's sync API back."""

from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from pathlib import Path

import pytest

from .servers import Server

CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
EVERY_MODULE = os.environ.get("LUDOTHEK_TEST_BROWSER")
ARTIFACTS = Path(__file__).parent / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: the headless shell's network service runs in its browser process: a process fewer to start and
#: talk to for each module's browser. (Its GPU service as well saved a little more, but a crash
#: of it then took the whole browser down: it once crashed at launch under load.)
IN_ONE_PROCESS = ["--enable-features=NetworkServiceInProcess2"]

#: A Playwright wait is a bound for a failing test, never the pace of a passing one (the tests
#: wait on events). On the CI's busy two-core machine a page can take many times longer than on a
#: quiet one, so every bound (a test's own or Playwright's 30 s default) is stretched this much.
WAIT_SCALE = float(os.environ.get("LUDOTHEK_TEST_WAIT_SCALE", "4"))


def _stretch_waits() -> None:
    try:
        from playwright._impl.timeout_settings import TimeoutSettings as cls
    except ImportError:  # another Playwright layout: its own bounds then
        return
    if getattr(cls, "_ludothek_stretched", False):
        return
    for name in ("_timeout", "_navigation_timeout"):
        plain = getattr(cls, name)
        setattr(cls, name, lambda self, timeout, plain=plain: plain(self, timeout) * WAIT_SCALE)
    cls._ludothek_stretched = True


def require_browser():
    """Skip the calling test module, with the reason, unless Chromium and Playwright are
    installed; Playwright's sync API (its waits stretched by :data:`WAIT_SCALE`)."""
    for binary in (CHROMIUM, HEADLESS_SHELL):
        if not binary.exists():
            pytest.skip(f"Debian's {binary.name} is not installed at {binary} (run scripts/install-browser.sh)",
                        allow_module_level=True)
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
    _stretch_waits()
    return sync_api


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "browser.sqlite3"
    # the rate limits stay on, raised above what a script clicking without pause needs; bots think
    # in a thread (the process pool has tests of its own, and warming its workers up would cost
    # every module's server several CPU seconds)
    running = Server(str(db), "--rate-limits", "move=100/second", "--bots", "thread")
    yield running.base
    running.stop()


@pytest.fixture(scope="module")
def browser(request):
    binary = EVERY_MODULE or getattr(request.module, "BROWSER", HEADLESS_SHELL)
    sync_api = require_browser()
    with sync_api.sync_playwright() as p:
        args = ARGS + (IN_ONE_PROCESS if Path(binary) == HEADLESS_SHELL else [])
        try:
            chromium = p.chromium.launch(executable_path=str(binary), args=args)
        except sync_api.Error as crash:  # before any test ran: Chromium's own failure, tried once more
            warnings.warn(f"Chromium failed to start, starting it again: {str(crash).splitlines()[0]}")
            chromium = p.chromium.launch(executable_path=str(binary), args=args)
        yield chromium
        chromium.close()


@contextmanager
def checked_page(browser, **context_options):
    """A page in a new browser context (``context_options``: Playwright's, e.g. a viewport)
    that accepts dialogs; a script error on it fails the test when the block ends."""
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **context_options})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture()
def page(browser):
    with checked_page(browser) as page:
        yield page


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / ".gitignore").write_text("*\n")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
