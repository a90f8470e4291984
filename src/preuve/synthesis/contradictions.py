"""Contradictions found in code, from the findings, and arbitrated by the ordered rule.

Definition (the one the synthesizer is also given): two different values for the same
quantity or status of the same subject (latency, licence, state of a vulnerability,
longevity), even across sub-tasks and even when measurement conditions explain the gap.

Statements are grouped by (subject, attribute, context) with
:func:`~preuve.synthesis.matcher.group_key`: the attribute by the concept it names or its
content words (synonyms, word order and both languages tolerated), the kind of its value
included; the context (a period, a target, a reported source) kept apart. Each source of a
statement contributes the value read in *that* document, so a merged statement (two
documents folded into one line) still yields its contradiction. Values are compared by
meaning (:func:`~preuve.synthesis.types.values_agree`). A group with two or more distinct
values is a contradiction (:func:`between_documents`: a document stating several of a
group's values itself, tiers, runs or two sources quoted side by side, is left out of it),
arbitrated by :func:`~preuve.synthesis.ranks.arbitrate` with the metadata (date, source
type) of each document. Only ok findings count: a NOT INVESTIGATED sub-task has no
statement; the conditions of a measurement (a ``setup`` context) are never compared.

Subjects are compared whole after normalization: ``Kestrel Serve 2.x`` and ``Kestrel Serve``
are two subjects (a version branch may have its own end of support), so sub-agents must
name a subject the same way each time they mean the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from preuve.core.numbers import Locale
from preuve.synthesis.contradiction_rows import split_rows
from preuve.synthesis.lexicon import default_lexicon, fold
from preuve.synthesis.matcher import group_key, more_specific, related_attributes
from preuve.synthesis.ranges import inside_ranges
from preuve.synthesis.ranks import Candidate, SourceInfo, SourceType, arbitrate
from preuve.synthesis.types import (
    Contradiction,
    Finding,
    FindingStatus,
    SourcedValue,
    values_agree,
)
from preuve.synthesis.values import meaning

__all__ = [
    "ValueGroup",
    "between_documents",
    "candidates_of",
    "contradiction_from",
    "find_contradictions",
    "group_values",
]


@dataclass(frozen=True, slots=True)
class ValueGroup:
    """Every distinct value stated for one (subject, attribute), with its documents."""

    subject: str
    attribute: str
    values: tuple[SourcedValue, ...]
    context: str = ""
    # (doc id, value as the group shows it) -> the passage of that document stating it
    quotes: Mapping[tuple[str, str], str] = field(default_factory=dict)


def _add(
    values: list[tuple[str, list[str]]], value: str, doc_id: str, locale: Locale, *,
    passages: dict[tuple[str, str], str] | None = None, quote: str = "",
) -> None:  # fmt: skip
    """``value`` of ``doc_id`` joins the value it agrees with (which then shows the more
    specific spelling: ``fixed in 7.2.4`` rather than ``Resolved``), else is a new one; its
    passage is kept under the (doc id, first spelling) it joins."""
    at = next((i for i, v in enumerate(values) if values_agree(v[0], value, locale)), None)
    if at is None:
        values.append((value, [doc_id]))
        if passages is not None:
            passages.setdefault((doc_id, value), quote)
        return
    written, ids = values[at]
    if doc_id not in ids:
        ids.append(doc_id)
    if passages is not None:
        passages.setdefault((doc_id, written), quote)
    if more_specific(written, value):
        values[at] = (value, ids)
        if passages is not None:
            for key in [k for k in passages if k[1] == written]:
                passages[(key[0], value)] = passages[key]


def group_values(findings: Iterable[Finding], locale: Locale = Locale.FR) -> tuple[ValueGroup, ...]:
    """Group the per-source values of every ok finding by (subject, attribute), in order of
    first appearance; the first spelling of a subject, attribute or value is kept."""
    groups: dict[Hashable, tuple[str, str, str, list[tuple[str, list[str]]]]] = {}
    passages: dict[Hashable, dict[tuple[str, str], str]] = {}
    for finding in findings:
        if finding.status is not FindingStatus.OK:
            continue
        for statement in finding.statements:
            key = group_key(
                statement.subject, statement.attribute, statement.value, statement.context
            )
            entry = groups.setdefault(
                key, (statement.subject, statement.attribute, statement.context, [])
            )
            if _other_name(statement.subject) and not _other_name(entry[0]):
                # the subject as a document named it by another name too ("Orla Pump
                # (OP-40)"): the group shows both names
                entry = groups[key] = (statement.subject, *entry[1:])
            for source, (doc_id, value) in zip(
                statement.sources, statement.values_by_source(), strict=True
            ):
                _add(
                    entry[3], value, doc_id, locale,
                    passages=passages.setdefault(key, {}), quote=source.quote or "",
                )  # fmt: skip
    return tuple(
        ValueGroup(
            subject, attribute, tuple(SourcedValue(v, tuple(ids)) for v, ids in values), context,
            quotes,
        )
        for subject, attribute, context, values, quotes in _merge_related(
            groups, passages, locale
        )
    )  # fmt: skip


def _other_name(subject: str) -> bool:
    """Whether a subject is shown with another name that its own does not hold ("Orla Pump
    (OP-40)", not "Orla OP-40 (OP-40)")."""
    named = re.fullmatch(r"(?P<own>.+?)\s*\((?P<other>[^()]+)\)", subject)
    return named is not None and named.group("other") not in named.group("own")


_Entry = tuple[str, str, str, list[tuple[str, list[str]]]]
_Passages = dict[tuple[str, str], str]


def _merge_related(
    groups: dict[Hashable, _Entry], passages: dict[Hashable, _Passages], locale: Locale
) -> list[tuple[str, str, str, list[tuple[str, list[str]]], _Passages]]:
    """Groups of one subject and context whose attributes are related
    (:func:`~preuve.synthesis.matcher.related_attributes`) are one group when each is the
    other's only related group and no document states both (a document giving two values
    under two names means two quantities)."""
    keys = list(groups)
    by_place: dict[tuple[Hashable, Hashable], list[Hashable]] = {}
    for key in keys:
        assert isinstance(key, tuple)
        by_place.setdefault((key[0], key[2]), []).append(key)

    def docs(key: Hashable) -> set[str]:
        return {d for _, ids in groups[key][3] for d in ids}

    partners: dict[Hashable, list[Hashable]] = {}
    for place in by_place.values():
        for key in place:
            assert isinstance(key, tuple)
            # a condition of measurement both share ("at −6 °C") says they measure one thing
            conditioned = re.search(r"(?:^|, )at ", groups[key][2]) is not None
            partners[key] = [
                o
                for o in place
                if isinstance(o, tuple)
                and related_attributes(key[1], o[1], conditioned=conditioned)
            ]
    merged: set[Hashable] = set()
    for key in keys:
        mates = partners.get(key, [])
        if key in merged or not mates:
            continue
        if len(mates) > 1:
            # a price of 0 contradicts every amount charged for its item: it joins each
            # of them when it is their only partner (a unit price and a total, say)
            if _free(key) and all(
                partners.get(m) == [key] and m not in merged and not docs(key) & docs(m)
                for m in mates
            ):
                for mate in mates:
                    for value, ids in groups[key][3]:
                        for doc_id in ids:
                            quote = passages.get(key, {}).get((doc_id, value), "")
                            _add(groups[mate][3], value, doc_id, locale,
                                 passages=passages.setdefault(mate, {}), quote=quote)  # fmt: skip
                merged.add(key)
            continue
        (mate,) = mates
        if mate in merged or partners.get(mate) != [key] or docs(key) & docs(mate):
            continue
        for value, ids in groups[mate][3]:
            for doc_id in ids:
                quote = passages.get(mate, {}).get((doc_id, value), "")
                _add(
                    groups[key][3], value, doc_id, locale,
                    passages=passages.setdefault(key, {}), quote=quote,
                )  # fmt: skip
        merged.add(mate)
    return [(*groups[k], passages.get(k, {})) for k in keys if k not in merged]


def _free(key: Hashable) -> bool:
    """True for the group key of a price of 0."""
    attribute = key[1] if isinstance(key, tuple) and len(key) > 1 else None
    return isinstance(attribute, tuple) and len(attribute) > 3 and attribute[3] == ("free",)


def _info(doc_id: str, sources: Mapping[str, SourceInfo]) -> SourceInfo:
    # A document absent from the dossier is undated and of unknown type (rank 1); the
    # citation checks report it separately.
    return sources.get(doc_id) or SourceInfo(doc_id, None, SourceType.UNKNOWN)


def candidates_of(
    values: Iterable[SourcedValue], sources: Mapping[str, SourceInfo]
) -> tuple[Candidate, ...]:
    """The values with the metadata arbitration needs."""
    return tuple(
        Candidate(v.value, tuple(_info(doc_id, sources) for doc_id in v.sources)) for v in values
    )


def contradiction_from(group: ValueGroup, sources: Mapping[str, SourceInfo]) -> Contradiction:
    """Arbitrate a group of two or more distinct values."""
    arbitration = arbitrate(candidates_of(group.values, sources))

    def back(candidate: Candidate) -> SourcedValue:
        return SourcedValue(candidate.value, candidate.doc_ids)

    return Contradiction(
        subject=group.subject,
        attribute=group.attribute,
        retained=back(arbitration.retained) if arbitration.retained is not None else None,
        rejected=tuple(back(c) for c in arbitration.rejected),
        rule=arbitration.rule,
        reason=arbitration.reason,
        context=group.context,
    )


def between_documents(group: ValueGroup) -> ValueGroup:
    """The group without the documents that state several of its values themselves: such a
    document lists tiers or runs, or quotes two sources side by side; it contradicts no one
    (the sources it quotes still do, each with its own value)."""
    counts: dict[str, int] = {}
    for value in group.values:
        for doc_id in value.sources:
            counts[doc_id] = counts.get(doc_id, 0) + 1
    kept = tuple(
        SourcedValue(v.value, tuple(d for d in v.sources if counts[d] == 1)) for v in group.values
    )
    return replace(group, values=tuple(v for v in kept if v.sources))


def _operating_points_apart(group: ValueGroup) -> ValueGroup:
    """The group without the values that lie inside a range another document states for
    its quantity (:mod:`~preuve.synthesis.ranges`): operating points, not claims."""
    inside = inside_ranges(group.values, group.quotes)
    if not inside:
        return group
    kept = tuple(
        SourcedValue(v.value, tuple(d for d in v.sources if (d, v.value) not in inside))
        for v in group.values
    )
    return replace(group, values=tuple(v for v in kept if v.sources))


def find_contradictions(
    findings: Iterable[Finding],
    sources: Mapping[str, SourceInfo],
    locale: Locale = Locale.FR,
) -> tuple[Contradiction, ...]:
    """Every contradiction among the findings, arbitrated (see the module docstring)."""
    dates = {doc_id: info.date for doc_id, info in sources.items()}
    groups = [
        between_documents(replace(g, values=values))
        for g in map(_operating_points_apart, group_values(findings, locale))
        if not set(g.context.split()) & set(default_lexicon().not_compared)
        for values in split_rows(g.values, g.quotes, dates)
    ]
    found = tuple(
        contradiction_from(g, sources) for g in groups if len(g.values) > 1 and not _offer_term(g)
    )
    return tuple(c for c in found if not _follows(c, found))


def _offer_term(group: ValueGroup) -> bool:
    """True for the validity period of an offer (lexicon ``[pricing] offer_terms``, every
    value a duration): each quote runs for its own, so two quotes' terms never oppose; a
    validity ending on a date (a certificate's, a licence's) is still compared."""
    words = set(re.findall(r"[a-z][a-z-]*", fold(group.attribute)))
    if not words & set((default_lexicon().pricing or {}).get("offer_terms", ())):
        return False
    return all(all(_duration(k) for k in meaning(v.value)) for v in group.values)


def _duration(key: Hashable) -> bool:
    return isinstance(key, tuple) and key[:2] == ("quantity", "time")


def _aggregate(attribute: str) -> bool:
    """True for an attribute naming a sum of amounts (a total, a subtotal, a tax on them:
    lexicon ``[pricing] aggregates``)."""
    words = set(re.findall(r"[a-z][a-z-]*", fold(attribute)))
    return bool(words & set((default_lexicon().pricing or {}).get("aggregates", ())))


def _taxed(attribute: str) -> bool:
    """True for a sum's attribute naming a tax or a sum with taxes ("total TTC", "VAT"),
    the words of a net sum ("excl. VAT", "HT": lexicon ``[money] tax`` HT) left out."""
    lexicon = default_lexicon()
    folded = fold(attribute)
    for phrase in lexicon.taxes.get("HT", ()):
        folded = re.sub(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", " ", folded)
    words = set(re.findall(r"[a-z][a-z-]*", folded))
    return bool(words & set((lexicon.pricing or {}).get("taxed", ())))


def _docs_of(contradiction: Contradiction) -> tuple[frozenset[str], frozenset[str]]:
    kept = contradiction.retained.sources if contradiction.retained is not None else ()
    dropped = {d for v in contradiction.rejected for d in v.sources}
    return frozenset(kept), frozenset(dropped)


def _opposing(
    contradiction: Contradiction, found: Iterable[Contradiction], *, sums: bool
) -> list[Contradiction]:
    """The other resolved contradictions on amounts, sums (``sums``) or items, that oppose
    the same retained documents to the same or more rejected ones."""
    kept, dropped = _docs_of(contradiction)
    out = []
    for other in found:
        if other is contradiction or _aggregate(other.attribute) != sums or not other.resolved:
            continue
        other_kept, other_dropped = _docs_of(other)
        if kept == other_kept and dropped <= other_dropped and _amounts(other):
            out.append(other)
    return out


def _follows(contradiction: Contradiction, found: Sequence[Contradiction]) -> bool:
    """True when ``contradiction`` follows from another one between the same documents.

    A revised quote that changes one item's price changes its totals and tax with it: the
    item is what the two documents disagree on, the totals are its consequence. One that
    changes several items' prices disagrees on its net total: the items are its lines, and
    the tax and the sum with taxes follow from the net total."""
    if not contradiction.resolved or not _amounts(contradiction):
        return False
    if _aggregate(contradiction.attribute):
        items = _opposing(contradiction, found, sums=False)
        if len(items) == 1:
            return True
        net = [o for o in _opposing(contradiction, found, sums=True) if not _taxed(o.attribute)]
        return _taxed(contradiction.attribute) and bool(net)
    kept, dropped = _docs_of(contradiction)
    for total in found:
        if total is contradiction or not _aggregate(total.attribute) or not total.resolved:
            continue
        if _taxed(total.attribute) or _docs_of(total)[0] != kept:
            continue
        if dropped <= _docs_of(total)[1] and len(_opposing(total, found, sums=False)) > 1:
            return True
    return False


def _amounts(contradiction: Contradiction) -> bool:
    """True when some value of ``contradiction`` is an amount of money."""
    return any(
        any(isinstance(k, tuple) and k[:1] == ("money",) for k in meaning(v.value))
        for v in contradiction.values
    )
