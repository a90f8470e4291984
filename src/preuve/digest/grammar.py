"""The fact grammar of a corpus, as declared data: which lines state a fact, and which fact.

A fact line is one whole line ``[label] <subject> <field label><separator> <value>[.]``
(the label: a listed word, or any word matching ``label_pattern``),
optionally behind a list marker (``-``, ``*``, ``•``, ``1.``, ``a)``)::

    Product P-03-07 delivery: 23 October 2026.
    - SKU-114 qty: 40 pallets
    Lot LT-7 site: Saint-Étienne dépôt.

The grammar is a JSON file (format ``preuve.digest.grammar/1``): subject labels and the
subject pattern, separators, the fields with their labels and value form, and the value
forms as regular expressions (``{LETTER}`` is any Unicode letter, ``{MONTH}`` a listed
month name, other ``{NAME}`` macros are declared under ``macros``), each with an optional
case rule (``lower``, ``first-upper``). The default (``data/grammar.json``) covers dates
with or without a year, quantities in any unit, hyphenated statuses and place names in
any script; a dossier may ship its own ``grammar.json`` beside its documents (read by
:func:`preuve.loaders.load_grammar`: this module parses data, it opens no user file).

Everything outside the grammar makes a line *not* a fact line: a prefix or suffix, a
quote mark, a value of the wrong shape, a value carrying a negation cue. Whether a fact
line is *affirmed* in its document is a separate question (:mod:`preuve.digest.affirm`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from preuve.core.errors import InputError

__all__ = [
    "DEFAULT_GRAMMAR",
    "GRAMMAR_FILE",
    "FactGrammar",
    "FactTuple",
    "default_grammar",
    "grammar_from_data",
]

GRAMMAR_FILE = "grammar.json"
_FORMAT = "preuve.digest.grammar/1"
_LETTER = r"[^\W\d_]"
_MACRO = re.compile(r"\{([A-Z][A-Z_]*)\}")
_LIST_MARKER = re.compile(r"(?:[-*•‣◦–—]|\(?[0-9]{1,3}[.)]|\(?[a-z][.)])\s+")
_CASES = (None, "lower", "first-upper")
# A value inside a line runs to a quote mark, a tag, a semicolon or a sentence's end.
_EMBEDDED_VALUE = r"[^;\"”»<>|\n]+?(?=[;\"”»<>|]|\.(?:\s|$)|$)"


@dataclass(frozen=True, slots=True)
class FactTuple:
    """What a fact line asserts: ``(subject, field, value)``, e.g. ``("P-03-07", ...)``."""

    subject: str
    field: str
    value: str


@dataclass(frozen=True, slots=True)
class _ValueForm:
    pattern: re.Pattern[str]
    case: str | None

    def accepts(self, value: str) -> bool:
        if not self.pattern.fullmatch(value):
            return False
        if self.case == "lower":
            return value == value.lower()
        if self.case == "first-upper":
            return value[0].isupper()
        return True


@dataclass(frozen=True, slots=True)
class FactGrammar:
    """A compiled fact grammar; :meth:`parse` reads one line."""

    data: Mapping[str, Any]
    fields: tuple[str, ...]
    _line: re.Pattern[str] = field(repr=False, compare=False)
    _field_of_label: Mapping[str, str] = field(repr=False, compare=False)
    _forms: Mapping[str, _ValueForm] = field(repr=False, compare=False)
    _negation: re.Pattern[str] | None = field(repr=False, compare=False)
    _embedded: re.Pattern[str] | None = field(default=None, repr=False, compare=False)

    @property
    def digest(self) -> str:
        """SHA-256 of the grammar's canonical JSON: it enters every cache key."""
        text = json.dumps(self.data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def parse(self, line: str) -> FactTuple | None:
        """The fact a whole line asserts, or ``None`` when the line is not a fact line."""
        text = line.strip()
        marker = _LIST_MARKER.match(text)
        if marker is not None:
            text = text[marker.end() :]
        if text.endswith("."):
            text = text[:-1].rstrip()
        match = self._line.fullmatch(text)
        if match is None:
            return None
        field_name = self._field_of_label[match.group("field").casefold()]
        value = match.group("value").strip()
        if not value or not self._forms[field_name].accepts(value):
            return None
        if self._negation is not None and self._negation.search(value):
            return None
        return FactTuple(match.group("subject"), field_name, value)

    def embedded(self, line: str) -> tuple[FactTuple, ...]:
        """Fact shapes *inside* a line (a quote, a sentence): what a line mentions.

        Never a fact by itself: this is what the audit uses to say why a claim citing such
        a line is not supported, and what a context-blind reader would take.
        """
        if self._embedded is None:
            return ()
        found: list[FactTuple] = []
        for match in self._embedded.finditer(line):
            field_name = self._field_of_label[match.group("field").casefold()]
            value = match.group("value").strip().rstrip(".")
            for end in range(len(value), 0, -1):  # the longest prefix of the right shape
                candidate = value[:end].rstrip()
                if candidate and self._forms[field_name].accepts(candidate):
                    found.append(FactTuple(match.group("subject"), field_name, candidate))
                    break
        return tuple(found)

    def format(self, fact: FactTuple) -> str:
        """The canonical line asserting ``fact`` (first subject label, first field label)."""
        labels = self.data["subject"]["labels"]
        prefix = f"{labels[0]} " if labels else ""
        label = self.data["fields"][fact.field]["labels"][0]
        separator = self.data["separators"][0]
        return f"{prefix}{fact.subject} {label}{separator} {fact.value}."


def _fail(where: str, message: str) -> InputError:
    return InputError(f"{where}: {message}", fix=f"see the {_FORMAT} format in the README")


def _strings(where: str, value: object, name: str, *, empty: bool = False) -> list[str]:
    ok = isinstance(value, list) and all(isinstance(v, str) and v for v in value)
    if not ok or (not empty and not value):
        raise _fail(where, f"{name!r} must be a list of non-empty strings")
    assert isinstance(value, list)
    return [str(v) for v in value]


def _expand(where: str, pattern: str, macros: Mapping[str, str], depth: int = 0) -> str:
    if depth > 8:
        raise _fail(where, f"macros nested too deeply in {pattern!r}")

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in macros:
            raise _fail(where, f"unknown macro {{{name}}} in pattern {pattern!r}")
        return f"(?:{_expand(where, macros[name], macros, depth + 1)})"

    return _MACRO.sub(replace, pattern)


def _compile(where: str, pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as err:
        raise _fail(
            where, f"pattern {pattern!r} is not a valid regular expression ({err})"
        ) from None


def _alternatives(items: list[str]) -> str:
    # Longest first, so that "delivery date" is tried before "delivery".
    return "|".join(re.escape(item) for item in sorted(items, key=len, reverse=True))


def grammar_from_data(data: object, where: str = "grammar") -> FactGrammar:
    """Compile grammar ``data`` (parsed JSON); ``InputError`` naming the first problem."""
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise _fail(where, f'not a fact grammar (expected "format": {_FORMAT!r})')
    subject, fields_data = data.get("subject"), data.get("fields")
    if not isinstance(subject, dict) or not isinstance(subject.get("pattern"), str):
        raise _fail(where, "'subject' must be an object with a 'pattern'")
    if not isinstance(fields_data, dict) or not fields_data:
        raise _fail(where, "'fields' must be a non-empty object")
    months = _strings(where, data.get("months", []), "months", empty=True)
    raw_macros = data.get("macros", {})
    if not isinstance(raw_macros, dict) or not all(isinstance(v, str) for v in raw_macros.values()):
        raise _fail(where, "'macros' must map names to patterns")
    macros = {"LETTER": _LETTER, "MONTH": _alternatives(months) or "(?!)", **raw_macros}
    values = data.get("values")
    if not isinstance(values, dict):
        raise _fail(where, "'values' must be an object of value forms")
    forms: dict[str, _ValueForm] = {}
    labels: dict[str, str] = {}
    for name, spec in fields_data.items():
        if not isinstance(spec, dict) or spec.get("value") not in values:
            raise _fail(where, f"field {name!r} must name a value form declared under 'values'")
        form = values[spec["value"]]
        if not isinstance(form, dict) or form.get("case") not in _CASES:
            raise _fail(where, f"value form {spec['value']!r}: 'case' must be one of {_CASES}")
        patterns = _strings(where, form.get("patterns"), f"values.{spec['value']}.patterns")
        joined = "|".join(f"(?:{_expand(where, p, macros)})" for p in patterns)
        forms[name] = _ValueForm(_compile(where, joined), form.get("case"))
        for label in _strings(where, spec.get("labels", [name]), f"fields.{name}.labels"):
            labels[label.casefold()] = name
    subject_labels = _strings(where, subject.get("labels", []), "subject.labels", empty=True)
    choices = [_alternatives(subject_labels)] if subject_labels else []
    label_pattern = subject.get("label_pattern")
    if label_pattern is not None:
        if not isinstance(label_pattern, str) or not label_pattern:
            raise _fail(where, "'subject.label_pattern' must be a non-empty pattern")
        _compile(where, label_pattern)
        choices.append(_expand(where, label_pattern, macros))
    label_part = f"(?:{'|'.join(choices)}) " if choices else ""
    if label_part and not subject.get("label_required", False):
        label_part = f"(?:{label_part})?"
    separators = _strings(where, data.get("separators", [":"]), "separators")
    subject_pattern = _expand(where, str(subject["pattern"]), macros)
    line = (
        f"{label_part}(?P<subject>{subject_pattern}) (?P<field>{_alternatives(list(labels))})"
        f" ?(?:{_alternatives(separators)}) (?P<value>.+)"
    )
    cues = _strings(where, data.get("negation_cues", []), "negation_cues", empty=True)
    negation = re.compile(rf"\b(?:{_alternatives(cues)})\b", re.IGNORECASE) if cues else None
    return FactGrammar(
        data=json.loads(json.dumps(data)),
        fields=tuple(fields_data),
        _line=re.compile(line, re.IGNORECASE if data.get("ignore_case") else 0),
        _field_of_label=labels,
        _forms=forms,
        _negation=negation,
        _embedded=re.compile(
            rf"(?<![\w-])(?P<subject>{subject_pattern}) (?P<field>{_alternatives(list(labels))})"
            rf" ?(?:{_alternatives(separators)}) (?P<value>{_EMBEDDED_VALUE})"
        ),
    )


def _default() -> FactGrammar:
    text = resources.files("preuve.digest").joinpath("data", GRAMMAR_FILE).read_text("utf-8")
    return grammar_from_data(json.loads(text), "the default grammar")


DEFAULT_GRAMMAR = _default()


def default_grammar() -> FactGrammar:
    """The default fact grammar (``preuve/digest/data/grammar.json``)."""
    return DEFAULT_GRAMMAR
