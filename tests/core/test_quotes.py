"""Quote check: the SPEC's reference cases as oracle cases, the lenient tier, properties."""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import ModuleType

import pytest
from benchmarks.cuts import aligned_occurrence, oracle_boundaries
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from preuve.core import quotes as quotes_module
from preuve.core import text as text_module
from preuve.core.quotes import (
    MIN_QUOTE_CHARS,
    QuoteChecker,
    QuoteResult,
    Verdict,
    verify_quote,
)
from preuve.core.text import normalize
from preuve.io.records import QuoteEntry, dump_record

NOTE_9 = (
    "Note 9 – Emprunts. Le prêt syndiqué de 85\u00a0000 k€ est assorti d’un covenant : "
    "dette nette / EBITDA ajusté au plus 3,5x.\nAu 31 décembre 2025, le ratio s’établit à "
    "3,4x selon la définition contractuelle, en deçà du plafond. Les lignes non tirées sont "
    "limitées à 6\u202f000 k€."
)
CUSTOMERS = (
    "Le principal client représente 38 % du chiffre d’affaires. La ﬁliale de re\u00adfinance"
    "\u00adment a été cédée. Le free cash-ﬂow ressort à −14 930 k€ ; la marge nette à −0,5 %."
)
FILING = (
    "On June 30, 2022, Amcor Finance (USA), Inc. (the “Former Issuer”) entered into a\n"
    "Second Supplemental Indenture (the “Second Supplemental Indenture”) with the Trustee.\n"
    "Selling, general and administrative expenses 1,827 1,747\n"
    "Income tax impact of non-GAAP adjustments (4) (0.06)\n"
    "Common stock and paid-in capital – shares authorized 24,000; outstanding 7,432\n"
    "The Former Issuer's exchange offer was completed in June 2019.\n"
    "The restructuring liability was refinan-\nced by (1,577.5) million in the year."
)
PAGES = [NOTE_9, CUSTOMERS, FILING]


@dataclass(frozen=True, slots=True)
class Case:
    page: int
    quote: str
    verdict: Verdict
    matched: str | None = None  # the exact original span expected on acceptance
    other_page: int | None = None
    lenient: bool = True


def assert_result(result: QuoteResult, case: Case) -> None:
    """The one helper that checks a verdict and, on acceptance, its exact original span."""
    assert result.verdict is case.verdict, result.reason
    assert result.verified == (case.verdict in {Verdict.EXACT, Verdict.NORMALIZED, Verdict.LENIENT})
    assert result.page == case.page
    assert result.other_page == case.other_page
    if result.verified:
        assert result.start is not None and result.end is not None
        assert result.matched == PAGES[case.page - 1][result.start : result.end]
        assert result.matched == case.matched
        assert result.reason == ""
    else:
        assert result.start is None and result.end is None and result.matched is None
        assert result.reason, "a rejection always says why"


