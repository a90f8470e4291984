"""Strict parsing of a model's JSON answer against a schema.

A model's answer is untrusted data. :func:`parse_model_json` applies exactly two declared
repairs and nothing else:

1. ``strip_whitespace``: remove JSON whitespace (space, tab, CR, LF) around the answer;
2. ``remove_fence``: remove ONE complete Markdown fence (```` ```json ```` or ```` ``` ````,
   then a line break, ..., then ```` ``` ````) wrapping the whole answer.

No trailing comma is dropped, no single quote fixed, no JSON is dug out of prose. It then
rejects inputs over ``max_chars``, nesting deeper than ``max_depth`` (measured by a scan
outside strings *before* ``json.loads`` could recurse), duplicate keys, ``NaN`` and
``±Infinity`` and non-finite floats, and a generation cut by its token limit
(``finish_reason == "length"``) even when its prefix parses.

Schemas are plain dicts in a strict subset of JSON Schema, so the same dict can be sent to
an OpenAI-compatible endpoint as ``response_format`` ``json_schema``. Supported keywords:
``type`` (object, array, string, integer, number, boolean, null, or a list of them),
``properties``, ``required``, ``additionalProperties`` (bool or schema), ``items``,
``minItems``, ``maxItems``, ``uniqueItems``, ``minLength``, ``maxLength``, ``enum``,
``const``, ``pattern``, ``minimum``, ``maximum``; ``title`` and ``description`` are
annotations. Any other keyword raises ``ValueError``: a schema is never silently ignored.
Where this differs from JSON Schema it is stricter: ``integer`` is a JSON integer literal
(``1.0`` is a number, not an integer); ``bool`` is never an integer or a number.
``pattern`` is searched (``re.search``), as in JSON Schema, so anchor it with ``^...$``;
note that Python's ``$`` also matches before a final newline.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from preuve.core.defects import Defect

__all__ = [
    "DuplicateKeyError",
    "JsonResult",
    "check_schema",
    "loads_unique_keys",
    "parse_model_json",
    "validate_schema",
]

_JSON_WHITESPACE = " \t\r\n"
_FENCE = re.compile(r"```(?:[jJ][sS][oO][nN])?[ \t]*\r?\n(?P<body>.*?)```", re.DOTALL)
# One token per string literal (skipped whole) or bracket, to measure depth without parsing.
_DEPTH_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
_COUNT_KEYWORDS = ("minItems", "maxItems", "minLength", "maxLength")
_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "uniqueItems",
        "enum", "const", "pattern", "minimum", "maximum", "title", "description",
        *_COUNT_KEYWORDS,
    }
)  # fmt: skip
_PREVIEW = 40


@dataclass(frozen=True, slots=True)
class JsonResult:
    """The outcome of :func:`parse_model_json`.

    ``value`` is the parsed answer when ``ok`` and ``None`` otherwise; ``repairs`` names the
    declared repairs that were applied (``strip_whitespace``, ``remove_fence``).
    """

    ok: bool
    value: object | None
    defects: tuple[Defect, ...]
    repairs: tuple[str, ...]


class _DuplicateKeys(dict[str, Any]):
    """An object in which some keys appeared more than once (found after parsing)."""

    __slots__ = ("duplicates",)

    def __init__(self, pairs: list[tuple[str, Any]], duplicates: list[str]) -> None:
        super().__init__(pairs)
        self.duplicates = tuple(duplicates)


@dataclass(frozen=True, slots=True)
class _NonFiniteConstant:
    name: str


def _object_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    duplicates: list[str] = []
    for key, _ in pairs:
        if key in seen:
            duplicates.append(key)
        seen.add(key)
    return _DuplicateKeys(pairs, duplicates) if duplicates else dict(pairs)


class DuplicateKeyError(ValueError):
    """A JSON object names a key twice: which value was meant is ambiguous."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKeyError(f"key {json.dumps(key)} appears more than once")
        result[key] = value
    return result


