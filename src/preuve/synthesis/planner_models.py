"""The candidates of a question that names none: the product models its documents recur on.

A committee question may compare products without naming them ("Of the shortlisted UV
systems, which one should the Council buy?", "Lequel des enneigeurs étudiés faut-il
retenir ?"): the names it writes are then its setting (the committee, the buyer, the site, a
term such as ``UV``), and the products are what the documents are about. A product model is
written as a brand word and a model code (``Lumaqua LX-400``, ``Boréa V12``, ``Voltaris
GridBlock 4``): the brand a capitalized word the dossier never writes in lowercase (not a
sentence start such as ``Quotation``), the code a token with a digit that holds no year (an
advisory, quote or ticket reference such as ``FRI-AS-2026-03`` is no model), or a coined word
and a number. A model is a candidate when the title of one document at least and the texts of
:data:`MIN_DOCUMENTS` documents name its code: its own datasheet or quote, and the notes that
compare it (a component a vendor's note mentions, a bolt size of a manual, is in no title).

:func:`documented_models` gives them, most documented first; :func:`names_none` tells whether
a question's names are none of them (no name shares a word with a model), the case in which
:func:`preuve.synthesis.planner_products.detect_products` takes the models for candidates.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from preuve.synthesis.lexicon import fold

__all__ = ["MIN_DOCUMENTS", "documented_models", "names_none"]

MIN_DOCUMENTS = 3
_MIN_MODELS = 2

# A brand word, then a model code: letters and a digit ("LX-400", "V12", "NX-7"), or a
# coined word (a hyphen or a capital inside) and a number ("BW-Aqua 3", "GridBlock 4").
_MODEL = re.compile(
    r"(?<![\w-])(?P<brand>[A-ZÀ-Ý]\w+)[ \u00a0](?P<code>[A-Z][A-Za-z]*-?\d(?:[\w.-]*\w)?"
    r"|[A-Z]\w*(?:-[A-Z]\w*|[a-z][A-Z]\w*)[ \u00a0]\d[\w.]*)(?![\w-])"
)
_YEAR = re.compile(r"(?:19|20)\d\d")


def _written(code: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text) is not None


def documented_models(texts: Sequence[str], lowercase_words: Iterable[str]) -> tuple[str, ...]:
    """The product models the documents recur on (``texts``: each document's title on its
    first line, then its text), each as its most written brand and its code, most documented
    first (ties in order of first mention). ``lowercase_words`` are the words the dossier
    writes in lowercase: a brand is none of them."""
    lowercase = set(lowercase_words)
    brands: dict[str, Counter[str]] = {}
    for text in texts:
        for found in _MODEL.finditer(text):
            code, brand = " ".join(found["code"].split()), found["brand"]
            if _YEAR.search(code) or brand.lower() in lowercase:
                continue
            brands.setdefault(code, Counter())[brand] += 1
    counted = []
    for code, written in brands.items():
        documents = sum(_written(code, t) for t in texts)
        titles = sum(_written(code, t.split("\n", 1)[0]) for t in texts)
        if documents >= MIN_DOCUMENTS and titles:
            counted.append((documents, f"{written.most_common(1)[0][0]} {code}"))
    ranked = sorted(counted, key=lambda c: -c[0])  # stable: first mention first among ties
    return tuple(name for _, name in ranked)


def names_none(names: Sequence[str], models: Sequence[str]) -> bool:
    """Whether a question's ``names`` are none of the documents' ``models`` (two at least):
    no name shares a word with a model (``Halvard Data`` is the maker of ``Halvard ArcBox
    9``; ``Leisure Capital Projects Board`` and ``UV`` name no model)."""
    if len(models) < _MIN_MODELS:
        return False
    model_words = {fold(w) for m in models for w in m.split()}
    return not any(fold(w) in model_words for n in names for w in n.split())
