"""The writer: the rules template over facts only, the memo check, one rewrite, REFUSED."""

from __future__ import annotations

import json

import pytest

from preuve.core.errors import ModelError
from preuve.core.facts import Fact
from preuve.core.memocheck import (
    NO_SOURCE,
    NUMBER_NOT_IN_FACTS,
    NUMBER_SIGN,
    UNKNOWN_SOURCE,
    check_memo,
)
from preuve.core.numbers import Locale
from preuve.io.records import dump_record
from preuve.memo.run_record import memo_entry
from preuve.memo.writer import (
    KNOWN_LIMITS,
    WRITER_TASK,
    MemoStatus,
    rendered_facts,
    rules_writer,
    write_memo,
    writer_request,
)
from preuve.models.loop import REASK_INTRO
from preuve.models.scripted import ScriptedModel

COMPANY = "Maison Ferlac SAS"
FACTS = (
    Fact(
        "R-ferlac-levier",
        f"{COMPANY} - Levier 2025 : 5,5x (2024 : 3,6x) ; formule : dette nette / EBITDA",
    ),
    Fact(
        "R-ferlac-marge",
        f"{COMPANY} - Marge nette 2025 : -0,5 % (2024 : 2,0 %) ; formule : résultat net / "
        "chiffre d'affaires",
    ),
    Fact("A-ferlac-2", f"{COMPANY} - Free cash-flow négatif en 2025 : -14 930 k€"),
    Fact(
        "Q-ferlac-1",
        f"{COMPANY} - « Le premier client du groupe a représenté 38 % du chiffre d’affaires "
        "de l’exercice, contre 34 % en 2024 » (p. 3)",
    ),
    Fact(
        "Q-ferlac-2",
        f"{COMPANY} - « Un ancien distributeur exclusif a assigné la société devant le tribunal "
        "de commerce et réclame 4 200 k€ » (p. 8)",
    ),
)
YEARS = (2025, 2024)


def _memo(*paragraphs: tuple[str, list[str]]) -> str:
    return json.dumps(
        {"paragraphs": [{"text": t, "sources": s} for t, s in paragraphs]}, ensure_ascii=False
    )


DEFECTIVE = _memo(
    ("Le levier a gagné 1,9 point, à 5,5x en 2025.", ["R-ferlac-levier"]),
    ("La marge nette ressort à 0,5 % en 2025.", ["R-ferlac-marge"]),
    ("Le free cash-flow est de -14 930 k€ en 2025.", ["A-ferlac-9"]),
    ("La situation appelle une vigilance particulière.", []),
)
FIXED = _memo(
    ("Le levier passe de 3,6x en 2024 à 5,5x en 2025.", ["R-ferlac-levier"]),
    ("La marge nette ressort à -0,5 % en 2025.", ["R-ferlac-marge"]),
    ("Le free cash-flow est négatif de 14 930 k€ en 2025.", ["A-ferlac-2"]),
    ("La situation appelle une vigilance particulière.", ["A-ferlac-2", "R-ferlac-levier"]),
)
STILL_DEFECTIVE = _memo(
    ("Le levier a gagné 1,9 point, à 5,5x en 2025.", ["R-ferlac-levier"]),
    ("La marge nette ressort à -0,5 % en 2025.", ["R-ferlac-marge"]),
)


def test_rules_writer_copies_numbers_from_the_facts_it_cites() -> None:
    request = writer_request(COMPANY, FACTS, YEARS)
    outcome = write_memo(ScriptedModel([rules_writer(request)]), COMPANY, FACTS, YEARS)
    assert outcome.status is MemoStatus.VERIFIED
    assert outcome.attempts == 1
    text = "\n".join(p.text for p in outcome.paragraphs)
    assert "5,5x en 2025, contre 3,6x en 2024" in text
    assert "-0,5 %" in text and "-14 930 k€" in text  # negatives keep their sign
    assert "Concentration (p. 3) : « Le premier client" in text
    assert "Litige (p. 8)" in text
    assert outcome.cited() == tuple(f.id for f in FACTS)
    assert not check_memo(outcome.paragraphs, FACTS, locale=Locale.FR, years=YEARS)


