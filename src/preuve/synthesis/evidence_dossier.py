"""The evidence dossier: everything the synthesizer may rest on, built in code (no model).

Under each sub-task: each statement with the date and source type of each of its sources
(and the value read in a source when it differs: a merged statement), the NOT INVESTIGATED
line of a failed sub-task with its error, the gaps, the documents read but not used. Then
the contradictions found in code with their arbitration (rule number), the values computed
by code (the writer copies them, never computes), and the limits of the dossier.

The synthesizer sees :meth:`EvidenceDossier.render` (an LLM) or :meth:`to_payload` (the
rules engine): never a document's text. The rendering is in French, the language of the
bundled dossier and of the synthesis template.

Computed values come from :mod:`preuve.synthesis.computations` (totals of counted units at
an amount per unit and period, yearly equivalents, gaps of contradictions, growth between
periods), each with its formula and its inputs' documents; a fleet is never summed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from preuve.core.numbers import french_number
from preuve.io.records import dump_records
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
    "RULE_TEXT",
    "EvidenceDossier",
    "build_evidence_dossier",
    "compute_values",
    "describe_source",
    "limit_lines",
]

RULE_TEXT: Mapping[int, str] = MappingProxyType(
    {
        1: "une mesure interne selon le protocole commun l'emporte sur les données d'un "
        "éditeur ou d'un blog",
        2: "une annonce officielle ou un correctif publié l'emporte sur un article tiers",
        3: "à fiabilité égale, le document le plus récent l'emporte",
    }
)


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
        """The dossier as text, for a model."""
        lines = [
            "DOSSIER DE PREUVES (construit par le code ; les documents ne sont pas joints)",
            "",
            "Question du comité :",
            self.question.strip(),
        ]
        by_id = {f.subtask_id: f for f in self.findings}
        for task in self.plan.subtasks:
            lines += ["", f"SOUS-TÂCHE {task.id} — {task.question}"]
            lines += self._finding_lines(by_id.get(task.id))
        lines += ["", "CONTRADICTIONS TROUVÉES PAR LE CODE (règle ordonnée)"]
        lines += [f"  règle {n} : {text}" for n, text in RULE_TEXT.items()]
        lines += [self._contradiction_line(c) for c in self.contradictions] or ["- aucune"]
        lines += ["", "VALEURS CALCULÉES PAR LE CODE (à reprendre telles quelles)"]
        lines += [
            f"- {c.label} = {french_number(c.value)} {c.unit} ({c.formula}) ; sources : "
            f"{', '.join(c.sources)}"
            for c in self.computed
        ] or ["- aucune"]
        lines += ["", "LIMITES DU DOSSIER", *(limit_lines(self.limits) or ["- aucune"])]
        return "\n".join(lines) + "\n"

    def _finding_lines(self, finding: Finding | None) -> list[str]:
        if finding is None:
            return ["  NOT INVESTIGATED : aucun résultat pour cette sous-tâche"]
        if finding.status is FindingStatus.NOT_INVESTIGATED:
            return [f"  NOT INVESTIGATED : {finding.error}"]
        lines = [f"  Documents lus : {', '.join(finding.docs_read) or 'aucun'}", "  Constats :"]
        lines += [self._statement_line(s) for s in finding.statements] or ["  - aucun"]
        lines += ["  Lacunes :", *(f"  - {g}" for g in finding.gaps)] if finding.gaps else []
        unused = finding.read_but_not_used
        lines += [f"  Lus mais non utilisés : {', '.join(unused)}"] if unused else []
        return lines

    def _statement_line(self, statement: Statement) -> str:
        sources = []
        for doc_id, value in statement.values_by_source():
            read = "" if values_agree(value, statement.value) else f", valeur lue : « {value} »"
            sources.append(describe_source(doc_id, self.sources) + read)
        merged = is_merged(statement)
        flag = " [FUSION : les sources donnent des valeurs différentes]" if merged else ""
        context = f" ({statement.context})" if statement.context else ""
        return (
            f"  - {statement.subject} | {statement.attribute}{context} | {statement.value} — "
            f"« {statement.text} » — sources : {' ; '.join(sources)}{flag}"
        )

    def _contradiction_line(self, c: Contradiction) -> str:
        def side(value: str, ids: Sequence[str]) -> str:
            return f"« {value} » ({' ; '.join(describe_source(d, self.sources) for d in ids)})"

        rejected = " ; ".join(side(v.value, v.sources) for v in c.rejected)
        if c.retained is None:
            return f"- {c.subject} / {c.attribute} : NON TRANCHÉE entre {rejected}"
        return (
            f"- {c.subject} / {c.attribute} : retenu {side(c.retained.value, c.retained.sources)}"
            f" ; rejeté {rejected} ; règle {c.rule}"
        )

    def to_payload(self) -> dict[str, Any]:
        """The same content as plain data, for the rules synthesizer (no document text)."""
        by_id = {f.subtask_id: f for f in self.findings}

        def source(doc_id: str, value: str) -> dict[str, Any]:
            info = self.sources.get(doc_id)
            return {
                "doc_id": doc_id,
                "value": value,
                "date": info.date.isoformat() if info and info.date else None,
                "source_type": info.source_type.value if info else SourceType.UNKNOWN.value,
            }

        subtasks = []
        for task in self.plan.subtasks:
            finding = by_id.get(task.id)
            status = finding.status.value if finding else FindingStatus.NOT_INVESTIGATED.value
            subtasks.append(
                {
                    "id": task.id,
                    "question": task.question,
                    "status": status,
                    "error": finding.error if finding else "no finding",
                    "docs_read": list(finding.docs_read) if finding else [],
                    "statements": [
                        {
                            "subject": s.subject,
                            "attribute": s.attribute,
                            "value": s.value,
                            "text": s.text,
                            "context": s.context,
                            "sources": [source(d, v) for d, v in s.values_by_source()],
                        }
                        for s in (finding.statements if finding else ())
                    ],
                    "gaps": list(finding.gaps) if finding else [],
                    "read_but_not_used": list(finding.read_but_not_used) if finding else [],
                }
            )
        return {
            "question": self.question,
            "subtasks": subtasks,
            "contradictions": dump_records(self.contradictions, Contradiction),
            "computed": dump_records(self.computed, ComputedValue),
            "limits": limit_lines(self.limits),
            "documents": [
                {
                    "doc_id": info.doc_id,
                    "date": info.date.isoformat() if info.date else None,
                    "source_type": info.source_type.value,
                }
                for info in self.sources.values()
            ],
        }


def limit_lines(limits: DossierLimits) -> list[str]:
    """The limits of the dossier, one French line each."""
    lines = [
        f"- {d} : couvert par aucune sous-tâche (jamais lu)"
        + (f" : {limits.reason(d)}" if limits.reason(d) else "")
        for d in limits.uncovered
    ]
    lines += [f"- {d} : {r}" for d, r in limits.coverage if d not in limits.uncovered]
    lines += [
        f"- {d} : type de source {t!r} absent de la table des rangs (rang inconnu)"
        for d, t in limits.unknown_types
    ]
    lines += [f"- {d} : lu mais utilisé par aucun constat" for d in limits.read_but_not_used]
    lines += [f"- sous-tâche {t} : NOT INVESTIGATED ({e})" for t, e in limits.not_investigated]
    lines += [
        f"- sous-tâche {t} : un constat sur {s} / {a} fusionne des sources aux valeurs "
        "différentes (la contradiction est relevée par le code)"
        for t, s, a in limits.merged
    ]
    lines += [
        f"- sous-tâche {t} : constat {s} / {a} = {v!r} ({d}) refusé : sa citation n'a pas"
        " passé la vérification (écarté, non utilisé)"
        for t, s, a, v, d in limits.refused
    ]
    return lines


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
