"""The writer role: a credit memo over identified facts only, checked in code.

The writer (an LLM, or the French template writer :func:`rules_writer`) sees the facts of
one company and nothing else, and answers ``{"paragraphs": [{"text", "sources"}]}``. The
memo check of :mod:`preuve.core.memocheck` runs on every answer: each paragraph cites known
facts, and each number in it comes from the facts *it cites*, sign included. Defects go
back once (the role :data:`WRITER`, run by the one driver of :mod:`preuve.models.role`); a
memo still defective is REFUSED and kept with its defects, never shown as verified. The
rules writer reads the facts back from the prompt; the request carries no payload.

What the check cannot see is stated with every memo (:data:`KNOWN_LIMITS`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from preuve.core.claims import ClaimRecord, review_claims
from preuve.core.defects import Defect
from preuve.core.errors import InputError
from preuve.core.facts import Fact, parse_facts, render_facts
from preuve.core.memocheck import Paragraph, check_memo, parse_memo
from preuve.core.numbers import Locale
from preuve.memo.cues import CATEGORY_LABELS, classify_sentence
from preuve.memo.english import CATEGORY_LABELS_EN, WRITER_SYSTEM_EN
from preuve.memo.risk_cues import CueSet
from preuve.models.base import Message, Model, Request
from preuve.models.loop import Checked, LoopStatus
from preuve.models.role import Role, RoleOptions

__all__ = [
    "KNOWN_LIMITS",
    "MEMO_SCHEMA",
    "WRITER",
    "WRITER_SYSTEM",
    "WRITER_TASK",
    "MemoOutcome",
    "MemoStatus",
    "rendered_facts",
    "rules_writer",
    "write_memo",
    "writer_request",
]

WRITER_TASK = "memo.writer"
MEMO_LOCALE = Locale.FR  # the default memo language; an English report gets an English memo

KNOWN_LIMITS: tuple[str, ...] = (
    "Une affirmation causale sans chiffre n'est pas vérifiée (par exemple « un free cash-flow "
    "porté par la gestion du besoin en fonds de roulement » citant un fait qui n'en dit rien).",
    "Une citation exacte peut tromper hors de son contexte : ouvrir la page citée pour le voir.",
    "Sujet, période, sens et polarité ne sont vérifiés que lorsque la phrase les dit avec les "
    "mots déclarés (noms et alias des sociétés des faits, années, trimestres, semestres, mots "
    "de hausse ou de baisse, de comparaison, de négation explicite) ; une paraphrase (antonyme, "
    "« sous l'unité »), une variation sans seconde valeur dans les faits, un pronom renvoyant "
    "à une autre société ou une société sans forme juridique absente des faits restent non "
    "vérifiés et sont comptés comme tels sous chaque paragraphe.",
)

MEMO_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "paragraphs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "minLength": 1},
                    "sources": {"type": "array", "items": {"type": "string", "minLength": 1}},
                },
                "required": ["text", "sources"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["paragraphs"],
    "additionalProperties": False,
}

WRITER_SYSTEM = (
    "Tu rédiges en français une note de crédit sur une entreprise à partir des seuls faits "
    "fournis, un par ligne, chacun précédé de son identifiant entre crochets.\n"
    'Réponds uniquement par un objet JSON dont la seule clé, "paragraphs", est une liste '
    "d'objets ; chaque objet a exactement deux clés : \"text\", un paragraphe d'analyse "
    'rédigé, et "sources", la liste des identifiants des faits que ce paragraphe utilise. '
    "Ne recopie pas les intitulés de la demande (Entreprise, Exercices, Faits) comme "
    "paragraphes.\n"
    "Règles :\n"
    "- chaque paragraphe cite dans sources les identifiants des faits qu'il utilise, et "
    "aucun autre identifiant que ceux de la liste ;\n"
    "- chaque nombre est recopié tel qu'il est écrit dans un fait cité par ce paragraphe ; "
    "ne calcule jamais rien (ni écart, ni variation, ni moyenne) ;\n"
    "- une valeur négative garde son signe moins, ou la même proposition dit « négatif », "
    "« perte » ou « déficit » ;\n"
    "- chaque chiffre est dit de la société et de l'exercice de son fait ; un mot de sens "
    "(hausse, baisse, supérieur, inférieur) ou une négation dit ce que disent les faits ;\n"
    "- une citation entre « » est recopiée telle quelle depuis un fait Q-."
)


class MemoStatus(StrEnum):
    """VERIFIED; REFUSED (the model's answers failed the checks); ERROR (no answer arrived:
    the backend failed on every attempt, nothing was checked)."""

    VERIFIED = "VERIFIED"
    REFUSED = "REFUSED"
    ERROR = "ERROR"


@dataclass(frozen=True, slots=True)
class MemoOutcome:
    """The memo of one company: VERIFIED, or REFUSED with the defects of its last version.

    ``paragraphs`` are the accepted ones, or those of the last answer that parsed (shown
    under REFUSED, never as verified); ``first_defects`` are the defects sent back;
    ``claims`` say, per paragraph, which claims were checked for subject, period,
    direction and polarity and which were not.
    """

    status: MemoStatus
    paragraphs: tuple[Paragraph, ...]
    defects: tuple[Defect, ...]
    first_defects: tuple[Defect, ...]
    attempts: int
    claims: tuple[tuple[ClaimRecord, ...], ...] = ()

    @property
    def verified(self) -> bool:
        return self.status is MemoStatus.VERIFIED

    def cited(self) -> tuple[str, ...]:
        """Distinct source ids cited by the paragraphs, in order of first citation."""
        return tuple(dict.fromkeys(s for p in self.paragraphs for s in p.sources))


@dataclass(frozen=True, slots=True)
class WriterInput:
    """What the writer is given: one company's facts, its years (latest first), the memo's
    language."""

    company: str
    facts: tuple[Fact, ...]
    years: tuple[int, ...]
    locale: Locale = Locale.FR


def _render_writer(given: WriterInput) -> tuple[Message, ...]:
    years = ", ".join(map(str, given.years))
    if given.locale is Locale.EN:
        user = f"Company: {given.company}\nYears: {years}\n\nFacts:\n{render_facts(given.facts)}"
        return (Message("system", WRITER_SYSTEM_EN), Message("user", user))
    user = (
        f"Entreprise : {given.company}\nExercices : {years}\n\nFaits :\n{render_facts(given.facts)}"
    )
    return (Message("system", WRITER_SYSTEM), Message("user", user))


def _writer_input(
    company: str, facts: Sequence[Fact], years: Iterable[int], locale: Locale
) -> WriterInput:
    year_list = sorted({int(y) for y in years}, reverse=True)
    return WriterInput(company, tuple(facts), tuple(year_list), locale)


def writer_request(
    company: str, facts: Sequence[Fact], years: Iterable[int], locale: Locale = Locale.FR
) -> Request:
    """The writer's request: the facts as ``[ID] text`` lines, nothing else."""
    return WRITER.request(_writer_input(company, facts, years, locale))


