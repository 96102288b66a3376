"""The browser tests' waits are stretched for the busy CI machine (tests/browser.py)."""

from .browser import WAIT_SCALE, require_browser

require_browser()


def test_every_playwright_bound_is_stretched():
    from playwright._impl.timeout_settings import TimeoutSettings

    settings = TimeoutSettings()
    assert WAIT_SCALE >= 1
    assert settings.timeout(1000) == 1000 * WAIT_SCALE
    assert settings.navigation_timeout(2000) == 2000 * WAIT_SCALE
    assert settings.timeout(None) == 30000 * WAIT_SCALE  # Playwright's default
    assert settings.timeout(0) == 0  # "no bound" stays so
