"""Hypothesis fuzzing of the untrusted-text entry points: they never raise, whatever comes in.

Complements the properties of tests/core (round trips on well-formed text): here the input
is hostile — any Unicode including lone surrogates (what ``"\\ud800"`` in a model's JSON
decodes to), control characters, deep brackets, huge or non-finite numbers, any page
number — and the property is totality plus the invariants a caller relies on.
"""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preuve.core.errors import InputError
from preuve.core.facts import parse_facts
from preuve.core.jsonout import parse_model_json
from preuve.core.links import find_links, unsupported_links
from preuve.core.memocheck import Paragraph, check_memo
from preuve.core.numbers import Locale, detect_locale, extract_numbers, parse_number
from preuve.core.quotes import QuoteChecker
from preuve.core.text import lenient, normalize, normalize_quote
from preuve.digest.schema import CLAIMS_SCHEMA

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every code point, lone surrogates and controls included.
ANY_CHAR = st.characters(codec=None, exclude_categories=())
ANY_TEXT = st.text(ANY_CHAR, max_size=300)
# Text that looks like report prose and numbers, to reach deep into the parsers.
NUMBERISH = st.text(
    st.sampled_from(list("0123456789 ,.-−+()%x€$k\u00a0\u202f\u2009'’\nabcé")), max_size=80
)
JSON_TOKENS = st.sampled_from(
    ["{", "}", "[", "]", ",", ":", '"claims"', '"a"', "1", "-0", "1e999", "NaN", "Infinity",
     "-Infinity", "true", "null", '"\\ud800"', '"\\u0000"', " ", "\n", "```json\n", "```"]
)  # fmt: skip
JSON_SOUP = st.lists(JSON_TOKENS, max_size=120).map("".join)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(ANY_CHAR, max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(ANY_CHAR, max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@FUZZ
@given(st.one_of(ANY_TEXT, JSON_SOUP), st.sampled_from(["stop", "length", None, "error"]))
def test_strict_json_parsing_is_total(raw: str, finish: str | None) -> None:
    result = parse_model_json(raw, CLAIMS_SCHEMA, finish_reason=finish)
    assert result.ok == (not result.defects)
    if result.ok:  # whatever is accepted is exactly what the schema allows
        assert finish != "length"
        assert isinstance(result.value, dict) and set(result.value) == {"claims"}
    else:
        assert result.value is None and all(d.code and d.detail for d in result.defects)


def _all_finite(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_finite(v) for v in value)
    return True


@FUZZ
@given(json_values, st.booleans())
def test_any_json_value_is_accepted_only_if_finite(value: object, fenced: bool) -> None:
    text = json.dumps(value, allow_nan=True)
    raw = f"```json\n{text}\n```" if fenced else text
    result = parse_model_json(raw, {"type": ["object", "array", "string", "integer", "number",
                                              "boolean", "null"]})  # fmt: skip
    finite = _all_finite(value)  # from the value: a key or a string may spell "NaN"
    assert result.ok == finite, result.defects
    if not finite:
        assert {d.code for d in result.defects} == {"non_finite"}


@FUZZ
@given(st.integers(min_value=0, max_value=20_000), st.sampled_from(["[", '{"a":']))
def test_any_depth_is_refused_before_parsing_not_by_a_crash(depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    raw = opener * depth + "0" + closer * depth
    result = parse_model_json(raw, {"type": ["array", "object", "integer"]}, max_depth=64)
    assert result.ok == (depth <= 64)
    if depth > 64:
        assert [d.code for d in result.defects] == ["too_deep"]


@FUZZ
@given(st.one_of(ANY_TEXT, NUMBERISH), st.sampled_from(list(Locale)))
def test_number_extraction_is_total_and_locates_what_it_reads(text: str, locale: Locale) -> None:
    mentions = extract_numbers(text, locale)
    for mention in mentions:
        assert 0 <= mention.start < mention.end <= len(text)
        assert text[mention.start : mention.end] == mention.raw
        assert mention.value.is_finite()
    starts = [m.start for m in mentions]
    assert starts == sorted(starts)
    detect_locale(text)


@FUZZ
@given(st.one_of(ANY_TEXT, NUMBERISH), st.sampled_from(list(Locale)))
def test_parse_number_is_total(raw: str, locale: Locale) -> None:
    value = parse_number(raw, locale)
    assert value is None or value.is_finite()


@FUZZ
@given(ANY_TEXT)
def test_normalization_is_total_and_maps_back_inside_the_original(text: str) -> None:
    normalized = normalize(text)
    assert normalized.original_length == len(text)
    if normalized.text:
        start, end = normalized.to_original(0, len(normalized.text))
        assert 0 <= start <= end <= len(text)
    lenient(normalized.text)
    normalize_quote(text)


@FUZZ
@given(
    st.lists(ANY_TEXT, max_size=4),
    st.one_of(st.integers(), st.integers(min_value=-2, max_value=6)),
    st.one_of(ANY_TEXT, NUMBERISH),
    st.booleans(),
)
def test_quote_verification_is_total(pages: list[str], page: int, quote: str, strict: bool) -> None:
    result = QuoteChecker(pages, lenient=not strict).verify(page, quote)
    assert result.page == page
    if result.verified:
        assert result.start is not None and result.end is not None
        assert 0 <= result.start < result.end <= len(pages[page - 1])
        assert result.matched == pages[page - 1][result.start : result.end]
    else:
        assert result.reason


@FUZZ
@given(st.one_of(ANY_TEXT, st.text(st.sampled_from(list("htps:/w.ex-ampl?=&#%@_ ")), max_size=80)))
def test_links_are_found_as_substrings_and_never_raise(text: str) -> None:
    links = find_links(text)
    assert all(link and link in text for link in links)
    assert unsupported_links(text, [text]) == ()
    assert set(unsupported_links(text, [])) == set(links)


@FUZZ
@given(ANY_TEXT, st.lists(st.tuples(ANY_TEXT, st.lists(ANY_TEXT, max_size=3)), max_size=3))
def test_the_memo_check_is_total(facts_text: str, paragraphs: list[tuple[str, list[str]]]) -> None:
    try:
        facts = parse_facts(facts_text, source="fuzz")
    except InputError as err:
        assert "fuzz line" in str(err)
        facts = []
    memo = [Paragraph(text, tuple(sources)) for text, sources in paragraphs]
    for locale in Locale:
        for defect in check_memo(memo, facts, locale=locale, years=range(2020, 2030)):
            assert defect.paragraph is not None and 1 <= defect.paragraph <= len(memo)
