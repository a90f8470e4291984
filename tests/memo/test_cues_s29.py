"""Cues widened by issue 14 (session 29), on sentences written for these tests in other
sectors than any report (a ski-lift operator, a cheese dairy, a bus maker, a brewery, a
hotel chain...). What the fifteenth writer's reports missed, in general form: sales in a
currency with no FX hedge; a key manager gone and the post still unfilled (a successor "not
yet appointed" is no reassurance); net cash that fell by an amount, cash that was negative; a
rule coming into force that will impose work or costs; a holding written down. And what they
kept that is no signal: a risk taken off the register, thanks to a departing officer, a
covenant's definition, the directors' going-concern assessment stated as a process, the
going-concern basis found appropriate (nor is a credit line partly drawn beside ample cash)."""

from __future__ import annotations

from tests.memo.cue_cases import cue_case_tests

SIGNALS = {
    "sales in a currency with no FX hedge (French)": (
        "Les forfaits vendus aux tour-opérateurs britanniques, libellés en livres, ne "
        "bénéficient d'aucune couverture de change.",
        "price_exposure",
    ),
    "purchases in dollars with no currency hedging (English)": (
        "Our cocoa purchases are invoiced in US dollars and we have no currency hedging in place.",
        "price_exposure",
    ),
    "a manager retired and the post still unfilled (French)": (
        "La directrice commerciale est partie à la retraite en juin et son remplacement n'est "
        "toujours pas assuré.",
        "dependency",
    ),
    "a plant manager left and the successor not yet named (English)": (
        "The plant manager of the Leeds brewery left in March and his successor has not yet "
        "been appointed.",
        "dependency",
    ),
    "a finance director left, the successor not yet named (French)": (
        "Le directeur financier a quitté la fromagerie en mai et son successeur n'a pas encore "
        "été nommé.",
        "dependency",
    ),
    "net cash fell by an amount (French)": (
        "La trésorerie nette a baissé de 1,2 M€ au cours du semestre.",
        "liquidity",
    ),
    "net cash negative at the year end (English)": (
        "Net cash was negative at the balance sheet date once the overdraft is deducted.",
        "liquidity",
    ),
    "a rule coming into force that will impose work (French)": (
        "Le renforcement des normes d'émission Euro 7 imposera la refonte de deux motorisations "
        "d'ici 2027.",
        "regulatory",
    ),
    "a regulation requiring the company to fund a scheme (English)": (
        "New packaging waste regulations require the company to pay a levy on every tonne "
        "placed on the market from 2026.",
        "regulatory",
    ),
    "a holding written down (French)": (
        "La participation dans la société d'exploitation du téléski de Valmorel a été "
        "entièrement dépréciée pour 320 k€.",
        "asset_value",
    ),
    "an investment impaired (English)": (
        "Our investment in the Spanish joint venture was impaired by €2.1 million after a "
        "second year of losses.",
        "asset_value",
    ),
}

NOT_SIGNALS = {
    "a risk taken off the register (English)": (
        "Reliance on one malt supplier was a principal risk last year; a second maltster has "
        "been approved and we have taken it off the risk register."
    ),
    "a risk no longer seen as one (English)": (
        "Dependence on the Chinese battery supplier is no longer considered a principal risk."
    ),
    "a risk removed from the risk map (French)": (
        "La dépendance au fournisseur de présure a été retirée de la cartographie des risques."
    ),
    "thanks to a departing officer (English)": (
        "We would like to thank Paul for nine years of service, including the refinancing of "
        "our bank facilities in 2022."
    ),
    "thanks to a departing officer (French)": (
        "Nous remercions Mme Perrin pour son engagement, notamment lors du refinancement de 2021."
    ),
    "a covenant's definition (English)": (
        "For covenant purposes net debt excludes lease liabilities and EBITDA is stated before "
        "share-based payments."
    ),
    "the going-concern assessment stated as a process (English)": (
        "The directors have assessed the company's ability to continue as a going concern over "
        "the next twelve months."
    ),
    "a successor already named (French)": (
        "Le directeur financier a quitté la fromagerie en mai ; son successeur, nommé en avril, "
        "a pris ses fonctions."
    ),
    "the going-concern basis found appropriate (English)": (
        "Having obtained a two-year extension of the overdraft, the directors consider it "
        "appropriate to prepare these accounts on the going concern basis."
    ),
    "a credit line partly drawn beside ample cash (French)": (
        "La société disposait de 2,4 M€ de disponibilités et d'une ligne de crédit de 1 M€, "
        "tirée à hauteur de 300 k€."
    ),
    "a policy on impairment (English)": (
        "Investments in subsidiaries are impaired when their recoverable amount falls below cost."
    ),
}

test_widened_cues_name_the_risk, test_the_same_words_without_the_risk_are_no_signal = (
    cue_case_tests(SIGNALS, NOT_SIGNALS)
)
