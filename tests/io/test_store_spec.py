"""Store specs: sqlite:PATH, a bare path, postgresql:// URLs; bad ones in one line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.errors import InputError
from preuve.core.store_spec import StoreSpec, parse_store_spec, redacted_url
from preuve.io import open_store


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        pytest.param("sqlite:/data/d.sqlite", StoreSpec("sqlite", "/data/d.sqlite"), id="sqlite"),
        pytest.param("sqlite:///data/d.sqlite", StoreSpec("sqlite", "/data/d.sqlite"), id="url"),
        pytest.param("store.sqlite", StoreSpec("sqlite", "store.sqlite"), id="bare-relative"),
        pytest.param("/tmp/x/s.db", StoreSpec("sqlite", "/tmp/x/s.db"), id="bare-absolute"),
        pytest.param(
            "postgresql://u@db:5432/p",
            StoreSpec("postgresql", "postgresql://u@db:5432/p"),
            id="postgresql",
        ),
        pytest.param(
            "postgres://u@db/p", StoreSpec("postgresql", "postgres://u@db/p"), id="postgres"
        ),
    ],
)
def test_specs_parse(spec: str, expected: StoreSpec) -> None:
    assert parse_store_spec(spec) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("", "empty", id="empty"),
        pytest.param("sqlite:", "names no file", id="sqlite-without-path"),
        pytest.param("mysql://u@h/db", "unknown kind 'mysql'", id="other-scheme"),
        pytest.param("redis:localhost", "unknown kind 'redis'", id="other-kind"),
        pytest.param("postgresql:///db", "names no host", id="no-host"),
        pytest.param("postgresql://u@h:port/db", "port", id="bad-port"),
    ],
)
def test_bad_specs_are_one_line(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_store_spec(spec)
    assert "\n" not in str(caught.value) and caught.value.exit_code == 2


def test_a_password_never_reaches_a_message() -> None:
    assert redacted_url("postgresql://u:s3cret@h:5/d") == "postgresql://u:***@h:5/d"
    with pytest.raises(InputError) as caught:
        parse_store_spec("postgresql://u:s3cret@h:port/d")
    assert "s3cret" not in str(caught.value)


def test_an_unreachable_server_is_one_line() -> None:
    # Port 9 on loopback: nothing listens there (discard), the connection is refused.
    with pytest.raises(InputError) as caught:
        open_store("postgresql://preuve:pw@127.0.0.1:9/none")
    message = str(caught.value)
    assert "\n" not in message and caught.value.exit_code == 2
    assert "postgresql://preuve:***@127.0.0.1:9/none" in message and "pw@" not in message
    assert "running and reachable" in message


@given(st.text(alphabet=st.characters(blacklist_characters=":\x00"), min_size=1).map(str.strip))
def test_a_path_without_a_colon_is_an_sqlite_file(path: str) -> None:
    if not path:
        return
    assert parse_store_spec(path) == StoreSpec("sqlite", path)
    assert parse_store_spec(f"sqlite:{path}") == StoreSpec("sqlite", path.removeprefix("//"))
