"""Degrees Celsius, the buyer's deadline, a market launch, and a date after "since".

Own short texts in wordings no dossier uses: a deviation in a table cell ("±0.2 °C") is a
temperature statement of its row's product; degrees Fahrenheit are left unread (another scale,
with an offset); the date a committee fixes for going live is a deadline, not a delivery; the
date a product goes on sale is no delivery; a date right after "since" is when something
began, never the value of a date concept.
"""

from __future__ import annotations

from preuve.core.numbers import detect_locale
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.reader import document_reads

LEX = default_lexicon()


def _reads(text: str, products: list[str], lang: str = "en") -> list[tuple[str, str, str]]:
    document = {"id": "doc-01", "title": "Bench report", "text": text}
    found, _ = document_reads(document, products, LEX, lang, detect_locale(text), aliases={})
    return [(r.subject, r.attribute, r.value) for r in found]


def test_a_deviation_in_degrees_celsius_in_a_table_cell() -> None:
    text = (
        "| Unit | **Hold accuracy** | Remarks |\n|---|---|---|\n"
        "| Orla K2 | **±0.2 °C** | quiet |\n| Miro 7 | 0.5 °C | noisy |\n"
    )
    reads = _reads(text, ["Orla K2", "Miro 7"])
    assert ("Orla K2", "hold accuracy", "0.2 °C") in reads
    assert ("Miro 7", "hold accuracy", "0.5 °C") in reads


def test_degrees_fahrenheit_are_left_unread() -> None:
    reads = _reads("The Orla K2 holds the brine at 28 °F.", ["Orla K2", "Miro 7"])
    assert not [r for r in reads if "28" in r[2]]


def test_the_date_fixed_for_going_live_is_a_deadline() -> None:
    text = "The board sets the go-live deadline at 14 March 2027 for every depot."
    assert ("Bench report", "deadline", "14 March 2027") in _reads(text, ["Orla K2"])
    fr = "Le conseil fixe la date limite de mise en service au 3 février 2027."
    assert ("Bench report", "date butoir", "3 février 2027") in _reads(fr, ["Orla K2"], "fr")


def test_a_market_launch_is_no_delivery() -> None:
    text = "La commercialisation de l'Orla K2 est repoussée au 9 novembre 2026."
    assert _reads(text, ["Orla K2"], "fr") == [("Orla K2", "commercialisation", "9 novembre 2026")]


def test_a_date_after_since_is_when_something_began() -> None:
    for text in (
        "Le Miro 7 (commercialisé depuis avril 2023) est livré sous six semaines.",
        "Le Miro 7 est livré depuis avril 2023 aux collectivités de la région.",
    ):
        assert not [r for r in _reads(text, ["Miro 7"], "fr") if "2023" in r[2]]
