"""The declared knowledge of the workflow 2 rules engine, read from a TOML data file.

The default file is ``preuve/synthesis/data/lexicon.toml``; a user extends it with their own
file (read by :func:`preuve.loaders.load_lexicon`, merged by :func:`lexicon_with`): lists are
appended, tables merged key by key, so a new unit, concept, status word or source type needs
no code. Nothing in it names a product or a
value of a dossier: function words, units, currencies, periods, licence names, status words,
attribute concepts with their synonyms in French and English, source types with their ranks
and aliases.

Every word is compared after :func:`fold` (NFKC, lowercase, accents removed), so the file may
write ``réponse`` or ``reponse``.
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from preuve.core.errors import InputError
from preuve.core.unit_table import declared_unit_data, parse_units

__all__ = [
    "Concept",
    "Lexicon",
    "Qualifier",
    "Unit",
    "checked_extension",
    "default_lexicon",
    "extended_lexicon",
    "fold",
    "fold1",
    "lexicon_from_data",
    "lexicon_with",
    "merge_data",
    "names_sum",
    "normalize_type_name",
]


def fold(text: str) -> str:
    """Lowercase, without accents, typographic apostrophes as ``'``, punctuation kept."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return bare.replace("\u2019", "'").replace("\u00a0", " ").replace("\u202f", " ")


def fold1(text: str) -> str:
    """:func:`fold` one character at a time, so that offsets stay those of ``text``."""
    return "".join((fold(c) or " ")[0] for c in text)


@dataclass(frozen=True, slots=True)
class Concept:
    """An attribute concept: its id, display labels by language, folded terms, dimension."""

    id: str
    labels: Mapping[str, str]
    terms: tuple[str, ...]
    dimension: str | None
    # dimensions a value of this concept never has ("90 % of rated power" is no throughput)
    not_dimensions: frozenset[str] = frozenset()

    def label(self, language: str) -> str:
        return self.labels.get(language) or next(iter(self.labels.values()), self.id)


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A part of an attribute that distinguishes quantities (``p95`` vs ``p99``)."""

    pattern: re.Pattern[str]
    key: str


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit word: its dimension, its canonical symbol and factor to the dimension base."""

    word: str
    symbol: str
    dimension: str
    factor: Decimal
    case_sensitive: bool


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by identity
class Lexicon:
    """Everything the rules engine knows that is not code (see the module docstring)."""

    stopwords: frozenset[str]
    question_words: frozenset[str]
    generic_acronyms: frozenset[str]
    months: frozenset[str]
    concepts: tuple[Concept, ...]
    qualifiers: tuple[Qualifier, ...]
    modality: Mapping[str, tuple[str, ...]]
    past_cues: tuple[str, ...]
    units: tuple[Unit, ...]
    currencies: Mapping[str, tuple[str, ...]]
    scales: Mapping[Decimal, tuple[str, ...]]
    taxes: Mapping[str, tuple[str, ...]]
    per_words: tuple[str, ...]
    periods: Mapping[str, tuple[str, ...]]
    statuses: Mapping[str, tuple[str, ...]]
    id_patterns: tuple[re.Pattern[str], ...]
    licence_names: tuple[tuple[str, ...], ...]
    licence_kinds: tuple[tuple[str, ...], ...]
    source_ranks: Mapping[str, int]
    source_aliases: Mapping[str, str]
    attribution_cues: tuple[str, ...] = ()
    language_words: Mapping[str, tuple[str, ...]] | None = None
    criteria_cues: tuple[str, ...] = ()
    advisory_states: tuple[str, ...] = ()
    condition_cues: tuple[str, ...] = ()
    not_compared: tuple[str, ...] = ()
    affirm_cues: tuple[str, ...] = ()
    deny_cues: tuple[str, ...] = ()
    passive_cues: tuple[str, ...] = ()
    yes_no: Mapping[str, tuple[str, str]] | None = None
    grammar: Mapping[str, tuple[str, ...]] | None = None
    measures: Mapping[str, tuple[str, ...]] | None = None
    pricing: Mapping[str, tuple[str, ...]] | None = None

    def words(self, name: str) -> tuple[str, ...]:
        """A list of the ``[grammar]`` table (clause words, articles, ...)."""
        return (self.grammar or {}).get(name, ())

    def alternation(self, name: str) -> str:
        """The words of a ``[grammar]`` list as a regex alternation, longest first, each a
        whole word (or a whole symbol)."""
        return _alternation(self.words(name))

    def language(self, text: str) -> str:
        """``fr`` or ``en`` (or another declared language): the one whose frequent words
        ``text`` uses most; French on a tie (the bundled default)."""
        words = re.findall(r"[a-z]+", fold(text))
        counts = {
            lang: sum(w in set(markers) for w in words)
            for lang, markers in (self.language_words or {}).items()
        }
        return max(counts, key=lambda lang: (counts[lang], lang == "fr"), default="fr")

    def concept(self, concept_id: str) -> Concept | None:
        return next((c for c in self.concepts if c.id == concept_id), None)