def loads_unique_keys(text: str) -> Any:
    """``json.loads`` for files a user wrote, refusing a key given twice (the last would win
    silently) as the model-output parser does; raises :class:`DuplicateKeyError`."""
    return json.loads(text, object_pairs_hook=_unique_keys)


def _constant_hook(name: str) -> _NonFiniteConstant:
    return _NonFiniteConstant(name)


def parse_model_json(
    raw: str,
    schema: Mapping[str, Any],
    *,
    finish_reason: str | None = "stop",
    max_chars: int = 1_000_000,
    max_depth: int = 64,
) -> JsonResult:
    """Parse a model's answer strictly and validate it against ``schema``; never raises on
    any answer (an invalid ``schema`` raises ``ValueError``: that is a programmer error)."""
    check_schema(schema)
    candidate: object = raw  # untrusted: the annotation is what callers should pass
    if not isinstance(candidate, str):
        return _failed(Defect("not_json", f"the answer is {type(candidate).__name__}, not text"))
    if finish_reason == "length":
        return _failed(
            Defect(
                "truncated",
                "the answer was cut at the output token limit; write a shorter complete answer",
                path="$",
            )
        )
    if len(candidate) > max_chars:
        return _failed(
            Defect(
                "too_large",
                f"the answer has {len(candidate)} characters; at most {max_chars} are accepted",
                path="$",
            )
        )
    text, repairs = _repair(candidate)
    depth = _nesting_depth(text, max_depth)
    if depth > max_depth:
        return _failed(_too_deep(max_depth), repairs=repairs)
    try:
        value = json.loads(text, object_pairs_hook=_object_hook, parse_constant=_constant_hook)
    except RecursionError:
        return _failed(_too_deep(max_depth), repairs=repairs)
    except json.JSONDecodeError as err:
        return _failed(Defect("not_json", _decode_detail(text, err), path="$"), repairs=repairs)
    except ValueError as err:  # e.g. an integer literal over Python's digit limit
        return _failed(Defect("not_json", f"not valid JSON: {err}", path="$"), repairs=repairs)
    defects = _literal_defects(value, "$")
    if not defects:
        defects = validate_schema(value, schema)
    if defects:
        return _failed(*defects, repairs=repairs)
    return JsonResult(ok=True, value=value, defects=(), repairs=repairs)


def _failed(*defects: Defect, repairs: tuple[str, ...] = ()) -> JsonResult:
    return JsonResult(ok=False, value=None, defects=defects, repairs=repairs)


def _too_deep(max_depth: int) -> Defect:
    return Defect(
        "too_deep", f"the answer nests objects and arrays deeper than {max_depth} levels", path="$"
    )


def _repair(raw: str) -> tuple[str, tuple[str, ...]]:
    """Apply the two declared repairs, and only those, in order."""
    repairs: list[str] = []
    text = raw.strip(_JSON_WHITESPACE)
    if text != raw:
        repairs.append("strip_whitespace")
    fence = _FENCE.fullmatch(text)
    if fence is not None:  # a second fence inside stays, and fails to parse
        text = fence.group("body")
        repairs.append("remove_fence")
    return text, tuple(repairs)


def _nesting_depth(text: str, limit: int) -> int:
    """Deepest bracket nesting outside string literals; stops once past ``limit``."""
    depth = deepest = 0
    for token in _DEPTH_TOKENS.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif char in "]}":
            depth -= 1
    return deepest


def _decode_detail(text: str, err: json.JSONDecodeError) -> str:
    where = f"line {err.lineno} column {err.colno}"
    if not text:
        return "the answer is empty; answer with one JSON value"
    if err.msg == "Extra data":
        return f"text follows the JSON value at {where}; answer with the JSON value alone"
    if err.pos == 0 and ("{" in text or "[" in text):
        return (
            f"the answer does not start with JSON ({err.msg} at {where}); answer with the "
            "JSON value alone, no text before or after it"
        )
    return f"not valid JSON: {err.msg} at {where}"


