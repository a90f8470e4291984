"""Layout of one document for the rules sub-agent: its section headings (whom a section is
about, the scope it declares), the quote of a table row, and the names a document writes
for a product.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from preuve.core.patterns import compiled
from preuve.core.quotes import MIN_QUOTE_CHARS
from preuve.synthesis.lexicon import Lexicon, fold
from preuve.synthesis.statements import LabelledSentence, product_mentions
from preuve.synthesis.values import Value

__all__ = ["claimed_bound", "extensive", "row_quote", "section_products", "written_names"]


def _product_at(
    products: Sequence[str], text: str, aliases: Mapping[str, str] | None = None
) -> list[tuple[int, str]]:
    return [(s, p) for s, _, p in product_mentions(products, text, aliases)]


_MAX_HEADING_WORDS = 12


_SCOPE_ASIDE = re.compile(
    r"\((?:per|par|pour)\s+(?:(?:un|une|a|an|one)\s+)?(?P<unit>[^()\d]{2,30})\)", re.I
)


def section_products(
    text: str, paragraphs: Sequence[Sequence[LabelledSentence]], products: Sequence[str],
    aliases: Mapping[str, str] | None = None,
) -> list[tuple[int, str | None, tuple[str, ...]]]:  # fmt: skip
    """(offset, product, scope) of each section heading of a document: a paragraph of one
    short line without a final period ("1. Kelmont PowerStack KS-2 (demonstration rack
    K2-07)", "## Offre B"). The one product it names is whom the paragraphs after it are
    about, up to the next heading (None when a heading names no product, or several); a
    scope it declares in an aside ("Key data (per container)") is the context of their
    values: a container's 5.0 MWh is not the plant's 80 MWh."""
    out: list[tuple[int, str | None, tuple[str, ...]]] = []
    for paragraph in paragraphs:
        line = text[paragraph[0].start : paragraph[-1].end].strip()
        if "\n" in line or len(line.split()) > _MAX_HEADING_WORDS:
            continue
        if line.endswith((".", ":", ";", "?", "!")):
            continue
        named = {p for _, p in _product_at(products, line, aliases)}
        scope = _SCOPE_ASIDE.search(line)
        out.append(
            (
                paragraph[0].start,
                named.pop() if len(named) == 1 else None,
                (f"per {' '.join(scope.group('unit').split()).lower()}",) if scope else (),
            )
        )
    return out


def written_names(
    products: Sequence[str], text: str, aliases: Mapping[str, str] | None
) -> dict[str, str]:
    """``Product (Alias)`` for each product a document names only by another name (the
    vehicle of an offer, a maker): the subject shows what the document wrote, and is still
    the product's (:func:`preuve.synthesis.matcher.subject_key`)."""
    forms: dict[str, Counter[str]] = {}
    for start, end, product in product_mentions(products, text, aliases):
        forms.setdefault(product, Counter())[text[start:end]] += 1
    out = {}
    for product, counted in forms.items():
        # a short form ("Tessaly") or a name that holds the product's ("X Edge") is its own
        own = [f for f in counted if product.startswith(f) or f.startswith(product)]
        if not own:
            out[product] = f"{product} ({counted.most_common(1)[0][0]})"
    return out


_INTENSIVE = frozenset({"percent", "ratio", "time"})


def extensive(value: Value) -> bool:
    """Whether a value grows with what it is counted over (an energy, a mass, a total), so
    that a declared scope ("per container") tells it apart; a share, a time or a rate does
    not."""
    return (
        value.kind in {"quantity", "count", "money"}
        and not value.per
        and (value.unit not in _INTENSIVE)
    )


def row_quote(text: str, sentence: LabelledSentence) -> str:
    """The verbatim passage of a sentence or a table cell (its row), with what comes before
    it on its line, then the lines before, when it alone is too short to be checked ("0.5C
    86.9  3" is quoted with the header above; "6.8 kg" after a ";" with its bullet)."""
    start = sentence.start
    quote = " ".join(text[start : sentence.end].split())
    while len(quote) < MIN_QUOTE_CHARS and start > 0:
        start = text.rfind("\n", 0, start - 1) + 1
        quote = " ".join(text[start : sentence.end].split())
    return quote


def claimed_bound(
    sentence: LabelledSentence, value: Value, modality: Sequence[str], lexicon: Lexicon
) -> tuple[Value, tuple[str, ...]]:
    """A property sheet's row whose cell opens on a bound ("| False rejects | less than 0.4 %
    |", "| Taux de faux rejets | inférieur à 0,4 % |"): the figure the sheet claims for its
    product, written with its bound and compared as one (a measured 1.3 % disagrees, 0.3 %
    agrees), not a target; a row whose label states a requirement ("Required uptime") stays
    a target. Any other value is returned as it is."""
    targets = lexicon.modality.get("target", ())
    if "target" not in modality or not sentence.table or sentence.label is not None:
        return value, tuple(modality)
    folded = fold(sentence.cell)
    cue = next(
        (c for c in (*lexicon.words("upper_bound_words"), *lexicon.words("lower_bound_words"))
         if folded.startswith(c) and folded[len(c) : len(c) + 1] in {" ", ""} | set("0123456789")),
        None,
    )  # fmt: skip
    head = fold(sentence.head)
    if cue is None or any(
        compiled(rf"(?<![a-z]){re.escape(t)}(?![a-z])").search(head) for t in targets
    ):
        return value, tuple(modality)
    at = sentence.cell.find(value.display)
    if at <= 0:
        return value, tuple(modality)
    shown = f"{sentence.cell[:at].strip()} {value.display}"  # "inférieur à 0,4 %", "< 2 ms"
    return replace(value, display=shown), tuple(m for m in modality if m != "target")
