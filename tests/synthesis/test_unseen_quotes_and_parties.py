"""General cases met on unseen dossiers (s28): names that are no parties, a revised quote's
lines and its total, a reference to another document's date, a heading quoted alone."""

from __future__ import annotations

from datetime import date

from preuve.core.numbers import Locale
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.planner_products import product_aliases, question_entities
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.reader import CatalogueEntry, document_reads
from preuve.synthesis.types import Finding, Statement, StatementSource

LEX = default_lexicon()
SOURCES = {
    "doc-09": SourceInfo("doc-09", date(2026, 3, 12), SourceType.MEETING_MINUTES),
    "doc-30": SourceInfo("doc-30", date(2026, 5, 12), SourceType.MEETING_MINUTES),
}


def test_a_tax_acronym_of_the_question_is_no_subject() -> None:
    question = (
        "Which press should the print shop buy: **Orvik P5** or **Tamsen Duo**?\n"
        "The price before GST must stay under the grant; TVA and VAT rules apply abroad."
    )
    texts = ["Orvik P5 quote\nOrvik P5: 12 000 EUR excl. VAT, GST extra, TVA 20 %."]
    named = question_entities(question, texts, ("Orvik P5", "Tamsen Duo"))
    assert not {"GST", "VAT", "TVA"} & set(named)


def test_a_capitalized_word_after_a_possessive_qualifies_an_unnamed_party() -> None:
    question = (
        "Shortlist:\n"
        "- **Kelda Wash 5** (Kelda AG, through its Danish reseller)\n"
        "- **Morrow Line** (Morrow Oy)\n"
    )
    aliases = product_aliases(question, ("Kelda Wash 5", "Morrow Line"))
    assert aliases.get("Kelda AG") == "Kelda Wash 5"
    assert "Danish" not in aliases
    assert aliases.get("Morrow Oy") == "Morrow Line"
    texts = ["Kelda Wash 5 notice\nShipments to Danish customers start in May."]
    assert "Danish" not in question_entities(question, texts, ("Kelda Wash 5", "Morrow Line"))


def test_a_date_in_an_aside_that_is_another_document_s_date_is_a_reference() -> None:
    """ "(as set out in our letter of 3 March 2027)" dates the letter, not the shipment; the
    same sentence's own date is still read."""
    catalogue = [
        CatalogueEntry("doc-07", "Shipping plan revised", "2027-03-03", "official announcement"),
        CatalogueEntry("doc-09", "Offer for the press", "2027-04-10", "quote"),
    ]
    text = (
        "Shipment follows the maker's revised plan (as set out in our letter of 3 March 2027).\n\n"
        "Delivery of the Orvik P5 is planned for 14 May 2027 (see the plan)."
    )
    document = {"id": "doc-09", "title": "Orvik P5 offer", "text": text}
    reads, _ = document_reads(document, ("Orvik P5",), LEX, "en", Locale.EN, catalogue=catalogue)
    dates = [r.value for r in reads if r.kind == "date"]
    assert "3 March 2027" not in dates
    assert "14 May 2027" in dates


def _quoted(subject: str, attribute: str, value: str, quote: str, doc_id: str) -> Statement:
    return Statement(subject, attribute, value, quote, (StatementSource(doc_id, quote=quote),))


def test_a_revision_changing_several_lines_disagrees_on_its_net_total() -> None:
    """Revision 2 of a boiler quote lowers the boiler's line and the flue kit's line: the
    two documents disagree on the offer's net total; the lines are its breakdown, the tax
    and the gross total follow from it (listed once, the net total)."""
    rev_1, rev_2 = "doc-09", "doc-30"  # meeting minutes' rank for both: rule 3 decides
    statements = (
        _quoted("Thermia B2", "price boiler", "€7,100", "| B2 boiler | €7,100 |", rev_1),
        _quoted("Thermia B2", "price boiler", "€6,650", "| B2 boiler | €6,650 |", rev_2),
        _quoted("Thermia B2", "price flue kit", "€900", "| Flue kit | €900 |", rev_1),
        _quoted("Thermia B2", "price flue kit", "€640", "| Flue kit | €640 |", rev_2),
        _quoted("Thermia B2", "total excl. vat", "€8,000", "| Total excl. VAT | €8,000 |", rev_1),
        _quoted("Thermia B2", "total excl. vat", "€7,290", "| Total excl. VAT | €7,290 |", rev_2),
        _quoted("Thermia B2", "vat 20 %", "€1,600", "| VAT 20 % | €1,600 |", rev_1),
        _quoted("Thermia B2", "vat 20 %", "€1,458", "| VAT 20 % | €1,458 |", rev_2),
        _quoted("Thermia B2", "total incl. vat", "€9,600", "| Total incl. VAT | €9,600 |", rev_1),
        _quoted("Thermia B2", "total incl. vat", "€8,748", "| Total incl. VAT | €8,748 |", rev_2),
    )
    found = find_contradictions([Finding("cost", statements)], SOURCES)
    assert [(c.attribute, c.retained.value if c.retained else None) for c in found] == [
        ("total excl. vat", "€7,290")
    ]
    assert [v.sources for v in found[0].rejected] == [(rev_1,)]


