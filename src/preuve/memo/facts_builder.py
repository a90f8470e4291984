"""The facts a writer sees: ratios (R-), alerts (A-) and verified quotes (Q-), one per line.

The writer sees neither the PDF nor the statements, only these lines, e.g.::

    [R-ferlac-levier] Maison Ferlac SAS - Levier 2025 : 5,5x (2024 : 3,6x) ; formule : ...
    [A-solvea-1] Solvéa Énergies SA - Résultat net de 11 175 k€ mais free cash-flow de ...
    [Q-ferlac-3] Maison Ferlac SAS - « quote » (p. 3)

Each fact carries its structure (subject, metric, period, values, the prose read for
polarity) from the data that built it, so the claim checks read data, not prose.

A quote fact carries the text *as on the page* (the span the quote check located, its line
breaks made spaces), not the model's copy: the writer quotes the report, not the reader.
Only verified signals are accepted here; there is no way to pass a rejected one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.core.factlines import prose_structure
from preuve.core.facts import Fact
from preuve.core.numbers import Locale
from preuve.memo.ratios import Alert, Company, Ratio
from preuve.memo.reader import VerifiedSignal

__all__ = ["build_facts", "quote_fact", "quote_facts"]

_LINE_BREAK = re.compile(r"\s*[\r\n]+\s*")


def quote_fact(
    company: Company, signal: VerifiedSignal, number: int, locale: Locale = Locale.FR
) -> Fact:
    """``[Q-<slug>-<n>] <company> - « <text on the page> » (p. N)`` (English: “ ”)."""
    on_page = _LINE_BREAK.sub(" ", signal.matched).strip()
    # Read as the memo check reads the memo (its language's numbers), so a copy binds the
    # same way.
    structure = prose_structure(company.name, on_page, locale)
    opening, closing = ("“", "”") if locale is Locale.EN else ("« ", " »")
    text = f"{company.name} - {opening}{on_page}{closing} (p. {signal.page})"
    return Fact(f"Q-{company.slug}-{number}", text, structure=structure)


def quote_facts(
    company: Company, signals: Sequence[VerifiedSignal], locale: Locale = Locale.FR
) -> tuple[Fact, ...]:
    """One fact per verified signal, numbered from 1 in page order."""
    ordered = sorted(signals, key=lambda s: (s.span.start, s.span.end))
    return tuple(quote_fact(company, s, n, locale) for n, s in enumerate(ordered, start=1))


def build_facts(
    company: Company,
    ratios: Sequence[Ratio],
    alerts: Sequence[Alert],
    signals: Sequence[VerifiedSignal],
    locale: Locale = Locale.FR,
) -> tuple[Fact, ...]:
    """Ratios, then alerts, then quotes: every fact the writer may cite for one company."""
    return (
        *(ratio.to_fact() for ratio in ratios),
        *(alert.to_fact() for alert in alerts),
        *quote_facts(company, signals, locale),
    )
