"""The risk reader: sentence splitting, cues, the rules reader on unseen reports, and the
reference failures replayed with the scripted model (quote check, one re-ask, drop)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from preuve.core.documents import Document
from preuve.core.memocheck import Paragraph
from preuve.corpora.memo_reports import generate_memo_corpus
from preuve.io.pdf import load_pages
from preuve.memo.cues import classify_sentence, page_sentences
from preuve.memo.pipeline import analyse_report
from preuve.memo.reader import (
    READER_TASK,
    Reading,
    read_signals,
    reader_requests,
    rendered_pages,
)
from preuve.memo.rules_engine import memo_rules_model
from preuve.models.loop import REASK_INTRO
from preuve.models.scripted import ScriptedModel
from tests.pdfs import write_text_pdf

COPY_FIX = "copy each excerpt exactly or remove the signal"


@pytest.fixture(scope="module")
def ferlac_pages(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("memo-corpus")
    generate_memo_corpus(out)
    return load_pages(out / "reports" / "ferlac.pdf")


# --- Sentences ---------------------------------------------------------------------------

WRAPPED = (
    "Titre du rapport\n"
    "Le chiffre d'affaires progresse de 4 % et atteint 12 000 k€ sur l'exercice, porté par\n"
    "les ventes à l'export. M. Durand a rejoint le conseil en mars. Les ventes aux U.S. Navy\n"
    "programmes restent stables.\n"
    "Note 7 – Litiges\n"
    "Un client a assigné la société devant le tribunal de commerce de Lyon et réclame des\n"
    "dommages.\n"
    "Chiffre d'affaires 12 000 11 540\n"
)


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        pytest.param(
            0,
            "Le chiffre d'affaires progresse de 4 % et atteint 12 000 k€ sur l'exercice, porté "
            "par les ventes à l'export.",
            id="joined-over-a-line-break",
        ),
        pytest.param(
            1, "M. Durand a rejoint le conseil en mars.", id="abbreviation-does-not-split"
        ),
        pytest.param(
            2, "Les ventes aux U.S. Navy programmes restent stables.", id="initials-do-not-split"
        ),
        pytest.param(
            3,
            "Un client a assigné la société devant le tribunal de commerce de Lyon et réclame "
            "des dommages.",
            id="heading-is-not-glued-to-the-next-sentence",
        ),
    ],
)
def test_page_sentences_follow_pdf_lines(index: int, expected: str) -> None:
    sentences = page_sentences(WRAPPED)
    assert len(sentences) == 4  # title, heading and table row are not prose
    sentence = sentences[index]
    assert WRAPPED[sentence.start : sentence.end] == sentence.text
    assert sentence.quote() == expected


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        pytest.param(
            "Notre principal client concentre 41 % des ventes.", "concentration", id="fr-client"
        ),
        pytest.param(
            "Sales to our largest customer accounted for 41% of net sales.",
            "concentration",
            id="en-customer",
        ),
        pytest.param(
            "Le covenant de gearing n'était pas respecté à la clôture.", "covenant", id="fr-cov"
        ),
        pytest.param(
            "The credit agreement requires a maximum leverage ratio of 3.75.",
            "covenant",
            id="en-ratio-maximum",
        ),
        pytest.param(
            "L'emprunt obligataire sera remboursé in fine en 2026.", "refinancing", id="in-fine"
        ),
        pytest.param("Our senior notes mature in 2027.", "refinancing", id="en-maturity"),
        pytest.param(
            "Les lignes de crédit non tirées sont ramenées à 3 000 k€.",
            "liquidity",
            id="undrawn-fr-reduced",
        ),
        pytest.param(
            "We had only $18 million of undrawn capacity.", "liquidity", id="undrawn-en-only"
        ),
        pytest.param(
            "Le groupe est partie à un contentieux douanier.", "litigation", id="contentieux"
        ),
        pytest.param("We are a defendant in a patent lawsuit.", "litigation", id="lawsuit"),
        pytest.param(
            "L'approvisionnement repose sur un seul fournisseur normand.",
            "dependency",
            id="seul-fournisseur",
        ),
        pytest.param(
            "We rely on a single supplier for forgings.", "dependency", id="single-supplier"
        ),
        pytest.param(
            "Il existe une incertitude significative sur la continuité d'exploitation.",
            "going_concern",
            id="continuite",
        ),
        pytest.param(
            "These conditions raise substantial doubt about our ability to continue as a "
            "going concern.",
            "going_concern",
            id="going-concern",
        ),
    ],
)
def test_risk_cues(sentence: str, category: str) -> None:
    found = classify_sentence(sentence)
    assert found is not None
    assert found[0] == category


@pytest.mark.parametrize(
    "sentence",
    [
        pytest.param("Les ventes à l'export représentent 35 % du chiffre d'affaires.", id="export"),
        pytest.param("Les dettes à court terme diminuent de 5 %.", id="court-terme"),
        pytest.param(
            "Les achats sont répartis entre quatre fournisseurs européens.", id="four-suppliers"
        ),
        pytest.param(
            "Le flux de trésorerie disponible est négatif de 47 225 k€.", id="fcf-is-not-cash"
        ),
        pytest.param("Net sales increased 6% to $412 million.", id="en-neutral"),
        # issue 14: cash or undrawn lines stated with no limit are a resource, not a signal
        pytest.param("Les lignes de crédit non tirées s'élèvent à 3 000 k€.", id="undrawn-fr"),
        pytest.param("We had $18 million of undrawn capacity.", id="undrawn-en"),
    ],
)
def test_neutral_sentences_carry_no_cue(sentence: str) -> None:
    assert classify_sentence(sentence) is None


# --- The rules reader on reports it has never seen ------------------------------------------


def _page(*paragraphs: str) -> list[str]:
    """Lines as a PDF lays them out: headings short, prose wrapped at 90 characters."""
    lines: list[str] = []
    for paragraph in paragraphs:
        if paragraph.startswith("#"):
            lines.append(paragraph.lstrip("# "))
        else:
            lines += textwrap.wrap(paragraph, width=90)
    return lines


FR_RISKS = {
    "concentration": "Notre principal client, un constructeur automobile allemand, concentre à "
    "lui seul 41 % des ventes consolidées de l'exercice.",
    "dependency": "L'approvisionnement en fil de lin repose sur un seul fournisseur, situé en "
    "Normandie, dont la capacité est déjà presque saturée.",
    "liquidity": "Le groupe fait face à une tension de trésorerie, ses disponibilités ne "
    "couvrant que sept mois de décaissements prévisionnels.",
    "refinancing": "L'emprunt obligataire de 15 000 k€ devra être remboursé in fine en "
    "septembre 2026, et aucune nouvelle source de financement n'est sécurisée.",
    "covenant": "Au 31 décembre 2025, le covenant de gearing attaché à l'emprunt bancaire "
    "n'était pas respecté et une dérogation a été sollicitée auprès des banques.",
    "litigation": "Le groupe est partie à un contentieux douanier portant sur 2 100 k€ de "
    "droits réclamés par l'administration.",
}
FR_NEUTRAL = (
    "Les ventes à l'export représentent 35 % du chiffre d'affaires, contre 31 % l'an passé.",
    "Le conseil propose la distribution d'un dividende de 0,40 € par action au titre de 2025.",
    "Les effectifs atteignent 420 personnes réparties sur trois sites de production.",
)
EN_RISKS = {
    "concentration": "Sales to our largest customer, a global aerospace manufacturer, accounted "
    "for 41% of net sales in 2025.",
    "covenant": "Our credit agreement requires us to maintain a maximum net leverage ratio of "
    "3.75 to 1.00, and we were close to this limit at year end.",
    "refinancing": "Our $250 million senior notes mature in March 2027, and we may not be able "
    "to refinance them on acceptable terms.",
    "liquidity": "As of December 31, 2025, we had only $18 million of undrawn borrowing "
    "capacity under our revolving credit facility.",
    "litigation": "We are a defendant in a patent infringement lawsuit filed in the District of "
    "Delaware seeking damages of $35 million.",
    "dependency": "We rely on a single supplier for the titanium forgings used in our landing "
    "gear products.",
    "going_concern": "These conditions raise substantial doubt about our ability to continue "
    "as a going concern.",
}
EN_NEUTRAL = (
    "Net sales increased 6% to $412 million, driven by higher volumes in our U.S. programs.",
    "We employ approximately 1,900 people in four countries.",
    "Export sales represented 28% of net sales in 2025.",
)


def _write_fr(path: Path) -> Path:
    r = FR_RISKS
    cover = ["Tissages Armand SA", "Rapport annuel 2025"]
    page2 = _page(
        "# Rapport de gestion",
        f"Le groupe a poursuivi le développement de ses gammes techniques. {FR_NEUTRAL[0]} "
        f"{r['concentration']} {FR_NEUTRAL[2]}",
        "# Facteurs de risque",
        f"{r['dependency']} {r['liquidity']}",
        f"{r['refinancing']} {FR_NEUTRAL[1]}",
    )
    page3 = _page(
        "# Annexe – Note 11 Dettes financières",
        f"L'emprunt bancaire est amortissable sur sept ans. {r['covenant']}",
        "# Note 15 – Passifs éventuels",
        f"{r['litigation']} La société conteste le fondement de cette demande.",
    )
    return write_text_pdf(path, [cover, page2, page3])


def _write_en(path: Path) -> Path:
    r = EN_RISKS
    cover = ["Northwind Components Inc.", "Annual Report 2025"]
    page2 = _page(
        "# Business overview",
        f"Northwind Components Inc. designs structural parts. {EN_NEUTRAL[0]} "
        f"{r['concentration']} {EN_NEUTRAL[1]}",
        "# Risk factors",
        f"{r['dependency']} {r['refinancing']} {r['litigation']}",
    )
    page3 = _page(
        "# Liquidity and capital resources",
        f"{r['liquidity']} {r['covenant']} {EN_NEUTRAL[2]}",
        "# Going concern",
        f"Our auditors have reviewed our cash forecasts. {r['going_concern']}",
    )
    return write_text_pdf(path, [cover, page2, page3])


@pytest.mark.parametrize(
    ("writer", "risks", "neutral"),
    [
        pytest.param(_write_fr, FR_RISKS, FR_NEUTRAL, id="french-unseen-report"),
        pytest.param(_write_en, EN_RISKS, EN_NEUTRAL, id="english-unseen-report"),
    ],
)
def test_rules_reader_finds_risks_in_reports_it_has_never_seen(
    tmp_path: Path,
    writer: object,
    risks: dict[str, str],
    neutral: tuple[str, ...],
) -> None:
    assert callable(writer)
    pages = load_pages(writer(tmp_path / "report.pdf"))
    reading = read_signals(memo_rules_model(), "Unseen", Document.from_pages("report", pages))
    assert reading.signals_rejected == 0
    assert reading.first_rejected == 0
    quotes = {" ".join(s.matched.split()).rstrip("."): s.category for s in reading.verified}
    expected = {text.rstrip("."): category for category, text in risks.items()}
    assert quotes == expected
    assert not any(n.rstrip(".") in quotes for n in neutral)


# --- Reference failures with the scripted model ---------------------------------------------

LITIGATION = (
    "Un ancien distributeur exclusif a assigné la société devant le tribunal de commerce de "
    "Clermont-Ferrand et réclame 4 200 k€ au titre de la rupture brutale de relations "
    "commerciales établies."
)
# The sentence goes on (", ce qui laisse ..."): the model cut it and added a final period.
LIQUIDITY_WITH_PERIOD = (
    "Au 31 décembre 2025, les lignes de crédit confirmées non tirées sont limitées à 6 000 k€."
)
SUMMARIES = {
    "concentration": "Le premier client représente 38 % du chiffre d'affaires de l'exercice.",
    "dependency": "La société dépend d'un fournisseur allemand unique de tôles plaquées.",
    "refinancing": "Le crédit syndiqué arrive à échéance en 2027 et son refinancement n'est "
    "pas acquis.",
}
GLUED = (
    "Le crédit syndiqué est assorti d'un engagement de ne pas dépasser un ratio dette nette / "
    "EBITDA ajusté de 3,5x [...] au 31 décembre 2025, ce ratio s'établit à 3,4x."
)
EXACT = {
    "concentration": "Le premier client du groupe, une enseigne nationale de la grande "
    "distribution, a représenté 38 % du chiffre d'affaires de l'exercice, contre 34 % en 2024.",
    "dependency": "La fabrication des gammes en acier multicouche dépend d'un fournisseur unique "
    "de tôles plaquées, établi en Allemagne, avec lequel aucun contrat pluriannuel n'a été signé.",
    "refinancing": "Le crédit syndiqué arrive à échéance en juillet 2027 et les discussions en "
    "vue de son refinancement n'avaient pas abouti à la date d'arrêté des comptes.",
    "covenant": "Le crédit syndiqué de 85 000 k€ est assorti d'un engagement de ne pas dépasser "
    "un ratio dette nette / EBITDA ajusté de 3,5x ; au 31 décembre 2025, ce ratio s'établit à "
    "3,4x selon la définition contractuelle, qui retraite notamment les coûts de réorganisation.",
}


def _answer(*signals: tuple[str, str, int]) -> str:
    items = [{"category": c, "quote": q, "page": p} for c, q, p in signals]
    return json.dumps({"signals": items}, ensure_ascii=False)


FIRST_ANSWER = _answer(
    ("litigation", LITIGATION, 8),
    ("liquidity", LIQUIDITY_WITH_PERIOD, 3),
    ("concentration", SUMMARIES["concentration"], 3),
    ("dependency", SUMMARIES["dependency"], 3),
    ("refinancing", SUMMARIES["refinancing"], 3),
    ("covenant", GLUED, 8),
)
KEPT = (("litigation", LITIGATION, 8), ("liquidity", LIQUIDITY_WITH_PERIOD, 3))
ALL_FIXED = _answer(*KEPT, *((c, EXACT[c], 8 if c == "covenant" else 3) for c in EXACT))
GLUED_KEPT = _answer(
    *KEPT, *((c, EXACT[c], 3) for c in ("concentration", "dependency", "refinancing")),
    ("covenant", GLUED, 8),
)  # fmt: skip
REMOVED = _answer(*KEPT)
MEMO = json.dumps(
    {"paragraphs": [{"text": "Le levier atteint 5,5x en 2025.", "sources": ["R-ferlac-levier"]}]}
)


def _read(pages: list[str], second: str) -> tuple[Reading, ScriptedModel]:
    model = ScriptedModel([FIRST_ANSWER, second])
    return read_signals(model, "Maison Ferlac SAS", Document.from_pages("ferlac", pages)), model


def test_first_answer_rejects_four_of_six_quotes_and_is_sent_back_once(
    ferlac_pages: list[str],
) -> None:
    reading, model = _read(ferlac_pages, ALL_FIXED)
    assert reading.first_rejected == 4
    assert len(model.requests) == 2
    reask = model.requests[1].messages[-1].content
    assert reask.startswith(REASK_INTRO)
    assert reask.count(COPY_FIX) == 4
    assert "signals[2]" in reask and "signals[5]" in reask
    assert "signals[0]" not in reask and "signals[1]" not in reask  # exact and final period
    # The diagnostic shows the passage the glued quote came from.
    assert "closest passage on the page" in reask and "85 000" in reask


@pytest.mark.parametrize(
    ("second", "verified", "rejected"),
    [
        pytest.param(ALL_FIXED, 6, 0, id="reask-fixes-all"),
        pytest.param(GLUED_KEPT, 5, 1, id="reask-keeps-the-glued-quote-which-is-dropped"),
        pytest.param(REMOVED, 2, 0, id="reask-removes-the-failed-signals"),
    ],
)
def test_reask_fixes_or_drops(
    ferlac_pages: list[str], second: str, verified: int, rejected: int
) -> None:
    reading, _ = _read(ferlac_pages, second)
    assert len(reading.verified) == verified
    assert reading.signals_rejected == rejected
    assert reading.attempts == 2
    for signal in reading.verified:
        assert "\f".join(ferlac_pages)[signal.span.start : signal.span.end] == signal.matched
    if rejected:
        (dropped,) = reading.rejected
        assert dropped.quote == GLUED
        assert dropped.result.verdict.value == "not_found"
        assert dropped.result.diagnostic is not None


def test_dropped_quote_reaches_neither_facts_nor_writer(ferlac_pages: list[str]) -> None:
    model = ScriptedModel([FIRST_ANSWER, GLUED_KEPT, MEMO])
    company = analyse_report(Document.from_pages("ferlac.pdf", ferlac_pages), model)
    assert company.reading.signals_rejected == 1
    assert [r.task for r in model.requests] == [READER_TASK, READER_TASK, "memo.writer"]
    writer_text = "\n".join(m.content for m in model.requests[2].messages)
    facts_text = "\n".join(f.text for f in company.facts)
    for text in (writer_text, facts_text):
        assert "[...]" not in text
        assert "3,4x." not in text  # the glued quote's ending
    quote_ids = [f.id for f in company.facts if f.id.startswith("Q-")]
    assert quote_ids == [f"Q-ferlac-{n}" for n in range(1, 6)]
    assert all(f"[{qid}]" in writer_text for qid in quote_ids)
    assert "selon la définition contractuelle" not in writer_text  # only in the dropped signal
    assert company.memo.paragraphs == (
        Paragraph("Le levier atteint 5,5x en 2025.", ("R-ferlac-levier",)),
    )


def test_reader_request_shows_pages_and_demands_exact_copies(ferlac_pages: list[str]) -> None:
    (request,) = reader_requests("Maison Ferlac SAS", ferlac_pages)
    system, user = (m.content for m in request.messages)
    assert "recopiée exactement" in system and "[...]" in system
    assert "--- Page 8 ---" in user and "Note 9" in user
    assert [n for n, _ in rendered_pages(request.messages)] == list(range(1, 9))
    chunks = reader_requests("Maison Ferlac SAS", ferlac_pages, max_chars=4000)
    assert len(chunks) > 1
    assert [n for c in chunks for n, _ in rendered_pages(c.messages)] == list(range(1, 9))
