"""Soundness: the attacks on the quote and memo checks, one named case each (issue 11).

Nothing false may come out VERIFIED: a quote cut inside a number or a word, a digit that
normalization would change, a number with another scale, unit or sign, a negated sign
word, a number glued to text or after a month name. Each case asserts the exact verdict
or defect codes; faithful controls sit beside the attacks so the checks stay usable.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from preuve.core.facts import parse_facts
from preuve.core.memocheck import (
    MAX_SOURCES,
    NUMBER_NOT_IN_FACTS,
    NUMBER_SIGN,
    SCALE_MISMATCH,
    TOO_MANY_SOURCES,
    UNIT_MISMATCH,
    Paragraph,
    check_memo,
)
from preuve.core.numbers import Locale
from preuve.core.quotes import Verdict, verify_quote

PAGE_FR = (
    "Le chiffre d'affaires atteint 138 500 k€ en 2025, en hausse de 4,2 %.\n"
    "La marge nette est de -12,5 % cette année, contre -3,1 % en 2024.\n"
    "Le levier ressort à 5,5x¹ selon la définition contractuelle.\n"
    "Le premier client représente 38 % du chiffre d'affaires ; les lignes non tirées\n"
    "sont limitées à 85\u00a0000 k€. Le résultat financier est de (1 577) k€ et la dette\n"
    "brute atteint 11 175 k€. Le free cash-flow libre reste négatif.\n"
    "Le taux passe à 3¹ % puis 10² unités, soit ⑤ sites et ½ part."
)
PAGE_EN = (
    "Net revenue was $11,577.5 million, up 12.5% from fiscal 2024; the operating\n"
    "loss was (1,577) million and the order book reached 1 240 units in Q3."
)
EXACT, NORMALIZED, CUTS, NOT_FOUND = (
    Verdict.EXACT,
    Verdict.NORMALIZED,
    Verdict.CUTS_TOKEN,
    Verdict.NOT_FOUND,
)


@dataclass(frozen=True, slots=True)
class QuoteCase:
    page: str
    quote: str
    verdict: Verdict
    cut: str | None = None  # the token the diagnostic must name


QUOTE_CASES: dict[str, QuoteCase] = {
    # -- cut inside a number, French -------------------------------------------------------
    "fr-starts-inside-thousands": QuoteCase(
        PAGE_FR, "38 500 k€ en 2025, en hausse", CUTS, "138 500"
    ),
    "fr-starts-at-a-group": QuoteCase(
        PAGE_FR, "500 k€ en 2025, en hausse de 4,2 %", CUTS, "138 500"
    ),
    "fr-ends-before-decimals": QuoteCase(PAGE_FR, "La marge nette est de -12", CUTS, "-12,5"),
    "fr-drops-the-sign": QuoteCase(PAGE_FR, "12,5 % cette année, contre", CUTS, "-12,5"),
    "fr-ends-inside-decimals": QuoteCase(PAGE_FR, "en hausse de 4", CUTS, "4,2"),
    "fr-starts-at-decimal-comma": QuoteCase(PAGE_FR, ",2 %. La marge nette", CUTS, "4,2"),
    "fr-starts-inside-decimals": QuoteCase(PAGE_FR, "2 %. La marge nette est de", CUTS, "4,2"),
    "fr-percent-cut-from-38": QuoteCase(PAGE_FR, "8 % du chiffre d'affaires", CUTS, "38"),
    "fr-amount-cut-from-85-000": QuoteCase(
        PAGE_FR, "000 k€. Le résultat financier", CUTS, "85\u00a0000"
    ),
    "fr-nbsp-group-cut": QuoteCase(PAGE_FR, "5 000 k€. Le résultat financier", CUTS),
    "fr-opens-parenthesis-only": QuoteCase(PAGE_FR, "financier est de (1 577", CUTS, "(1 577)"),
    "fr-drops-opening-parenthesis": QuoteCase(PAGE_FR, "1 577) k€ et la dette", CUTS, "(1 577)"),
    "fr-ends-inside-11-175": QuoteCase(PAGE_FR, "la dette brute atteint 11 17", CUTS),
    "fr-drops-unit-glued-x": QuoteCase(PAGE_FR, "Le levier ressort à 5,5", CUTS, "5,5x"),
    "fr-starts-inside-year": QuoteCase(PAGE_FR, "025, en hausse de 4,2 %", CUTS, "2025"),
    "fr-ends-inside-year": QuoteCase(PAGE_FR, "contre -3,1 % en 202", CUTS, "2024"),
    # -- cut inside a word -----------------------------------------------------------------
    "fr-starts-inside-a-word": QuoteCase(PAGE_FR, "hiffre d'affaires atteint", CUTS, "chiffre"),
    "fr-ends-inside-a-word": QuoteCase(PAGE_FR, "Le chiffre d'affaires attein", CUTS, "atteint"),
    "fr-inside-hyphenated": QuoteCase(PAGE_FR, "flow libre reste négatif", CUTS, "cash-flow"),
    "fr-ends-on-hyphen": QuoteCase(PAGE_FR, "Le free cash-", CUTS),
    "fr-word-before-footnote": QuoteCase(PAGE_FR, "selon la définition contractu", CUTS),
    # -- whole tokens verify ---------------------------------------------------------------
    "fr-genuine-negative": QuoteCase(PAGE_FR, "La marge nette est de -12,5 % cette année", EXACT),
    "fr-genuine-number-at-end": QuoteCase(PAGE_FR, "atteint 138 500 k€ en 2025", EXACT),
    # s29: a quote that stops before the number's unit drops it ("4,2" of "4,2 %").
    "fr-drops-percent-sign": QuoteCase(PAGE_FR, "en 2025, en hausse de 4,2", CUTS, "4,2 %"),
    "fr-genuine-parentheses": QuoteCase(PAGE_FR, "(1 577) k€ et la dette", EXACT),
    "fr-genuine-nbsp-as-space": QuoteCase(PAGE_FR, "sont limitées à 85 000 k€", NORMALIZED),
    "fr-footnote-mark-is-its-own-token": QuoteCase(PAGE_FR, "Le levier ressort à 5,5x", EXACT),
    "fr-added-final-period": QuoteCase(PAGE_FR, "en hausse de 4,2 %.", EXACT),
    "fr-quote-marks-and-period": QuoteCase(PAGE_FR, "« en hausse de 4,2 % ».", NORMALIZED),
    "fr-fullwidth-digits-fold": QuoteCase(
        PAGE_FR, "atteint １３８ ５００ k€ en ２０２５", NORMALIZED
    ),
    "fr-whole-hyphenated": QuoteCase(PAGE_FR, "Le free cash-flow libre reste négatif", EXACT),
    # -- compatibility digits are never folded ---------------------------------------------
    "superscript-is-not-a-digit": QuoteCase(PAGE_FR, "Le taux passe à 31 % puis", NOT_FOUND),
    "squared-is-not-2": QuoteCase(PAGE_FR, "puis 102 unités, soit", NOT_FOUND),
    "circled-is-not-5": QuoteCase(PAGE_FR, "unités, soit 5 sites et", NOT_FOUND),
    "fraction-is-not-1-2": QuoteCase(PAGE_FR, "sites et 1/2 part", NOT_FOUND),
    "compatibility-digits-copied": QuoteCase(
        PAGE_FR, "Le taux passe à 3¹ % puis 10² unités", EXACT
    ),
    # -- English ---------------------------------------------------------------------------
    "en-cut-thousands": QuoteCase(PAGE_EN, "577.5 million, up 12.5%", CUTS, "11,577.5"),
    "en-cut-decimals": QuoteCase(PAGE_EN, "was $11,577 million", NOT_FOUND),
    "en-ends-before-decimals": QuoteCase(PAGE_EN, "Net revenue was $11,577", CUTS, "11,577.5"),
    "en-starts-at-decimal-point": QuoteCase(PAGE_EN, ".5% from fiscal 2024", CUTS),
    "en-ends-inside-percent": QuoteCase(PAGE_EN, "million, up 12", CUTS, "12.5"),
    "en-opens-parenthesis-only": QuoteCase(PAGE_EN, "operating\nloss was (1,577", CUTS, "(1,577)"),
    "en-drops-parenthesis": QuoteCase(PAGE_EN, "1,577) million and the order", CUTS, "(1,577)"),
    "en-space-group-cut": QuoteCase(PAGE_EN, "240 units in Q3", CUTS, "1 240"),
    "en-genuine": QuoteCase(PAGE_EN, "up 12.5% from fiscal 2024", EXACT),
    "en-genuine-line-break-as-space": QuoteCase(
        PAGE_EN, "the operating loss was (1,577) million", NORMALIZED
    ),
    "en-homoglyph": QuoteCase(PAGE_EN, "Net rеvenue was $11,577.5 million", NOT_FOUND),
    # -- found by fuzz/fuzz_boundaries.py ------------------------------------------------------
    "fuzz-circled-digit-is-its-own-token": QuoteCase(
        "138 500⑤138\u00a0500’ %Le 4,2 %", "⑤138\u00a0500’ %Le 4,2 %", EXACT
    ),
    "fuzz-fullwidth-hyphen-joins-like-a-hyphen": QuoteCase(
        "x d'affaires »d'affaires  %‒7,4－3", "'affaires  %‒7,4", CUTS
    ),
    "fuzz-number-glued-to-a-word-is-still-a-number": QuoteCase(
        "’2024-25libre85 000", "2024-25libre85", CUTS
    ),
    "fuzz-a-sign-after-a-parenthesis-is-the-numbers": QuoteCase(
        "(1 577)(1 577)(1 577)‒7,4 k€", "(1 577)(1 577)‒", CUTS, "‒7,4"
    ),
    "fuzz-a-sign-after-a-footnote-mark-is-the-numbers": QuoteCase(
        "Le montant 1,577.5⑤–12,5 k€ en 2025", "Le montant 1,577.5⑤–", CUTS, "–12,5"
    ),
    "fuzz-groups-split-by-a-line-break-judged-alike-in-every-tier": QuoteCase(
        "Le total passe de 138 500 à －3\n138 500 k€ en fin d'année", "passe de 138 500 à －3", CUTS
    ),
    "fuzz-comma-between-digits-belongs-to-them": QuoteCase(
        "–12,54,2chiffre atteint 4,2", ",2chiffre atteint 4,2", CUTS
    ),
}
# Every Unicode dash and minus that stands as a sign: a quote that drops it cuts the number.
SIGNS = {
    "hyphen": "\u2010",
    "figure-dash": "\u2012",
    "en-dash": "\u2013",
    "minus": "\u2212",
    "small-hyphen-minus": "\ufe63",
    "fullwidth-hyphen-minus": "\uff0d",
    "heavy-minus": "\u2796",
}
for name, sign in SIGNS.items():
    signed_page = f"La marge opérationnelle ressort à {sign}7,4 % sur l'exercice 2025."
    QUOTE_CASES[f"sign-{name}-dropped"] = QuoteCase(signed_page, "7,4 % sur l'exercice 2025", CUTS)
    QUOTE_CASES[f"sign-{name}-kept"] = QuoteCase(
        signed_page, f"ressort à {sign}7,4 % sur l'exercice", EXACT
    )


@pytest.mark.parametrize("lenient", [True, False], ids=["lenient", "strict"])
@pytest.mark.parametrize("name", sorted(QUOTE_CASES))
def test_quote_attack(name: str, lenient: bool) -> None:
    case = QUOTE_CASES[name]
    result = verify_quote([case.page], 1, case.quote, lenient=lenient)
    assert result.verdict is case.verdict, result.reason
    if result.verified:
        assert result.matched == case.page[result.start : result.end]
    if case.cut is not None:
        assert f"«{case.cut}»" in result.reason


FACTS_FR = parse_facts(
    "[A-f-1] Maison Ferlac SAS - Free cash-flow 2025 : -14 930 k€ ; marge nette : -0,5 %\n"
    "[R-f-lev] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x)\n"
    "[Q-f-3] Maison Ferlac SAS - « Le premier client représente 38 % du chiffre "
    "d'affaires. » (p. 12)\n"
    "[A-f-2] Maison Ferlac SAS - Prêt syndiqué : 85 000 k€, échéance au 31 décembre 2027 ; "
    "covenant 9,9x\n"
)
FACTS_EN = parse_facts(
    "[A-a-1] Acme Inc. - Revenue 2025: $9.9m; net loss: $(1.2)m; EBITDA margin: 12.5%\n"
    "[R-a-2] Acme Inc. - Interest cover 2025: 4.5x; spread: 250 bp; advisory ACM-2026-004\n"
)
FR_IDS = ("A-f-1", "R-f-lev", "Q-f-3", "A-f-2")
EN_IDS = ("A-a-1", "R-a-2")
OK: tuple[str, ...] = ()

# name → (locale, paragraph, expected defect codes)
MEMO_CASES: dict[str, tuple[Locale, str, tuple[str, ...]]] = {
    # -- scale and unit ---------------------------------------------------------------------
    "fr-k-vs-M": (Locale.FR, "Le free cash-flow ressort à -14 930 M€.", (SCALE_MISMATCH,)),
    "fr-k-as-fact": (Locale.FR, "Le free cash-flow ressort à -14 930 k€.", OK),
    "fr-milliers-is-thousand": (Locale.FR, "Un free cash-flow de -14 930 milliers.", OK),
    "fr-million-word": (Locale.FR, "Un free cash-flow de -14 930 millions.", (SCALE_MISMATCH,)),
    "fr-dollars-for-euros": (Locale.FR, "Un free cash-flow de -14 930 k$.", (UNIT_MISMATCH,)),
    "fr-x-vs-percent": (Locale.FR, "Le levier atteint 5,5 %.", (UNIT_MISMATCH,)),
    "fr-percent-vs-points": (Locale.FR, "La marge nette recule de -0,5 point.", (UNIT_MISMATCH,)),
    "fr-percent-vs-x": (Locale.FR, "Le premier client pèse 38x.", (UNIT_MISMATCH,)),
    "fr-same-x-other-format": (Locale.FR, "Le levier atteint 5,50x.", OK),
    "fr-fois-is-x": (Locale.FR, "Le levier atteint 5,5 fois l'EBITDA.", OK),
    "fr-unit-not-written": (Locale.FR, "Le levier atteint 5,5 en 2025.", OK),
    "fr-glued-m-euro": (Locale.FR, "Le prêt atteint 85m€.", (NUMBER_NOT_IN_FACTS,)),
    "fr-glued-m-euro-scale": (Locale.FR, "Le prêt atteint 85 000m€.", (SCALE_MISMATCH,)),
    "fr-glued-eur-code-drops-scale": (Locale.FR, "Le prêt atteint EUR85 000.", (SCALE_MISMATCH,)),
    "fr-keur-is-k-euro": (Locale.FR, "Le prêt atteint 85 000 kEUR.", OK),
    "fr-euros-drops-scale": (Locale.FR, "Le prêt atteint 85 000 euros.", (SCALE_MISMATCH,)),
    "fr-circled-digit-is-a-number": (
        Locale.FR,
        "Les ⑤ premiers clients pèsent 38 %.",
        (NUMBER_NOT_IN_FACTS,),
    ),
    "fr-glued-abbreviation": (Locale.FR, "Le covenant est à env.9,9x.", OK),
    "fr-glued-abbreviation-invented": (
        Locale.FR,
        "Le levier vaut env.6,1x.",
        (NUMBER_NOT_IN_FACTS,),
    ),
    "fr-scientific": (Locale.FR, "Un écart de 5,5e-3 sur le levier.", (NUMBER_NOT_IN_FACTS,)),
    "fr-thousands-not-decimal": (Locale.FR, "Le prêt atteint 85,000 k€.", (NUMBER_NOT_IN_FACTS,)),
    "fr-computed-difference": (Locale.FR, "Le levier a gagné 1,9 point.", (NUMBER_NOT_IN_FACTS,)),
    # -- signs ------------------------------------------------------------------------------
    "fr-spec-negative-word": (Locale.FR, "Un free cash-flow négatif de 14 930 k€.", OK),
    "fr-spec-dropped-sign": (Locale.FR, "Une marge nette de 0,5 %.", (NUMBER_SIGN,)),
    "fr-negated-negative": (
        Locale.FR,
        "Le free cash-flow n'est pas négatif, à 14 930 k€.",
        (NUMBER_SIGN,),
    ),
    "fr-sans-perte": (
        Locale.FR,
        "Sans perte, le free cash-flow atteint 14 930 k€.",
        (NUMBER_SIGN,),
    ),
    "fr-non-deficitaire": (
        Locale.FR,
        "Un free cash-flow non déficitaire de 14 930 k€.",
        (NUMBER_SIGN,),
    ),
    "fr-aucune-perte": (
        Locale.FR,
        "Aucune perte : un free cash-flow de 14 930 k€.",
        (NUMBER_SIGN,),
    ),
    "fr-sign-word-other-clause": (
        Locale.FR,
        "La marge est négative ; le free cash-flow atteint 14 930 k€.",
        (NUMBER_SIGN,),
    ),
    "fr-invented-sign": (Locale.FR, "Le levier atteint -5,5x.", (NUMBER_SIGN,)),
    # -- months, days, ordinals, references ---------------------------------------------------
    "fr-after-month-name": (Locale.FR, "En décembre 15 % du prêt.", (NUMBER_NOT_IN_FACTS,)),
    "fr-after-month-percent-in-fact": (Locale.FR, "En décembre 38 % du chiffre.", OK),
    "fr-day-in-fact": (Locale.FR, "Le prêt arrive à échéance au 31 décembre 2027.", OK),
    "fr-day-invented": (Locale.FR, "Échéance au 30 décembre 2027.", (NUMBER_NOT_IN_FACTS,)),
    "fr-day-of-another-month": (Locale.FR, "Échéance au 31 janvier 2027.", (UNIT_MISMATCH,)),
    "fr-ordinal-invented": (Locale.FR, "Le 2e client pèse 38 %.", (NUMBER_NOT_IN_FACTS,)),
    "fr-superscript-glued": (
        Locale.FR,
        "Le premier client pèse 3⁸ %.",
        (NUMBER_NOT_IN_FACTS, NUMBER_NOT_IN_FACTS),
    ),
    "fr-reference-invented": (Locale.FR, "Voir la note 14 du rapport.", (NUMBER_NOT_IN_FACTS,)),
    "fr-slashed-date-invented": (
        Locale.FR,
        "Au 31/12/2025, 38 % du chiffre.",
        (NUMBER_NOT_IN_FACTS,),
    ),
    "fr-page-reference-from-fact": (Locale.FR, "Le premier client pèse 38 % (p. 12).", OK),
    "fr-fiscal-year-range": (
        Locale.FR,
        "Sur 2024-25, le levier atteint 5,5x.",
        (NUMBER_NOT_IN_FACTS,),
    ),
    # -- English ----------------------------------------------------------------------------
    "en-glued-m": (Locale.EN, "Revenue reached $9.9m in 2025.", OK),
    "en-million-word": (Locale.EN, "Revenue reached $9.9 million.", OK),
    "en-usd-code": (Locale.EN, "Revenue reached USD9.9 million.", OK),
    "en-usd-code-spaced": (Locale.EN, "Revenue reached USD 9.9m.", OK),
    "en-billion-for-million": (Locale.EN, "Revenue reached $9.9bn.", (SCALE_MISMATCH,)),
    "en-capital-b": (Locale.EN, "Revenue reached $9.9B.", (SCALE_MISMATCH,)),
    "en-euro-for-dollar": (Locale.EN, "Revenue reached €9.9m.", (UNIT_MISMATCH,)),
    "en-pound-mm": (Locale.EN, "Revenue reached £9.9mm.", (UNIT_MISMATCH,)),
    "en-percent-for-money": (Locale.EN, "Revenue grew 9.9%.", (UNIT_MISMATCH,)),
    "en-points-for-percent": (Locale.EN, "The margin is 12.5 points.", (UNIT_MISMATCH,)),
    "en-basis-points": (Locale.EN, "The spread is 250 basis points.", OK),
    "en-bp-vs-percent": (Locale.EN, "The spread is 250%.", (UNIT_MISMATCH,)),
    "en-loss-word": (Locale.EN, "A net loss of $1.2m.", OK),
    "en-no-loss": (Locale.EN, "No loss: net income of $1.2m.", (NUMBER_SIGN,)),
    "en-not-negative": (Locale.EN, "Net income was not negative at $1.2m.", (NUMBER_SIGN,)),
    "en-parentheses": (Locale.EN, "Net income was $(1.2)m.", OK),
    "en-x-glued": (Locale.EN, "Interest cover of 4.5x.", OK),
    "en-x-vs-percent": (Locale.EN, "Interest cover of 4.5%.", (UNIT_MISMATCH,)),
    "en-month-then-number": (Locale.EN, "In December 12.5% of revenue.", OK),
    "en-month-then-invented": (Locale.EN, "In December 15% of revenue.", (NUMBER_NOT_IN_FACTS,)),
    "en-ordinal": (Locale.EN, "The 3rd largest customer.", (NUMBER_NOT_IN_FACTS,)),
    "en-identifier-from-fact": (Locale.EN, "Advisory ACM-2026-004 is open.", OK),
    "en-identifier-invented": (Locale.EN, "Advisory ACM-2026-005 is open.", (NUMBER_NOT_IN_FACTS,)),
    "en-version-invented": (Locale.EN, "Fixed in version 3.4.2.", (NUMBER_NOT_IN_FACTS,)),
    "en-scientific-same-value": (Locale.EN, "A spread of 2.5e2 bp.", OK),
    "en-scientific": (Locale.EN, "A spread of 2.6e2 bp.", (NUMBER_NOT_IN_FACTS,)),
}
# Every Unicode dash or minus in front of the figure is a sign.
for name, sign in SIGNS.items():
    MEMO_CASES[f"fr-sign-{name}"] = (Locale.FR, f"Une marge nette de {sign}0,5 %.", OK)
    MEMO_CASES[f"fr-sign-{name}-invented"] = (
        Locale.FR,
        f"Un levier de {sign}5,5x.",
        (NUMBER_SIGN,),
    )


@pytest.mark.parametrize("name", sorted(MEMO_CASES))
def test_memo_number_attack(name: str) -> None:
    locale, text, expected = MEMO_CASES[name]
    facts, ids = (FACTS_FR, FR_IDS) if locale is Locale.FR else (FACTS_EN, EN_IDS)
    defects = check_memo([Paragraph(text, ids)], facts, locale=locale, years=(2024, 2025, 2027))
    assert tuple(d.code for d in defects) == expected, [d.detail for d in defects]


def test_the_corpus_is_at_least_the_issues_hundred() -> None:
    assert len(QUOTE_CASES) + len(MEMO_CASES) >= 100


def test_defect_messages_say_what_to_do() -> None:
    (scale,) = check_memo(
        [Paragraph("Un free cash-flow de -14 930 M€.", ("A-f-1",))], FACTS_FR, locale=Locale.FR
    )
    assert "not its scale" in scale.detail and "-14 930 k€" in scale.detail
    (unit,) = check_memo(
        [Paragraph("Le levier atteint 5,5 %.", ("R-f-lev",))], FACTS_FR, locale=Locale.FR
    )
    assert "not its unit" in unit.detail and "5,5x" in unit.detail


def test_a_paragraph_citing_everything_is_refused() -> None:
    facts = parse_facts("".join(f"[A-x-{i}] Société {i} SA - Dette {i} k€\n" for i in range(150)))
    paragraph = Paragraph("La dette atteint 12 k€.", tuple(f.id for f in facts))
    (defect,) = check_memo([paragraph], facts, locale=Locale.FR)
    assert defect.code == TOO_MANY_SOURCES and str(MAX_SOURCES) in defect.detail


def test_a_long_rejected_quote_gets_a_bounded_diagnostic() -> None:
    page = " ".join(f"mot{i % 50} de la page" for i in range(20_000))
    quote = " ".join(f"mot{i % 50} de la ligne" for i in range(2_000))
    result = verify_quote([page], 1, quote)
    assert result.verdict is Verdict.NOT_FOUND and result.diagnostic is not None
    diagnostic = result.diagnostic
    assert diagnostic.passage == page[diagnostic.start : diagnostic.end]
    assert diagnostic.differences and len(diagnostic.passage.split(" ")) <= 2 * 120