def memo_schema(fact_ids: Sequence[str]) -> dict[str, Any]:
    """:data:`MEMO_SCHEMA` with each source limited to the given fact ids (an ``enum``), so
    a model whose decoding follows the schema cannot invent one."""
    if not fact_ids:
        return MEMO_SCHEMA
    item = MEMO_SCHEMA["properties"]["paragraphs"]["items"]
    sources = {"type": "array", "items": {"type": "string", "enum": list(dict.fromkeys(fact_ids))}}
    items = {**item, "properties": {**item["properties"], "sources": sources}}
    paragraphs = {**MEMO_SCHEMA["properties"]["paragraphs"], "items": items}
    return {**MEMO_SCHEMA, "properties": {"paragraphs": paragraphs}}


# --- The rules implementation: a French template over the facts -------------------------

_RATIO = re.compile(
    r"^(?P<name>.+?) (?P<year>(?:19|20)\d\d) : (?P<value>[^()]+?)"
    r"(?: \((?P<prior>[^()]*)\))? ; formule : (?P<formula>.+)$"
)
_PRIOR = re.compile(r"((?:19|20)\d\d) : ([^;]+)")
_QUOTE = re.compile(r"^« (?P<quote>.+) » \(p\. (?P<page>\d+)\)$")
_RATIO_EN = re.compile(
    r"^(?P<name>.+?) (?P<year>(?:19|20)\d\d): (?P<value>[^()]+?)"
    r"(?: \((?P<prior>[^()]*)\))?; formula: (?P<formula>.+)$"
)
_PRIOR_EN = re.compile(r"((?:19|20)\d\d): ([^;]+)")
_QUOTE_EN = re.compile(r"^“(?P<quote>.+)” \(p\. (?P<page>\d+)\)$")
_WORDS = {
    "fr": (
        "{company} : ratios calculés à partir des états financiers. {body}",
        "Points d'alerte relevés par les règles de contrôle. {body}",
        "Autres faits. {body}",
        "Aucun fait vérifié n'est disponible pour {company}.",
    ),
    "en": (
        "{company}: ratios computed from the financial statements. {body}",
        "Alerts raised by the control rules. {body}",
        "Other facts. {body}",
        "No verified fact is available for {company}.",
    ),
}


