# ruff: noqa: E501  (one template per line reads better than wrapped f-strings)
"""preuve's own contrast set for the claim checks, generated from fact templates.

Each fact set (two invented companies, French or English) appears in several paragraphs:
faithful ones (expected accepted) and contrasted ones (expected rejected): the subject
swapped, the period swapped, the direction flipped, the negation flipped. Every number of
every paragraph is in the facts it cites, so a number check alone accepts every row.

The held-out set (``tests/heldout/memo/contrast.jsonl``) is written by someone else and
only measured; this one is ours, and the tests hold it to the goals.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLASSES", "ContrastRow", "contrast_rows"]

CLASSES = ("faithful", "subject_swap", "period_swap", "direction_flip", "negation_flip")


@dataclass(frozen=True, slots=True)
class ContrastRow:
    id: str
    lang: str
    facts: tuple[str, ...]
    text: str
    sources: tuple[str, ...]
    cls: str

    @property
    def expected(self) -> str:
        return "accept" if self.cls == "faithful" else "reject"


@dataclass(frozen=True, slots=True)
class _Company:
    name: str  # as the facts write it
    short: str  # as a writer would
    slug: str


@dataclass(frozen=True, slots=True)
class _Metric:
    name: str  # capitalized, as in a fact line
    word: str  # in a sentence, with its article ("le levier", "leverage")
    unit: str
    now: str
    before: str
    other_now: str
    other_before: str

    @property
    def lower_is_better(self) -> bool:
        return self.name.lower() in {"levier", "gearing", "leverage"}


@dataclass(frozen=True, slots=True)
class _Quote:
    fact: str
    keep: str  # a paraphrase with the same polarity ({c} = company)
    flip: str  # the same paraphrase, polarity flipped


FR_COMPANIES = (
    (_Company("Barnaval Textiles SAS", "Barnaval", "barnaval"),
     _Company("Orlimont SA", "Orlimont", "orlimont")),
    (_Company("Trévise Matériaux SA", "Trévise", "trevise"),
     _Company("Groupe Lavandière SAS", "Lavandière", "lavandiere")),
    (_Company("Maréchal Frères SARL", "Maréchal Frères", "marechal"),
     _Company("Société Quercynoise SA", "la Quercynoise", "quercynoise")),
    (_Company("Ébénor Industrie SAS", "Ébénor", "ebenor"),
     _Company("Castelrive SCA", "Castelrive", "castelrive")),
    (_Company("Valdonne Biotech SA", "Valdonne", "valdonne"),
     _Company("Hautvent Énergie SAS", "Hautvent", "hautvent")),
    (_Company("Pierrelaure SA", "Pierrelaure", "pierrelaure"),
     _Company("Frênaie Logistique SAS", "Frênaie", "frenaie")),
)  # fmt: skip
EN_COMPANIES = (
    (_Company("Quintessa Foods plc", "Quintessa", "quintessa"),
     _Company("Haskett Logistics Inc.", "Haskett", "haskett")),
    (_Company("Lumenor GmbH", "Lumenor", "lumenor"),
     _Company("Cobalt Ridge Ltd", "Cobalt Ridge", "cobalt")),
    (_Company("Brackwater Holdings plc", "Brackwater", "brackwater"),
     _Company("Tellmark Corp.", "Tellmark", "tellmark")),
    (_Company("Oakhurst Media Inc.", "Oakhurst", "oakhurst"),
     _Company("Ferrovane AG", "Ferrovane", "ferrovane")),
    (_Company("Silverdell Retail Ltd", "Silverdell", "silverdell"),
     _Company("Northgate Pharma plc", "Northgate", "northgate")),
    (_Company("Arkwell Systems Inc.", "Arkwell", "arkwell")
     , _Company("Mistral Shipping AS", "Mistral Shipping", "mistral")),
)  # fmt: skip

FR_METRICS = (
    _Metric("Levier", "le levier", "x", "4,8x", "3,2x", "2,1x", "2,6x"),
    _Metric("Gearing", "le gearing", "x", "1,35x", "1,62x", "0,84x", "0,71x"),
    _Metric("Marge nette", "la marge nette", "%", "6,4 %", "4,9 %", "-1,2 %", "0,8 %"),
    _Metric("Couverture des intérêts", "la couverture des intérêts", "x", "2,3x", "3,9x",
            "5,1x", "4,4x"),
    _Metric("Levier", "le levier", "x", "5,7x", "6,3x", "3,4x", "2,9x"),
    _Metric("Marge nette", "la marge nette", "%", "2,7 %", "3,8 %", "9,1 %", "7,5 %"),
)  # fmt: skip
EN_METRICS = (
    _Metric("Leverage", "leverage", "x", "4.4x", "2.9x", "1.8x", "2.3x"),
    _Metric("Gearing", "gearing", "x", "0.92x", "1.18x", "1.45x", "1.21x"),
    _Metric("Net margin", "the net margin", "%", "7.3%", "5.6%", "-2.4%", "1.1%"),
    _Metric("Interest cover", "interest cover", "x", "1.9x", "3.2x", "6.2x", "5.8x"),
    _Metric("Leverage", "leverage", "x", "3.6x", "4.1x", "2.2x", "1.7x"),
    _Metric("Net margin", "the net margin", "%", "3.3%", "2.1%", "8.8%", "9.4%"),
)  # fmt: skip

FR_QUOTES = (
    _Quote("Aucune provision n'a été constituée au titre du litige engagé par l'ancien distributeur",
           "{c} n'a constitué aucune provision au titre du litige engagé par l'ancien distributeur.",
           "{c} a constitué une provision au titre du litige engagé par l'ancien distributeur."),
    _Quote("Les prêteurs ont accordé une renonciation temporaire au respect du covenant de levier",
           "Les prêteurs de {c} ont accordé une renonciation temporaire au covenant de levier.",
           "Les prêteurs de {c} n'ont pas accordé de renonciation au covenant de levier."),
    _Quote("Le contrat d'approvisionnement avec le fournisseur principal n'a pas été renouvelé",
           "Chez {c}, le contrat d'approvisionnement avec le fournisseur principal n'a pas été "
           "renouvelé.",
           "Chez {c}, le contrat d'approvisionnement avec le fournisseur principal a été renouvelé."),
    _Quote("Les commissaires aux comptes ont certifié les comptes consolidés sans réserve",
           "Les comptes consolidés de {c} ont été certifiés sans réserve par les commissaires "
           "aux comptes.",
           "Les comptes consolidés de {c} ont été certifiés avec réserve par les commissaires "
           "aux comptes."),
    _Quote("La société n'a jamais manqué une échéance de remboursement de ses emprunts",
           "{c} n'a jamais manqué une échéance de remboursement de ses emprunts.",
           "{c} a déjà manqué une échéance de remboursement de ses emprunts."),
    _Quote("Le programme d'investissement est intégralement financé par des lignes confirmées",
           "Le programme d'investissement de {c} est intégralement financé par des lignes "
           "confirmées.",
           "Le programme d'investissement de {c} n'est pas financé par des lignes confirmées."),
)  # fmt: skip
EN_QUOTES = (
    _Quote("No provision has been recognised for the claim brought by the former distributor",
           "{c} has recognised no provision for the claim brought by the former distributor.",
           "{c} has recognised a provision for the claim brought by the former distributor."),
    _Quote("The lenders granted a temporary waiver of the leverage covenant",
           "{c}'s lenders granted a temporary waiver of the leverage covenant.",
           "{c}'s lenders did not grant a waiver of the leverage covenant."),
    _Quote("The supply agreement with the main supplier was not renewed",
           "At {c}, the supply agreement with the main supplier was not renewed.",
           "At {c}, the supply agreement with the main supplier was renewed."),
    _Quote("The auditors issued an unqualified opinion without any emphasis of matter",
           "{c}'s auditors issued their opinion without any emphasis of matter.",
           "{c}'s auditors issued their opinion with an emphasis of matter."),
    _Quote("The group has never missed a scheduled repayment on its term loans",
           "{c} has never missed a scheduled repayment on its term loans.",
           "{c} has missed a scheduled repayment on its term loans."),
    _Quote("The capital expenditure programme is fully funded by committed facilities",
           "{c}'s capital expenditure programme is fully funded by committed facilities.",
           "{c}'s capital expenditure programme is not funded by committed facilities."),
)  # fmt: skip


def _up(now: str, before: str) -> bool:
    def value(text: str) -> float:
        return float(text.rstrip("x% ").replace(",", ".").replace(" ", ""))

    return value(now) > value(before)


def _fr_rows(n: int) -> list[ContrastRow]:
    a, b = FR_COMPANIES[n]
    m, q = FR_METRICS[n], FR_QUOTES[n]
    ra, rb, qa = f"R-{a.slug}-m", f"R-{b.slug}-m", f"Q-{a.slug}-1"
    facts = (
        f"[{ra}] {a.name} - {m.name} 2025 : {m.now} (2024 : {m.before}) ; formule : calcul",
        f"[{rb}] {b.name} - {m.name} 2025 : {m.other_now} (2024 : {m.other_before}) ; "
        "formule : calcul",
        f"[{qa}] {a.name} - « {q.fact} » (p. 4)",
    )
    up = _up(m.now, m.before)
    worse = up == m.lower_is_better
    effect, wrong_effect = ("se dégrade", "s'améliore") if worse else ("s'améliore", "se dégrade")
    verb, wrong = ("a progressé", "a reculé") if up else ("a reculé", "a progressé")
    inf, wrong_inf = ("augmenter", "diminuer") if up else ("diminuer", "augmenter")
    cap = m.word[0].upper() + m.word[1:]
    bigger = _up(m.now, m.other_now)
    order, wrong_order = ("supérieur", "inférieur") if bigger else ("inférieur", "supérieur")
    rows = [
        ("faithful", f"{a.short} affiche {m.word} de {m.now} en 2025, contre {m.before} en 2024.", (ra,)),
        ("faithful", f"{cap} de {a.name} {verb} à {m.now} en 2025, contre {m.before} en 2024.", (ra,)),
        ("faithful", f"En 2025, {a.short} voit {m.word.split()[0]} {m.word.split(' ', 1)[1]} {inf} de {m.before} à {m.now}.", (ra,)),
        ("faithful", f"{cap} de {a.short} ({m.now} en 2025) est {order} à celui de {b.short} ({m.other_now} en 2025).", (ra, rb)),
        ("faithful", q.keep.format(c=a.short), (qa,)),
        ("faithful", f"{b.short} : {m.word} s'établit à {m.other_now} en 2025 ; {a.short} ressort à {m.now}.", (ra, rb)),
        ("subject_swap", f"{b.short} affiche {m.word} de {m.now} en 2025, contre {m.before} en 2024.", (ra, rb)),
        ("subject_swap", f"{cap} de {b.name} atteint {m.now} en 2025.", (ra,)),
        ("subject_swap", f"En 2025, {a.short} affiche {m.word} de {m.other_now}.", (ra, rb)),
        ("period_swap", f"{a.short} affiche {m.word} de {m.before} en 2025.", (ra,)),
        ("period_swap", f"En 2024, {m.word} de {a.short} atteignait {m.now}.", (ra,)),
        ("period_swap", f"{cap} de {a.short} ressort à {m.now} au premier semestre 2025.", (ra,)),
        ("direction_flip", f"{cap} de {a.name} {wrong} à {m.now} en 2025, contre {m.before} en 2024.", (ra,)),
        ("direction_flip", f"En 2025, {a.short} voit {m.word.split()[0]} {m.word.split(' ', 1)[1]} {wrong_inf} de {m.before} à {m.now}.", (ra,)),
        ("direction_flip", f"{cap} de {a.short} ({m.now} en 2025) est {wrong_order} à celui de {b.short} ({m.other_now} en 2025).", (ra, rb)),
        ("negation_flip", q.flip.format(c=a.short), (qa,)),
        ("negation_flip", f"{cap} de {a.short} n'a pas {'augmenté' if up else 'baissé'} : {m.now} en 2025 contre {m.before} en 2024.", (ra,)),
        ("faithful", f"{cap} de {a.short} {effect} : {m.now} en 2025 contre {m.before} en 2024.", (ra,)),
        ("direction_flip", f"{cap} de {a.short} {wrong_effect} : {m.now} en 2025 contre {m.before} en 2024.", (ra,)),
        ("subject_swap", q.keep.format(c=b.short), (qa, rb)),
    ]  # fmt: skip
    return [
        ContrastRow(f"own-fr-{n}-{i}", "fr", facts, text, sources, cls)
        for i, (cls, text, sources) in enumerate(rows)
    ]


def _en_rows(n: int) -> list[ContrastRow]:
    a, b = EN_COMPANIES[n]
    m, q = EN_METRICS[n], EN_QUOTES[n]
    ra, rb, qa = f"R-{a.slug}-m", f"R-{b.slug}-m", f"Q-{a.slug}-1"
    facts = (
        f"[{ra}] {a.name} - {m.name} 2025: {m.now} (2024: {m.before}) ; formula: computed",
        f"[{rb}] {b.name} - {m.name} 2025: {m.other_now} (2024: {m.other_before}) ; "
        "formula: computed",
        f"[{qa}] {a.name} - « {q.fact} » (p. 4)",
    )
    up = _up(m.now, m.before)
    worse = up == m.lower_is_better
    effect, wrong_effect = ("weakened", "strengthened") if worse else ("strengthened", "weakened")
    verb, wrong = ("rose", "fell") if up else ("fell", "rose")
    bigger = _up(m.now, m.other_now)
    order, wrong_order = ("higher than", "lower than") if bigger else ("lower than", "higher than")
    cap = m.word[0].upper() + m.word[1:]
    rows = [
        ("faithful", f"{a.short} reported {m.word} of {m.now} in 2025, compared with {m.before} in 2024.", (ra,)),
        ("faithful", f"{a.name}'s {m.word.removeprefix('the ')} {verb} to {m.now} in 2025 from {m.before} in 2024.", (ra,)),
        ("faithful", f"In 2025, {m.word} at {a.short} {'increased' if up else 'decreased'} from {m.before} to {m.now}.", (ra,)),
        ("faithful", f"At {m.now} in 2025, {a.short}'s {m.word.removeprefix('the ')} is {order} {b.short}'s {m.other_now}.", (ra, rb)),
        ("faithful", q.keep.format(c=a.short), (qa,)),
        ("faithful", f"{b.short}: {m.word} of {m.other_now} in 2025; {a.short} stands at {m.now}.", (ra, rb)),
        ("subject_swap", f"{b.short} reported {m.word} of {m.now} in 2025, compared with {m.before} in 2024.", (ra, rb)),
        ("subject_swap", f"{b.name}'s {m.word.removeprefix('the ')} reached {m.now} in 2025.", (ra,)),
        ("subject_swap", f"In 2025, {a.short} reported {m.word} of {m.other_now}.", (ra, rb)),
        ("period_swap", f"{a.short} reported {m.word} of {m.before} in 2025.", (ra,)),
        ("period_swap", f"In 2024, {a.short}'s {m.word.removeprefix('the ')} stood at {m.now}.", (ra,)),
        ("period_swap", f"{cap} at {a.short} was {m.now} in the first half of 2025.", (ra,)),
        ("direction_flip", f"{a.name}'s {m.word.removeprefix('the ')} {wrong} to {m.now} in 2025 from {m.before} in 2024.", (ra,)),
        ("direction_flip", f"In 2025, {m.word} at {a.short} {'decreased' if up else 'increased'} from {m.before} to {m.now}.", (ra,)),
        ("direction_flip", f"At {m.now} in 2025, {a.short}'s {m.word.removeprefix('the ')} is {wrong_order} {b.short}'s {m.other_now}.", (ra, rb)),
        ("negation_flip", q.flip.format(c=a.short), (qa,)),
        ("negation_flip", f"{a.short}'s {m.word.removeprefix('the ')} did not {'rise' if up else 'fall'}: {m.now} in 2025 against {m.before} in 2024.", (ra,)),
        ("faithful", f"{a.short}'s {m.word.removeprefix('the ')} {effect}, at {m.now} in 2025 after {m.before} in 2024.", (ra,)),
        ("direction_flip", f"{a.short}'s {m.word.removeprefix('the ')} {wrong_effect}, at {m.now} in 2025 after {m.before} in 2024.", (ra,)),
        ("subject_swap", q.keep.format(c=b.short), (qa, rb)),
    ]  # fmt: skip
    return [
        ContrastRow(f"own-en-{n}-{i}", "en", facts, text, sources, cls)
        for i, (cls, text, sources) in enumerate(rows)
    ]


def contrast_rows() -> list[ContrastRow]:
    """Every row, French then English: 6 fact sets each, 20 paragraphs per set."""
    french = [row for n in range(len(FR_COMPANIES)) for row in _fr_rows(n)]
    english = [row for n in range(len(EN_COMPANIES)) for row in _en_rows(n)]
    return french + english
