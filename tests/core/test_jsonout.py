"""Strict parsing of model JSON and the schema subset (preuve.core.jsonout)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.core.jsonout import check_schema, parse_model_json, validate_schema

# The digest claim schema of SPEC.md workflow 3, written in the supported subset: exactly
# {"claims": [...]}, at most 4 claims, each exactly subject, field, value, evidence (1-4
# unique ids), field in the four names, strings 1-120 characters.
TEXT: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 120}
CLAIM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "subject": TEXT,
        "field": {"type": "string", "enum": ["delivery", "status", "quantity", "site"]},
        "value": TEXT,
        "evidence": {
            "type": "array",
            "items": TEXT,
            "minItems": 1,
            "maxItems": 4,
            "uniqueItems": True,
        },
    },
    "required": ["subject", "field", "value", "evidence"],
    "additionalProperties": False,
}
CLAIMS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"claims": {"type": "array", "items": CLAIM, "maxItems": 4}},
    "required": ["claims"],
    "additionalProperties": False,
}
ANY: dict[str, Any] = {}


def claim(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "subject": "P-01-01",
        "field": "delivery",
        "value": "12 March 2024",
        "evidence": ["D1@1:0:40"],
    }
    return {**base, **fields}


def answer(*claims: dict[str, object]) -> str:
    return json.dumps({"claims": list(claims)})


VALID = answer(claim())


# --- accepted answers and the two declared repairs -------------------------------------------

PRETTY = json.dumps(json.loads(VALID), indent=2)
FOUR = answer(*[claim(subject=f"P-01-0{i}") for i in range(4)])
LONGEST = answer(claim(value="x" * 120))
ACCEPTED = [
    ("plain", VALID, VALID, ()),
    ("no-claims", '{"claims": []}', '{"claims": []}', ()),
    ("four-claims", FOUR, FOUR, ()),
    ("outer-whitespace", f"\n  {VALID}\t\r\n", VALID, ("strip_whitespace",)),
    ("json-fence", f"```json\n{VALID}\n```", VALID, ("remove_fence",)),
    ("bare-fence", f"```\n{VALID}\n```", VALID, ("remove_fence",)),
    ("upper-case-fence", f"```JSON\n{VALID}\n```", VALID, ("remove_fence",)),
    ("fence-closing-on-same-line", f"```json\n{VALID}```", VALID, ("remove_fence",)),
    ("crlf-fence", f"```json\r\n{VALID}\r\n```", VALID, ("remove_fence",)),
    (
        "whitespace-then-fence",
        f"  ```json\n{VALID}\n```\n",
        VALID,
        ("strip_whitespace", "remove_fence"),
    ),
    (
        "backticks-in-a-string",
        f"```json\n{answer(claim(value='a ``` b'))}\n```",
        answer(claim(value="a ``` b")),
        ("remove_fence",),
    ),
    ("pretty-printed", PRETTY, VALID, ()),
    ("max-length-strings", LONGEST, LONGEST, ()),
]


@pytest.mark.parametrize(
    ("raw", "payload", "repairs"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED]
)
def test_accepted_answers_report_their_repairs(
    raw: str, payload: str, repairs: tuple[str, ...]
) -> None:
    result = parse_model_json(raw, CLAIMS_SCHEMA)
    assert result.ok, result.defects
    assert result.defects == ()
    assert result.repairs == repairs
    assert result.value == json.loads(payload)


# --- rejected answers: one named case per defect ---------------------------------------------

NESTED_ARRAYS = "[" * 10_000 + "]" * 10_000
NESTED_OBJECTS = '{"a":' * 10_000 + "1" + "}" * 10_000

REJECTED: list[tuple[str, str, str | None, list[tuple[str, str]]]] = [
    ("prose-before", f"Here is the JSON: {VALID}", "stop", [("not_json", "$")]),
    ("prose-after", f"{VALID}\nHope this helps.", "stop", [("not_json", "$")]),
    ("fence-inside-prose", f"Sure!\n```json\n{VALID}\n```", "stop", [("not_json", "$")]),
    ("two-fences", f"```\n```json\n{VALID}\n```\n```", "stop", [("not_json", "$")]),
    ("inline-fence", f"```json {VALID}```", "stop", [("not_json", "$")]),
    ("unclosed-fence", f"```json\n{VALID}\n", "stop", [("not_json", "$")]),
    ("trailing-comma", VALID[:-2] + "],}", "stop", [("not_json", "$")]),
    ("single-quotes", VALID.replace('"', "'"), "stop", [("not_json", "$")]),
    ("comment", "// claims\n" + VALID, "stop", [("not_json", "$")]),
    ("two-values", VALID + VALID, "stop", [("not_json", "$")]),
    ("empty", "", "stop", [("not_json", "$")]),
    ("only-whitespace", " \n\t", "stop", [("not_json", "$")]),
    ("bom", "\ufeff" + VALID, "stop", [("not_json", "$")]),
    ("huge-integer", '{"claims": [], "n": ' + "9" * 5000 + "}", "stop", [("not_json", "$")]),
    ("duplicate-top-key", '{"claims": [], "claims": []}', "stop", [("duplicate_key", "$")]),
    (
        "duplicate-nested-key",
        VALID.replace('"subject": "P-01-01"', '"subject": "A", "subject": "B"'),
        "stop",
        [("duplicate_key", "$.claims[0]")],
    ),
    ("nan", '{"claims": [], "x": NaN}', "stop", [("non_finite", "$.x")]),
    ("infinity", '{"claims": [Infinity]}', "stop", [("non_finite", "$.claims[0]")]),
    ("minus-infinity", '{"claims": [-Infinity]}', "stop", [("non_finite", "$.claims[0]")]),
    ("overflowing-float", '{"claims": [1e999]}', "stop", [("non_finite", "$.claims[0]")]),
    ("nested-10000-arrays", NESTED_ARRAYS, "stop", [("too_deep", "$")]),
    ("nested-10000-objects", NESTED_OBJECTS, "stop", [("too_deep", "$")]),
    ("truncated-but-parses", VALID, "length", [("truncated", "$")]),
    ("truncated-prefix", VALID[:30], "length", [("truncated", "$")]),
    ("claims-not-array", '{"claims": {"a": 1}}', "stop", [("schema", "$.claims")]),
    ("top-level-array", "[]", "stop", [("schema", "$")]),
    ("top-level-null", "null", "stop", [("schema", "$")]),
    ("missing-claims", "{}", "stop", [("schema", "$.claims")]),
    ("extra-top-key", '{"claims": [], "notes": "x"}', "stop", [("schema", "$.notes")]),
    (
        "extra-claim-key",
        answer(claim(confidence=0.9)),
        "stop",
        [("schema", "$.claims[0].confidence")],
    ),
    (
        "odd-key-quoted-in-path",
        answer(claim(**{"a b": 1})),
        "stop",
        [("schema", '$.claims[0]["a b"]')],
    ),
    (
        "missing-evidence",
        answer({k: v for k, v in claim().items() if k != "evidence"}),
        "stop",
        [("schema", "$.claims[0].evidence")],
    ),
    (
        "five-claims",
        answer(*[claim(subject=f"S{i}") for i in range(5)]),
        "stop",
        [("schema", "$.claims")],
    ),
    ("no-evidence", answer(claim(evidence=[])), "stop", [("schema", "$.claims[0].evidence")]),
    (
        "five-evidence",
        answer(claim(evidence=[f"D1@1:{i}:9" for i in range(5)])),
        "stop",
        [("schema", "$.claims[0].evidence")],
    ),
    (
        "repeated-evidence",
        answer(claim(evidence=["D1@1:0:4", "D1@1:0:4"])),
        "stop",
        [("schema", "$.claims[0].evidence[1]")],
    ),
    ("field-not-allowed", answer(claim(field="price")), "stop", [("schema", "$.claims[0].field")]),
    ("empty-subject", answer(claim(subject="")), "stop", [("schema", "$.claims[0].subject")]),
    ("value-121-chars", answer(claim(value="x" * 121)), "stop", [("schema", "$.claims[0].value")]),
    ("value-integer", answer(claim(value=12)), "stop", [("schema", "$.claims[0].value")]),
    ("value-bool", answer(claim(value=True)), "stop", [("schema", "$.claims[0].value")]),
    (
        "evidence-id-not-str",
        answer(claim(evidence=[7])),
        "stop",
        [("schema", "$.claims[0].evidence[0]")],
    ),
    (
        "several-defects-all-reported",
        answer(claim(field="price", value=""), claim(extra=1)),
        "stop",
        [
            ("schema", "$.claims[0].field"),
            ("schema", "$.claims[0].value"),
            ("schema", "$.claims[1].extra"),
        ],
    ),
]


@pytest.mark.parametrize(
    ("raw", "finish_reason", "expected"),
    [c[1:] for c in REJECTED],
    ids=[c[0] for c in REJECTED],
)
def test_rejected_answers_name_each_defect_and_where(
    raw: str, finish_reason: str | None, expected: list[tuple[str, str]]
) -> None:
    result = parse_model_json(raw, CLAIMS_SCHEMA, finish_reason=finish_reason)
    assert not result.ok
    assert result.value is None
    assert [(d.code, d.path) for d in result.defects] == expected
    assert all(d.detail for d in result.defects)


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (f"Here: {VALID}", "no text before or after it"),
        (f"{VALID} ok", "text follows the JSON value"),
        ('{"claims": [], "claims": []}', 'key "claims" appears more than once'),
        ('{"claims": [NaN]}', "NaN is not a JSON number"),
        (answer(claim(field="price")), 'must be one of "delivery", "status"'),
        (answer(claim(value="x" * 121)), "has 121 characters; at most 120"),
        (answer(claim(extra=1)), "allowed keys: subject, field, value, evidence"),
        (answer(claim(evidence=["a", "a"])), "repeats item 0"),
        (answer(claim(value=12)), "expected string, got integer 12"),
    ],
    ids=[
        "prose",
        "extra-data",
        "duplicate",
        "nan",
        "enum",
        "max-length",
        "extra-key",
        "unique",
        "type",
    ],
)
def test_defect_details_tell_a_model_what_to_fix(raw: str, fragment: str) -> None:
    details = " | ".join(d.detail for d in parse_model_json(raw, CLAIMS_SCHEMA).defects)
    assert fragment in details


# --- limits ------------------------------------------------------------------------------------


def test_ten_megabyte_answer_is_rejected_by_max_chars_before_parsing() -> None:
    raw = '"' + "a" * 10_000_000 + '"'
    result = parse_model_json(raw, {"type": "string"}, max_chars=1_000_000)
    assert [d.code for d in result.defects] == ["too_large"]
    assert "10000002 characters" in result.defects[0].detail
    allowed = parse_model_json(raw, {"type": "string"}, max_chars=20_000_000)
    assert allowed.ok
    assert allowed.value == "a" * 10_000_000


@pytest.mark.parametrize(
    ("depth", "ok"), [(64, True), (65, False)], ids=["at-limit", "one-past-limit"]
)
def test_depth_limit_is_exact(depth: int, ok: bool) -> None:
    result = parse_model_json("[" * depth + "]" * depth, ANY)
    assert result.ok is ok
    assert [d.code for d in result.defects] == ([] if ok else ["too_deep"])


def test_brackets_inside_strings_do_not_count_as_depth() -> None:
    raw = json.dumps(["[{" * 5000 + '\\"', "]]]"])
    result = parse_model_json(raw, ANY)
    assert result.ok, result.defects


def test_deep_nesting_past_the_recursion_limit_is_a_defect_even_with_a_high_max_depth() -> None:
    raw = "[" * 100_000 + "]" * 100_000
    result = parse_model_json(raw, ANY, max_depth=1_000_000)
    assert [d.code for d in result.defects] == ["too_deep"]


@pytest.mark.parametrize("reason", ["stop", None, "eos"], ids=["stop", "unknown", "eos"])
def test_only_a_length_finish_reason_marks_truncation(reason: str | None) -> None:
    assert parse_model_json(VALID, CLAIMS_SCHEMA, finish_reason=reason).ok


def test_non_text_answer_is_a_defect_not_a_crash() -> None:
    result = parse_model_json(b"{}", ANY)  # type: ignore[arg-type]
    assert [d.code for d in result.defects] == ["not_json"]


# --- the schema subset -------------------------------------------------------------------------

SCHEMA_CASES: list[tuple[str, object, dict[str, Any], list[str]]] = [
    ("integer-accepts-int", 3, {"type": "integer"}, []),
    ("integer-rejects-float", 1.0, {"type": "integer"}, ["$"]),
    ("integer-rejects-bool", True, {"type": "integer"}, ["$"]),
    ("number-accepts-int", 3, {"type": "number"}, []),
    ("number-rejects-bool", False, {"type": "number"}, ["$"]),
    ("boolean", True, {"type": "boolean"}, []),
    ("null", None, {"type": "null"}, []),
    ("type-list", None, {"type": ["string", "null"]}, []),
    ("type-list-miss", 1, {"type": ["string", "null"]}, ["$"]),
    ("no-type-accepts-anything", [1, {"a": None}], {}, []),
    ("const", "x", {"const": "x"}, []),
    ("const-true-is-not-1", 1, {"const": True}, ["$"]),
    ("enum-1-equals-1.0", 1.0, {"enum": [1, 2]}, []),
    ("enum-miss", "c", {"enum": ["a", "b"]}, ["$"]),
    ("unique-1-and-1.0", [1, 1.0], {"uniqueItems": True}, ["$[1]"]),
    ("unique-true-and-1", [True, 1], {"uniqueItems": True}, []),
    (
        "unique-objects-key-order",
        [{"a": 1, "b": 2}, {"b": 2, "a": 1}],
        {"uniqueItems": True},
        ["$[1]"],
    ),
    ("pattern-is-searched", "xP-12", {"pattern": "P-[0-9]{2}"}, []),
    ("anchored-pattern", "xP-12", {"pattern": "^P-[0-9]{2}$"}, ["$"]),
    ("minimum", 4, {"minimum": 5}, ["$"]),
    ("maximum", 5.5, {"maximum": 5}, ["$"]),
    ("bounds-ok", 5, {"minimum": 5, "maximum": 5}, []),
    ("min-length-counts-code-points", "é€", {"minLength": 2, "maxLength": 2}, []),
    (
        "additional-properties-schema",
        {"a": 1, "b": "x"},
        {"additionalProperties": {"type": "integer"}},
        ["$.b"],
    ),
    ("tuple-is-an-array", (1, 2), {"type": "array", "items": {"type": "integer"}}, []),
    ("keywords-ignore-other-types", 5, {"minLength": 10, "items": {"type": "string"}}, []),
]


@pytest.mark.parametrize(
    ("value", "schema", "paths"),
    [c[1:] for c in SCHEMA_CASES],
    ids=[c[0] for c in SCHEMA_CASES],
)
def test_validate_schema(value: object, schema: dict[str, Any], paths: list[str]) -> None:
    defects = validate_schema(value, schema)
    assert [d.path for d in defects] == paths
    assert all(d.code == "schema" for d in defects)


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"format": "date"}, "unsupported keyword"),
        ({"$ref": "#/defs/x"}, "unsupported keyword"),
        ({"oneOf": [{"type": "string"}]}, "unsupported keyword"),
        ({"properties": {"a": {"type": "string", "format": "email"}}}, "#/properties/a"),
        ({"items": {"minContains": 1}}, "#/items"),
        ({"additionalProperties": {"patternProperties": {}}}, "#/additionalProperties"),
        ({"type": "float"}, "type must be"),
        ({"type": []}, "type must be"),
        ({"minItems": -1}, "minItems"),
        ({"maxLength": True}, "maxLength"),
        ({"minimum": float("nan")}, "minimum"),
        ({"uniqueItems": "yes"}, "uniqueItems"),
        ({"enum": []}, "enum"),
        ({"required": "a"}, "required"),
        ({"pattern": "("}, "pattern is not a valid regex"),
        ({"properties": ["a"]}, "properties"),
        ([], "must be a mapping"),
    ],
    ids=[
        "format",
        "ref",
        "one-of",
        "nested-in-properties",
        "nested-in-items",
        "nested-in-additional",
        "unknown-type",
        "empty-type-list",
        "negative-count",
        "bool-count",
        "nan-bound",
        "unique-not-bool",
        "empty-enum",
        "required-not-list",
        "bad-regex",
        "properties-not-mapping",
        "not-a-mapping",
    ],
)
def test_unsupported_schemas_raise_value_error(schema: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_schema(schema)
    with pytest.raises(ValueError, match=message):
        validate_schema({}, schema)
    with pytest.raises(ValueError, match=message):
        parse_model_json("{}", schema)


def test_claims_schema_is_in_the_supported_subset() -> None:
    check_schema(CLAIMS_SCHEMA)
    assert json.loads(json.dumps(CLAIMS_SCHEMA)) == CLAIMS_SCHEMA


# --- properties --------------------------------------------------------------------------------

JSON_ALPHABET = st.sampled_from(list('{}[]",:0123456789.-+eE \n\ttrufalsnNIy`\\x'))


@given(st.one_of(st.text(max_size=200), st.text(JSON_ALPHABET, max_size=200)))
def test_parse_model_json_never_raises_on_any_text(raw: str) -> None:
    for schema in (CLAIMS_SCHEMA, ANY):
        result = parse_model_json(raw, schema, max_depth=8)
        assert result.ok is (not result.defects)
        if not result.ok:
            assert result.value is None


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON_VALUES, st.booleans(), st.booleans())
def test_any_finite_json_value_round_trips_with_or_without_the_repairs(
    value: object, fenced: bool, padded: bool
) -> None:
    raw = json.dumps(value)
    if fenced:
        raw = f"```json\n{raw}\n```"
    if padded:
        raw = f" \n{raw}\n "
    result = parse_model_json(raw, ANY)
    assert result.ok, result.defects
    assert result.value == value
    expected = (("strip_whitespace",) if padded else ()) + (("remove_fence",) if fenced else ())
    assert result.repairs == expected
