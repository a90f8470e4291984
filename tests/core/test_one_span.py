"""One Span for every piece of evidence: the quote check returns it, memo signals and
workflow 2 sources carry it, and it indexes the document's whole text (pages joined by
form feeds) exactly as digest spans do."""

from __future__ import annotations

import pytest

from preuve.core.documents import Document, Snapshot, document_id
from preuve.core.evidence import validate_span
from preuve.core.quotes import QuoteChecker, Verdict
from preuve.io.records import QuoteEntry, dump_record
from preuve.memo.reader import read_signals
from preuve.memo.run_record import signal_entry
from preuve.models import ScriptedModel

PAGES = (
    "Page un. Le premier client représente 38 % du chiffre d'affaires.",
    "Page deux. La dette nette atteint 1 577 k€ à la clôture de l'exercice.",
)
DOC = Document.from_pages("reports/Rapport annuel.pdf", PAGES)


@pytest.mark.parametrize(
    ("page", "quote", "verdict", "span_page"),
    [
        pytest.param(1, "Le premier client représente 38 %", Verdict.EXACT, 1, id="exact-page-1"),
        pytest.param(2, "la  dette nette atteint 1 577 k€", Verdict.NORMALIZED, 2,
                     id="normalized-page-2"),
        pytest.param(1, "La dette nette atteint 1 577 k€", Verdict.FOUND_ON_OTHER_PAGE, None,
                     id="other-page-no-span"),
        pytest.param(1, "Le premier client pèse 38 %", Verdict.NOT_FOUND, None, id="not-found"),
    ],
)  # fmt: skip
def test_a_verified_quote_carries_its_span_in_the_document(
    page: int, quote: str, verdict: Verdict, span_page: int | None
) -> None:
    result = QuoteChecker.of(DOC).verify(page, quote)
    assert result.verdict is verdict
    if span_page is None:
        assert result.span is None and "span" not in dump_record(QuoteEntry.of(result))
        return
    span = result.span
    assert span is not None and (span.doc_id, span.page) == ("Rapport-annuel", span_page)
    assert span.text == DOC.text[span.start : span.end] == result.matched
    assert span.start - DOC.page_offset(span_page) == result.start
    assert validate_span(span, Snapshot.of([DOC])).ok  # the digest's own validation agrees
    assert dump_record(QuoteEntry.of(result))["span"] == span.as_dict()


def test_a_checker_over_bare_pages_gives_no_span() -> None:
    result = QuoteChecker(PAGES).verify(1, "Le premier client représente 38 %")
    assert result.verified and result.span is None


def test_find_looks_for_an_uncited_quote_on_every_page() -> None:
    result = QuoteChecker.of(DOC).find("La dette nette atteint 1 577 k€")
    assert (result.verified, result.page) == (True, 2)
    assert result.span is not None and result.span.page == 2


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("reports/Rapport annuel.pdf", "Rapport-annuel", id="path-with-space"),
        pytest.param("C:\\docs\\ferlac.pdf", "ferlac", id="windows-path"),
        pytest.param("notes.v2.txt", "notes.v2", id="dotted"),
        pytest.param(".env", ".env", id="leading-dot"),
        pytest.param("  ", "document", id="blank"),
    ],
)
def test_document_id_from_a_file_name(name: str, expected: str) -> None:
    assert document_id(name) == expected


def test_memo_signals_carry_their_span() -> None:
    answer = '{"signals": [{"category": "concentration", "page": 1, "quote": "Le premier client représente 38 % du chiffre d\'affaires."}]}'  # noqa: E501
    reading = read_signals(ScriptedModel([answer]), "X", DOC)
    [signal] = reading.verified
    assert signal.span is not None and signal.span.text == signal.matched
    assert dump_record(signal_entry(signal, DOC))["span"]["doc_id"] == "Rapport-annuel"
