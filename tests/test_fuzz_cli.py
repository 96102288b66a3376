"""The command line's fuzzing (``check_cli`` of tests/test_fuzz.py): a file of its own, so that
pytest-xdist runs it beside the other categories rather than after them (it is the longest)."""

from __future__ import annotations

import pytest
from hypothesis import given

from .fuzz_strategies import CliCase, cli_cases
from .test_fuzz import check_cli, fuzz, warm_up


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm_up()


@fuzz(300)
@given(case=cli_cases())
def test_cli(case: CliCase) -> None:
    check_cli(case)


@fuzz(60)
@given(case=cli_cases(verb="tournament"))
def test_tournament_verb(case: CliCase) -> None:
    """Hostile arguments to ``ludothek tournament`` (issue 32): one clean error line, never a
    traceback; valid ones run a short Swiss or Arena between random players."""
    check_cli(case)


@fuzz(15)
@given(case=cli_cases(verb="train"))
def test_train_verb(case: CliCase) -> None:
    """Hostile arguments and files to ``ludothek train``: broken checkpoints and data files,
    outputs nowhere, odd numbers; valid ones train on a few positions for one epoch."""
    check_cli(case)
