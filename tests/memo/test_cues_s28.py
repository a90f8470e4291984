"""Cues widened by issue 14 (session 28), on sentences written for these tests in other
sectors than any report (a ferry operator, a honey cooperative, a bus maker, a textile mill,
a seed breeder...). What the reports nobody tuned on missed, in general form: an executive
who leaves (resigns, steps down, "quittera ses fonctions") with no successor named; a
dependence "for" a share of the supplies on one source named by its own noun; floating-rate
debt "not covered by" any swap, "couverte par aucun" instrument; a credit line confirmed
only until a date, its renewal not yet negotiated; a show-cause notice; receivables that
rose to more days of revenue, customers that extended their payment terms. And what is no
signal: a dispute "définitivement clôturé", a table's title standing on its own line."""

from __future__ import annotations

from preuve.memo.cues import page_sentences
from tests.memo.cue_cases import cue_case_tests

SIGNALS = {
    "a chief operating officer resigns (English)": (
        "Our chief operating officer, Ms Hannah Ortiz, handed in her resignation in January "
        "and will leave the group at the end of April.",
        "dependency",
    ),
    "a managing director steps down, successor not yet found (English)": (
        "The managing director of the ferry division is stepping down in September and the "
        "board has not yet identified a replacement.",
        "dependency",
    ),
    "a founder leaves his duties with no successor (French)": (
        "Madame Odile Ferrand, présidente et fondatrice de la coopérative, cessera ses "
        "fonctions à la fin de l'année sans que son successeur soit connu.",
        "dependency",
    ),
    "a general manager resigns (French)": (
        "Le directeur général de la filiale espagnole a présenté sa démission en février 2026.",
        "dependency",
    ),
    "supplies depending for a share on one mill (French)": (
        "Nos achats de fil de coton dépendent pour les deux tiers d'une seule filature portugaise.",
        "dependency",
    ),
    "supplies depending for most on one grower (English)": (
        "Our seed stock depends for about 55% on a single grower in Chile.",
        "dependency",
    ),
    "floating-rate debt not covered by swaps (English)": (
        "Some 80% of the term loans bear interest at SONIA plus a margin and are not covered "
        "by any interest rate swap.",
        "interest_rate",
    ),
    "floating-rate debt covered by no instrument (French)": (
        "Le crédit d'investissement de 6 M€ est rémunéré à taux variable et n'est couvert par "
        "aucun contrat d'échange de taux.",
        "interest_rate",
    ),
    "a credit line confirmed only until a date (French)": (
        "Le crédit de campagne de 900.000 euros n'est confirmé que jusqu'au 31 mars 2026.",
        "refinancing",
    ),
    "a renewal not yet negotiated (French)": (
        "Les découverts autorisés arrivent à leur terme en juin et leur reconduction n'est pas "
        "encore négociée avec le pool bancaire.",
        "refinancing",
    ),
    "a renewal not yet negotiated (English)": (
        "The overdraft facility is committed only until 30 November 2026 and its renewal has "
        "not yet been negotiated with the bank.",
        "refinancing",
    ),
    "a show-cause notice (English)": (
        "The state transport authority served a show-cause notice on our bus plant in March "
        "over emission test results.",
        "regulatory",
    ),
    "receivables rose to more days of revenue (English)": (
        "Trade debtors climbed to 74 days of sales from 63 days, as dealers took longer to pay.",
        "working_capital",
    ),
    "customers extended their payment terms (English)": (
        "Three supermarket chains extended their payment terms to 90 days during the year, "
        "which lengthened our cash conversion cycle.",
        "working_capital",
    ),
    "receivables went to more days (French)": (
        "Les créances clients sont passées de 48 à 57 jours de chiffre d'affaires en un an.",
        "working_capital",
    ),
}

NOT_SIGNALS = {
    "a dispute closed for good (French)": (
        "Le différend qui nous opposait à un ancien distributeur a été définitivement clôturé "
        "en juin 2025 sans indemnité à notre charge."
    ),
    "a dispute finally resolved (English)": (
        "The claim brought by a former dealer was eventually resolved in May 2025 with no "
        "payment by the company."
    ),
    "a successor already appointed (English)": (
        "Our chief financial officer retired in March and his successor, appointed in "
        "January, took office on 1 April."
    ),
    "hedged floating-rate debt (English)": (
        "Our floating-rate term loans are fully hedged by interest rate swaps."
    ),
}


test_widened_cues_name_the_risk, test_the_same_words_without_the_risk_are_no_signal = (
    cue_case_tests(SIGNALS, NOT_SIGNALS)
)


def test_a_title_on_its_own_line_between_table_rows_is_no_sentence() -> None:
    page = (
        "Debt by lender\n"
        "   Bank A                                             12,400.00\n"
        "   Bank B                                              8,100.00\n"
        "Repayment schedule of the term loans at 30 June 2026 (nominal amounts)\n"
        "   Within one year                                     4,000.00\n"
        "   After one year                                     16,500.00\n"
        "The term loans are secured by a charge on the ferries and carry interest at a fixed "
        "rate of 5.1%.\n"
    )
    texts = [" ".join(s.text.split()) for s in page_sentences(page)]
    assert texts == [
        "The term loans are secured by a charge on the ferries and carry interest at a fixed "
        "rate of 5.1%."
    ]
