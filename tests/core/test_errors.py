"""The error hierarchy: every error renders as one line, with its fix when there is one."""

from __future__ import annotations

import pytest

from preuve.core.errors import (
    BudgetError,
    ConfigError,
    DocumentError,
    InputError,
    ModelError,
    PreuveError,
    RefusedError,
    VerificationError,
)


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        pytest.param(PreuveError("plain"), "plain", id="message-only"),
        pytest.param(
            InputError("bad  file\nhere", fix="fix it"),
            "bad file here (fix it)",
            id="message-newline",
        ),
        pytest.param(
            ConfigError("no key", fix="set\nKEY\r\nnow"), "no key (set KEY now)", id="fix-newline"
        ),
        pytest.param(ModelError("down", fix=""), "down", id="empty-fix"),
    ],
)
def test_every_error_renders_as_one_line(error: PreuveError, expected: str) -> None:
    assert error.one_line() == expected
    assert str(error) == expected


@pytest.mark.parametrize(
    ("cls", "family", "exit_code"),
    [
        pytest.param(DocumentError, InputError, 2, id="document"),
        pytest.param(ConfigError, InputError, 2, id="config"),
        pytest.param(BudgetError, InputError, 2, id="budget"),
        pytest.param(ModelError, RefusedError, 1, id="model"),
        pytest.param(VerificationError, RefusedError, 1, id="verification"),
    ],
)
def test_two_families_and_their_exit_codes(
    cls: type[PreuveError], family: type[PreuveError], exit_code: int
) -> None:
    error = cls("x")
    assert isinstance(error, family) and isinstance(error, PreuveError)
    assert error.exit_code == exit_code
