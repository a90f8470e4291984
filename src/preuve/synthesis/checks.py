"""Checks in code over a synthesis, and the arithmetic the writer is not allowed to do.

Each check returns :class:`~preuve.core.defects.Defect` values; codes:

- ``no_source``: a paragraph cites no document;
- ``unknown_citation``: a cited id is not in the dossier (``doc-77``);
- ``unread_citation``: a cited document exists but no sub-agent read it (only ok
  findings count: a NOT INVESTIGATED sub-task produced nothing the synthesis may rest on);
- ``incomplete_contradiction``: a listed contradiction has fewer than two values;
- ``missing_rule``: a contradiction is resolved without the number of the rule;
- ``suspicious_arbitration``: the retained sources are neither more reliable (best rank)
  nor more recent (latest date at that rank) than some rejected ones: this catches
  retained and rejected swapped;
- ``arbitration_mismatch``: the ordered rule, applied in code to the values and sources the
  synthesis lists, retains another value (or resolves what the synthesis left unresolved);
- ``wrong_rule``: the cited rule is neither the one that decided in code nor one whose own
  condition holds for the retained value against every rejected one
  (:func:`~preuve.synthesis.ranks.rules_that_hold`);
- ``missing_contradiction``: a contradiction found in code is not listed;
- ``number_not_supported``: a number of a paragraph (or of a listed value) appears in no
  statement citing one of the same documents and in no value computed by code; years are
  allowed when a finding or a document date carries them;
- ``unknown_computation``: the synthesis declares a computed value code did not compute.

Arithmetic: :func:`total_over_periods` and :func:`product` compute in code with a declared
formula. Summing a *stock* across periods (a GPU fleet of 6 in 2026 and 12 in 2027) is a
category error and is refused; summing a *flow* (a yearly cost) is a total.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType

from preuve.core.defects import Defect
from preuve.core.numbers import (
    Locale,
    NumberMention,
    extract_numbers,
    french_number,
    same_dimensions,
)
from preuve.synthesis.contradictions import candidates_of, find_contradictions
from preuve.synthesis.ranks import SourceInfo, arbitrate, rules_that_hold
from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    FindingStatus,
    Plan,
    Statement,
    Synthesis,
    normalize_key,
    values_agree,
)

__all__ = [
    "DossierLimits",
    "QuantityKind",
    "check_arbitrations",
    "check_citations",
    "check_computations",
    "check_missing_contradictions",
    "check_numbers",
    "check_synthesis",
    "dossier_limits",
    "product",
    "read_documents",
    "total_over_periods",
]


def read_documents(findings: Iterable[Finding]) -> frozenset[str]:
    """Documents read by a sub-agent whose finding is ok."""
    return frozenset(
        doc_id for f in findings if f.status is FindingStatus.OK for doc_id in f.docs_read
    )


def _citation_defects(
    ids: Iterable[str],
    known: frozenset[str],
    read: frozenset[str],
    paragraph: int | None = None,
    path: str = "",
) -> list[Defect]:
    defects = []
    for doc_id in dict.fromkeys(ids):
        if doc_id not in known:
            detail = f"{doc_id} is not a document of the dossier: cite only listed ids"
            defects.append(Defect("unknown_citation", detail, paragraph, path))
        elif doc_id not in read:
            detail = f"{doc_id} was read by no sub-agent: nothing in the findings supports it"
            defects.append(Defect("unread_citation", detail, paragraph, path))
    return defects


def check_citations(
    synthesis: Synthesis, known_ids: Iterable[str], read_ids: Iterable[str]
) -> list[Defect]:
    """``no_source``, ``unknown_citation`` and ``unread_citation`` defects."""
    known, read = frozenset(known_ids), frozenset(read_ids)
    defects: list[Defect] = []
    for number, paragraph in enumerate(synthesis.paragraphs, start=1):
        if not paragraph.sources:
            defects.append(Defect("no_source", "the paragraph cites no document", number))
        defects += _citation_defects(paragraph.sources, known, read, paragraph=number)
    for index, contradiction in enumerate(synthesis.contradictions):
        ids = [d for value in contradiction.values for d in value.sources]
        defects += _citation_defects(ids, known, read, path=f"contradictions[{index}]")
    return defects


def _arbitration_defect(
    contradiction: Contradiction, sources: Mapping[str, SourceInfo], path: str
) -> Defect | None:
    if len(contradiction.values) < 2:
        detail = "a contradiction lists at least two values, each with its sources"
        return Defect("incomplete_contradiction", detail, path=path)
    if contradiction.retained is None:
        decided = arbitrate(candidates_of(contradiction.values, sources))
        if decided.retained is None:
            return None
        return Defect("arbitration_mismatch", f"left unresolved, but {decided.reason}", path=path)
    if contradiction.rule is None:
        return Defect(
            "missing_rule", "a resolved contradiction must cite its rule (1-3)", path=path
        )
    retained, *rejected = candidates_of(contradiction.values, sources)
    for other in rejected:
        more_reliable = retained.rank > other.rank
        more_recent = retained.latest is not None and (
            other.latest is None or retained.latest > other.latest
        )
        if not (more_reliable or more_recent):
            detail = (
                f"{contradiction.subject} / {contradiction.attribute}: retained "
                f"{retained.value!r} ({', '.join(retained.doc_ids)}) is neither more reliable "
                f"nor more recent than rejected {other.value!r} ({', '.join(other.doc_ids)}); "
                "retained and rejected may be swapped"
            )
            return Defect("suspicious_arbitration", detail, path=path)
    decided = arbitrate([retained, *rejected])
    if decided.retained is not retained:
        return Defect("arbitration_mismatch", decided.reason, path=path)
    accepted = {decided.rule} | rules_that_hold(retained, rejected)
    if contradiction.rule not in accepted:
        detail = f"rule {contradiction.rule} cited, but {decided.reason}"
        return Defect("wrong_rule", detail, path=path)
    return None


def check_arbitrations(synthesis: Synthesis, sources: Mapping[str, SourceInfo]) -> list[Defect]:
    """``incomplete_contradiction``, ``missing_rule``, ``suspicious_arbitration``,
    ``arbitration_mismatch`` and ``wrong_rule`` defects, at most one per contradiction."""
    defects = [
        _arbitration_defect(c, sources, f"contradictions[{i}]")
        for i, c in enumerate(synthesis.contradictions)
    ]
    return [d for d in defects if d is not None]


def _subjects_agree(a: str, b: str) -> bool:
    words_a, words_b = set(normalize_key(a).split()), set(normalize_key(b).split())
    return bool(words_a and words_b) and (words_a <= words_b or words_b <= words_a)


def _value_listed(value: str, listed: Iterable[str]) -> bool:
    needle = f" {normalize_key(value)} "
    return any(
        values_agree(value, other) or needle in f" {normalize_key(other)} " for other in listed
    )


def check_missing_contradictions(
    synthesis: Synthesis, found: Sequence[Contradiction]
) -> list[Defect]:
    """``missing_contradiction`` for every contradiction found in code that the synthesis
    does not list (same subject, and every value of the code's contradiction listed)."""
    defects = []
    for contradiction in found:
        listed = any(
            _subjects_agree(contradiction.subject, mine.subject)
            and all(
                _value_listed(v.value, [w.value for w in mine.values]) for v in contradiction.values
            )
            for mine in synthesis.contradictions
        )
        if not listed:
            values = "; ".join(
                f"{v.value!r} ({', '.join(v.sources)})" for v in contradiction.values
            )
            detail = (
                f"{contradiction.subject} / {contradiction.attribute}: {values} is a "
                f"contradiction found in code and must be listed; {contradiction.reason}"
            )
            defects.append(Defect("missing_contradiction", detail))
    return defects


def _statement_numbers(statement: Statement, locale: Locale) -> list[NumberMention]:
    # (its context too: a condition of a table row, "at 220 m³/h (night)", is of its passage)
    texts = [statement.subject, statement.text, statement.value, statement.context]
    texts += [s.value for s in statement.sources if s.value is not None]
    return [m for text in texts for m in extract_numbers(text, locale)]


def _supported(
    mention: NumberMention, allowed: Sequence[NumberMention], computed: Sequence[ComputedValue]
) -> bool:
    # By value and by the scale and unit written (k€ is not M€, % is not points).
    return any(
        m.value == mention.value and same_dimensions(mention, m) is None for m in allowed
    ) or any(c.value == mention.value for c in computed)


# "règle 1", "rule 3": the number of an arbitration rule is a name, not a figure.
_RULE_NUMBER = re.compile(r"(?:règle|regle|rule)\s*(?:n[°o]\s*)?$", re.IGNORECASE)


def _names_a_rule(text: str, mention: NumberMention) -> bool:
    return (
        mention.value in {1, 2, 3}
        and not mention.signed
        and mention.unit is None
        and _RULE_NUMBER.search(text[: mention.start]) is not None
    )


def check_numbers(
    synthesis: Synthesis,
    findings: Sequence[Finding],
    computed: Sequence[ComputedValue] = (),
    sources: Mapping[str, SourceInfo] | None = None,
    locale: Locale = Locale.FR,
) -> list[Defect]:
    """``number_not_supported``: every number of a paragraph must appear in a statement
    citing one of the paragraph's documents, or be a value computed by code; the same
    for the values a contradiction lists, with that value's own sources."""
    statements = [s for f in findings if f.status is FindingStatus.OK for s in f.statements]
    years = {m.value for s in statements for m in _statement_numbers(s, locale) if m.is_year}
    years |= {Decimal(i.date.year) for i in (sources or {}).values() if i.date is not None}

    def unsupported(text: str, cited: Iterable[str]) -> list[str]:
        cited_set = frozenset(cited)
        allowed = [
            m
            for s in statements
            if cited_set & set(s.doc_ids)
            for m in _statement_numbers(s, locale)
        ]
        return [
            m.raw
            for m in extract_numbers(text, locale)
            if not (m.is_year and m.value in years)
            and not _names_a_rule(text, m)
            and not _supported(m, allowed, computed)
        ]

    defects = []
    for number, paragraph in enumerate(synthesis.paragraphs, start=1):
        for raw in unsupported(paragraph.text, paragraph.sources):
            detail = (
                f"{raw!r} appears in no finding of the cited documents and was not computed "
                "by code: copy numbers from the findings, never compute them"
            )
            defects.append(Defect("number_not_supported", detail, paragraph=number))
    for index, contradiction in enumerate(synthesis.contradictions):
        for value in contradiction.values:
            for raw in unsupported(value.value, value.sources):
                detail = f"{raw!r} in value {value.value!r} appears in no finding of its sources"
                defects.append(
                    Defect("number_not_supported", detail, path=f"contradictions[{index}]")
                )
    return defects


def check_computations(synthesis: Synthesis, computed: Sequence[ComputedValue]) -> list[Defect]:
    """``unknown_computation``: a declared computed value that code did not compute."""
    return [
        Defect(
            "unknown_computation",
            f"{number.label} = {number.value} ({number.formula}) was not computed by code",
            path=f"numbers[{index}]",
        )
        for index, number in enumerate(synthesis.numbers)
        if not any(c.label == number.label and c.value == number.value for c in computed)
    ]


def check_synthesis(
    synthesis: Synthesis,
    findings: Sequence[Finding],
    sources: Mapping[str, SourceInfo],
    computed: Sequence[ComputedValue] = (),
    locale: Locale = Locale.FR,
    *,
    found: Sequence[Contradiction] | None = None,
) -> tuple[Defect, ...]:
    """Every check above; ``sources`` is the dossier's metadata (doc id → date, type).
    ``found`` are the contradictions the synthesis must list (default: every one code finds
    in ``findings``; a part of a synthesis written in parts lists its own share)."""
    if found is None:
        found = find_contradictions(findings, sources, locale)
    return (
        *check_citations(synthesis, sources.keys(), read_documents(findings)),
        *check_arbitrations(synthesis, sources),
        *check_missing_contradictions(synthesis, found),
        *check_numbers(synthesis, findings, computed, sources, locale),
        *check_computations(synthesis, computed),
    )


class QuantityKind(StrEnum):
    """``stock``: a level at a date (a fleet, a headcount); ``flow``: an amount per period
    (a yearly cost). Only flows add up across periods."""

    STOCK = "stock"
    FLOW = "flow"


def total_over_periods(
    label: str,
    parts: Sequence[tuple[str, Decimal]],
    unit: str,
    kind: QuantityKind,
    sources: tuple[str, ...] = (),
) -> ComputedValue:
    """The total of a flow over periods, e.g. yearly costs. A stock is refused: a fleet of
    6 GPU in 2026 and 12 in 2027 is 12 GPU at the end of 2027, never 18."""
    if kind is QuantityKind.STOCK:
        periods = ", ".join(f"{french_number(v, trim=False)} {unit} ({p})" for p, v in parts)
        raise ValueError(
            f"{label}: refusing to add a stock across periods ({periods}): a level at a "
            "date is not summed; report each period's value"
        )
    total = sum((value for _, value in parts), Decimal(0))
    formula = " + ".join(f"{french_number(v, trim=False)} {unit} ({p})" for p, v in parts)
    return ComputedValue(label, total, unit, formula, sources)


def product(
    label: str,
    factors: Sequence[tuple[Decimal, str]],
    unit: str,
    sources: tuple[str, ...] = (),
) -> ComputedValue:
    """A product of factors, each with its unit, e.g. 12 GPU x 2 300 €/mois x 12 mois."""
    if not factors:
        raise ValueError(f"{label}: a product needs at least one factor")
    value = Decimal(1)
    for factor, _ in factors:
        value *= factor
    formula = " x ".join(f"{french_number(f, trim=False)} {u}".strip() for f, u in factors)
    return ComputedValue(label, value, unit, formula, sources)


@dataclass(frozen=True, slots=True)
class DossierLimits:
    """What the synthesis does not rest on, shown under "Limits of the dossier"."""

    uncovered: tuple[str, ...]
    read_but_not_used: tuple[str, ...]
    not_investigated: tuple[tuple[str, str], ...]
    merged: tuple[tuple[str, str, str], ...]
    coverage: tuple[tuple[str, str], ...] = ()
    unknown_types: tuple[tuple[str, str], ...] = ()
    # (sub-task, subject, attribute, value, documents): statements refused, their quote failed
    refused: tuple[tuple[str, str, str, str, str], ...] = ()

    def reason(self, doc_id: str) -> str:
        return next((r for d, r in self.coverage if d == doc_id), "")

    def lines(self, language: str = "en") -> tuple[str, ...]:
        """One line per limit, for a report (``"en"``) or the evidence dossier (``"fr"``)."""
        say = _LIMIT_WORDING[language]
        out = [
            say["uncovered"].format(doc=d)
            + (say["reason"].format(reason=self.reason(d)) if self.reason(d) else "")
            for d in self.uncovered
        ]
        out += [
            say["coverage"].format(doc=d, reason=r)
            for d, r in self.coverage
            if d not in self.uncovered
        ]
        out += [say["unknown_type"].format(doc=d, type=t) for d, t in self.unknown_types]
        out += [say["unused"].format(doc=d) for d in self.read_but_not_used]
        out += [say["not_investigated"].format(task=t, error=e) for t, e in self.not_investigated]
        out += [say["merged"].format(task=t, subject=s, attribute=a) for t, s, a in self.merged]
        out += [
            say["refused"].format(task=t, subject=s, attribute=a, value=v, docs=d)
            for t, s, a, v, d in self.refused
        ]
        return tuple(out)


# How each kind of limit is said, per language: one list of limits, two wordings.
_LIMIT_WORDING: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "en": MappingProxyType(
            {
                "uncovered": "- {doc}: covered by no sub-task (never read)",
                "reason": ": {reason}",
                "coverage": "- {doc}: {reason}",
                "unknown_type": (
                    "- {doc}: source type {type!r} is in no rank table (ranked as unknown)"
                ),
                "unused": "- {doc}: read but used by no statement",
                "not_investigated": "- sub-task {task}: NOT INVESTIGATED ({error})",
                "merged": (
                    "- sub-task {task}: one statement on {subject} / {attribute} merges sources"
                    " with different values"
                ),
                "refused": (
                    "- sub-task {task}: statement {subject} / {attribute} = {value!r} ({docs})"
                    " refused: its quote failed the check (dropped, not used)"
                ),
            }
        ),
        "fr": MappingProxyType(
            {
                "uncovered": "- {doc} : couvert par aucune sous-tâche (jamais lu)",
                "reason": " : {reason}",
                "coverage": "- {doc} : {reason}",
                "unknown_type": (
                    "- {doc} : type de source {type!r} absent de la table des rangs (rang inconnu)"
                ),
                "unused": "- {doc} : lu mais utilisé par aucun constat",
                "not_investigated": "- sous-tâche {task} : NOT INVESTIGATED ({error})",
                "merged": (
                    "- sous-tâche {task} : un constat sur {subject} / {attribute} fusionne des"
                    " sources aux valeurs différentes (la contradiction est relevée par le code)"
                ),
                "refused": (
                    "- sous-tâche {task} : constat {subject} / {attribute} = {value!r} ({docs})"
                    " refusé : sa citation n'a pas passé la vérification (écarté, non utilisé)"
                ),
            }
        ),
    }
)


def dossier_limits(
    plan: Plan, findings: Sequence[Finding], doc_ids: Iterable[str]
) -> DossierLimits:
    """Uncovered documents, documents read but cited by no statement of any finding,
    NOT INVESTIGATED sub-tasks, merged statements and refused statements."""
    used = frozenset(d for f in findings for d in f.cited)
    read = [d for f in findings for d in f.docs_read]
    return DossierLimits(
        uncovered=plan.uncovered(doc_ids),
        read_but_not_used=tuple(dict.fromkeys(d for d in read if d not in used)),
        not_investigated=tuple(
            (f.subtask_id, f.error) for f in findings if f.status is FindingStatus.NOT_INVESTIGATED
        ),
        merged=tuple(
            (f.subtask_id, s.subject, s.attribute) for f in findings for s in f.merged_statements()
        ),
        coverage=plan.coverage,
        refused=tuple(
            (
                f.subtask_id,
                r.statement.subject,
                r.statement.attribute,
                r.statement.value,
                ", ".join(dict.fromkeys(r.statement.doc_ids)),
            )
            for f in findings
            for r in f.refused
        ),
    )