def _alternation(words: Sequence[str]) -> str:
    parts = [
        rf"(?<![a-z]){re.escape(w)}(?![a-z])" if w[:1].isalpha() else re.escape(w)
        for w in sorted(words, key=len, reverse=True)
    ]
    return "(?:" + "|".join(parts or ["(?!)"]) + ")"


def _words(values: object, where: str) -> tuple[str, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InputError(f"{where}: expected a list of strings")
    return tuple(dict.fromkeys(fold(v) for v in values))


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise InputError(f"lexicon: [{key}] must be a table")
    return value


def _concepts(data: Mapping[str, Any]) -> tuple[Concept, ...]:
    out = []
    for entry in data.get("concepts", []):
        labels = entry.get("label", {})
        if not isinstance(entry.get("id"), str) or not isinstance(labels, dict):
            raise InputError("lexicon: each [[concepts]] needs an id and a label table")
        dimension = entry.get("dimension")
        out.append(
            Concept(
                entry["id"],
                {str(k): str(v) for k, v in labels.items()},
                _words(entry.get("terms", []), f"lexicon: concept {entry['id']}"),
                str(dimension) if dimension else None,
                frozenset(str(d) for d in entry.get("not_dimensions", [])),
            )
        )
    return tuple(out)


def _qualifiers(data: Mapping[str, Any]) -> tuple[Qualifier, ...]:
    out = []
    for entry in data.get("qualifiers", []):
        try:
            out.append(Qualifier(re.compile(str(entry["pattern"])), str(entry["key"])))
        except (KeyError, re.error) as err:
            raise InputError(f"lexicon: bad [[qualifiers]] entry ({err})") from None
    return tuple(out)


def _units(data: Mapping[str, Any]) -> tuple[Unit, ...]:
    out = []
    unread = set(_words(_table(data, "comparison").get("unit_dimensions_not_read", []), "lexicon"))
    for spec in parse_units(_table(data, "units")):
        if spec.dimension in unread:
            continue
        for symbol in spec.symbols:
            out.append(Unit(symbol, spec.name, spec.dimension, spec.factor, True))
        for word in spec.words:
            out.append(Unit(fold(word), spec.name, spec.dimension, spec.factor, False))
    # Longest word first: "ms" before "m", "minutes" before "min".
    return tuple(sorted(out, key=lambda u: -len(u.word)))


def _groups(table: Mapping[str, Any], where: str) -> dict[str, tuple[str, ...]]:
    return {str(k): _words(v, f"{where}.{k}") for k, v in table.items()}


def _source_types(data: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, str]]:
    ranks: dict[str, int] = {}
    aliases: dict[str, str] = {}
    for name, spec in _table(data, "source_types").items():
        canonical = fold(name)
        ranks[canonical] = int(spec["rank"])
        for alias in spec.get("aliases", []):
            aliases[normalize_type_name(alias)] = canonical
    return ranks, aliases


def normalize_type_name(text: str) -> str:
    """A source type as written, folded: case, accents, ``_``/``-`` and spaces ignored."""
    return " ".join(fold(text).replace("_", " ").replace("-", " ").split())


