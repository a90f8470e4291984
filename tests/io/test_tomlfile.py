"""A user's TOML file is read in one place and fails as one line naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.io.tomlfile import read_toml_file


def test_a_toml_table_is_read(tmp_path: Path) -> None:
    path = tmp_path / "ranks.toml"
    path.write_text('[ranks]\n"fiche produit" = 2\n', encoding="utf-8")
    assert read_toml_file(path, "the rank table") == {"ranks": {"fiche produit": 2}}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "No such file"),
        (b"[ranks\n", "Expected ']'"),
        (b"[ranks]\nnote = 3\n\xff\n", "utf-8"),
    ],
    ids=["missing", "not-toml", "not-utf8"],
)
def test_an_unreadable_file_is_one_line_naming_it(
    tmp_path: Path, content: bytes | None, reason: str
) -> None:
    path = tmp_path / "lexicon.toml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        read_toml_file(path, "the lexicon")
    line = str(caught.value)
    assert line.startswith(f"{path}: cannot read the lexicon (") and reason in line
    assert "\n" not in line
