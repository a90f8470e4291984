"""The memo check: sources, numbers grounded in the cited facts, and the sign rule."""

from __future__ import annotations

import pytest

from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.core.facts import parse_facts
from preuve.core.memocheck import (
    NO_STATEMENT,
    NUMBER_NOT_IN_FACTS,
    NUMBER_SIGN,
    Paragraph,
    check_memo,
    ground_number,
    has_negative_word,
    parse_memo,
    split_clauses,
)
from preuve.core.numbers import Locale, extract_numbers

FR, EN = Locale.FR, Locale.EN

FACTS_FR = parse_facts(
    "[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; "
    "formule : dette nette / EBITDA\n"
    "[A-ferlac-fcf] Maison Ferlac SAS - Free cash-flow 2025 : -14 930 k€ ; marge nette : -0,5 %\n"
    "[Q-ferlac-3] Maison Ferlac SAS - « Le premier client représente 38 % du chiffre "
    "d'affaires. » (p. 12)\n"
    "[A-solvea-2] Solvéa Énergies SA - résultat net 2025 : 11 175 k€ ; "
    "free cash-flow 2025 : −47 225 k€\n"
)
FACTS_EN = parse_facts(
    "[R-acme-fcf] Acme Inc. - Free cash flow 2025: (14,930) ; net margin: (0.5)%\n"
    "[R-acme-rev] Acme Inc. - Revenue 2025: $1,577.5 million\n"
)


