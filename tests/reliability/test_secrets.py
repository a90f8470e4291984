"""Secrets against a real endpoint on 127.0.0.1 that echoes the key (issue 18, item 2).

Each scenario runs a real ``preuve`` process with ``OPENAI_API_KEY`` set, against an
OpenAI-compatible server that echoes the key it receives (as is, upper-cased, base64,
hex) in every answer or error, then reads every file the run wrote and its output.
"""

from __future__ import annotations

import pytest

from preuve.eval.reliability_secrets import (
    SCENARIOS,
    SECRET_KEY,
    SecretsOutcome,
    find_echoes,
    run_secret_scenarios,
)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SecretsOutcome]:
    runs = run_secret_scenarios(tmp_path_factory.mktemp("secrets"))
    return {r.scenario: r for r in runs}


@pytest.mark.parametrize("scenario", [s.id for s in SCENARIOS])
def test_no_file_a_run_writes_holds_the_key(
    outcomes: dict[str, SecretsOutcome], scenario: str
) -> None:
    result = outcomes[scenario]
    assert result.problems() == ()
    assert result.leaks == ()


def test_the_runs_did_write_files_and_reach_the_server(
    outcomes: dict[str, SecretsOutcome],
) -> None:
    counts = {name: (r.files_read > 0, r.requests > 0) for name, r in outcomes.items()}
    assert counts == {
        "synthesize": (True, True),
        "digest-build": (True, True),
        "memo": (True, True),
        "key-in-url-parameter": (True, True),
        "key-in-userinfo": (False, False),  # refused before anything is written or sent
        "errors-echo-the-key": (True, True),
    }


def test_the_scan_does_find_an_echo() -> None:
    # The check can fail: an echo written as the server sent it is found.
    blob = f"... your key is {SECRET_KEY.upper()} ...".encode()
    assert find_echoes(blob) == (SECRET_KEY.upper(),)


def test_the_userinfo_spec_is_one_line_without_the_key(
    outcomes: dict[str, SecretsOutcome],
) -> None:
    stderr = outcomes["key-in-userinfo"].outcome.stderr
    assert stderr.count("\n") == 1 and stderr.startswith("preuve: error: model spec ")
    assert "http://[REDACTED]@127.0.0.1:9/v1" in stderr


def test_what_the_server_said_was_kept_scrubbed(outcomes: dict[str, SecretsOutcome]) -> None:
    # The echoes did reach the artefacts (so their absence means something): as [REDACTED].
    kept = {name: r.redacted for name, r in outcomes.items() if not r.bad_input}
    assert all(count > 0 for count in kept.values()), kept
