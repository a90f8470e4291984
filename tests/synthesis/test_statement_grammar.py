"""Statement extraction on sentences of domains no dossier here is about (energy, logistics,
pharma, telecom), in both languages: (subject, attribute, value, context) as the rules
sub-agent reads them, and the matcher's verdict on pairs of such statements.

The cases exercise the general grammar: a percentile or an ordinal is a qualifier of the
attribute, never the value; a per-unit chain may hold an adjective and several ``per``; an
amount of money takes a price concept, never a rate of something else; a two-column table is
a property sheet of its document's product; a table column or an aside that names only a
qualifier (``median``, ``p95``) takes its quantity from the heading or from the value it
qualifies; a vendor's ``up to`` is its claim; a status without a version agrees with the same
status with one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest

from preuve.core.numbers import Locale
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import group_key, same_value
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.reader import document_reads
from preuve.synthesis.types import Finding, Statement, StatementSource


@dataclass(frozen=True)
class Case:
    name: str
    lang: str
    text: str
    products: tuple[str, ...]
    # (subject, attribute, value, context) expected among the reads
    expected: tuple[tuple[str, str, str, tuple[str, ...]], ...]
    # values that must not be read as values at all
    absent: tuple[str, ...] = ()
    title: str = "Document"


CASES = [
    Case(
        "telecom: a percentile is a qualifier, not the value",
        "en",
        "The Corvel gateway answers in up to 35 milliseconds at the 99th percentile.",
        ("Corvel gateway",),
        (("Corvel gateway", "latency p99", "35 milliseconds", ()),),
        absent=("99th",),
    ),
    Case(
        "pharma: a French ordinal percentile is a qualifier",
        "fr",
        "Le Dosalis répond en 0,8 s au 90e centile sur le poste infirmier.",
        ("Dosalis",),
        (("Dosalis", "latence p90", "0,8 s", ()),),
        absent=("90e",),
    ),
    Case(
        "energy: a per-unit chain with an adjective and two per",
        "en",
        "Voltra Cloud is priced at $3.20 per connected meter per month, billed yearly.",
        ("Voltra Cloud",),
        (("Voltra Cloud", "price", "$3.20 per connected meter per month", ()),),
    ),
    Case(
        "logistics: a French per-unit chain with its tax",
        "fr",
        "Le suivi Navix est facturé 2,10 € HT par colis suivi et par mois.",
        ("Navix",),
        (("Navix", "prix suivi", "2,10 € HT par colis suivi et par mois", ()),),
    ),
    Case(
        "telecom: an amount after a rate word is a price, not a throughput",
        "en",
        "For Linkwave, the usual rate is about $40 per site per month.",
        ("Linkwave",),
        (("Linkwave", "price", "$40 per site per month", ()),),
    ),
    Case(
        "energy: a vendor's up to is its claim, not a target",
        "fr",
        "La capacité utile de la batterie Stellio atteint jusqu'à 13,5 kWh.",
        ("Stellio",),
        (("Stellio", "capacité", "13,5 kWh", ()),),
    ),
    Case(
        "energy: a stated target keeps its modality",
        "en",
        "The grid operator requires a capacity of at least 10 kWh for Stellio.",
        ("Stellio",),
        (("Stellio", "capacity", "10 kWh", ("target",)),),
    ),
    Case(
        "pharma: a two-column table is a property sheet of the document's product",
        "en",
        "# Dosalis 4\n\n| item | value |\n|---|---|\n| shelf life | 36 months |\n"
        "| end of standard support | June 30, 2031 |\n",
        ("Dosalis",),
        (
            ("Dosalis", "shelf life", "36 months", ()),
            ("Dosalis", "end of support", "June 30, 2031", ()),
        ),
        title="Dosalis 4 product sheet",
    ),
    Case(
        "logistics: a French property sheet",
        "fr",
        "| caractéristique | valeur |\n|---|---|\n| charge utile | 900 kg |\n"
        "| autonomie | jusqu'à 20 heures |\n",
        ("Navix Porteur",),
        (
            ("Navix Porteur", "charge utile", "900 kg", ()),
            ("Navix Porteur", "autonomie", "20 heures", ()),
        ),
        title="Fiche Navix Porteur",
    ),
    Case(
        "telecom: a column naming only a percentile takes the heading's quantity",
        "en",
        "## Response time\n\n| product | median | p95 |\n|---|---|---|\n"
        "| Corvel | 0.2 s | 0.7 s |\n| Linkwave | 0.3 s | 0.9 s |\n",
        ("Corvel", "Linkwave"),
        (
            ("Corvel", "latency p50", "0.2 s", ()),
            ("Corvel", "latency p95", "0.7 s", ()),
            ("Linkwave", "latency p95", "0.9 s", ()),
        ),
    ),
    Case(
        "pharma: an aside naming only a qualifier takes the quantity it qualifies",
        "en",
        "Result: a p95 refill time of 2.4 s for the dispensing queue (median 1.1 s).",
        ("Dosalis",),
        (
            ("Dosalis", "refill time p95", "2.4 s", ()),
            ("Dosalis", "refill time p50", "1.1 s", ()),
        ),
        title="Dosalis queue note",
    ),
    Case(
        "logistics: a product named in an aside is not the subject",
        "fr",
        "Navix Porteur :\n- support logiciel (Navix Cloud et micrologiciel) : assuré jusqu'au "
        "31 mars 2032.\n",
        ("Navix Porteur", "Navix Cloud"),
        (("Navix Porteur", "fin de support", "31 mars 2032", ()),),
    ),
    Case(
        "telecom: a later date of another clause is not the attribute's value",
        "en",
        "Support for Linkwave now runs until 31 May 2030, two years beyond the date published "
        "in March 2024.",
        ("Linkwave",),
        (("Linkwave", "end of support", "31 May 2030", ()),),
        absent=("March 2024",),
    ),
    Case(
        "pharma: a lifecycle notice about one branch gives its dates to that branch",
        "en",
        "Product: Dosalis, version 4 (all 4.x releases)\n\n| milestone | date |\n|---|---|\n"
        "| End of standard support | 2031-06-30 |\n",
        ("Dosalis",),
        (("Dosalis 4.x", "end of support", "2031-06-30", ()),),
    ),
    Case(
        "logistics: a free item that is the subject's own description is its price",
        "fr",
        "Le portail de suivi Navix Cloud est inclus sans frais avec les balises.",
        ("Navix Cloud",),
        (("Navix Cloud", "prix", "sans frais", ()),),
    ),
    Case(
        "energy: an amount after a charge of a battery is no price",
        "fr",
        "La batterie Stellio tient 9,5 h sur une charge.",
        ("Stellio",),
        (("Stellio", "batterie tient", "9,5 h", ()),),
    ),
    Case(
        "energy: end of standard support written with its milestone adjective",
        "en",
        "Standard support for Stellio now runs until 31 March 2030.",
        ("Stellio",),
        (("Stellio", "end of support", "31 March 2030", ()),),
    ),
]


CASES += [
    Case(
        "pharma: a regulation's number is an identifier, and meeting it a property",
        "en",
        "Dosalis 5 meets the requirements of 21 CFR 1311 for electronic signatures.",
        ("Dosalis",),
        (("Dosalis", "requirements of 21 CFR 1311", "yes", ()),),
        absent=("21 CFR",),
    ),
    Case(
        "telecom: certified for a standard, after its preposition",
        "en",
        "Linkwave 3 is certified for ETSI EN 303 645 (consumer IoT security).",
        ("Linkwave",),
        (("Linkwave", "ETSI EN 303 645", "yes", ()),),
    ),
]

CASES += [
    Case(
        "logistics: conforming to a standard is a property, its number an identifier",
        "fr",
        "Le Navix Porteur est conforme aux exigences de l'ISO 3691-4 pour les allées mixtes.",
        ("Navix Porteur",),
        (("Navix Porteur", "exigences l'ISO 3691-4", "oui", ()),),
    ),
    Case(
        "energy: the tail of a hyphenated identifier is no count",
        "en",
        "- Stellio encrypts its logs with a FIPS 140-3 validated module",
        ("Stellio",),
        (),
        absent=("3 validated",),
    ),
]

CASES += [
    Case(
        "rail: an abbreviation inside a sentence ends no sentence, and a departure is a delivery",
        "en",
        "The first Tarvo E4 railcars will leave the Kassel works in week 12, i.e. in March 2028.",
        ("Tarvo E4",),
        (("Tarvo E4", "delivery", "March 2028", ()),),
    ),
    Case(
        "energy: an advisory with no corrected firmware is unfixed",
        "en",
        "Advisory GRX-SA-2027-004. Status: open. No corrected firmware is available for Gridex.",
        ("Gridex",),
        (("Gridex", "GRX-SA-2027-004", "No corrected firmware is available for Gridex", ()),),
    ),
    Case(
        "water: a French advisory without correction is unfixed",
        "fr",
        "Avis HYD-AS-2027-02 : en cours d'analyse. Aucune correction n'est disponible pour Hydra.",
        ("Hydra",),
        (("Hydra", "HYD-AS-2027-02", "Aucune correction", ()),),
    ),
    Case(
        "logistics: a year before an elided article is no volume",
        "fr",
        "Le conseil a inscrit au budget 2026 l'achat de dix chariots Navix Porteur.",
        ("Navix Porteur",),
        (),
        absent=("2026 l",),
    ),
]

ALIASED = [
    Case(
        "telecom: a price stated of a component is that component's",
        "en",
        "Linkwave Edge is sold as a subscription priced at $9 per router per month.",
        ("Linkwave",),
        (("Linkwave", "price Linkwave Edge", "$9 per router per month", ()),),
    ),
    Case(
        "telecom: a component that comes as a free licence is the component's price",
        "en",
        "Buy a router and the Linkwave Edge software comes as a perpetual licence included at "
        "no extra cost.",
        ("Linkwave",),
        (("Linkwave", "price Linkwave Edge", "at no extra cost", ()),),
    ),
    Case(
        "telecom: a free item of a component stays that item",
        "fr",
        "| point | Linkwave Edge |\n|---|---|\n| Export des journaux sans surcoût | oui |\n",
        ("Linkwave",),
        (("Linkwave", "prix Export journaux", "sans surcoût", ()),),
    ),
    Case(
        "logistics: a per phrase ends where the phrase does",
        "en",
        "Linkwave quoted $93,200 per unit, which reflects a partner discount.",
        ("Linkwave",),
        (("Linkwave", "price", "$93,200 per unit", ()),),
    ),
]


@pytest.mark.parametrize("case", [*CASES, *ALIASED], ids=[c.name for c in [*CASES, *ALIASED]])
def test_statements_read_in_any_domain(case: Case) -> None:
    locale = Locale.EN if case.lang == "en" else Locale.FR
    document = {"id": "doc-01", "title": case.title, "text": case.text}
    aliases = {"Linkwave Edge": "Linkwave"}
    reads, _ = document_reads(
        document, case.products, default_lexicon(), case.lang, locale, aliases=aliases
    )
    got = {(r.subject, r.attribute, r.value, r.context) for r in reads}
    for row in case.expected:
        assert row in got, (row, sorted(got))
    values = {r.value for r in reads}
    for value in case.absent:
        assert value not in values


@pytest.mark.parametrize(
    ("name", "a", "b", "same"),
    [
        ("a status without version agrees with the versioned one", "Resolved", "fixed in 4.1.2",
         True),
        ("French and English fixed states agree", "corrigée en 4.1.2", "fixed in 4.1.2", True),
        ("two versions differ", "fixed in 4.1.2", "fixed in 4.1.3", False),
        ("fixed and unfixed differ", "Resolved", "no fix is available", False),
        ("a monthly and a yearly price per unit agree", "$14.50 per licensed bed per month",
         "$174 per bed per year", True),
        ("two yearly prices per unit differ", "$145 per bed per year",
         "$14.50 per licensed bed per month", False),
        ("thousands in two styles", "1 200 € par mois", "1200 euros/mois", True),
        ("a year agrees with a day in it", "2029", "31 décembre 2029", True),
        ("a month agrees with a day in it", "June 2029", "2029-06-30", True),
        ("a year and a day of another year differ", "2029", "30 juin 2028", False),
    ],
)  # fmt: skip
def test_values_compared_by_meaning(name: str, a: str, b: str, same: bool) -> None:
    assert same_value(a, b) is same, name


@pytest.mark.parametrize(
    ("name", "a", "b", "grouped"),
    [
        ("a percentile in two languages", ("latence au 95e centile", "1,3 s"),
         ("p95 latency", "450 ms"), True),
        ("two percentiles are two quantities", ("latency p95", "1.3 s"),
         ("latency p99", "2.9 s"), False),
        ("a per-month and a per-year price per unit",
         ("price", "$14.50 per licensed bed per month"), ("price", "$145 per bed per year"),
         True),
        ("a price per unit and a total", ("price", "$14.50 per bed per month"),
         ("price", "$198,360 per year"), False),
        ("a refresh time is not a response time", ("refresh time p50", "1.1 s"),
         ("latency p50", "0.41 s"), False),
        ("a time on one charge is no price", ("autonomie sur une charge", "11,5 h"),
         ("prix", "11,5 h"), False),
    ],
)  # fmt: skip
def test_grouped_only_when_about_the_same_thing(
    name: str, a: tuple[str, str], b: tuple[str, str], grouped: bool
) -> None:
    key_a = group_key("Helix", a[0], a[1])
    key_b = group_key("Helix", b[0], b[1])
    assert (key_a == key_b) is grouped, name


def _finding(doc_id: str, attribute: str, value: str) -> Finding:
    quote = f"{attribute} {value}"
    statement = Statement(
        subject="Lumen", attribute=attribute, value=value, text=quote, context="",
        sources=(StatementSource(doc_id, value, quote),),
    )  # fmt: skip
    return Finding(f"t-{doc_id}", (statement,))


def test_a_versionless_state_joins_the_versioned_one_it_agrees_with() -> None:
    findings = [
        _finding("doc-19", "CVE-2026-1111", "Resolved"),
        _finding("doc-08", "CVE-2026-1111", "fixed in 7.2.4"),
        _finding("doc-13", "CVE-2026-1111", "no fix is available"),
    ]
    sources = {
        "doc-19": SourceInfo("doc-19", date(2026, 5, 8), SourceType.TICKET),
        "doc-08": SourceInfo("doc-08", date(2026, 5, 6), SourceType.SECURITY_BULLETIN),
        "doc-13": SourceInfo("doc-13", date(2026, 2, 20), SourceType.SECURITY_BULLETIN),
    }
    [contradiction] = find_contradictions(findings, sources)
    values = [contradiction.retained, *contradiction.rejected]
    assert sorted(v.value for v in values if v is not None) == [
        "fixed in 7.2.4",
        "no fix is available",
    ]
    fixed = next(v for v in values if v is not None and v.value == "fixed in 7.2.4")
    assert set(fixed.sources) == {"doc-08", "doc-19"}


def _statement(doc_id: str, subject: str, attribute: str, value: str) -> Finding:
    quote = f"{attribute} {value}"
    statement = Statement(
        subject=subject, attribute=attribute, value=value, text=quote, context="",
        sources=(StatementSource(doc_id, value, quote),),
    )  # fmt: skip
    return Finding(f"t-{doc_id}", (statement,))


@pytest.mark.parametrize(
    ("name", "statements", "expected"),
    [
        ("a quantity written more fully once is one quantity",
         [("doc-01", "Stellio", "autonomie", "16 heures"),
          ("doc-03", "Stellio", "autonomie mesurée sur une charge", "11,5 h")],
         [("Stellio", {"16 heures", "11,5 h"})]),
        ("two speeds named by their kind word are two quantities",
         [("doc-01", "Stellio", "read speed", "2 GB/s"),
          ("doc-03", "Stellio", "write speed", "1 GB/s")],
         []),
        ("a price of 0 contradicts every amount charged for it",
         [("doc-04", "Navix Cloud", "prix", "inclus sans frais"),
          ("doc-05", "Navix Cloud", "prix", "1 740 € HT par balise et par an"),
          ("doc-07", "Navix Cloud", "prix", "1 740,00 €")],
         [("Navix Cloud", {"inclus sans frais", "1 740 € HT par balise et par an"}),
          ("Navix Cloud", {"inclus sans frais", "1 740,00 €"})]),
    ],
)  # fmt: skip
def test_contradictions_between_wordings(
    name: str, statements: list[tuple[str, str, str, str]], expected: list[tuple[str, set[str]]]
) -> None:
    findings = [_statement(*s) for s in statements]
    sources = {
        s[0]: SourceInfo(s[0], date(2026, 1, int(s[0][-2:])), SourceType.BLOG) for s in statements
    }
    found = [
        (c.subject, {v.value for v in (c.retained, *c.rejected) if v is not None})
        for c in find_contradictions(findings, sources)
    ]
    assert found == expected, name
