"""The screens of issue 14 (s24) that tell an English filing's risks from its prose.

Every sentence here is written for the test, in other sectors and wording than the
held-out filings: a hedged sentence is a signal only through a clause that states the risk
as a fact; a court or damages is litigation when a case or a party is near; a share of a
class of customers (international, export) is a sales mix, not a concentration; a headroom
stated as a fair value is an asset-value signal, while fair-value policies stay boilerplate;
boilerplate, definitions, prospectus and contract drafting, method descriptions and
cross-references are no signal. A long request keeps one more sentence per category per
five pages beyond ten.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.documents import Document
from preuve.io.pdf import load_pages
from preuve.memo.cues import classify_sentence
from preuve.memo.reader import MAX_PER_CATEGORY, PAGES_PER_CATEGORY_SLOT, read_signals
from preuve.memo.rules_engine import memo_rules_model
from tests.pdfs import write_text_pdf

SIGNALS: dict[str, tuple[str, str]] = {
    "hedged, with a factual clause": (
        "We rely on a sole source for the cathode powder in our cells, and if that plant "
        "stopped we could not deliver.",
        "dependency",
    ),
    "hedged, the fact after 'because'": (
        "A strike could hurt us badly because of our dependence on a single port operator.",
        "dependency",
    ),
    "no assurance is no reassurance": (
        "There is no assurance that the banks will grant a waiver of the covenant breach.",
        "covenant",
    ),
    "covenant pointer to its definition": (
        "Our term loan caps the net leverage ratio at 3.25 times, as defined in the loan "
        "agreement.",
        "covenant",
    ),
    "minimum liquidity required": (
        "The revolving facility requires us to maintain minimum liquidity of $40 million at "
        "each quarter end.",
        "covenant",
    ),
    "a few retailers": (
        "Our sales are concentrated on a small number of retailers in each country.",
        "concentration",
    ),
    "nombre restreint de clients": (
        "Le chiffre d'affaires repose sur un nombre restreint de clients industriels.",
        "concentration",
    ),
    "court and a case": (
        "In May 2025 a state court dismissed the class action against the company.",
        "litigation",
    ),
    "damages sought": (
        "The distributor seeks damages of $6 million for the termination of its agreement.",
        "litigation",
    ),
    "fair-value headroom (en)": (
        "The estimated fair value of the Packaging reporting unit exceeded its carrying "
        "amount by 7% at the October test date.",
        "asset_value",
    ),
    "fair-value headroom, percent (en)": (
        "Fair value of the Marine segment exceeded its carrying value by approximately 12 percent.",
        "asset_value",
    ),
    "juste valeur proche (fr)": (
        "La juste valeur de l'UGT Boissons excède sa valeur comptable de 4 % seulement.",
        "asset_value",
    ),
    # an English annual report's risk section (not a 10-K's)
    "main customer's share of group revenue": (
        "Our main customer, a national rail operator, represented 38% of group revenue in "
        "2025, and its framework agreement expires in June 2026.",
        "concentration",
    ),
    "one supplier": (
        "All of our resin is purchased from one supplier in Belgium, and no alternative "
        "source has been qualified.",
        "dependency",
    ),
    "a claim with its amount": (
        "A former franchisee is claiming €2.1 million for unfair termination; the company "
        "rejects the claim and has made no provision.",
        "litigation",
    ),
    "a tax reassessment contested": (
        "In September 2025 the tax authority issued a reassessment of €1.4 million, which the "
        "group is contesting before the administrative court.",
        "litigation",
    ),
    "a facility expiring": (
        "The revolving credit facility expires in January 2027 and discussions with the banks "
        "on its renewal have not started.",
        "refinancing",
    ),
    "facility headroom reduced": (
        "Headroom under committed facilities was reduced to €2.0 million at 31 December 2025.",
        "liquidity",
    ),
    "continuing to operate depends on": (
        "The company's ability to continue operating over the next twelve months depends on "
        "the renewal of its €4 million overdraft facility in April 2026.",
        "going_concern",
    ),
    "orders received fell": (
        "Orders received in 2025 fell 31% compared with 2024, and the order book now covers "
        "five months of production.",
        "activity",
    ),
    "a one-point rise would impair": (
        "A one-point increase in the discount rate would lead to an impairment of €2.3 "
        "million on the hotel segment.",
        "asset_value",
    ),
}

NOT_SIGNALS: dict[str, str] = {
    "hedged, conditional only": "If our only foundry failed, we could lose most of our sales.",
    "hedged, a continuation after the semicolon": (
        "A breach of our systems could disrupt operations; resulting in lawsuits, fines and "
        "lost customers."
    ),
    "from time to time": "From time to time we are named as a defendant in product lawsuits.",
    "like other companies": (
        "Like us and other companies in our industry, retailers face lawsuits over pricing."
    ),
    "with or without merit": "Patent claims, with or without merit, are costly to defend in court.",
    "generic party to litigation": (
        "We are subject to litigation and other proceedings that arise from our operations."
    ),
    "beyond our control": (
        "Our ability to refinance our debt depends on market conditions and factors beyond "
        "our control."
    ),
    "cash-equivalent definition": (
        "Cash equivalents are highly liquid investments with original terms of three months "
        "or less."
    ),
    "prospectus: holders": (
        "Holders of the notes may require us to repurchase them at maturity at par value."
    ),
    "prospectus: business day": (
        "If a maturity date of the debentures is not a business day, payment is made the next day."
    ),
    "prospectus: redemption": "The bonds are subject to redemption prior to maturity at 102%.",
    "contract: the then current": (
        "The loan matures on the then current termination date of the credit agreement."
    ),
    "contract: deemed necessary": (
        "The consultant will assist the company in any litigation deemed necessary by the company."
    ),
    "method description": (
        "In making these estimates for litigation matters, we consider the advice of outside "
        "counsel."
    ),
    "dependency on many drivers": (
        "Segment growth is dependent on housing starts, interest rates, customer demand, and "
        "weather."
    ),
    "dependency of a list": (
        "Our new programs will be affected by budget timing, all of which are dependent on "
        "government funding."
    ),
    "international customers": "International customers accounted for 34% of our net sales.",
    "clients export": "Les clients à l'export représentent 40 % du chiffre d'affaires.",
    "unfunded plans": "Our postretirement plans are unfunded and paid as benefits fall due.",
    "variance explanation": "The increase was primarily driven by higher litigation costs.",
    "list of adjustments": (
        "These items include restructuring charges, litigation settlements and currency effects."
    ),
    "court with no case": "The new emissions rule was enjoined by a federal court in March.",
    "damages that are no claim": "The storm caused damages to two warehouses in 2024.",
    "rate sensitivity": (
        "As debt matures, future interest expense may be affected by changes in interest rates."
    ),
    "discount-rate method": (
        "The discount rate is based on a yield curve of high-quality corporate bonds maturing "
        "with the obligations."
    ),
    "cross-reference set forth": "Legal proceedings are set forth in Note 14 to the statements.",
    "fair value, large headroom": (
        "The fair value of each reporting unit exceeded its carrying amount by more than 40%."
    ),
    "fair value, substantially": (
        "The fair value of every reporting unit substantially exceeded its carrying value."
    ),
    "a settled case": "In 2024 the company settled the lawsuits for $3 million in total.",
    "complied with its banking covenants": (
        "The group complied with all its banking covenants at the reporting date."
    ),
    "approved on a going concern basis": (
        "The financial statements were approved by the board on 12 March 2026 on a going "
        "concern basis."
    ),
    "a covenant's test frequency": (
        "The covenants are tested twice a year on a rolling twelve-month basis."
    ),
    "an inventory policy": (
        "Inventories are stated at the lower of cost and net realisable value."
    ),
    "fair value policy": "Derivatives are carried at fair value with changes in profit or loss.",
}


@pytest.mark.parametrize(("sentence", "category"), SIGNALS.values(), ids=SIGNALS.keys())
def test_signals(sentence: str, category: str) -> None:
    found = classify_sentence(sentence)
    assert found is not None
    assert found[0] == category


@pytest.mark.parametrize("sentence", NOT_SIGNALS.values(), ids=NOT_SIGNALS.keys())
def test_not_signals(sentence: str) -> None:
    assert classify_sentence(sentence) is None


def test_a_requirement_to_comply_is_no_reassurance() -> None:
    found = classify_sentence(
        "Each lease requires the company to comply with financial covenants, failing which it "
        "must post $20 million of cash security."
    )
    assert found is not None
    assert found[0] == "covenant"


LAWSUIT = "In {year} a customer sued the company in the district court for ${amount} million."


@pytest.mark.parametrize(
    ("pages", "kept"),
    [
        pytest.param(8, MAX_PER_CATEGORY, id="a short report"),
        pytest.param(10, MAX_PER_CATEGORY, id="ten pages"),
        pytest.param(15, MAX_PER_CATEGORY + 1, id="fifteen pages"),
        pytest.param(21, MAX_PER_CATEGORY + 2, id="twenty-one pages"),
    ],
)
def test_a_long_request_keeps_more_per_category(tmp_path: Path, pages: int, kept: int) -> None:
    assert PAGES_PER_CATEGORY_SLOT == 5
    body = [
        ["Legal proceedings", LAWSUIT.format(year=2000 + n, amount=n + 3)] for n in range(pages)
    ]
    path = write_text_pdf(tmp_path / "filing.pdf", [["Example Corp", "Annual report"], *body])
    document = Document.from_pages("filing", load_pages(path))
    reading = read_signals(memo_rules_model(), "Example Corp", document)
    assert [s.category for s in reading.verified] == ["litigation"] * kept
