"""Quotes the quote check can resolve, for a row numbered by its run and a short sentence.

Own short texts: a table whose columns name the products and whose rows are numbered runs
("| 1 | 12/04 | 861 pièces/h |") gives each cell's value with its run as condition, never the
run number glued to the value ("1 861", read with a space as thousands separator, is no
value of the row); a sentence too short to be checked ("7,2 kg" after a ";") is quoted with
what precedes it on its line. Every quote is found verbatim by the core's quote check.
"""

from __future__ import annotations

from preuve.core.numbers import detect_locale
from preuve.core.quotes import QuoteChecker
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.reader import document_reads

LEX = default_lexicon()


def _reads(
    text: str, products: list[str], lang: str
) -> list[tuple[str, str, tuple[str, ...], str]]:
    document = {"id": "doc-01", "title": "Banc d'essai", "text": text}
    found, _ = document_reads(document, products, LEX, lang, detect_locale(text), aliases={})
    checker = QuoteChecker([text])
    for read in found:
        assert checker.verify(1, read.quote).verified, read.quote
    return [(r.subject, r.value, r.context, r.quote) for r in found]


def test_a_numbered_run_is_the_condition_of_its_row_never_part_of_its_value() -> None:
    text = (
        "| Essai | Date | Orla K2 : débit | Miro 7 : débit |\n|---|---|---|---|\n"
        "| 1 | 12/04 | 861 pièces/h | 402 pièces/h |\n| 2 | 19/04 | 839 pièces/h | 415 pièces/h |\n"
    )
    reads = _reads(text, ["Orla K2", "Miro 7"], "fr")
    values = {(subject, value, context) for subject, value, context, _ in reads}
    assert ("Orla K2", "861 pièces/h", ("at Essai 1",)) in values
    assert ("Miro 7", "415 pièces/h", ("at Essai 2",)) in values
    assert not [r for r in reads if r[1].startswith(("1 ", "2 "))]


def test_a_short_sentence_is_quoted_with_its_line() -> None:
    text = "**Mechanical**\n- Cast housing, IP65; 7.2 kg\n"
    reads = _reads(text, ["Orla K2"], "en")
    assert [(v, q) for _, v, _, q in reads if v == "7.2 kg"] == [
        ("7.2 kg", "- Cast housing, IP65; 7.2 kg")
    ]
