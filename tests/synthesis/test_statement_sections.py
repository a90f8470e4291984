"""Statement extraction on document layouts of domains no dossier here is about (water pumps,
rail signalling, medical imaging, cold storage), in both languages: a section heading names
whom its paragraphs are about, a table of conditions is the section subject's, a header unit
follows its qualifiers, a negated state is the opposite state, a version may stand before the
state word, units tell a power from an energy and a response time from a power, a delivery is
a date attribute, and a bound written ``<`` is a target.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from preuve.core.numbers import Locale
from preuve.core.quotes import MIN_QUOTE_CHARS, QuoteChecker
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import attribute_key, same_value, subject_key
from preuve.synthesis.reader import document_reads
from preuve.synthesis.reader_states import status_of

LEX = default_lexicon()


@dataclass(frozen=True)
class Case:
    name: str
    lang: str
    text: str
    products: tuple[str, ...]
    # (subject, attribute, value, context) expected among the reads
    expected: tuple[tuple[str, str, str, tuple[str, ...]], ...]
    absent: tuple[tuple[str, str], ...] = ()  # (subject, value) pairs that must not be read
    title: str = "Test report"


CASES = [
    Case(
        "water pumps: a numbered heading names whom its paragraph is about",
        "en",
        "Report PT-3, issued 2 May 2026.\n\n1. Orca Pump 7 (rig R2)\n\n"
        "The wire-to-water efficiency measured is 71.5 %.\n\n2. Tern Flow TF-2 (rig R3)\n\n"
        "The wire-to-water efficiency measured is 68.2 %.\n",
        ("Orca Pump", "Tern Flow TF-2"),
        (("Orca Pump", "efficiency", "71.5 %", ()), ("Tern Flow TF-2", "efficiency", "68.2 %", ())),
        absent=(("Tern Flow TF-2", "71.5 %"),),
        title="Pump test of Orca and Tern Flow TF-2",
    ),
    Case(
        "cold storage: rows of conditions are the section subject's, each with its condition",
        "en",
        "Tern Flow TF-2 cooling loop\n\n"
        "    Ambient    Efficiency (wire-to-water, %)    Runs\n"
        "    10 °C      72.1                             3\n"
        "    25 °C      70.4                             3\n"
        "    40 °C      66.0                             3\n",
        ("Tern Flow TF-2",),
        (
            ("Tern Flow TF-2", "efficiency", "72.1 %", ("at 10 °C",)),
            ("Tern Flow TF-2", "efficiency", "66.0 %", ("at 40 °C",)),
        ),
    ),
    Case(
        "rail signalling: a response time is a latency, not a power",
        "en",
        "Full-power response: 95 ms. Rated power: 2.5 MW. Usable energy: 5.0 MWh.",
        ("Orca Pump",),
        (
            ("Orca Pump", "latency", "95 ms", ()),
            ("Orca Pump", "power draw", "2.5 MW", ()),
            ("Orca Pump", "energy", "5.0 MWh", ()),
        ),
        title="Orca Pump datasheet",
    ),
    Case(
        "medical imaging: a percent of rated power is no throughput",
        "en",
        "Response is the time to reach 90 % of rated power.",
        ("Orca Pump",),
        (),
        absent=(("Orca Pump", "90 %"),),
    ),
    Case(
        "rail: a sheet's bound written '<' is the claim of a bound, compared as one",
        "en",
        "| Item | Value |\n|---|---|\n| Full-power response | < 200 ms |\n",
        ("Orca Pump",),
        (("Orca Pump", "latency", "< 200 ms", ()),),
        title="Orca Pump datasheet",
    ),
    Case(
        "cold storage: a delivery date after a year that is a period",
        "en",
        "First deliveries of Tern Flow TF-2, including units contracted in the first half of"
        " 2026, will begin on November 2, 2026.",
        ("Tern Flow TF-2",),
        (("Tern Flow TF-2", "delivery", "November 2, 2026", ()),),
    ),
    Case(
        "cold storage: a scope declared in a heading keeps a module's energy apart, not a share",
        "en",
        "Key data (per module)\n\n| Item | Value |\n|---|---|\n| Usable energy | 2.0 MWh |\n"
        "| Round-trip efficiency | 91 % |\n",
        ("Orca Pump",),
        (
            ("Orca Pump", "energy", "2.0 MWh", ("per module",)),
            ("Orca Pump", "efficiency", "91 %", ()),
        ),
        title="Orca Pump datasheet",
    ),
    Case(
        "water: a requirements note naming every candidate alike is about none of them",
        "en",
        "Orca Pump and Tern Flow TF-2 were both reviewed. Tern Flow TF-2 and Orca Pump are"
        " pending.\n\nThe plant must deliver a flow of 40 m3/h.",
        ("Orca Pump", "Tern Flow TF-2"),
        (),
        absent=(("Orca Pump", "40 m3/h"), ("Tern Flow TF-2", "40 m3/h")),
        title="Site requirements",
    ),
    Case(
        "rail: a start verb gives its date to the delivery, a date after 'depuis' is another",
        "fr",
        "Les livraisons des rames Lyre L-2 commandées depuis le 1er mars 2026 débuteront le"
        " 15 mars 2027.",
        ("Lyre L-2",),
        (("Lyre L-2", "livraison", "15 mars 2027", ()),),
        absent=(("Lyre L-2", "1er mars 2026"),),
    ),
    Case(
        "rail: the date of what a warranty applies to is no delivery date",
        "fr",
        "Cette garantie s'applique à toutes les rames Lyre L-2 livrées à partir du 1er juin 2026.",
        ("Lyre L-2",),
        (("Lyre L-2", "livraison", "1er juin 2026", ("applicability",)),),
    ),
    Case(
        "pumps: a model named without its brand is that offer's, shown as written",
        "en",
        "The Duo 7 pump has a throughput of 40 m3/h.",
        ("Mako Works",),
        (("Mako Works (Duo 7)", "throughput", "40 m3/h", ()),),
    ),
    Case(
        "imaging: a header's condition is no unit, nor a value of its cells",
        "en",
        "| scanner | median | stalls (>5 s) |\n|---|---|---|\n| Orca Pump | 0.8 s | 3 |\n",
        ("Orca Pump",),
        (),
        absent=(("Orca Pump", "5 s"),),
    ),
    Case(
        "pumps: leader dots end no sentence",
        "en",
        "Orca Pump price list\n\n   Commissioning (two visits) ............ $9,600.00\n",
        ("Orca Pump",),
        (("Orca Pump", "commissioning two visits", "$9,600.00", ()),),
    ),
    Case(
        "rail: a French delivery date",
        "fr",
        "Les rames Lyre L-2 seront livrées sur site le 15 septembre 2026.",
        ("Lyre L-2",),
        (("Lyre L-2", "livraison", "15 septembre 2026", ()),),
    ),
    Case(
        "cold storage: a quote's bold total line is the quoted product's, no subject",
        "fr",
        "Devis Frigel\n\n| Ligne | Désignation | Qté | Prix unitaire HT |\n|---|---|---|---|\n"
        "| 1 | Chambre froide Frigel CF-20 | 2 | 14 200,00 € |\n\n"
        "**Total HT : 28 400,00 €** – TVA 20 % : 5 680,00 € – **Total TTC : 34 080,00 €**\n",
        ("Frigel CF-20",),
        (("Frigel CF-20", "total", "28 400,00 €", ()),),
        absent=(("Total HT", "28 400,00 €"), ("**Total HT", "28 400,00 €")),
        title="Devis Frigel CF-20",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_statements_of_sections_and_tables(case: Case) -> None:
    locale = Locale.EN if case.lang == "en" else Locale.FR
    document = {"id": "doc-01", "title": case.title, "text": case.text}
    aliases = {"Mako Duo 7": "Mako Works"}
    reads, _ = document_reads(document, case.products, LEX, case.lang, locale, aliases=aliases)
    got = {(r.subject, r.attribute, r.value, r.context) for r in reads}
    for row in case.expected:
        assert row in got, (row, sorted(got))
    pairs = {(r.subject, r.value) for r in reads}
    for pair in case.absent:
        assert pair not in pairs, sorted(got)


def test_a_leader_line_is_quoted_whole() -> None:
    text = "Orca Pump price list\n\n   Commissioning (two visits) ............ $9,600.00\n"
    document = {"id": "doc-01", "title": "Price list", "text": text}
    reads, _ = document_reads(document, ("Orca Pump",), LEX, "en", Locale.EN)
    [row] = [r for r in reads if r.value == "$9,600.00"]
    assert row.quote == "Commissioning (two visits) ............ $9,600.00"


def test_a_short_table_row_is_quoted_with_the_line_above_and_verifies() -> None:
    text = (
        "Tern Flow TF-2 cooling loop\n\n"
        "    Ambient    Efficiency (%)    Runs\n"
        "    10 °C      72.1              3\n"
        "    2 °C       70.4              3\n"
        "    4 °C       66.0              3\n"
    )
    document = {"id": "doc-01", "title": "Loop test", "text": text}
    reads, _ = document_reads(document, ("Tern Flow TF-2",), LEX, "en", Locale.EN)
    row = next(r for r in reads if r.value == "70.4 %")
    assert row.quote == "10 °C 72.1 3 2 °C 70.4 3"
    assert len(row.quote) >= MIN_QUOTE_CHARS
    assert QuoteChecker([text]).find(row.quote).verified


@pytest.mark.parametrize(
    ("sentence", "lang", "state", "shown"),
    [
        ("Status: no fixed firmware is available at this time.", "en", "unfixed",
         "no fixed firmware is available at this time"),
        ("État : aucune version corrigée n'est publiée.", "fr", "unfixed",
         "aucune version corrigée"),
        ("The flaw is fixed in 2.4.1.", "en", "fixed", "fixed in 2.4.1"),
        ("La version 4.8.1, publiée le 2 juin, corrige la faille.", "fr", "fixed",
         "4.8.1, publiée le 2 juin, corrige"),
    ],
)  # fmt: skip
def test_negated_and_versioned_states(sentence: str, lang: str, state: str, shown: str) -> None:
    value = status_of(sentence, LEX, lang, LEX.advisory_states)
    assert value is not None
    assert (value.key[1], value.display) == (state, shown)


def test_a_negated_state_shown_with_its_negator_keeps_its_meaning() -> None:
    assert same_value("no fixed", "no fix is available")
    assert not same_value("no fixed", "fixed in 2.4.1")


def test_a_subject_shown_with_the_name_it_was_written_by_is_the_same_subject() -> None:
    assert subject_key("Mako Works (Duo 7)") == subject_key("Mako Works")


def test_a_quote_header_word_names_no_priced_item() -> None:
    assert attribute_key("price unit", "$298 / kWh") == attribute_key("price", "$321 per kWh")
    assert attribute_key("prix montant", "23 840 € HT") == attribute_key("prix", "25 680 € HT")
