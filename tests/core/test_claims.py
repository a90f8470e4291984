"""Claim checks: each number said of its fact's subject and period, directions and
negations read against the values and texts the paragraph cites."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from preuve.core.claims import (
    NEGATION_FLIP,
    WRONG_BASE,
    WRONG_DIRECTION,
    WRONG_PERIOD,
    WRONG_SUBJECT,
    review_claims,
)
from preuve.core.facts import parse_facts
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale

FR, EN = Locale.FR, Locale.EN

FACTS_FR = parse_facts(
    "[R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; "
    "formule : dette nette / EBITDA\n"
    "[R-solvea-levier] Solvéa Énergies SA - Levier 2025 : 6,0x (2024 : 5,5x) ; "
    "formule : dette nette / EBITDA\n"
    "[A-solvea-1] Solvéa Énergies SA - Résultat net de 11 175 k€ mais free cash-flow de "
    "-47 225 k€ en 2025\n"
    "[A-ferlac-5] Maison Ferlac SAS - EBITDA en baisse de 17,2 % : 14 200 k€ en 2025 contre "
    "17 150 k€ en 2024\n"
    "[A-ferlac-3] Maison Ferlac SAS - Levier de 5,5x en 2025, au-dessus du seuil d'alerte "
    "de 4,0x\n"
    "[Q-ferlac-3] Maison Ferlac SAS - « La fabrication dépend d'un fournisseur unique, avec "
    "lequel aucun contrat pluriannuel n'a été signé » (p. 3)\n"
    "[Q-ferlac-7] Maison Ferlac SAS - « Une provision de 1 200 k€ a été constituée au titre "
    "du litige » (p. 9)\n"
    "[R-ferlac-ca] Maison Ferlac SAS - Chiffre d'affaires T3 2025 : 31 400 k€ (T3 2024 : "
    "29 800 k€)\n"
)
FACTS_EN = parse_facts(
    "[R-acme-lev] Acme Holdings plc - Leverage 2025: 2.4x (2024: 3.1x) ; formula: net debt / "
    "EBITDA\n"
    "[R-brill-lev] Brill GmbH - Leverage 2025: 4.2x (2024: 3.9x)\n"
    "[Q-acme-2] Acme Holdings plc - « The lenders granted a waiver of the leverage covenant "
    "until June 2026 » (p. 12)\n"
    "[R-acme-cover] Acme Holdings plc - Interest cover 2025: 3.4x (2024: 5.0x) ; covenant "
    "minimum: 3.0x\n"
)

Case = tuple[str, Locale, str, tuple[str, ...], list[str]]
CASES: list[Case] = [
    # The three reference paragraphs.
    ("ref-subject-ratio", FR, "Solvéa Énergies affiche un levier de 5,5x en 2025.",
     ("R-ferlac-levier",), [WRONG_SUBJECT]),
    ("ref-subject-alert", FR, "Maison Ferlac dégage un résultat net de 11 175 k€ en 2025.",
     ("A-solvea-1",), [WRONG_SUBJECT]),
    ("ref-direction", FR,
     "Le levier de Maison Ferlac a baissé à 5,5x en 2025, contre 3,6x en 2024.",
     ("R-ferlac-levier",), [WRONG_DIRECTION]),
    # Faithful: accepted.
    ("faithful-rise", FR,
     "Le levier de Maison Ferlac a augmenté à 5,5x en 2025, contre 3,6x en 2024.",
     ("R-ferlac-levier",), []),
    ("faithful-short-name-no-accent", FR, "Solvea affiche un levier de 6,0x en 2025.",
     ("R-solvea-levier",), []),
    ("faithful-from-to", FR, "En 2025, Ferlac voit son levier passer de 3,6x à 5,5x.",
     ("R-ferlac-levier",), []),
    ("faithful-prior-year-words", FR,
     "Le levier de Ferlac atteint 5,5x en 2025, contre 3,6x un an plus tôt.",
     ("R-ferlac-levier",), []),
    ("faithful-two-companies", FR,
     "Le levier de Ferlac (5,5x) reste inférieur à celui de Solvéa (6,0x) en 2025.",
     ("R-ferlac-levier", "R-solvea-levier"), []),
    ("faithful-alert-copy", FR,
     "EBITDA en baisse de 17,2 % : 14 200 k€ en 2025 contre 17 150 k€ en 2024.",
     ("A-ferlac-5",), []),
    ("faithful-periods-in-parentheses", FR, "Ferlac : levier 5,5x (2025), 3,6x (2024).",
     ("R-ferlac-levier",), []),
    ("faithful-aside-is-not-compared", FR,
     "Avec un levier de 5,5x (3,6x en 2024), Ferlac dépasse le seuil d'alerte de 4,0x.",
     ("R-ferlac-levier", "A-ferlac-3"), []),
    ("faithful-threshold", FR, "Le levier de 5,5x en 2025 dépasse le seuil d'alerte de 4,0x.",
     ("A-ferlac-3",), []),
    ("faithful-negation-kept", FR,
     "Aucun contrat pluriannuel n'a été signé avec le fournisseur unique.",
     ("Q-ferlac-3",), []),
    ("faithful-quarter", FR, "Au T3 2025, le chiffre d'affaires atteint 31 400 k€.",
     ("R-ferlac-ca",), []),
    ("faithful-en-fall", EN, "Acme's leverage fell to 2.4x in 2025 from 3.1x in 2024.",
     ("R-acme-lev",), []),
    ("faithful-en-better", EN, "Acme Holdings improved its leverage to 2.4x in 2025.",
     ("R-acme-lev",), []),
    ("faithful-en-comply", EN,
     "Acme complies with its minimum interest cover of 3.0x, at 3.4x in 2025.",
     ("R-acme-cover",), []),
    # Subject.
    ("subject-en-possessive", EN, "Brill's leverage fell to 2.4x in 2025.",
     ("R-acme-lev", "R-brill-lev"), [WRONG_SUBJECT]),
    ("subject-unknown-legal-form", FR, "Delmar Industries SA affiche un levier de 5,5x en 2025.",
     ("R-ferlac-levier",), [WRONG_SUBJECT]),
    ("subject-statement", EN, "Brill's lenders granted a waiver of the leverage covenant.",
     ("Q-acme-2",), [WRONG_SUBJECT]),
    # Period.
    ("period-prior-as-current", FR, "Ferlac affiche un levier de 3,6x en 2025.",
     ("R-ferlac-levier",), [WRONG_PERIOD]),
    ("period-leading-year", EN, "In 2024, Acme's leverage stood at 2.4x.",
     ("R-acme-lev",), [WRONG_PERIOD]),
    ("period-quarter-as-year", FR, "Le chiffre d'affaires 2025 de Ferlac atteint 31 400 k€.",
     ("R-ferlac-ca",), [WRONG_PERIOD]),
    ("period-half-as-quarter", FR,
     "Au premier semestre 2025, le chiffre d'affaires atteint 31 400 k€.",
     ("R-ferlac-ca",), [WRONG_PERIOD]),
    # Direction.
    ("direction-single-value", EN, "Acme's leverage rose to 2.4x in 2025.",
     ("R-acme-lev",), [WRONG_DIRECTION]),
    ("direction-amount", FR, "L'EBITDA est en hausse de 17,2 % en 2025.",
     ("A-ferlac-5",), [WRONG_DIRECTION]),
    ("direction-order", FR, "Le levier de Ferlac (5,5x) dépasse celui de Solvéa (6,0x).",
     ("R-ferlac-levier", "R-solvea-levier"), [WRONG_DIRECTION]),
    ("direction-worse", EN, "Acme's leverage deteriorated to 2.4x in 2025 from 3.1x.",
     ("R-acme-lev",), [WRONG_DIRECTION]),
    ("direction-breach", EN, "Acme breached its minimum interest cover of 3.0x, at 3.4x.",
     ("R-acme-cover",), [WRONG_DIRECTION]),
    # Polarity.
    ("negation-affirmed", FR, "Un contrat pluriannuel a été signé avec le fournisseur unique.",
     ("Q-ferlac-3",), [NEGATION_FLIP]),
    ("negation-added", FR, "Aucune provision n'a été constituée au titre du litige.",
     ("Q-ferlac-7",), [NEGATION_FLIP]),
    ("negation-en", EN, "The lenders did not grant a waiver of the leverage covenant.",
     ("Q-acme-2",), [NEGATION_FLIP]),
    ("negation-of-true-change", FR,
     "Le levier de Ferlac n'a pas augmenté : 5,5x en 2025 contre 3,6x en 2024.",
     ("R-ferlac-levier",), [NEGATION_FLIP]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("locale", "text", "sources", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_claim_defects(
    locale: Locale, text: str, sources: tuple[str, ...], expected: list[str]
) -> None:
    facts = FACTS_FR if locale is FR else FACTS_EN
    defects = check_memo([Paragraph(text, sources)], facts, locale=locale)
    assert [d.code for d in defects] == expected


def test_messages_name_both_subjects_and_what_to_do() -> None:
    (defect,) = check_memo(
        [Paragraph("Solvéa Énergies affiche un levier de 5,5x en 2025.", ("R-ferlac-levier",))],
        FACTS_FR,
        locale=FR,
    )
    assert defect.paragraph == 1
    assert "Solvéa Énergies SA" in defect.detail and "Maison Ferlac SAS" in defect.detail
    assert "[R-ferlac-levier]" in defect.detail and "cite a fact about" in defect.detail


def test_period_message_gives_the_value_of_the_written_period() -> None:
    (defect,) = check_memo(
        [Paragraph("Ferlac affiche un levier de 3,6x en 2025.", ("R-ferlac-levier",))],
        FACTS_FR,
        locale=FR,
    )
    assert "written for 2025" in defect.detail and "gives it for 2024" in defect.detail
    assert "its 2025 value is 5,5x" in defect.detail


def test_direction_message_shows_the_values() -> None:
    text = "Le levier de Maison Ferlac a baissé à 5,5x en 2025, contre 3,6x en 2024."
    (defect,) = check_memo([Paragraph(text, ("R-ferlac-levier",))], FACTS_FR, locale=FR)
    assert "3,6x for 2024 and 5,5x for 2025: it went up" in defect.detail


def test_records_say_what_was_checked_and_what_was_not() -> None:
    text = (
        "Le levier de Maison Ferlac a augmenté à 5,5x en 2025. "
        "Solvéa publie un résultat net de 11 175 k€ en 2025."
    )
    (review,) = review_claims([(text, ("R-ferlac-levier", "A-solvea-1"))], FACTS_FR, locale=FR)
    assert review.defects == ()
    levier, resultat = review.claims
    assert (levier.claim, levier.subject, levier.period, levier.direction) == (
        "5,5", "ok", "ok", "ok",
    )  # fmt: skip
    # the alert read from a file gives 11 175 no period: that claim is counted unchecked
    assert (resultat.subject, resultat.period, resultat.unchecked()) == (
        "ok", "unchecked", ("period",),
    )  # fmt: skip


def test_a_change_without_a_number_from_the_facts_is_unchecked() -> None:
    (review,) = review_claims([("Le levier progresse nettement.", ("R-ferlac-levier",))],
                              FACTS_FR, locale=FR)  # fmt: skip
    assert review.defects == ()
    assert [(c.claim, c.direction) for c in review.claims] == [("progresse", "unchecked")]


def test_a_verbatim_quote_is_its_fact() -> None:
    text = (
        "Dépendance (p. 3) : « La fabrication dépend d'un fournisseur unique, avec lequel "
        "aucun contrat pluriannuel n'a été signé »."
    )
    (review,) = review_claims([(text, ("Q-ferlac-3",))], FACTS_FR, locale=FR)
    assert review.defects == ()
    assert [c.polarity for c in review.claims] == ["ok"]


def _fr(value: int) -> str:
    return f"{value // 10},{value % 10}x"


@given(
    st.integers(min_value=1, max_value=400),
    st.integers(min_value=1, max_value=400),
    st.integers(min_value=2001, max_value=2099),
    st.sampled_from(["Orlimont SA", "Brevanne Industries SAS", "Castelmoor plc"]),
)
def test_faithful_swapped_and_flipped_copies_of_a_ratio_line(
    now: int, before: int, year: int, company: str
) -> None:
    assume(now != before)
    facts = parse_facts(
        f"[R-x] {company} - Levier {year} : {_fr(now)} ({year - 1} : {_fr(before)})\n"
    )
    up = now > before
    verb, wrong = ("a augmenté", "a baissé") if up else ("a baissé", "a augmenté")
    short = company.split(maxsplit=1)[0]

    def codes(text: str) -> list[str]:
        return [d.code for d in check_memo([Paragraph(text, ("R-x",))], facts, locale=FR)]

    tail = f"à {_fr(now)} en {year}, contre {_fr(before)} en {year - 1}."
    assert codes(f"Le levier de {short} {verb} {tail}") == []
    assert codes(f"Le levier de {short} {wrong} {tail}") == [WRONG_DIRECTION]
    assert codes(f"{short} affiche un levier de {_fr(before)} en {year}.") == [WRONG_PERIOD]


_PIECES = st.sampled_from(
    ["Ferlac", "Solvéa SA", " ", ", ", ". ", "(", ")", "5,5x", "3,6x", "2025", "2024", "T3",
     "en hausse", "baisse", "n'a pas", "aucun", "supérieur à", "« ", " »", "-14 930 k€",
     "un an plus tôt", "entre 2024 et 2025", "plafond de 4,0x", "breach", "levier", "et"]
)  # fmt: skip


@given(st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=25))
def test_any_paragraph_gets_a_verdict_without_error(pieces: list[str]) -> None:
    text = "".join(pieces) or "x"
    for facts, locale in ((FACTS_FR, FR), (FACTS_EN, EN)):
        (review,) = review_claims([(text, [f.id for f in facts])], facts, locale=locale)
        assert all(d.paragraph == 1 for d in review.defects)


def test_a_name_no_fact_gives_leaves_the_subject_unchecked() -> None:
    (review,) = review_claims(
        [("Le levier de Delmar atteint 5,5x en 2025.", ("R-ferlac-levier",))], FACTS_FR, locale=FR
    )
    assert review.defects == ()
    assert [(c.claim, c.subject, c.period) for c in review.claims] == [("5,5", "unchecked", "ok")]


HALVES = parse_facts(
    "[A-tor-1] Torvelle SA - Résultat opérationnel S1 2025 : 8,2 M€ ; "
    "résultat opérationnel 2025 : 15,7 M€\n"
    "[A-tor-2] Torvelle SA - Résultat opérationnel S2 2025 : 7,5 M€\n"
)


@pytest.mark.parametrize(
    ("text", "sources", "expected"),
    [
        ("Sur l'ensemble de l'exercice, Torvelle dégage 8,2 M€.", ("A-tor-1",), [WRONG_PERIOD]),
        ("Sur l'ensemble de l'exercice, Torvelle dégage 7,5 M€.", ("A-tor-2",), [WRONG_PERIOD]),
        ("Sur l'ensemble de l'exercice, Torvelle dégage 15,7 M€.", ("A-tor-1",), []),
        ("Au premier semestre, Torvelle dégage 8,2 M€.", ("A-tor-1",), []),
    ],
)
def test_a_whole_year_without_its_year_is_no_half(
    text: str, sources: tuple[str, ...], expected: list[str]
) -> None:
    defects = check_memo([Paragraph(text, sources)], HALVES, locale=Locale.FR)
    assert [d.code for d in defects] == expected


MARGINS = parse_facts(
    "[R-tor-marge] Torvelle SA - Marge nette 2025 : 4,8 % (2024 : 4,1 %) ; "
    "formule : résultat net / chiffre d'affaires\n"
    "[R-tor-croissance] Torvelle SA - Taux de variation du résultat net 2025 : 4,8 % ; "
    "formule : résultat net 2025 / résultat net 2024 - 1\n"
)


@pytest.mark.parametrize(
    ("text", "sources", "expected"),
    [
        ("Le résultat net de Torvelle progresse de 4,8 % en 2025.", ("R-tor-marge",), [WRONG_BASE]),
        ("La marge nette de Torvelle atteint 4,8 % en 2025.", ("R-tor-marge",), []),
        ("La marge nette de Torvelle progresse à 4,8 % en 2025.", ("R-tor-marge",), []),
        ("Le résultat net de Torvelle progresse de 4,8 % en 2025.", ("R-tor-croissance",), []),
    ],
)
def test_a_level_over_its_base_is_no_change(
    text: str, sources: tuple[str, ...], expected: list[str]
) -> None:
    defects = check_memo([Paragraph(text, sources)], MARGINS, locale=Locale.FR)
    assert [d.code for d in defects] == expected
