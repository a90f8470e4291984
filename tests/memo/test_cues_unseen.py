"""Risk cues on wording the bundled reports never use: general rules, not text matches."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from preuve.core.documents import Document
from preuve.core.errors import InputError
from preuve.loaders import load_cues
from preuve.memo.company import detect_company
from preuve.memo.cues import CATEGORIES, classify_sentence, page_sentences
from preuve.memo.pipeline import run_memo
from preuve.memo.reader import read_signals
from preuve.memo.risk_cues import SPECIFIC_BONUS, bundled_cues
from preuve.memo.rules_engine import memo_rules_model
from preuve.models.rules import RulesModel
from preuve.models.runtime import Runtime
from preuve.models.settings import Settings


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
        pytest.param("Note 9 – Emprunts et litiges en cours", id="numbered-note-title"),
        pytest.param("Section 4: Covenants and going concern", id="numbered-section-title"),
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


# Reassurance, pointers and accounting policies name a risk word but no risk (issue 14).
NOT_SIGNALS = {
    "no other uncertainty (fr)": "La direction n'a relevé aucune autre incertitude majeure"
    " susceptible d'affecter la continuité d'exploitation.",
    "no other material uncertainty (en)": "Management has identified no other material"
    " uncertainty that may cast doubt on the going concern assumption.",
    "in compliance with covenants": "At December 31, 2025 the Company was in compliance"
    " with all financial covenants of its credit agreement.",
    "complies with its commitments (fr)": "La société respecte l'ensemble de ses"
    " engagements financiers au 31 décembre.",
    "pointer to a note (fr)": "Le détail des ratios financiers est présenté en note 12.",
    "pointer to a note (en)": "Covenant compliance is described in Note 7.",
    "financing is sufficient": "Management believes that cash on hand is sufficient to"
    " meet liquidity needs for the next twelve months.",
    "nothing pending (fr)": "Aucun contentieux significatif n'était en cours à la clôture.",
    "accounting policy": "Trade receivables are measured at amortised cost less expected"
    " credit losses, with litigation provisions recognised separately.",
    # A risk said to be over: a dispute closed, settled or withdrawn (fifth writer's set).
    "dispute settled (fr)": "Le contentieux avec l'ancien distributeur belge a été réglé à"
    " l'amiable en février, sans incidence sur le résultat.",
    "claim withdrawn (fr)": "La procédure engagée par un concurrent a été retirée par celui-ci"
    " au cours du premier semestre.",
    "lawsuit dismissed (en)": "The patent lawsuit brought by a former licensee was dismissed"
    " in June 2025.",
    "all covenants met (fr)": "Au 30 juin, le groupe respecte l'ensemble des ratios prévus"
    " par ses contrats de prêt.",
    "one covenant met (fr)": "Le ratio de couverture des frais financiers s'établit à 4,2"
    " pour un minimum de 3,0 et reste respecté.",
    "covenant met (en)": "The interest cover ratio stood at 5.1 times against a minimum of"
    " 3.0 times and was met.",
    "nothing else pending (fr)": "Il n'existe pas d'autre procédure susceptible d'avoir une"
    " incidence significative sur les comptes.",
    "going concern basis (fr)": "Les comptes consolidés ont été arrêtés par le directoire"
    " selon le principe de continuité d'exploitation.",
    "going concern principle among others (fr)": "Les comptes sont établis dans le respect"
    " des principes de prudence, d'indépendance des exercices et de continuité de"
    " l'exploitation.",
    "going concern basis (en)": "The financial statements have been prepared on a going"
    " concern basis.",
    "presentation by maturity (fr)": "Les emprunts sont présentés selon leur échéance"
    " contractuelle dans le tableau ci-dessous.",
    "provisions cover the disputes (fr)": "Les provisions pour risques couvrent les litiges"
    " prud'homaux en cours à la clôture.",
    "pointer to a section (fr)": "Le litige avec l'ancien transporteur est décrit dans la"
    " section Facteurs de risques.",
    # s28: general forms of reassurance in place of screens copied from reports
    "no other proceedings with significant effects (fr)": "Il n'existe, à la connaissance de"
    " la société, aucune autre procédure judiciaire ou d'arbitrage susceptible d'avoir des"
    " effets significatifs sur sa rentabilité.",
    "financial covenants complied with (fr)": "Au 30 juin 2025, la société respecte ses"
    " engagements financiers au titre du crédit syndiqué.",
    "a ratio that raises no concern (fr)": "Le ratio de couverture des intérêts ressort à 6,1"
    " pour un minimum de 3,0 et ne suscite aucune inquiétude.",
    "debts classified by maturity (fr)": "Les dettes financières sont ventilées par échéance"
    " dans le tableau de la note 12.",
}


@pytest.mark.parametrize("case", NOT_SIGNALS)
def test_reassurance_and_boilerplate_are_not_signals(case: str) -> None:
    assert classify_sentence(NOT_SIGNALS[case]) is None


SIGNALS = {
    "no provision is a risk": (
        "Un client réclame 2 000 k€ devant le tribunal de commerce ; aucune provision n'a"
        " été comptabilisée.",
        "litigation",
    ),
    "cannot meet needs is a risk": (
        "Les financements obtenus ne permettent pas de faire face aux besoins de trésorerie"
        " de 2026.",
        "liquidity",
    ),
    "licence words apart": (
        "Le produit phare est fabriqué sous une licence de marque exclusive qui expire en 2027.",
        "dependency",
    ),
    # Risks in other wording and sectors than the fifth writer's reports (issue 14).
    "a claim notified and contested (fr)": (
        "Un distributeur a adressé en octobre une réclamation de 3 100 k€ ; la société conteste"
        " sa responsabilité.",
        "litigation",
    ),
    "two customers' share of production (fr)": (
        "Trois donneurs d'ordres de l'automobile ont représenté 58 % de la production vendue.",
        "concentration",
    ),
    "together a share of sales (en)": (
        "Two retail chains together accounted for 37 % of net sales in fiscal 2025.",
        "concentration",
    ),
    "a single site (fr)": (
        "La résine est fabriquée sur un seul site, en Alsace, dont le bail expire en 2027.",
        "dependency",
    ),
    "a single carrier (fr)": (
        "Les expéditions vers l'Asie dépendent d'un transporteur unique sous contrat annuel.",
        "dependency",
    ),
    "continuation needs a renewal (fr)": (
        "La poursuite de l'exploitation suppose le maintien par les banques de la ligne de"
        " crédit de 4 000 k€ jusqu'en mars 2027.",
        "going_concern",
    ),
    "lenders waive one test only (fr)": (
        "Les banques du pool ont renoncé à se prévaloir du non-respect du ratio de levier pour"
        " le seul test de juin 2025.",
        "covenant",
    ),
    "waiver for that test only (en)": (
        "The lenders granted a waiver of the leverage covenant for that test only.",
        "covenant",
    ),
    "a covenant not met is no reassurance (fr)": (
        "Le ratio de gearing ressort à 1,6 pour un plafond de 1,2 et n'est pas respecté.",
        "covenant",
    ),
    "a covenant not complied with stays a risk (fr)": (
        "Au 31 décembre 2025, la société ne respectait pas le ratio de levier prévu au contrat"
        " de prêt.",
        "covenant",
    ),
}


@pytest.mark.parametrize("case", SIGNALS)
def test_risks_next_to_reassuring_words_stay_signals(case: str) -> None:
    sentence, category = SIGNALS[case]
    found = classify_sentence(sentence)
    assert found is not None and found[0] == category


# --- Cues as data ----------------------------------------------------------------------


def test_the_bundled_cues_cover_every_category() -> None:
    assert sorted(name for name, _ in bundled_cues().categories) == sorted(CATEGORIES)


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "cues.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_user_cue_file_adds_its_patterns_before_the_bundled_ones(tmp_path: Path) -> None:
    sentence = "The group relies on one shipyard in Gdansk for every hull it sells."
    assert classify_sentence(sentence) is None
    path = _write(
        tmp_path,
        {"categories": [{"category": "dependency", "cues": [r"\brel(?:y|ies) on one\b"]}]},
    )
    assert classify_sentence(sentence, load_cues(path)) == ("dependency", 1)
    # the bundled cues and screens still apply
    assert (
        classify_sentence("We are in full compliance with our covenants.", load_cues(path)) is None
    )


def test_a_user_cue_file_is_its_runs_own_not_the_processs(tmp_path: Path) -> None:
    """Two runs in one process, one with a user's cues and one with the bundled ones, side
    by side on threads: each reads with its own engine's cues, neither leaks into the
    other, and the bundled classification is unchanged after both."""
    path = _write(tmp_path, {"reassurance": [r"\bsans incidence\b"]})
    sentence = "Le litige avec le distributeur est sans incidence sur les comptes de l'exercice."
    pages = ["Rapport annuel 2025", f"Note 12 - Litiges. {sentence}"]
    report = Document.from_pages("report", pages)
    assert classify_sentence(sentence) == ("litigation", 1)
    engines = [memo_rules_model(load_cues(path)), memo_rules_model(), memo_rules_model()] * 4

    def categories(model: RulesModel) -> set[str]:
        return {s.category for s in read_signals(model, "Exemple SA", report).verified}

    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(categories, engines))
    assert found == [set(), {"litigation"}, {"litigation"}] * 4
    # the same through workflow 1's entry point, on one runtime of the rules spec
    runtime = Runtime(Settings())
    assert run_memo([report], runtime).companies[0].reading.verified
    quiet = run_memo([report], runtime, cues=load_cues(path))
    assert not quiet.companies[0].reading.verified
    assert run_memo([report], runtime).companies[0].reading.verified
    assert classify_sentence(sentence) == ("litigation", 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param([], "a cues file is a JSON object", id="not-an-object"),
        pytest.param(
            {"categories": [{"category": "weather", "cues": ["storm"]}]},
            "unknown category 'weather'",
            id="unknown-category",
        ),
        pytest.param(
            {"categories": [{"category": "litigation", "cues": ["(unclosed"]}]},
            "bad cue pattern '(unclosed'",
            id="bad-pattern",
        ),
        pytest.param({"reassurance": "no list"}, "'reassurance' must be a list", id="not-a-list"),
    ],
)
def test_a_malformed_cue_file_is_one_line_naming_the_fault(
    tmp_path: Path, data: object, message: str
) -> None:
    with pytest.raises(InputError, match=re.escape(message)) as error:
        load_cues(_write(tmp_path, data))
    assert "\n" not in str(error.value)
    assert error.value.exit_code == 2


# --- Screens of issue 14: negation, hedging, boilerplate, counterparties --------------

SCREEN_CASES: dict[str, tuple[str, str | None]] = {
    "a risk said to be remote": (
        "Management considers the likelihood of a material loss from these claims to be remote.",
        None,
    ),
    "a risk that did not happen": (
        "Higher interest rates have not materially affected our liquidity or our cash flows.",
        None,
    ),
    "no dependence stated": (
        "The group is not dependent on any single patent or licence for its operations.",
        None,
    ),
    "a list of forward-looking factors": (
        "Factors that could cause actual results to differ include litigation and tariffs.",
        None,
    ),
    "a bullet fragment": ("• changes in laws, litigation and other legal proceedings;", None),
    "a truism of the normal course": (
        "In the ordinary course of business we are party to lawsuits about contracts.",
        None,
    ),
    "contract drafting": (
        "The Borrower shall not permit the leverage ratio to exceed the level set forth herein.",
        None,
    ),
    "a hypothetical with no figure": (
        "Adverse credit markets could harm our ability to refinance our debt on good terms.",
        None,
    ),
    "a hypothetical with a figure is kept": (
        "Our $400 million term loan matures in 2026 and we may be unable to refinance it.",
        "refinancing",
    ),
    "depending on ourselves is no dependency": (
        "Our growth depends on our ability to launch new products every year in each market.",
        None,
    ),
    "depending on a counterparty is a dependency": (
        "Our plants depend on two suppliers in Poland for all the glass we shape and sell.",
        "dependency",
    ),
    "liquidity named without pressure": (
        "Our principal sources of liquidity are cash from operations and a credit facility.",
        None,
    ),
    "liquidity under pressure": (
        "Our liquidity is under pressure as the facility of $50 million is fully drawn today.",
        "liquidity",
    ),
}


@pytest.mark.parametrize("case", SCREEN_CASES)
def test_screens_keep_risks_and_drop_what_names_none(case: str) -> None:
    sentence, expected = SCREEN_CASES[case]
    found = classify_sentence(sentence)
    assert (found[0] if found else None) == expected


def test_a_sentence_stating_a_figure_ranks_first() -> None:
    plain = classify_sentence("A distributor has sued the company for breach of contract.")
    figure = classify_sentence("A distributor has sued the company for $12 million of damages.")
    assert plain == ("litigation", 1)
    assert figure == ("litigation", 2 + SPECIFIC_BONUS)