def _ratio_sentence_en(text: str) -> str:
    match = _RATIO_EN.match(text)
    if match is None:
        return f"{text.rstrip('.')}."
    sentence = f"{match['name']} ({match['formula']}): {match['value']} in {match['year']}"
    earlier = _PRIOR_EN.findall(match["prior"] or "")
    if earlier:
        sentence += ", against " + ", ".join(f"{v.strip()} in {y}" for y, v in earlier)
    return f"{sentence}."


def _quote_sentence_en(text: str, cues: CueSet | None) -> str:
    match = _QUOTE_EN.match(text)
    if match is None:
        return f"The report states: {text}."
    found = classify_sentence(match["quote"], cues)
    label = CATEGORY_LABELS_EN[found[0]] if found else "Risk signal"
    return f"{label} (p. {match['page']}): “{match['quote']}”."


def _ratio_sentence(text: str) -> str:
    match = _RATIO.match(text)
    if match is None:
        return f"{text.rstrip('.')}."
    sentence = f"{match['name']} ({match['formula']}) : {match['value']} en {match['year']}"
    earlier = _PRIOR.findall(match["prior"] or "")
    if earlier:
        sentence += ", contre " + ", ".join(f"{v.strip()} en {y}" for y, v in earlier)
    return f"{sentence}."


def _quote_sentence(text: str, cues: CueSet | None) -> str:
    match = _QUOTE.match(text)
    if match is None:
        return f"Le rapport indique : {text}."
    found = classify_sentence(match["quote"], cues)
    label = CATEGORY_LABELS[found[0]] if found else "Signal de risque"
    return f"{label} (p. {match['page']}) : « {match['quote']} »."


def _own_text(fact_text: str, company: str) -> str:
    prefix = f"{company} - "
    return fact_text[len(prefix) :] if fact_text.startswith(prefix) else fact_text


def rendered_facts(messages: Sequence[Message]) -> tuple[str, bool, list[Fact]]:
    """The company, whether the memo is in English, and the facts of a writer prompt, read
    back from it as a model sees it (:func:`~preuve.core.facts.parse_facts`)."""
    user = next((m.content for m in messages if m.role == "user"), "")
    english = user.startswith("Company: ")
    first, _, rest = user.partition("\n")
    company = first.removeprefix("Company: " if english else "Entreprise : ")
    _, _, listing = rest.partition("\n\nFacts:\n" if english else "\n\nFaits :\n")
    return company, english, parse_facts(listing, source="the writer prompt")