CASES = [
    # SPEC reference cases
    pytest.param(
        Case(
            1,
            "le ratio s’établit à 3,4x selon la définition contractuelle",
            Verdict.EXACT,
            "le ratio s’établit à 3,4x selon la définition contractuelle",
        ),
        id="exact",
    ),
    pytest.param(
        Case(
            1, "Le ratio de levier respecte le covenant de 3,5x prévu au contrat", Verdict.NOT_FOUND
        ),
        id="paraphrase-rejected",
    ),
    pytest.param(
        Case(1, "Le prêt syndiqué [...] en deçà du plafond", Verdict.NOT_FOUND),
        id="glued-with-brackets-rejected",
    ),
    pytest.param(
        Case(1, "Le prêt syndiqué de 85 000 k€ … le ratio s’établit à 3,4x", Verdict.NOT_FOUND),
        id="glued-with-ellipsis-rejected",
    ),
    pytest.param(
        Case(
            1,
            "le ratio s’établit à 3,4x selon la définition contractuelle.",
            Verdict.NORMALIZED,
            "le ratio s’établit à 3,4x selon la définition contractuelle",
        ),
        id="added-final-period-accepted",
    ),
    pytest.param(
        Case(1, "« le ratio s'établit à 3,4x »", Verdict.NORMALIZED, "le ratio s’établit à 3,4x"),
        id="typographic-apostrophe-and-quote-marks",
    ),
    pytest.param(
        Case(
            1,
            "au plus 3,5x. Au 31 décembre 2025",
            Verdict.NORMALIZED,
            "au plus 3,5x.\nAu 31 décembre 2025",
        ),
        id="pdf-line-break-inside-quote",
    ),
    pytest.param(
        Case(
            2,
            "La filiale de refinancement a été cédée",
            Verdict.NORMALIZED,
            "La ﬁliale de re\u00adfinance\u00adment a été cédée",
        ),
        id="ligature-and-soft-hyphens",
    ),
    pytest.param(
        Case(
            1,
            "Le prêt syndiqué de 85 000 k€",
            Verdict.NORMALIZED,
            "Le prêt syndiqué de 85\u00a0000 k€",
        ),
        id="nbsp",
    ),
    pytest.param(
        Case(
            1,
            "lignes non tirées sont limitées à 6 000 k€",
            Verdict.NORMALIZED,
            "lignes non tirées sont limitées à 6\u202f000 k€",
        ),
        id="narrow-nbsp",
    ),
    pytest.param(Case(1, "« 3,4x. »", Verdict.TOO_SHORT), id="too-short"),
    pytest.param(Case(0, "le ratio s’établit à 3,4x", Verdict.PAGE_OUT_OF_RANGE), id="page-zero"),
    pytest.param(
        Case(4, "le ratio s’établit à 3,4x", Verdict.PAGE_OUT_OF_RANGE), id="page-past-end"
    ),
    pytest.param(
        Case(1, "Le principal client représente 38 %", Verdict.FOUND_ON_OTHER_PAGE, other_page=2),
        id="found-on-other-page",
    ),
    pytest.param(
        Case(1, "le ratio s’établit à 3,4x selon la définition bancaire", Verdict.NOT_FOUND),
        id="single-changed-word-rejected",
    ),
    pytest.param(
        Case(
            1,
            "LE PRÊT SYNDIQUÉ DE 85 000 K€",
            Verdict.NORMALIZED,
            "Le prêt syndiqué de 85\u00a0000 k€",
        ),
        id="case-difference-accepted",
    ),
    pytest.param(
        Case(3, "The restructuring liability was refinanced", Verdict.NOT_FOUND),
        id="end-of-line-hyphenation-not-joined",
    ),
    # the lenient tier: what real quotes lose or gain
    pytest.param(
        Case(
            3,
            "Selling,generalandadministrativeexpenses",
            Verdict.LENIENT,
            "Selling, general and administrative expenses",
        ),
        id="lenient-lost-spaces",
    ),
    pytest.param(
        Case(
            3,
            "Income tax impact of non-GAAP adjustments(4)",
            Verdict.LENIENT,
            "Income tax impact of non-GAAP adjustments (4)",
        ),
        id="lenient-space-before-parenthesis",
    ),
    pytest.param(
        Case(
            3,
            "Inc. (the Former Issuer) entered into a",
            Verdict.LENIENT,
            "Inc. (the “Former Issuer”) entered into a",
        ),
        id="lenient-curly-quotes-dropped",
    ),
    pytest.param(
        Case(
            3,
            "The Former Issuers exchange offer was completed",
            Verdict.LENIENT,
            "The Former Issuer's exchange offer was completed",
        ),
        id="lenient-apostrophe-dropped",
    ),
    pytest.param(
        Case(
            3,
            "Common stock and paid-in capital shares authorized 24,000;",
            Verdict.LENIENT,
            "Common stock and paid-in capital – shares authorized 24,000",
        ),
        id="lenient-dash-dropped",
    ),
    pytest.param(
        Case(3, "Inc. (the Former Issuer) entered into a", Verdict.NOT_FOUND, lenient=False),
        id="lenient-switched-off",
    ),
    # the lenient tier never absorbs a meaningful change
    pytest.param(
        Case(3, "Selling,generalandadministrativeexpenses 1,827 1,748", Verdict.NOT_FOUND),
        id="lenient-changed-digit",
    ),
    pytest.param(
        Case(3, "Selling,generalandadministrativeexpenses 1.827 1,747", Verdict.NOT_FOUND),
        id="lenient-thousands-separator-changed",
    ),
    pytest.param(
        Case(3, "Selling,generalandadministrativeexpenses 1,8271,747", Verdict.NOT_FOUND),
        id="lenient-two-cells-never-merged",
    ),
    pytest.param(
        Case(3, "shares authorized 24,000; outstanding 7432", Verdict.NOT_FOUND),
        id="lenient-separator-removed",
    ),
    pytest.param(
        Case(
            3,
            "The restructuring liability was refinan- ced by (1,577.5) million",
            Verdict.NORMALIZED,
            "The restructuring liability was refinan-\nced by (1,577.5) million",
        ),
        id="parentheses-kept-control",
    ),
    pytest.param(
        Case(
            3, "The restructuring liability was refinan- ced by 1,577.5 million", Verdict.NOT_FOUND
        ),
        id="lenient-parentheses-removed",
    ),
    pytest.param(
        Case(2, "Le free cash-flow ressort à 14 930 k€ ; la marge", Verdict.NOT_FOUND),
        id="lenient-sign-removed",
    ),
    pytest.param(
        Case(
            2,
            "Le free cash-flow ressort à -14 930 k€ ; la marge",
            Verdict.LENIENT,
            "Le free cash-ﬂow ressort à −14 930 k€ ; la marge",
        ),
        id="lenient-minus-sign-spelled-as-hyphen",
    ),
    pytest.param(
        # Found only as a cut ("Inc." without "I"): refused, naming the cut (was not_found).
        Case(3, "nc. (the Former Issuer) entered into a", Verdict.CUTS_TOKEN),
        id="lenient-match-must-start-on-a-word-edge",
    ),
    pytest.param(
        Case(3, "(the Former Issuer)", Verdict.NOT_FOUND),
        id="lenient-needs-a-longer-quote",
    ),
]


