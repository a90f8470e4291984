"""The evidence dossier: everything the synthesizer may rest on, built in code (no model).

Under each sub-task: each statement with the date and source type of each of its sources
(and the value read in a source when it differs: a merged statement), the NOT INVESTIGATED
line of a failed sub-task with its error, the gaps, the documents read but not used. Then
the contradictions found in code with their arbitration (rule number), the values computed
by code (the writer copies them, never computes), and the limits of the dossier.

Both synthesizers see :meth:`EvidenceDossier.render`, never a document's text: a model
reads it, the rules synthesizer parses it back (:mod:`preuve.synthesis.evidence_reading`),
so it holds every field the template uses (a contradiction's context, a computed value's
exact digits). The rendering is in French, the language of the bundled dossier and of the
synthesis template; its fields are ``|`` cells (:mod:`preuve.core.cells`).

Computed values come from :mod:`preuve.synthesis.computations` (totals of counted units at
an amount per unit and period, yearly equivalents, gaps of contradictions, growth between
periods), each with its formula and its inputs' documents; a fleet is never summed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from types import MappingProxyType

from preuve.core.cells import cell, items, row
from preuve.core.numbers import french_number
from preuve.synthesis.checks import DossierLimits, dossier_limits
from preuve.synthesis.computations import compute_values
from preuve.synthesis.contradictions import find_contradictions
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.ranks import SourceInfo, SourceType
from preuve.synthesis.types import (
    ComputedValue,
    Contradiction,
    Finding,
    FindingStatus,
    Plan,
    Statement,
    is_merged,
    values_agree,
)

__all__ = [
    "COMPUTED_HEAD",
    "CONTRADICTIONS_HEAD",
    "CONTRADICTION_COLUMNS",
    "GAPS_HEAD",
    "LIMITS_HEAD",
    "MERGED",
    "NOT_INVESTIGATED",
    "QUESTION_HEAD",
    "REJECTED",
    "RETAINED",
    "RULE_TEXT",
    "STATEMENT_COLUMNS",
    "SUBTASK_HEAD",
    "UNRESOLVED",
    "EvidenceDossier",
    "build_evidence_dossier",
    "compute_values",
    "describe_source",
    "exact_number",
    "limit_lines",
    "read_number",
]

RULE_TEXT: Mapping[int, str] = MappingProxyType(
    {
        1: "une mesure interne selon le protocole commun l'emporte sur les données d'un "
        "éditeur ou d'un blog",
        2: "une annonce officielle ou un correctif publié l'emporte sur un article tiers",
        3: "à fiabilité égale, le document le plus récent l'emporte",
    }
)


# The rendering's fixed lines, which the rules synthesizer reads back.
QUESTION_HEAD = "Question du comité :"
SUBTASK_HEAD = "SOUS-TÂCHE "
NOT_INVESTIGATED = "NOT INVESTIGATED : "
STATEMENT_COLUMNS = "  Constats (sujet | attribut | contexte | valeur | phrase | sources) :"
GAPS_HEAD = "  Lacunes :"
MERGED = "[FUSION : les sources donnent des valeurs différentes]"
CONTRADICTIONS_HEAD = "CONTRADICTIONS TROUVÉES PAR LE CODE (règle ordonnée)"
CONTRADICTION_COLUMNS = (
    "  (sujet | attribut | contexte | règle qui tranche ; puis chaque valeur : "
    "retenu ou rejeté | valeur | sources)"
)
UNRESOLVED = "NON TRANCHÉE"
RETAINED, REJECTED = "retenu", "rejeté"
COMPUTED_HEAD = (
    "VALEURS CALCULÉES PAR LE CODE (à reprendre telles quelles ; "
    "libellé | valeur | unité | formule | sources)"
)
LIMITS_HEAD = "LIMITES DU DOSSIER"


def exact_number(value: Decimal) -> str:
    """``value`` written the French way with every digit it has (``100,00``, not ``100``):
    :func:`read_number` gives back the same ``Decimal``; a value whose exponent the French
    form would lose (``1E+2``) is written as Python does."""
    written = french_number(value, trim=False)
    read = read_number(written)
    return written if read is not None and read.as_tuple() == value.as_tuple() else str(value)


def read_number(text: str) -> Decimal | None:
    """The ``Decimal`` :func:`exact_number` wrote (None if ``text`` is no number)."""
    try:
        return Decimal(text.replace(" ", "").replace(",", "."))
    except InvalidOperation:
        return None


def describe_source(doc_id: str, sources: Mapping[str, SourceInfo]) -> str:
    """``doc-06 (2026-07-09, internal benchmark, rang 3)``."""
    info = sources.get(doc_id) or SourceInfo(doc_id, None, SourceType.UNKNOWN)
    day = info.date.isoformat() if info.date else "non daté"
    return f"{doc_id} ({day}, {info.source_type.value}, rang {info.rank})"


@dataclass(frozen=True, slots=True)
class EvidenceDossier:
    """What the synthesizer is given (see the module docstring)."""

    question: str
    plan: Plan
    findings: tuple[Finding, ...]
    sources: Mapping[str, SourceInfo]
    contradictions: tuple[Contradiction, ...]
    computed: tuple[ComputedValue, ...]
    limits: DossierLimits

    def render(self) -> str:
        """The dossier as text: what a model is given, and all the rules synthesizer reads
        (:func:`~preuve.synthesis.evidence_reading.read_evidence` parses it back). Every
        field of a finding, a contradiction or a computed value is a cell of a ``|`` row
        (:mod:`preuve.core.cells`), so that it reads back exactly."""
        lines = [
            "DOSSIER DE PREUVES (construit par le code ; les documents ne sont pas joints)",
            "",
            QUESTION_HEAD,
            self.question.strip(),
        ]
        by_id = {f.subtask_id: f for f in self.findings}
        for task in self.plan.subtasks:
            lines += ["", f"{SUBTASK_HEAD}{row((cell(task.id), cell(task.question)))}"]
            lines += self._finding_lines(by_id.get(task.id))
        lines += ["", CONTRADICTIONS_HEAD]
        lines += [f"  règle {n} : {text}" for n, text in RULE_TEXT.items()]
        lines += [CONTRADICTION_COLUMNS] if self.contradictions else []
        lines += [line for c in self.contradictions for line in self._contradiction_lines(c)] or [
            "- aucune"
        ]
        lines += ["", COMPUTED_HEAD]
        lines += [
            "- "
            + row(
                (
                    cell(c.label),
                    exact_number(c.value),
                    cell(c.unit),
                    cell(c.formula),
                    items(cell(d) for d in c.sources),
                )
            )
            for c in self.computed
        ] or ["- aucune"]
        lines += ["", LIMITS_HEAD, *(limit_lines(self.limits) or ["- aucune"])]
        return "\n".join(lines) + "\n"

    def _finding_lines(self, finding: Finding | None) -> list[str]:
        if finding is None:
            return [f"  {NOT_INVESTIGATED}aucun résultat pour cette sous-tâche"]
        if finding.status is FindingStatus.NOT_INVESTIGATED:
            return [f"  {NOT_INVESTIGATED}{cell(finding.error)}"]
        lines = [f"  Documents lus : {', '.join(finding.docs_read) or 'aucun'}", STATEMENT_COLUMNS]
        lines += [self._statement_line(s) for s in finding.statements] or ["  - aucun"]
        lines += [GAPS_HEAD, *(f"  - {cell(g)}" for g in finding.gaps)] if finding.gaps else []
        unused = finding.read_but_not_used
        lines += [f"  Lus mais non utilisés : {', '.join(unused)}"] if unused else []
        return lines

    def _described(self, doc_id: str, read: str | None = None) -> str:
        shown = f", valeur lue : « {cell(read)} »" if read is not None else ""
        return cell(describe_source(doc_id, self.sources)) + shown

    def _statement_line(self, statement: Statement) -> str:
        sources = items(
            self._described(doc_id, None if values_agree(value, statement.value) else value)
            for doc_id, value in statement.values_by_source()
        )
        merged = [MERGED] if is_merged(statement) else []
        fields = (statement.subject, statement.attribute, statement.context, statement.value)
        text = f"« {cell(statement.text)} »"
        return "  - " + row((*(cell(f) for f in fields), text, sources, *merged))

    def _contradiction_lines(self, c: Contradiction) -> list[str]:
        rule = f"règle {c.rule}" if c.rule is not None else UNRESOLVED
        head = "- " + row((cell(c.subject), cell(c.attribute), cell(c.context), rule))

        def side(word: str, value: str, ids: Sequence[str]) -> str:
            return "  - " + row((word, cell(value), items(self._described(d) for d in ids)))

        kept = [side(RETAINED, c.retained.value, c.retained.sources)] if c.retained else []
        return [head, *kept, *(side(REJECTED, v.value, v.sources) for v in c.rejected)]


def limit_lines(limits: DossierLimits) -> list[str]:
    """The limits of the dossier, one French line each."""
    return list(limits.lines("fr"))


def build_evidence_dossier(
    question: str,
    plan: Plan,
    findings: Sequence[Finding],
    sources: Mapping[str, SourceInfo],
) -> EvidenceDossier:
    """Find the contradictions, compute the values and the limits; assemble the dossier."""
    contradictions = find_contradictions(findings, sources)
    return EvidenceDossier(
        question=question,
        plan=plan,
        findings=tuple(findings),
        sources=MappingProxyType(dict(sources)),
        contradictions=contradictions,
        computed=compute_values(findings, contradictions, default_lexicon().language(question)),
        limits=dossier_limits(plan, findings, sources.keys()),
    )
