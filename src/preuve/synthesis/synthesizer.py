"""The synthesizer role: write the synthesis from the evidence dossier, then check it in code.

Both implementations answer :data:`~preuve.synthesis.types.SYNTHESIS_SCHEMA` and see only
the evidence dossier, never a document:

- *rules* (:func:`rules_synthesis`): a French template. One paragraph per investigated
  sub-task (each value with its sources in brackets; a value in contradiction is given once,
  retained against rejected, with the rule), one paragraph of the values computed by code,
  and the contradictions found in code with retained and rejected values, sources and
  rule. The limits of the dossier are rendered by code with the run
  (:func:`synthesis_markdown`), since a limit cites documents nobody read.
- *LLM*: the definition of a contradiction and the ordered rule are in its instructions.

Checked in code (:func:`check_candidate`): :func:`~preuve.synthesis.checks.check_synthesis`
(citations, arbitrations, missing contradictions, unsupported numbers, computations), plus
an empty synthesis, and document ids written in a paragraph's text that its sources do not
list or that the dossier does not hold (``doc-99``), and links that no finding gives (a
document may have told the model to print one). One re-ask with the defects, then
REFUSED with them. The ``engine`` of the synthesis is set by code, not by the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from preuve.core.defects import Defect
from preuve.core.links import unsupported_links
from preuve.core.numbers import french_number
from preuve.io.records import dump_records
from preuve.models.base import Completion, Message, Model, Request
from preuve.models.loop import Checked, LoopResult
from preuve.models.role import Role, checked_answer
from preuve.synthesis.checks import check_synthesis
from preuve.synthesis.evidence_dossier import (
    RULE_TEXT,
    EvidenceDossier,
)
from preuve.synthesis.evidence_reading import DocumentSeen, ReadSubtask, read_evidence
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import group_key, value_key
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.types import (
    SYNTHESIS_SCHEMA,
    ComputedValue,
    Contradiction,
    Finding,
    Synthesis,
    synthesis_from_dict,
)

__all__ = [
    "SYNTHESIZER",
    "SYNTHESIZER_TASK",
    "SynthesisContext",
    "SynthesizerInput",
    "check_answer",
    "check_candidate",
    "last_candidate",
    "rules_synthesis",
    "synthesis_markdown",
    "synthesizer_request",
    "write_synthesis",
]

SYNTHESIZER_TASK = "synthesis.synthesizer"
_ID_SHAPE = re.compile(r"^(?P<prefix>[A-Za-z]+[-_])\d+$")


@dataclass(frozen=True, slots=True)
class SynthesisContext:
    """What the checks compare a synthesis with: findings, dossier metadata, computations."""

    findings: tuple[Finding, ...]
    sources: Mapping[str, SourceInfo]
    computed: tuple[ComputedValue, ...] = ()
    # the contradictions it must list; None: every one code finds in the findings
    found: tuple[Contradiction, ...] | None = None

    @classmethod
    def of(cls, evidence: EvidenceDossier) -> SynthesisContext:
        return cls(evidence.findings, evidence.sources, evidence.computed)


def _ids_in_text(text: str, known: Iterable[str]) -> tuple[list[str], list[str]]:
    """(known ids written in ``text``, id-shaped tokens that are no document)."""
    known_set = set(known)
    written = [d for d in known_set if re.search(rf"(?<![\w-]){re.escape(d)}(?![\w-])", text)]
    prefixes = {m.group("prefix") for d in known_set if (m := _ID_SHAPE.match(d))}
    unknown = [
        token
        for prefix in sorted(prefixes)
        for token in re.findall(rf"(?<![\w-]){re.escape(prefix)}\d+(?![\w-])", text)
        if token not in known_set
    ]
    return sorted(written), list(dict.fromkeys(unknown))


def _text_citation_defects(synthesis: Synthesis, known: Iterable[str]) -> list[Defect]:
    known_ids = tuple(known)
    defects = []
    for number, paragraph in enumerate(synthesis.paragraphs, start=1):
        written, unknown = _ids_in_text(paragraph.text, known_ids)
        for doc_id in unknown:
            detail = f"{doc_id} is written in the text but is not a document of the dossier"
            defects.append(Defect("unknown_citation", detail, paragraph=number))
        for doc_id in written:
            if doc_id not in paragraph.sources:
                detail = f"{doc_id} is written in the text but missing from the sources"
                defects.append(Defect("citation_not_in_sources", detail, paragraph=number))
    return defects


def _link_defects(synthesis: Synthesis, findings: Iterable[Finding]) -> list[Defect]:
    """A link the synthesis writes must come from a finding: the synthesizer never sees a
    document, so any other link was invented or planted."""
    said = [f"{s.value}\n{s.text}" for finding in findings for s in finding.statements]
    return [
        Defect("link_not_in_findings", f"{link} is in no finding; remove it", paragraph=number)
        for number, paragraph in enumerate(synthesis.paragraphs, start=1)
        for link in unsupported_links(paragraph.text, said)
    ]


def check_candidate(synthesis: Synthesis, context: SynthesisContext) -> tuple[Defect, ...]:
    """Every check in code on a synthesis (see the module docstring)."""
    empty = (
        [Defect("empty_synthesis", "write at least one paragraph, with its sources")]
        if not synthesis.paragraphs
        else []
    )
    return (
        *empty,
        *check_synthesis(
            synthesis, context.findings, context.sources, context.computed, found=context.found
        ),
        *_text_citation_defects(synthesis, context.sources.keys()),
        *_link_defects(synthesis, context.findings),
    )


def _check_synthesis(value: Any, context: SynthesisContext, engine: str) -> Checked[Synthesis]:
    """A parsed answer labelled with ``engine`` and checked; a defective one is kept with
    its defects (shown as refused, never as valid)."""
    synthesis = replace(synthesis_from_dict(value), engine=engine)
    return Checked.partial(synthesis, tuple(check_candidate(synthesis, context)))


def check_answer(
    completion: Completion, context: SynthesisContext, engine: str
) -> Checked[Synthesis]:
    """Parse a synthesizer answer, label it with ``engine``, and check it."""
    return checked_answer(
        completion, SYNTHESIS_SCHEMA, lambda v: _check_synthesis(v, context, engine)
    )


def last_candidate(result: LoopResult[Synthesis], engine: str) -> Synthesis | None:
    """The accepted synthesis, or the last refused answer that parses (shown as refused)."""
    kept = result.partial
    return None if kept is None else replace(kept, engine=engine)


# --- rules: the French template ------------------------------------------------------------


def _cite(ids: Sequence[str]) -> str:
    return f"[{', '.join(ids)}]"


# The template's words, in the language of the question (French or English).
_PHRASES: Mapping[str, Mapping[str, str]] = {
    "fr": {
        "unresolved": "valeurs contradictoires non tranchées, {values} ; le comité doit trancher",
        "retained": "{value}, retenu selon {rule} contre {rejected}",
        "rule1": "la première règle", "rule2": "la deuxième règle", "rule3": "la troisième règle",
        "computed": "Valeurs calculées par le code : {values}",
        "undated": "non daté",
        "reason_unresolved": "non tranchée : les valeurs ont la même fiabilité et aucune source "
        "n'est seule la plus récente ; le comité doit trancher",
        "reason": "règle {n} : {text} ; retenu « {value} » ({kept}) contre {rejected}",
        "rule_text1": RULE_TEXT[1], "rule_text2": RULE_TEXT[2], "rule_text3": RULE_TEXT[3],
    },
    "en": {
        "unresolved": "values in contradiction, unresolved, {values}; the committee must decide",
        "retained": "{value}, retained by {rule} over {rejected}",
        "rule1": "the first rule", "rule2": "the second rule", "rule3": "the third rule",
        "computed": "Values computed by code: {values}",
        "undated": "undated",
        "reason_unresolved": "unresolved: the values are equally reliable and no source alone "
        "is the most recent; the committee must decide",
        "reason": "rule {n}: {text}; retained '{value}' ({kept}) over {rejected}",
        "rule_text1": "an internal measurement under the common protocol beats vendor data or "
        "a blog",
        "rule_text2": "an official announcement or a published fix beats a third-party article",
        "rule_text3": "at equal reliability, the most recent document wins",
    },
}  # fmt: skip


def _phrase(lang: str, key: str) -> str:
    return _PHRASES.get(lang, _PHRASES["en"])[key]


def _contradiction_item(c: Contradiction, lang: str = "fr") -> str:
    # The rule is named in words: a digit in a paragraph must come from a finding.
    head = f"{_head(c.subject, c.attribute, c.context)} :"
    separator = " ; " if lang == "fr" else "; "
    if c.retained is None or c.rule is None:
        values = " / ".join(f"{v.value} {_cite(v.sources)}" for v in c.rejected)
        return f"{head} {_phrase(lang, 'unresolved').format(values=values)}"
    rejected = separator.join(f"{v.value} {_cite(v.sources)}" for v in c.rejected)
    kept = f"{c.retained.value} {_cite(c.retained.sources)}"
    rule = _phrase(lang, f"rule{c.rule}") if c.rule in {1, 2, 3} else "rule"
    return f"{head} {_phrase(lang, 'retained').format(value=kept, rule=rule, rejected=rejected)}"


def _head(subject: str, attribute: str, context: str) -> str:
    return f"{subject}, {attribute}" + (f" ({context})" if context else "")


def _lead_in(question: str) -> str:
    """A sub-task's question as a paragraph's lead-in, without its words that hold a digit:
    a number of the committee's question ("24 robots", "SCRIPT 2023011") is no finding, and
    the number check refuses every number that no cited finding holds."""
    words = [w for w in question.split() if not any(c.isdigit() for c in w)]
    return " ".join(words).strip(" ,;:")


def _subtask_paragraph(
    task: ReadSubtask,
    contradictions: Sequence[Contradiction],
    done: set[Hashable],
    lang: str = "fr",
) -> dict[str, Any] | None:
    items: list[str] = []
    cited: list[str] = []
    by_key = {
        group_key(c.subject, c.attribute, c.values[0].value, c.context): c for c in contradictions
    }
    for statement in task.statements:
        key = group_key(statement.subject, statement.attribute, statement.value, statement.context)
        contradiction = by_key.get(key)
        if contradiction is not None:
            if key in done:
                continue
            done.add(key)
            items.append(_contradiction_item(contradiction, lang))
            cited += [d for v in contradiction.values for d in v.sources]
            continue
        seen = (*key, value_key(statement.value))
        if seen in done:
            continue
        done.add(seen)
        ids = list(statement.sources)
        head = _head(statement.subject, statement.attribute, statement.context)
        items.append(f"{head} : {statement.value} {_cite(ids)}")
        cited += ids
    if not items:
        return None
    text = f"{_lead_in(task.question)}. " + (" ; " if lang == "fr" else "; ").join(items) + "."
    return {"text": text, "sources": list(dict.fromkeys(cited))}


def _describe(ids: Sequence[str], documents: Mapping[str, DocumentSeen], lang: str = "fr") -> str:
    parts = []
    for doc_id in ids:
        seen = documents.get(doc_id, DocumentSeen(None, SourceType.UNKNOWN.value))
        parts.append(f"{doc_id}, {seen.source_type}, {seen.date or _phrase(lang, 'undated')}")
    return "; ".join(parts)


def _reason(c: Contradiction, documents: Mapping[str, DocumentSeen], lang: str) -> str:
    if c.retained is None or c.rule is None:
        return _phrase(lang, "reason_unresolved")
    quote = ("« ", " »") if lang == "fr" else ("'", "'")
    rejected = (" ; " if lang == "fr" else "; ").join(
        f"{quote[0]}{v.value}{quote[1]} ({_describe(v.sources, documents, lang)})"
        for v in c.rejected
    )
    return _phrase(lang, "reason").format(
        n=c.rule,
        text=_phrase(lang, f"rule_text{c.rule}"),
        value=c.retained.value,
        kept=_describe(c.retained.sources, documents, lang),
        rejected=rejected,
    )


def rules_synthesis(request: Request) -> str:
    """The rules synthesizer (a rules handler): the evidence dossier as the prompt renders
    it, read back (:func:`~preuve.synthesis.evidence_reading.read_evidence`), in; a JSON
    synthesis out (see the module docstring)."""
    user = next((m.content for m in request.messages if m.role == "user"), "")
    evidence = read_evidence(user)
    contradictions, computed = evidence.contradictions, evidence.computed
    lang = default_lexicon().language(evidence.question)
    done: set[Hashable] = set()
    paragraphs = [
        p
        for task in evidence.subtasks
        if task.investigated
        and (p := _subtask_paragraph(task, contradictions, done, lang)) is not None
    ]
    if computed:
        # computed values are written with space-grouped digits in both languages: the
        # number check reads them back unambiguously
        values = " ; ".join(f"{c.label} : {french_number(c.value)} {c.unit}" for c in computed)
        sources = list(dict.fromkeys(d for c in computed for d in c.sources))
        text = _phrase(lang, "computed").format(values=values)
        paragraphs.append({"text": f"{text} {_cite(sources)}.", "sources": sources})
    listed = [replace(c, reason=_reason(c, evidence.documents, lang)) for c in contradictions]
    data = {
        "engine": "rules",
        "paragraphs": paragraphs,
        "contradictions": dump_records(listed, Contradiction),
        "numbers": dump_records(computed, ComputedValue),
    }
    return json.dumps(data, ensure_ascii=False)


# --- the request, the loop, the report -----------------------------------------------------

_SYSTEM = """\
You write the synthesis for an architecture committee, in the language of the question,
from the evidence dossier only (you never see the documents).
A contradiction is two different values for the same quantity or status of the same product
(latency, throughput, licence, state of a vulnerability, end of support or longevity,
price), even across sub-tasks and even when measurement conditions explain the gap. List
every contradiction, with the retained value and the rejected ones, each with its sources.
Resolve each one with the ordered rule, and give the number of the rule that decided:
1. an internal measurement under the common protocol beats vendor data or a blog;
2. an official announcement or a published fix beats a third-party article;
3. at equal reliability, the most recent document wins.
If no rule decides, leave it unresolved: "retained": null, "rule": null, every value rejected.
Every paragraph lists in "sources" the ids of the documents it rests on; cite only ids of the
dossier's findings. Copy every number from the findings or from the values computed by code:
never compute anything yourself (do not add up yearly fleets, do not multiply prices).
Answer with one JSON object only, with two keys:
- "paragraphs": a list of objects with the keys "text" (the paragraph, your own sentences)
  and "sources" (a list of the document ids it rests on, copied from the dossier);
