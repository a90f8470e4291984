"""End to end on the bundled Ferlac report: a quote cut inside a number never becomes a fact.

The attack of issue 11: a reader returns "8 % du chiffre d'affaires" cut from "38 %" and
"5 000 k€" cut from "85 000 k€"; a writer then uses those figures. Before, the cut quotes
verified, became Q- facts and the memo came out VERIFIED. Now both quotes are refused as
``cuts_token`` (after the one re-ask), reach neither the facts nor the writer, and the memo
that uses their figures is REFUSED.
"""

from __future__ import annotations

import json

import pytest

from preuve.core.documents import Document
from preuve.core.quotes import Verdict
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.pipeline import analyse_report
from preuve.memo.writer import MemoStatus
from preuve.models.scripted import ScriptedModel

SHARE = "8 % du chiffre d’affaires de l’exercice, contre 34 % en 2024"
LOAN = "5 000 k€ est assorti d’un engagement"


@pytest.fixture(scope="module")
def ferlac_pages(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return load_pages(out / "reports" / "ferlac.pdf")


def _page_of(pages: list[str], text: str) -> int:
    return next(n for n, page in enumerate(pages, start=1) if text in " ".join(page.split()))


def test_cut_quotes_are_refused_and_their_figures_refused_in_the_memo(
    ferlac_pages: list[str],
) -> None:
    share_page = _page_of(ferlac_pages, "38 % du chiffre")
    loan_page = _page_of(ferlac_pages, "85 000 k€ est assorti")
    reader = json.dumps(
        {
            "signals": [
                {"category": "concentration", "quote": SHARE, "page": share_page},
                {"category": "covenant", "quote": LOAN, "page": loan_page},
            ]
        },
        ensure_ascii=False,
    )
    memo = json.dumps(
        {
            "paragraphs": [
                {
                    "text": "Le premier client pèse 8 % du chiffre d'affaires et le crédit "
                    "syndiqué atteint 5 000 k€.",
                    "sources": ["R-ferlac-levier"],
                }
            ]
        },
        ensure_ascii=False,
    )
    model = ScriptedModel([reader, reader, memo, memo])
    company = analyse_report(Document.from_pages("ferlac.pdf", ferlac_pages), model)

    assert company.reading.signals_rejected == 2
    assert [r.result.verdict for r in company.reading.rejected] == [Verdict.CUTS_TOKEN] * 2
    assert not [f for f in company.facts if f.id.startswith("Q-")]
    writer_text = "\n".join(m.content for m in model.requests[2].messages)
    assert SHARE not in writer_text and LOAN not in writer_text
    assert company.memo.status is MemoStatus.REFUSED
    codes = sorted(d.code for d in company.memo.defects)
    assert codes == ["number_not_in_facts", "number_not_in_facts"]