# (id, paragraph text, sources, locale, years, expected [(code, number or id in detail)])
Expected = list[tuple[str, str]]
PARAGRAPH_CASES: list[tuple[str, str, tuple[str, ...], Locale, tuple[int, ...], Expected]] = [
    (
        "spec-accept-negative-word",
        "Un free cash-flow négatif de 14 930 k€ en 2025.",
        ("A-ferlac-fcf",),
        FR,
        (),
        [],
    ),
    (
        "spec-refuse-unsigned-margin",
        "Une marge nette de 0,5 %.",
        ("A-ferlac-fcf",),
        FR,
        (),
        [(NUMBER_SIGN, "0,5")],
    ),
    (
        "spec-leverage-computed-difference",
        "Le levier a gagné 1,9 point entre 2024 et 2025.",
        ("R-ferlac-levier",),
        FR,
        (),
        [(NUMBER_NOT_IN_FACTS, "1,9")],
    ),
    (
        "trailing-zero-matches",
        "Le levier atteint 5,50x en 2025, contre 3,6x.",
        ("R-ferlac-levier",),
        FR,
        (),
        [],
    ),
    ("minus-sign-matches", "Une marge nette de -0,5 %.", ("A-ferlac-fcf",), FR, (), []),
    ("unicode-minus-matches", "Une marge nette de −0,5 %.", ("A-ferlac-fcf",), FR, (), []),
    ("parentheses-match", "Le FCF ressort à (14 930) k€.", ("A-ferlac-fcf",), FR, (), []),
    ("perte-gives-sign", "Une perte de 0,5 % de marge.", ("A-ferlac-fcf",), FR, (), []),
    (
        "deficit-without-accent",
        "Le free cash-flow est deficitaire a 47 225 k€.",
        ("A-solvea-2",),
        FR,
        (),
        [],
    ),
    (
        "sign-word-in-other-clause",
        "Le free cash-flow est négatif, la marge nette atteint 0,5 %.",
        ("A-ferlac-fcf",),
        FR,
        (),
        [(NUMBER_SIGN, "0,5")],
    ),
    (
        "sign-word-across-conjunction",
        "Le free cash-flow est négatif de 14 930 k€ et la marge nette de 0,5 %.",
        ("A-ferlac-fcf",),
        FR,
        (),
        [(NUMBER_SIGN, "0,5")],
    ),
    (
        "minus-on-positive-fact",
        "Le levier est de -5,5x.",
        ("R-ferlac-levier",),
        FR,
        (),
        [(NUMBER_SIGN, "-5,5")],
    ),
    (
        "plus-on-negative-fact",
        "Une perte de +0,5 %.",
        ("A-ferlac-fcf",),
        FR,
        (),
        [(NUMBER_SIGN, "+0,5")],
    ),
    (
        "fact-not-cited-by-this-paragraph",
        "Le levier atteint 5,5x.",
        ("A-ferlac-fcf",),
        FR,
        (),
        [(NUMBER_NOT_IN_FACTS, "5,5")],
    ),
    (
        "thousands-separator-is-not-decimal",
        "Le résultat net atteint 11,175 k€.",
        ("A-solvea-2",),
        FR,
        (),
        [(NUMBER_NOT_IN_FACTS, "11,175")],
    ),
    # A paragraph that states nothing is not a verified paragraph (SmolLM2 wrote these).
    ("a-title-states-nothing", "Exercices", ("A-solvea-2",), FR, (), [(NO_STATEMENT, "Exercices")]),
    (
        "an-id-as-the-text-states-nothing",
        "R-ferlac-levier",
        ("R-ferlac-levier",),
        FR,
        (),
        [(NO_STATEMENT, "R-ferlac-levier")],
    ),
    (
        "a-mangled-id-states-nothing-either",
        "R-ferlaq-levier",
        ("R-ferlac-levier",),
        FR,
        (),
        [(NO_STATEMENT, "R-ferlaq-levier")],
    ),
    (
        "two-words-and-a-number-are-a-statement",
        "Revenue reached $1,577.5 million.",
        ("R-acme-rev",),
        EN,
        (),
        [],
    ),
    (
        "ids-in-text-are-not-numbers",
        "Selon [A-solvea-2], le résultat net atteint 11 175 k€.",
        ("A-solvea-2",),
        FR,
        (),
        [],
    ),
    (
        # Changed deliberately (issue 11): references are no figures, but a reference that
        # no cited fact writes is refused like a number (it was silently accepted).
        "references-not-in-facts-are-refused",
        "Selon [A-solvea-2], le résultat net atteint 11 175 k€ (ORV-SA-2026-004, section 3.4).",
        ("A-solvea-2",),
        FR,
        (),
        [(NUMBER_NOT_IN_FACTS, "ORV-SA-2026-004"), (NUMBER_NOT_IN_FACTS, "3.4")],
    ),
    (
        "quote-fact-with-page",
        "Le premier client pèse 38 % du chiffre d'affaires (p. 12).",
        ("Q-ferlac-3",),
        FR,
        (),
        [],
    ),
    (
        # Changed deliberately (issue 11): a day of a date is a number too; it was skipped.
        "date-day-must-be-in-facts",
        "Au 31 décembre 2025, le levier atteint 5,5x.",
        ("R-ferlac-levier",),
        FR,
        (),
        [(NUMBER_NOT_IN_FACTS, "31")],
    ),
    (
        "report-year-allowed",
        "Depuis 2023, le levier atteint 5,5x.",
        ("R-ferlac-levier",),
        FR,
        (2023, 2024, 2025),
        [],
    ),
    (
        "other-year-refused",
        "Depuis 2023, le levier atteint 5,5x.",
        ("R-ferlac-levier",),
        FR,
        (2024, 2025),
        [(NUMBER_NOT_IN_FACTS, "2023")],
    ),
    (
        "no-source",
        "La situation se tend.",
        (),
        FR,
        (),
        [("no_source", "cites no fact")],
    ),
    (
        "no-source-numbers-still-checked",
        "Le levier atteint 5,5x.",
        (),
        FR,
        (2025,),
        [("no_source", "cites no fact"), (NUMBER_NOT_IN_FACTS, "5,5")],
    ),
    (
        "unknown-source",
        "Le levier atteint 5,5x.",
        ("R-ferlac-levier", "R-inconnu", "R-inconnu"),
        FR,
        (),
        [("unknown_source", "[R-inconnu]")],
    ),
    (
        "en-outflow-gives-sign",
        "Acme had a free cash outflow of 14,930 in 2025.",
        ("R-acme-fcf",),
        EN,
        (),
        [],
    ),
    (
        "en-unsigned-margin-refused",
        "Net margin was 0.5% and revenue reached $1,577.5 million.",
        ("R-acme-fcf", "R-acme-rev"),
        EN,
        (),
        [(NUMBER_SIGN, "0.5")],
    ),
]