- "contradictions": a list of objects with the keys "subject" and "attribute" (as the
  dossier names them), "retained" (an object with the keys "value" and "sources", or null
  when no rule decides), "rejected" (a list of such objects), "rule" (the number of the
  rule that decided, or null) and "reason" (one sentence saying why)."""


@dataclass(frozen=True, slots=True)
class SynthesizerInput:
    """The synthesizer's input: the evidence dossier, and the engine its output is
    labelled with (set by code, never by the model). A part of a dossier written in parts
    (:mod:`preuve.synthesis.writing`) is checked against ``context``, the whole dossier's,
    with the contradictions of that part to list."""

    evidence: EvidenceDossier
    engine: str = "rules"
    context: SynthesisContext | None = None

    @property
    def checked_against(self) -> SynthesisContext:
        return self.context if self.context is not None else SynthesisContext.of(self.evidence)


SYNTHESIZER: Role[SynthesizerInput, Synthesis] = Role(
    task=SYNTHESIZER_TASK,
    render=lambda g: (Message("system", _SYSTEM), Message("user", g.evidence.render())),
    schema=lambda _: SYNTHESIS_SCHEMA,
    check=lambda g, v: _check_synthesis(v, g.checked_against, g.engine),
    rules=rules_synthesis,
    max_new_tokens=2048,
)


def synthesizer_request(evidence: EvidenceDossier) -> Request:
    """The synthesizer's request: the rendered dossier in the messages (no document text,
    no payload: the rules synthesizer reads the same messages)."""
    return SYNTHESIZER.request(SynthesizerInput(evidence))


def write_synthesis(evidence: EvidenceDossier, model: Model, engine: str) -> LoopResult[Synthesis]:
    """Ask the synthesizer, check in code, re-ask once with the defects, accept or refuse."""
    return SYNTHESIZER.ask(model, SynthesizerInput(evidence, engine))


def _table_cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def synthesis_markdown(
    question: str,
    synthesis: Synthesis | None,
    *,
    status: str,
    engine: str,
    limits: Sequence[str],
    defects: Sequence[Defect] = (),
) -> str:
    """The synthesis as Markdown: status and engine first, paragraphs with their sources,
    the contradictions table, computed values, limits of the dossier, and defects. A
    refused synthesis is not shown as true: only its defects are."""
    title = question.strip().splitlines()[0].lstrip("# ").strip() if question.strip() else ""
    out = [f"# Synthèse — {title}", "", f"engine: {engine} · statut : {status}", ""]
    if synthesis is not None and status == "VALID":
        out += ["## Synthèse", ""]
        for paragraph in synthesis.paragraphs:
            out += [f"{paragraph.text} (sources : {', '.join(paragraph.sources)})", ""]
        out += ["## Contradictions", ""]
        if synthesis.contradictions:
            out += ["| sujet | attribut | retenu | rejeté | règle |", "|---|---|---|---|---|"]
            for c in synthesis.contradictions:
                kept = (
                    f"{c.retained.value} ({', '.join(c.retained.sources)})" if c.retained else "—"
                )
                dropped = " ; ".join(f"{v.value} ({', '.join(v.sources)})" for v in c.rejected)
                cells = (c.subject, c.attribute, kept, dropped, str(c.rule or "non tranchée"))
                out.append("| " + " | ".join(_table_cell(x) for x in cells) + " |")
            out += [""] + [
                f"- {c.subject} / {c.attribute} : {c.reason}" for c in synthesis.contradictions
            ]
        else:
            out.append("Aucune contradiction.")
        out.append("")
        if synthesis.numbers:
            out += ["## Valeurs calculées par le code", ""]
            out += [
                f"- {n.label} = {french_number(n.value)} {n.unit} ({n.formula} ; sources : "
                f"{', '.join(n.sources)})"
                for n in synthesis.numbers
            ]
            out.append("")
    elif status != "VALID":
        out += [
            "La synthèse a été refusée par les vérifications du code ; elle n'est pas présentée.",
            "",
        ]
    out += ["## Limites du dossier", "", *(limits or ["- aucune"]), ""]
    if defects:
        out += ["## Défauts", "", *(f"- {d.render()}" for d in defects), ""]
    return "\n".join(out)