@pytest.mark.parametrize("case", CASES)
def test_reference_cases(case: Case) -> None:
    assert_result(verify_quote(PAGES, case.page, case.quote, lenient=case.lenient), case)


@pytest.mark.parametrize("case", CASES)
def test_checker_agrees_with_one_shot(case: Case) -> None:
    checker = QuoteChecker(PAGES, lenient=case.lenient)
    assert_result(checker.verify(case.page, case.quote), case)


def test_changed_word_diagnostic_names_the_word() -> None:
    result = verify_quote(PAGES, 1, "le ratio s’établit à 3,4x selon la définition bancaire")
    assert result.diagnostic is not None
    diagnostic = result.diagnostic
    assert diagnostic.passage == NOTE_9[diagnostic.start : diagnostic.end]
    assert "définition contractuelle" in diagnostic.passage
    assert diagnostic.differences == ('quote has "bancaire" where the page has "contractuelle"',)
    assert 80 <= diagnostic.similarity < 100
    assert "bancaire" in result.reason and "page 1" in result.reason


def test_glued_quote_diagnostic_shows_the_glue() -> None:
    result = verify_quote(PAGES, 1, "Le prêt syndiqué de 85 000 k€ [...] en deçà du plafond")
    assert result.diagnostic is not None
    assert any("[...]" in difference for difference in result.diagnostic.differences)


def test_diagnostic_can_be_skipped_in_bulk() -> None:
    result = QuoteChecker(PAGES, diagnose=False).verify(1, "a quote that is nowhere at all")
    assert result.verdict is Verdict.NOT_FOUND and result.diagnostic is None
    assert result.reason


def test_nearest_other_page_is_named() -> None:
    pages = ["shared sentence about revenue", "nothing", "other", "shared sentence about revenue"]
    assert verify_quote(pages, 3, "shared sentence about revenue").other_page == 4
    assert verify_quote(pages, 2, "shared sentence about revenue").other_page == 1


def test_empty_document() -> None:
    result = verify_quote([], 1, "a long enough quote")
    assert result.verdict is Verdict.PAGE_OUT_OF_RANGE and "no pages" in result.reason


def test_a_result_as_json_keeps_its_fields_in_order() -> None:
    rejected = verify_quote(PAGES, 1, "le ratio s’établit à 3,4x selon la définition bancaire")
    accepted = verify_quote(PAGES, 1, "Le prêt syndiqué de 85 000 k€")
    for result in (rejected, accepted):
        data = dump_record(QuoteEntry.of(result))
        assert list(data) == [
            "verified",
            "verdict",
            "page",
            "start",
            "end",
            "matched",
            "reason",
            "other_page",
            "diagnostic",
        ]
        assert json.loads(json.dumps(data)) == data
    assert dump_record(QuoteEntry.of(accepted))["verdict"] == "normalized"
    diagnostic = dump_record(QuoteEntry.of(rejected))["diagnostic"]
    assert isinstance(diagnostic, dict) and diagnostic["passage"]