def lexicon_from_data(data: Mapping[str, Any]) -> Lexicon:
    """Build a lexicon from parsed TOML data; a malformed entry raises InputError."""
    try:
        stop, names = _table(data, "stopwords"), _table(data, "names")
        money, licences = _table(data, "money"), _table(data, "licences")
        periods = dict(_table(data, "periods"))
        per = _words(periods.pop("per", []), "lexicon: periods.per")
        ranks, aliases = _source_types(data)
        return Lexicon(
            stopwords=frozenset(_words(stop.get("words", []), "lexicon: stopwords.words")),
            question_words=frozenset(_words(stop.get("question_words", []), "lexicon")),
            generic_acronyms=frozenset(str(a) for a in names.get("generic_acronyms", [])),
            months=frozenset(_words(names.get("months", []), "lexicon: names.months")),
            concepts=_concepts(data),
            qualifiers=_qualifiers(data),
            modality=_groups(_table(data, "modality"), "lexicon: modality"),
            past_cues=_words(_table(data, "negation").get("past", []), "lexicon: negation"),
            units=_units(data),
            currencies=_groups(money.get("currencies", {}), "lexicon: money.currencies"),
            scales={Decimal(k): v for k, v in _groups(money.get("scales", {}), "money").items()},
            taxes=_groups(money.get("tax", {}), "lexicon: money.tax"),
            per_words=per,
            periods=_groups(periods, "lexicon: periods"),
            statuses=_groups(_table(data, "statuses"), "lexicon: statuses"),
            id_patterns=tuple(re.compile(p) for p in _table(data, "ids").get("patterns", [])),
            licence_names=tuple(
                (str(n[0]), *_words(n, "lexicon: licences")) for n in licences.get("names", [])
            ),
            licence_kinds=tuple(_words(n, "lexicon: licences") for n in licences.get("kinds", [])),
            source_ranks=ranks,
            source_aliases=aliases,
            attribution_cues=_words(_table(data, "attribution").get("cues", []), "lexicon"),
            language_words=_groups(_table(data, "languages"), "lexicon: languages"),
            criteria_cues=_words(stop.get("criteria_cues", []), "lexicon: criteria_cues"),
            advisory_states=_words(_table(data, "ids").get("advisory_states", []), "lexicon"),
            condition_cues=_words(_table(data, "conditions").get("cues", []), "lexicon"),
            not_compared=_words(_table(data, "comparison").get("not_compared", []), "lexicon"),
            affirm_cues=_words(_table(data, "properties").get("affirm", []), "lexicon"),
            deny_cues=_words(_table(data, "properties").get("deny", []), "lexicon"),
            passive_cues=_words(_table(data, "properties").get("passive", []), "lexicon"),
            grammar=_groups(_table(data, "grammar"), "lexicon: grammar"),
            measures=_groups(_table(data, "measures"), "lexicon: measures"),
            pricing=_groups(_table(data, "pricing"), "lexicon: pricing"),
            yes_no={
                str(lang): (
                    str(word),
                    str(_table(data, "properties").get("no", {}).get(lang, "no")),
                )
                for lang, word in _table(data, "properties").get("yes", {}).items()
            },
        )
    except (KeyError, TypeError, ValueError, ArithmeticError, re.error) as err:
        if isinstance(err, InputError):
            raise
        raise InputError(f"lexicon: malformed entry ({err!r})") from None


def merge_data(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``extra`` over ``base``: lists appended, tables merged, other values replaced."""
    merged = dict(base)
    for key, value in extra.items():
        old = merged.get(key)
        if isinstance(old, list) and isinstance(value, list):
            merged[key] = [*old, *value]
        elif isinstance(old, dict) and isinstance(value, dict):
            merged[key] = merge_data(old, value)
        else:
            merged[key] = value
    return merged


@cache
def _default_data() -> dict[str, Any]:
    text = resources.files("preuve.synthesis").joinpath("data/lexicon.toml").read_text("utf-8")
    # The units are declared once, in core's data: the quote check reads them too.
    return {**tomllib.loads(text), "units": declared_unit_data()}


@cache
def default_lexicon() -> Lexicon:
    """The bundled lexicon (read once; it is immutable)."""
    return lexicon_from_data(_default_data())


def checked_extension(data: Mapping[str, Any]) -> dict[str, Any]:
    """A lexicon extension's parsed table (a dossier's ``lexicon.toml``), checked by building
    the extended lexicon once."""
    lexicon_from_data(merge_data(_default_data(), dict(data)))
    return dict(data)


@lru_cache(maxsize=32)
def _extended(key: str) -> Lexicon:
    return lexicon_from_data(merge_data(_default_data(), json.loads(key)))


def extended_lexicon(extension: Mapping[str, Any] | None) -> Lexicon:
    """The bundled lexicon extended by ``extension`` (plain data, as a request payload can
    carry it); the bundled one itself when there is none."""
    if not extension:
        return default_lexicon()
    return _extended(json.dumps(dict(extension), sort_keys=True, ensure_ascii=False))


def lexicon_with(extensions: Sequence[Mapping[str, Any]] = ()) -> Lexicon:
    """The bundled lexicon extended by each parsed extension of ``extensions``, in order."""
    if not extensions:
        return default_lexicon()
    data: dict[str, Any] = dict(_default_data())
    for extension in extensions:
        data = merge_data(data, dict(extension))
    return lexicon_from_data(data)


def names_sum(label: str, lexicon: Lexicon) -> bool:
    """Whether a label names a sum, with or without its tax words ("Total HT", "Total excl.
    VAT", "Subtotal", "Net total": lexicon ``[pricing] aggregates``, ``sum_qualifiers``)."""
    folded = fold(label)
    for phrase in sorted((p for ps in lexicon.taxes.values() for p in ps), key=len, reverse=True):
        folded = re.sub(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", " ", folded)
    words = set(re.findall(r"[a-z][a-z-]*", folded)) - lexicon.stopwords  # "VAT 23 %" too
    sums = set((lexicon.pricing or {}).get("aggregates", ()))
    qualifiers = set((lexicon.pricing or {}).get("sum_qualifiers", ()))
    return bool(words & sums) and words <= sums | qualifiers
