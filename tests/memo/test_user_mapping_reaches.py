"""A user's mapping file and cues file extend every reader of the declared data (issue 13):
the note sentences read the mapping's ``sentences`` section, the covenant reader the cues'
``covenant_limits``, from the one loaded mapping and cue set. Made-up wording."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from preuve.core.errors import InputError
from preuve.loaders import load_cues, load_mapping
from preuve.memo.covenant import find_covenant
from preuve.memo.lexicon import LEXICON, SENTENCE_RULES, Statement, lookup_label
from preuve.memo.note_sentences import sentence_fields

DATES = [(2025, 12, 31), (2024, 12, 31)]
NOTE = (
    "Note 9 — Other information\n"
    "At 31 December 2024, the sums owed to suppliers of fixed assets stood at 4 300 k€, "
    "to be paid in the first half.\n"
)


def _mapping(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "mapping.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_user_mapping_reaches_the_note_sentences(tmp_path: Path) -> None:
    assert sentence_fields(["Balance sheet", NOTE], DATES) == ()
    rules = load_mapping(
        _mapping(
            tmp_path,
            {
                "rules": [],
                "sentences": {
                    "rules": [
                        {
                            "concept": "fixed_asset_payables",
                            "subjects": ["(?:the )?sums owed to suppliers of fixed assets"],
                        }
                    ]
                },
            },
        )
    )
    found = sentence_fields(["Balance sheet", NOTE], DATES, user_rules=rules)
    assert [(f.key, f.year, f.value, f.scale) for f in found] == [
        ("fixed_asset_payables", 2024, Decimal(4300), 1000)
    ]
    # a sentence rule names no row label
    assert lookup_label("sums owed to suppliers of fixed assets", Statement.BALANCE, rules) is None


def test_the_bundled_sentences_come_from_the_one_loaded_mapping() -> None:
    assert {r.key for r in SENTENCE_RULES} >= {"current_liabilities"}
    assert not any(r.sentence for r in LEXICON)


def test_a_malformed_sentence_rule_is_refused(tmp_path: Path) -> None:
    bad = {"rules": [], "sentences": {"rules": [{"concept": "x", "subjects": ["(unclosed"]}]}}
    with pytest.raises(InputError, match="sentence rule 1"):
        load_mapping(_mapping(tmp_path, bad))


COVENANT = (
    "Our loan agreement sets a ceiling on the leverage ratio, which shall remain beneath 3.5x. "
    "At the year end the leverage ratio stood at 2.9x."
)


def test_a_user_cues_file_reaches_the_covenant_reader(tmp_path: Path) -> None:
    assert find_covenant([COVENANT]) is None  # "remain beneath" is no bundled bound word
    path = tmp_path / "cues.json"
    path.write_text(
        json.dumps({"covenant_limits": {"maximum": ["shall remain beneath"]}}), encoding="utf-8"
    )
    found = find_covenant([COVENANT], load_cues(path))
    assert found is not None
    assert (found.value, found.limit, found.maximum) == (Decimal("2.9"), Decimal("3.5"), True)
    assert find_covenant([COVENANT]) is None  # only the run given the user's cues reads them