@pytest.mark.parametrize(
    ("text", "sources", "locale", "years", "expected"),
    [c[1:] for c in PARAGRAPH_CASES],
    ids=[c[0] for c in PARAGRAPH_CASES],
)
def test_check_memo_paragraph(
    text: str, sources: tuple[str, ...], locale: Locale, years: tuple[int, ...], expected: Expected
) -> None:
    facts = FACTS_FR if locale is FR else FACTS_EN
    defects = check_memo([Paragraph(text, sources)], facts, locale=locale, years=years)
    assert [d.code for d in defects] == [code for code, _ in expected]
    for defect, (_, named) in zip(defects, expected, strict=True):
        assert named in defect.detail
        assert defect.paragraph == 1


def test_defects_carry_their_paragraph_number() -> None:
    memo = [
        Paragraph("Le levier atteint 5,5x en 2025.", ("R-ferlac-levier",)),
        Paragraph("Une marge nette de 0,5 %.", ("A-ferlac-fcf",)),
        Paragraph("Sans source.", ()),
    ]
    defects = check_memo(memo, FACTS_FR, locale=FR)
    assert [(d.paragraph, d.code) for d in defects] == [(2, NUMBER_SIGN), (3, "no_source")]
    assert defects[0].detail.startswith("0,5 (in «Une marge nette de 0,5 %»)")


def test_verified_memo_has_no_defect() -> None:
    memo = [
        Paragraph(
            "Maison Ferlac SAS voit son levier passer de 3,6x en 2024 à 5,5x en 2025.",
            ("R-ferlac-levier",),
        ),
        Paragraph(
            "Son free cash-flow est négatif de 14 930 k€ et sa marge nette de -0,5 %.",
            ("A-ferlac-fcf",),
        ),
    ]
    assert check_memo(memo, FACTS_FR, locale=FR, years=[2024, 2025]) == []


CLAUSE_CASES = [
    (
        "punctuation-and-conjunction",
        "Marge : 3,4 %, levier 5,5x ; FCF négatif et dette nette de 1 234,5 k€. Fin",
        FR,
        [
            "Marge ",
            " 3,4 %",
            " levier 5,5x ",
            " FCF négatif ",
            " dette nette de 1 234,5 k€",
            " Fin",
        ],
    ),
    (
        "en-thousands-comma-does-not-split",
        "Revenue of $1,577.5 million, but a loss",
        EN,
        ["Revenue of $1,577.5 million", " ", " a loss"],
    ),
    (
        "no-separator",
        "un free cash-flow négatif de 14 930 k€",
        FR,
        ["un free cash-flow négatif de 14 930 k€"],
    ),
]


@pytest.mark.parametrize(
    ("text", "locale", "expected"), [c[1:] for c in CLAUSE_CASES], ids=[c[0] for c in CLAUSE_CASES]
)
def test_split_clauses(text: str, locale: Locale, expected: list[str]) -> None:
    clauses = split_clauses(text, extract_numbers(text, locale))
    assert [text[start:end] for start, end in clauses] == expected


NEGATIVE_WORDS = [
    ("negatif", "un free cash-flow négatif", True),
    ("negative-fem-plural", "des marges négatives", True),
    ("negativement", "impacté négativement", True),
    ("pertes", "des pertes de change", True),
    ("deficit", "un déficit de trésorerie", True),
    ("deficitaire", "un résultat déficitaire", True),
    ("en-loss", "a net loss of", True),
    ("en-outflows", "cash outflows", True),
    ("en-negative", "Negative working capital", True),
    ("no-word", "une marge nette de", False),
    ("not-a-substring", "une perteuse, lossless, outflowing", False),
    ("baisse-is-not-a-sign", "une baisse de la marge", False),
]


@pytest.mark.parametrize(
    ("clause", "expected"), [c[1:] for c in NEGATIVE_WORDS], ids=[c[0] for c in NEGATIVE_WORDS]
)
def test_has_negative_word(clause: str, expected: bool) -> None:
    assert has_negative_word(clause) is expected


