"""Risk cues on wording the bundled reports never use: general rules, not text matches."""

from __future__ import annotations

import pytest

from preuve.memo.cues import classify_sentence, page_sentences
from preuve.memo.ratios import detect_company


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        pytest.param(
            "Securities with contractual maturities of three months or less are cash equivalents.",
            None,
            id="maturity-of-cash-equivalents-is-no-refinancing",
        ),
        pytest.param(
            "Our term loan matures in March 2027 and we will need to refinance it.",
            "refinancing",
            id="loan-maturity-is-refinancing",
        ),
        pytest.param(
            "(In millions, except per share data and financial ratios)",
            None,
            id="table-caption-with-financial-ratios",
        ),
        pytest.param(
            "10.4 Covenant Not to Compete between the Company and its chief officer, dated 2019.",
            None,
            id="non-compete-is-no-covenant",
        ),
        pytest.param(
            "No waiver of any term of this Agreement will be effective unless made in writing.",
            None,
            id="contract-waiver-is-boilerplate",
        ),
        pytest.param(
            "We obtained a waiver from our lenders for the leverage test of the third quarter.",
            "covenant",
            id="lender-waiver-is-covenant",
        ),
        pytest.param(
            "Goodwill is assigned directly to a specific reporting unit of the group.",
            None,
            id="english-assigned-is-no-lawsuit",
        ),
        pytest.param(
            "La société a été assignée devant le tribunal de commerce par un distributeur.",
            "litigation",
            id="french-assignee-is-litigation",
        ),
        pytest.param(
            "The cost of providing plan benefits depends on demographic assumptions of staff.",
            None,
            id="depends-on-assumptions-is-no-dependency",
        ),
        pytest.param(
            "We depend on a single foundry in Taiwan for all of our sensor wafers.",
            "dependency",
            id="company-depends-on-supplier",
        ),
        pytest.param(
            "For information about our legal proceedings, see Note 12 to the financial statements.",
            None,
            id="cross-reference-states-nothing",
        ),
        pytest.param(
            "This report contains statements under the Private Securities Litigation Reform Act.",
            None,
            id="safe-harbour-statute-is-no-lawsuit",
        ),
    ],
)
def test_classify_sentence_on_unseen_wording(sentence: str, expected: str | None) -> None:
    found = classify_sentence(sentence)
    assert (found[0] if found else None) == expected


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("Fair Value and Future Maturities of Outstanding Borrowings", id="title-case"),
        pytest.param(
            "Sales to Wholesale Customers $ 23,969 $ 23,078 4 % 2 % $ 22,577 2 % of sales",
            id="table-row-with-currency-cells",
        ),
    ],
)
def test_headings_and_table_rows_are_not_sentences(line: str) -> None:
    prose = "The company depends on a single supplier for its main component in Europe."
    page = f"{line}\n\n{prose}\n"
    assert [s.text for s in page_sentences(page)] == [prose]


def test_company_name_punctuation_spaced_out_by_extraction_is_closed_up() -> None:
    cover = (
        "FORM 10-K\nACME WIDGETS, Inc .\n(Exact name of registrant as specified in its charter)\n"
    )
    company = detect_company([cover])
    assert company.name == "ACME WIDGETS, Inc."
    assert company.slug == "acme"