def rules_writer(request: Request, cues: CueSet | None = None) -> str:
    """The template writer: it copies every number as written in the fact it cites (signs
    included), one paragraph for the ratios, one for the alerts, one per quoted signal. It
    reads the facts from the prompt (:func:`rendered_facts`); a quoted signal is labelled
    with ``cues`` (the bundled risk cues when None)."""
    company, english, given = rendered_facts(request.messages)
    ratios_text, alerts_text, others_text, nothing = _WORDS["en" if english else "fr"]
    ratio_sentence = _ratio_sentence_en if english else _ratio_sentence
    quote_sentence = _quote_sentence_en if english else _quote_sentence
    facts = [(f.id, _own_text(f.text, company)) for f in given]
    ratios = [(i, t) for i, t in facts if i.startswith("R-")]
    alerts = [(i, t) for i, t in facts if i.startswith("A-")]
    quotes = [(i, t) for i, t in facts if i.startswith("Q-")]
    others = [(i, t) for i, t in facts if not i.startswith(("R-", "A-", "Q-"))]
    paragraphs: list[dict[str, Any]] = []
    if ratios:
        body = " ".join(ratio_sentence(t) for _, t in ratios)
        text = ratios_text.format(company=company, body=body)
        paragraphs.append({"text": text, "sources": [i for i, _ in ratios]})
    if alerts:
        body = " ".join(f"{t.rstrip('.')}." for _, t in alerts)
        text = alerts_text.format(body=body)
        paragraphs.append({"text": text, "sources": [i for i, _ in alerts]})
    paragraphs += [{"text": quote_sentence(t, cues), "sources": [i]} for i, t in quotes]
    if others:
        body = " ".join(f"{t.rstrip('.')}." for _, t in others)
        paragraphs.append(
            {"text": others_text.format(body=body), "sources": [i for i, _ in others]}
        )
    if not paragraphs:
        # Nothing to write from: an honest paragraph without source, which the check refuses.
        paragraphs.append({"text": nothing.format(company=company), "sources": []})
    return json.dumps({"paragraphs": paragraphs}, ensure_ascii=False)


# --- The memo check and the loop ----------------------------------------------------------


def _check_writer(given: WriterInput, value: object) -> Checked[tuple[Paragraph, ...]]:
    """The memo check on a parsed answer; a defective memo is kept with its defects (shown
    as refused, never as verified)."""
    try:
        paragraphs = tuple(parse_memo(value))
    except InputError as err:
        return Checked.reject(Defect("schema", err.one_line()))
    found = check_memo(paragraphs, given.facts, locale=given.locale, years=given.years)
    return Checked.partial(paragraphs, tuple(found))


WRITER: Role[WriterInput, tuple[Paragraph, ...]] = Role(
    task=WRITER_TASK,
    render=_render_writer,
    schema=lambda given: memo_schema(tuple(f.id for f in given.facts)),
    answer_schema=lambda _: MEMO_SCHEMA,
    check=_check_writer,
    rules=rules_writer,
    max_new_tokens=2048,
    options=lambda given: RoleOptions(subject=given.company),
)


def write_memo(
    model: Model,
    company: str,
    facts: Sequence[Fact],
    years: Iterable[int],
    locale: Locale = Locale.FR,
) -> MemoOutcome:
    """Ask the writer, check the memo, send the defects back once, then verify or refuse.
    ``locale``: the memo's language (the report's; French by default)."""
    given = _writer_input(company, facts, years, locale)
    result = WRITER.ask(model, given)
    first_defects = result.attempts[0].defects if result.attempts else ()
    defects: tuple[Defect, ...] = ()
    if result.status is LoopStatus.VALID and result.value is not None:
        status, shown = MemoStatus.VERIFIED, result.value
    else:
        refused = MemoStatus.ERROR if result.status is LoopStatus.ERROR else MemoStatus.REFUSED
        status, shown, defects = refused, result.partial or (), result.defects
    return MemoOutcome(
        status,
        shown,
        defects,
        first_defects,
        len(result.attempts),
        _claims(shown, facts, locale),
    )


def _claims(
    paragraphs: Sequence[Paragraph], facts: Sequence[Fact], locale: Locale = MEMO_LOCALE
) -> tuple[tuple[ClaimRecord, ...], ...]:
    reviews = review_claims([(p.text, p.sources) for p in paragraphs], facts, locale=locale)
    return tuple(review.claims for review in reviews)