GROUND_CASES = [
    ("unsigned-matches-unsigned", "5,5x", "", "5,5x", None),
    ("unsigned-on-negative-without-word", "0,5 %", "", "-0,5 %", NUMBER_SIGN),
    ("unsigned-on-negative-with-word", "0,5 %", "perte", "-0,5 %", None),
    ("word-does-not-invent-a-value", "0,6 %", "perte", "-0,5 %", NUMBER_NOT_IN_FACTS),
    ("minus-matches-minus", "-0,5 %", "", "-0,5 %", None),
    ("minus-matches-parentheses", "-14 930", "", "(14 930)", None),
    ("minus-on-unsigned", "-5,5x", "négatif", "5,5x", NUMBER_SIGN),
    ("unsigned-on-both-signs", "3", "", "-3 et 3", None),
    ("zero", "0", "", "-0", None),
]


@pytest.mark.parametrize(
    ("number", "clause", "facts", "expected"),
    [c[1:] for c in GROUND_CASES],
    ids=[c[0] for c in GROUND_CASES],
)
def test_ground_number(number: str, clause: str, facts: str, expected: str | None) -> None:
    [mention] = extract_numbers(number, FR)
    assert ground_number(mention, clause, extract_numbers(facts, FR)) == expected


def valid_memo() -> dict[str, object]:
    return {"paragraphs": [{"text": "Le levier atteint 5,5x.", "sources": ["R-ferlac-levier"]}]}


def test_parse_memo() -> None:
    data = {
        "paragraphs": [
            {"text": "Un.", "sources": ["A-1", "B-2"]},
            {"text": "Deux.", "sources": []},
        ]
    }
    assert parse_memo(data) == [Paragraph("Un.", ("A-1", "B-2")), Paragraph("Deux.", ())]


MEMO_ERRORS: list[tuple[str, object, str]] = [
    ("not-an-object", [], "memo.json: the memo must be a JSON object, got an array"),
    ("extra-top-key", {**valid_memo(), "title": "x"}, "memo.json: unexpected key(s) title"),
    ("missing-paragraphs", {}, "memo.json: missing key paragraphs"),
    ("paragraphs-not-array", {"paragraphs": {}}, "paragraphs must be an array, got an object"),
    ("no-paragraph", {"paragraphs": []}, "memo.json: the memo has no paragraphs"),
    ("item-not-object", {"paragraphs": ["x"]}, "paragraphs[0] must be an object, got a string"),
    ("missing-sources", {"paragraphs": [{"text": "x"}]}, "paragraphs[0]: missing sources"),
    (
        "extra-item-key",
        {"paragraphs": [{"text": "x", "sources": [], "n": 1}]},
        "paragraphs[0]: unexpected n",
    ),
    (
        "blank-text",
        {"paragraphs": [{"text": "  ", "sources": []}]},
        "paragraphs[0].text must be a non-empty string",
    ),
    (
        "text-not-string",
        {"paragraphs": [{"text": 3, "sources": []}]},
        "paragraphs[0].text must be a non-empty string",
    ),
    (
        "sources-not-array",
        {"paragraphs": [{"text": "x", "sources": "A-1"}]},
        "paragraphs[0].sources must be an array, got a string",
    ),
    (
        "source-not-string",
        {"paragraphs": [{"text": "x", "sources": ["A-1", None]}]},
        "paragraphs[0].sources[1] must be a non-empty string",
    ),
]


@pytest.mark.parametrize(
    ("data", "message"), [c[1:] for c in MEMO_ERRORS], ids=[c[0] for c in MEMO_ERRORS]
)
def test_parse_memo_errors(data: object, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_memo(data, source="memo.json")
    assert message in str(caught.value)
    assert str(caught.value).startswith("memo.json: ")
    assert "\n" not in str(caught.value)


def test_defect_renders_on_one_line() -> None:
    [defect] = check_memo(
        [Paragraph("Une marge nette de 0,5 %.", ("A-ferlac-fcf",))], FACTS_FR, locale=FR
    )
    assert isinstance(defect, Defect)
    assert defect.render().startswith("paragraph 1: [number_sign] 0,5 ")
    assert "\n" not in defect.render()