def test_verdict_values_are_lower_snake() -> None:
    assert [v.value for v in Verdict] == [
        "exact",
        "normalized",
        "lenient",
        "page_out_of_range",
        "too_short",
        "cuts_token",
        "not_found",
        "found_on_other_page",
    ]


@pytest.mark.parametrize("module", [quotes_module, text_module], ids=["quotes", "text"])
def test_public_names_exist(module: ModuleType) -> None:
    assert all(hasattr(module, name) for name in module.__all__)


# -- properties ---------------------------------------------------------------------------

WORDS = [
    "net",
    "income",
    "cash",
    "flow",
    "ratio",
    "covenant",
    "1,577",
    "(14,930)",
    "3.4x",
    "l’EBITDA",
    "«",
    "»",
    "–",
    "ﬁnancing",
    "85\u00a0000",
    "k€",
    "-0.5%",
    "2025",
    "|",
]
SEPARATORS = [" ", " ", " ", "\n", "\u00a0", "  ", " \n"]

page_text = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), min_size=4, max_size=40
).map(lambda parts: "".join(word + sep for word, sep in parts))


def skeleton(text: str) -> str:
    """Letters and digits only: what no tier may ever change."""
    return "".join(c for c in normalize(text).text if c.isalnum())


@settings(max_examples=300, deadline=None)
@given(page_text, st.data())
def test_verified_only_if_boundary_aligned_substring(page: str, data: st.DataObject) -> None:
    """For random pages and substrings: VERIFIED (strict tiers) exactly when aligned."""
    start = data.draw(st.integers(0, len(page) - 1))
    end = data.draw(st.integers(start + 1, len(page)))
    quote = page[start:end]
    needle = text_module.normalize_quote(quote)
    assume(len(needle) >= MIN_QUOTE_CHARS)
    result = verify_quote([page], 1, quote, lenient=False)
    assert result.verified == aligned_occurrence(page, needle), result.reason
    if result.verified:
        assert result.matched == page[result.start : result.end]
    else:
        assert result.verdict is Verdict.CUTS_TOKEN
        assert "inside the" in result.reason


@settings(max_examples=300, deadline=None)
@given(page_text, st.data())
def test_lenient_tier_never_verifies_a_cut(page: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(page) - 1))
    end = data.draw(st.integers(start + 1, len(page)))
    quote = page[start:end]
    needle = text_module.normalize_quote(quote)
    assume(len(needle) >= MIN_QUOTE_CHARS)
    result = verify_quote([page], 1, quote)
    if not aligned_occurrence(page, needle):
        assert not result.verified, result


@settings(max_examples=150, deadline=None)
@given(page_text, st.data())
def test_any_aligned_normalized_substring_verifies(page: str, data: st.DataObject) -> None:
    normalized = normalize(page).text
    bounds = sorted(oracle_boundaries(normalized))
    assume(len(bounds) >= 2)
    start = data.draw(st.sampled_from(bounds[:-1]))
    end = data.draw(st.sampled_from([b for b in bounds if b > start]))
    quote = normalized[start:end]
    needle = text_module.normalize_quote(quote)
    assume(len(needle) >= MIN_QUOTE_CHARS and aligned_occurrence(page, needle))
    result = verify_quote([page], 1, quote)
    assert result.verified and result.matched == page[result.start : result.end]
    assert needle in normalize(result.matched).text


@settings(max_examples=200, deadline=None)
@given(page_text, st.data())
def test_one_changed_digit_or_letter_never_verifies(page: str, data: st.DataObject) -> None:
    normalized = normalize(page).text
    start = data.draw(st.integers(0, max(0, len(normalized) - MIN_QUOTE_CHARS)))
    quote = normalized[start : start + data.draw(st.integers(MIN_QUOTE_CHARS, 60))]
    positions = [i for i, c in enumerate(quote) if c.isascii() and c.isalnum()]
    assume(positions)
    at = data.draw(st.sampled_from(positions))
    pool = "0123456789" if quote[at].isdigit() else "abcdefghijklmnopqrstuvwxyz"
    replacement = data.draw(st.sampled_from(pool.replace(quote[at], "")))
    changed = quote[:at] + replacement + quote[at + 1 :]
    for lenient in (True, False):
        result = verify_quote([page], 1, changed, lenient=lenient)
        # Verified only if the page really holds those letters and digits in that order.
        assert not result.verified or skeleton(changed) in skeleton(page)