def test_rules_writer_without_facts_writes_nothing_it_could_source() -> None:
    outcome = write_memo(
        ScriptedModel([rules_writer(writer_request(COMPANY, (), YEARS))] * 2), COMPANY, (), YEARS
    )
    assert outcome.status is MemoStatus.REFUSED
    assert [d.code for d in outcome.defects] == [NO_SOURCE]


def test_writer_request_holds_facts_only() -> None:
    request = writer_request(COMPANY, FACTS, YEARS)
    assert request.task == WRITER_TASK
    user = request.messages[-1].content
    assert all(fact.render() in user for fact in FACTS)
    assert request.payload == {}  # the rules writer reads the prompt, as a model does
    assert "Exercices : 2025, 2024\n" in user
    assert rendered_facts(request.messages) == (COMPANY, False, list(FACTS))


def test_reference_memo_defects_are_sent_back_and_the_rewrite_is_verified() -> None:
    model = ScriptedModel([DEFECTIVE, FIXED])
    outcome = write_memo(model, COMPANY, FACTS, YEARS)
    assert outcome.status is MemoStatus.VERIFIED
    assert outcome.attempts == 2
    codes = [(d.paragraph, d.code) for d in outcome.first_defects]
    assert codes == [
        (1, NUMBER_NOT_IN_FACTS),  # 1,9 = 5,5 - 3,6 computed by the model
        (2, NUMBER_SIGN),  # the margin lost its minus sign
        (3, UNKNOWN_SOURCE),
        (3, NUMBER_NOT_IN_FACTS),  # nothing valid cited, so -14 930 is grounded in nothing
        (4, NO_SOURCE),
    ]
    reask = model.requests[1].messages[-1].content
    assert reask.startswith(REASK_INTRO)
    assert "1,9" in reask and "[A-ferlac-9] is not a fact id" in reask
    assert outcome.defects == ()


def test_rewrite_still_defective_is_refused_with_its_defects() -> None:
    outcome = write_memo(ScriptedModel([DEFECTIVE, STILL_DEFECTIVE]), COMPANY, FACTS, YEARS)
    assert outcome.status is MemoStatus.REFUSED
    assert [(d.paragraph, d.code) for d in outcome.defects] == [(1, NUMBER_NOT_IN_FACTS)]
    assert "1,9" in outcome.defects[0].detail
    assert len(outcome.paragraphs) == 2  # shown under REFUSED, never as verified
    assert dump_record(memo_entry(outcome))["status"] == "REFUSED"


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param("Voici la note : ...", id="prose-not-json"),
        pytest.param('{"paragraphs": []}', id="empty-memo"),
        pytest.param('{"paragraphs": [{"text": "x"}]}', id="missing-sources"),
    ],
)
def test_malformed_memos_are_refused_after_one_rewrite(answer: str) -> None:
    model = ScriptedModel([answer, answer])
    outcome = write_memo(model, COMPANY, FACTS, YEARS)
    assert outcome.status is MemoStatus.REFUSED
    assert outcome.paragraphs == ()
    assert outcome.defects and len(model.requests) == 2


def test_known_limits_are_stated() -> None:
    joined = " ".join(KNOWN_LIMITS)
    assert "causale sans chiffre" in joined
    assert "ouvrir la page" in joined


def test_no_answer_from_the_model_is_an_error_not_a_refusal() -> None:
    model = ScriptedModel([ModelError("HTTP 503: loading"), ModelError("HTTP 503: loading")])
    outcome = write_memo(model, COMPANY, FACTS, YEARS)
    assert outcome.status is MemoStatus.ERROR and not outcome.verified
    assert (outcome.paragraphs, outcome.attempts) == ((), 2)
    assert [d.code for d in outcome.defects] == ["model_error"]