def _literal_defects(value: object, path: str) -> list[Defect]:
    """Duplicate keys and non-finite numbers, located by path, after parsing."""
    defects: list[Defect] = []
    if isinstance(value, _NonFiniteConstant):
        defects.append(
            Defect(
                "non_finite", f"{value.name} is not a JSON number; use a finite number", path=path
            )
        )
    elif isinstance(value, float) and not math.isfinite(value):
        defects.append(
            Defect(
                "non_finite", "this number overflows to infinity; use a finite number", path=path
            )
        )
    elif isinstance(value, dict):
        if isinstance(value, _DuplicateKeys):
            for key in dict.fromkeys(value.duplicates):
                defects.append(
                    Defect(
                        "duplicate_key", f"key {json.dumps(key)} appears more than once", path=path
                    )
                )
        for key, item in value.items():
            defects.extend(_literal_defects(item, _key_path(path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            defects.extend(_literal_defects(item, f"{path}[{index}]"))
    return defects


def _key_path(path: str, key: object) -> str:
    name = str(key)
    return f"{path}.{name}" if _IDENTIFIER.fullmatch(name) else f"{path}[{json.dumps(name)}]"


# --- schema ---------------------------------------------------------------------------------


def check_schema(schema: Mapping[str, Any], where: str = "#") -> None:
    """Raise ``ValueError`` if ``schema`` uses anything outside the supported subset."""
    candidate: object = schema  # schemas come from code, but nested ones are not typed
    if not isinstance(candidate, Mapping):
        raise ValueError(f"schema {where} must be a mapping, not {type(candidate).__name__}")
    unknown = sorted(str(key) for key in schema if key not in _KEYWORDS)
    if unknown:
        raise ValueError(f"schema {where}: unsupported keyword(s) {', '.join(unknown)}")
    types = schema.get("type", "object")
    names = [types] if isinstance(types, str) else types
    if not isinstance(names, list) or not names or not all(n in _TYPES for n in names):
        raise ValueError(f"schema {where}: type must be one of {sorted(_TYPES)} or a list")
    for key in _COUNT_KEYWORDS:
        if key in schema and not (_is_int(schema[key]) and schema[key] >= 0):
            raise ValueError(f"schema {where}: {key} must be an integer >= 0")
    for key in ("minimum", "maximum"):
        if key in schema and not (_is_number(schema[key]) and math.isfinite(schema[key])):
            raise ValueError(f"schema {where}: {key} must be a finite number")
    if not isinstance(schema.get("uniqueItems", False), bool):
        raise ValueError(f"schema {where}: uniqueItems must be a boolean")
    if "enum" in schema and not (isinstance(schema["enum"], list) and schema["enum"]):
        raise ValueError(f"schema {where}: enum must be a non-empty list")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(k, str) for k in required):
        raise ValueError(f"schema {where}: required must be a list of strings")
    if "pattern" in schema:
        if not isinstance(schema["pattern"], str):
            raise ValueError(f"schema {where}: pattern must be a string")
        try:
            re.compile(schema["pattern"])
        except re.error as err:
            raise ValueError(f"schema {where}: pattern is not a valid regex: {err}") from err
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        raise ValueError(f"schema {where}: properties must be a mapping")
    for name, sub in properties.items():
        check_schema(sub, f"{where}/properties/{name}")
    extra = schema.get("additionalProperties", True)
    if not isinstance(extra, bool):
        check_schema(extra, f"{where}/additionalProperties")
    if "items" in schema:
        check_schema(schema["items"], f"{where}/items")


def validate_schema(value: object, schema: Mapping[str, Any], path: str = "$") -> list[Defect]:
    """Defects (code ``schema``) of ``value`` against ``schema``, each with its path.

    ``ValueError`` if the schema itself uses unsupported keywords (see :func:`check_schema`).
    """
    check_schema(schema)
    defects: list[Defect] = []
    _validate(value, schema, path, defects)
    return defects


def _validate(value: object, schema: Mapping[str, Any], path: str, out: list[Defect]) -> None:
    if "type" in schema:
        names = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        if not any(_has_type(value, name) for name in names):
            out.append(_defect(path, f"expected {' or '.join(names)}, got {_describe(value)}"))
            return
    if "const" in schema and _canonical(value) != _canonical(schema["const"]):
        out.append(_defect(path, f"must be {_preview(schema['const'])}, got {_describe(value)}"))
    if "enum" in schema and _canonical(value) not in {_canonical(e) for e in schema["enum"]}:
        allowed = ", ".join(_preview(option) for option in schema["enum"])
        out.append(_defect(path, f"must be one of {allowed}; got {_describe(value)}"))
    if isinstance(value, str):
        _validate_string(value, schema, path, out)
    elif isinstance(value, int | float):
        if not isinstance(value, bool):
            _validate_number(value, schema, path, out)
    elif isinstance(value, list | tuple):
        _validate_array(value, schema, path, out)
    elif isinstance(value, Mapping):
        _validate_object(value, schema, path, out)


def _validate_string(value: str, schema: Mapping[str, Any], path: str, out: list[Defect]) -> None:
    if "minLength" in schema and len(value) < schema["minLength"]:
        out.append(_defect(path, f"has {len(value)} characters; at least {schema['minLength']}"))
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        out.append(_defect(path, f"has {len(value)} characters; at most {schema['maxLength']}"))
    if "pattern" in schema and re.search(schema["pattern"], value) is None:
        out.append(_defect(path, f"{_preview(value)} does not match {schema['pattern']}"))


def _validate_number(value: float, schema: Mapping[str, Any], path: str, out: list[Defect]) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        out.append(_defect(path, f"{value} is below the minimum {schema['minimum']}"))
    if "maximum" in schema and value > schema["maximum"]:
        out.append(_defect(path, f"{value} is above the maximum {schema['maximum']}"))


def _validate_array(
    value: Sequence[object], schema: Mapping[str, Any], path: str, out: list[Defect]
) -> None:
    if "minItems" in schema and len(value) < schema["minItems"]:
        out.append(_defect(path, f"has {len(value)} items; at least {schema['minItems']}"))
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        out.append(_defect(path, f"has {len(value)} items; at most {schema['maxItems']}"))
    if schema.get("uniqueItems", False):
        first_seen: dict[str, int] = {}
        for index, item in enumerate(value):
            earlier = first_seen.setdefault(_canonical(item), index)
            if earlier != index:
                out.append(
                    _defect(f"{path}[{index}]", f"repeats item {earlier}; items must be unique")
                )
    if "items" in schema:
        for index, item in enumerate(value):
            _validate(item, schema["items"], f"{path}[{index}]", out)


def _validate_object(
    value: Mapping[Any, object], schema: Mapping[str, Any], path: str, out: list[Defect]
) -> None:
    properties: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key in schema.get("required", []):
        if key not in value:
            out.append(_defect(_key_path(path, key), "required key is missing"))
    for key, item in value.items():
        where = _key_path(path, key)
        if key in properties:
            _validate(item, properties[key], where, out)
        elif extra is False:
            allowed = ", ".join(properties) or "none"
            out.append(_defect(where, f"unexpected key; allowed keys: {allowed}"))
        elif isinstance(extra, Mapping):
            _validate(item, extra, where, out)


def _defect(path: str, detail: str) -> Defect:
    return Defect("schema", detail, path=path)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _has_type(value: object, name: str) -> bool:
    if name == "number":
        return _is_number(value)
    return _type_name(value) == name


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _describe(value: object) -> str:
    kind = _type_name(value)
    if kind in {"array", "object"}:
        return kind
    return f"{kind} {_preview(value)}"


def _preview(value: object) -> str:
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        shown = repr(value)
    return shown if len(shown) <= _PREVIEW else shown[: _PREVIEW - 3] + "..."


def _canonical(value: object) -> str:
    """A string equal for JSON-equal values: 1 == 1.0, but true != 1 and "1" != 1."""
    try:
        return json.dumps(_normalize(value), sort_keys=True, ensure_ascii=True)
    except (TypeError, ValueError):
        return repr(value)


def _normalize(value: object) -> object:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list | tuple):
        return [_normalize(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _normalize(item) for key, item in value.items()}
    return value