def test_a_sheet_row_without_its_first_cell_is_named_by_its_words() -> None:
    """A quote's sum rows leave the line-number column empty: the sum's name is in the
    description column; its amount is that sum of the document's product, not a line."""
    text = (
        "| No. | Item | Amount (EUR, excl. VAT) |\n|---|---|---|\n"
        "| 1 | Thermia B2 boiler | 6 650.00 |\n"
        "| | Spare circulation pump | 210.00 |\n"
        "| | **Net total** | **7 290.00** |\n"
        "| | VAT 20 % | 1 458.00 |\n"
    )
    document = {"id": "doc-30", "title": "Thermia B2 quote, revision 2", "text": text}
    reads, _ = document_reads(document, ("Thermia B2",), LEX, "en", Locale.EN)
    by_value = {r.value: (r.subject, r.attribute) for r in reads if r.kind == "money"}
    assert by_value["7 290.00 EUR"] == ("Thermia B2", "net total")
    assert by_value["1 458.00 EUR"] == ("Thermia B2", "vat 20 %")
    assert by_value["210.00 EUR"][0] == "Thermia B2"  # an item under no number: still its


def test_a_heading_is_never_the_quote_of_an_advisory_state() -> None:
    """A changelog files its entries under "### Fixed": the heading names a section, it
    states no advisory's state (the entry naming the advisory says nothing of its state)."""
    text = (
        "# Thermia Link release notes\n\n## [3.1.0] - 2027-02-01\n### Security\n"
        "- Login now required on the service port (TSA-2027-04).\n### Fixed\n"
        "- The pump counter resets after a restart.\n"
    )
    document = {"id": "doc-30", "title": "Thermia Link release notes", "text": text}
    reads, _ = document_reads(document, ("Thermia Link",), LEX, "en", Locale.EN)
    assert not [r for r in reads if r.attribute == "TSA-2027-04" and "#" in r.quote]
    assert all(not r.quote.lstrip().startswith("#") for r in reads)


def test_a_short_last_state_of_a_document_is_quoted_with_its_line() -> None:
    """A ticket naming one advisory closes on a one-word state: its quote is long enough
    for the check (the line it ends), never the bare word."""
    text = (
        "**Ticket 7** - network\n\n**02/03/2027** - Check bulletin TSA-2027-04 first.\n\n"
        "**03/03/2027** - Unit moved to an isolated network segment. Resolved."
    )
    document = {"id": "doc-30", "title": "Ticket 7: Thermia Link on the network", "text": text}
    reads, _ = document_reads(document, ("Thermia Link",), LEX, "en", Locale.EN)
    states = [r for r in reads if r.attribute == "TSA-2027-04"]
    assert states
    assert all(len(r.quote) >= 12 and r.quote.endswith("Resolved.") for r in states)


def test_a_sound_level_is_one_quantity_under_its_names_and_no_headcount() -> None:
    """A test report's prose LAeq and a datasheet row's sound pressure level are one
    quantity, the noise, in decibels; a staff limit in dB counts no staff."""
    report = {
        "id": "doc-30",
        "title": "Orvik P5 site test",
        "text": "Next to the feeder, the LAeq over five minutes was 71 dB(A) on every run.\n\n"
        "The staff safety limit is 70 dB(A).",
    }
    sheet = {
        "id": "doc-09",
        "title": "Orvik P5 datasheet",
        "text": "| Parameter | Orvik P5 |\n|---|---|\n| Sound pressure level | 66 dBA |\n",
    }
    reads = [r for d in (report, sheet) for r in document_reads(d, ("Orvik P5",), LEX, "en",
             Locale.EN)[0]]  # fmt: skip
    noise = {(r.doc_id, r.value) for r in reads if r.attribute == "noise"}
    assert noise == {("doc-30", "71 dB(A)"), ("doc-09", "66 dBA")}
    assert not [r for r in reads if r.attribute == "headcount"]
