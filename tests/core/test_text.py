"""Normalization, its offset map, and the lenient form: oracle cases and properties."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preuve.core import text as text_module
from preuve.core.text import lenient, normalize, normalize_quote


def reference_normalize(text: str) -> str:
    """SPEC normalization written the obvious (slow, map-less) way, as an oracle."""
    replaced = "".join(
        "" if unicodedata.category(c) == "Cf" else {"’": "'", "|": " ", "\ufffe": "-"}.get(c, c)
        for c in text
    )
    # No normalization changes a digit: NFKC applies between the characters it would
    # turn into other digits (superscripts, circled, fractions; fullwidth digits fold).
    pieces = re.split(
        r"((?:(?![０-９])[²³¹¼-¾\u2070-\u209f\u2150-\u218f\u2460-\u24ff"
        r"\u2776-\u2793\U0001d7ce-\U0001d7ff\u3251-\u32bf\u1d62-\u1d6a]))",
        replaced,
    )
    folded = "".join(
        piece if index % 2 else unicodedata.normalize("NFKC", piece)
        for index, piece in enumerate(pieces)
    )
    return " ".join(folded.lower().split())


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        pytest.param("Net  Income\n\tGrew", "net income grew", id="whitespace-runs-and-case"),
        pytest.param("  padded text \n", "padded text", id="strip"),
        pytest.param("l’EBITDA", "l'ebitda", id="typographic-apostrophe"),
        pytest.param("Total | 2025 | 2024", "total 2025 2024", id="table-rule"),
        pytest.param("ﬁnancement ﬂux", "financement flux", id="ligatures"),
        pytest.param("85\u00a0000\u202fk€", "85 000 k€", id="nbsp-and-narrow-nbsp"),
        pytest.param("refinance\u00adment", "refinancement", id="soft-hyphen-removed"),
        pytest.param("\u200eIn 2020\u200b,", "in 2020,", id="invisible-format-chars"),
        pytest.param("non\ufffecontrolling", "non-controlling", id="pdfium-hyphen-marker"),
        pytest.param("refinan-\ncement", "refinan- cement", id="eol-hyphenation-not-joined"),
        pytest.param("cafe\u0301 CAFÉ", "café café", id="combining-sequence-composed"),
        pytest.param("3¹ % et 10²", "3¹ % et 10²", id="superscripts-stay-superscripts"),
        pytest.param("H₂O ⑤ ½ ⑴", "h₂o ⑤ ½ ⑴", id="subscript-circled-fraction-kept"),
        pytest.param("𝟓𝟎 %", "𝟓𝟎 %", id="mathematical-digits-kept"),
        pytest.param("３１ %", "31 %", id="fullwidth-digits-fold"),
        pytest.param("ＡＢＣ１２３", "abc123", id="fullwidth"),
        pytest.param("a \u00ad b", "a b", id="spaces-around-removed-char-collapse"),
        pytest.param("", "", id="empty"),
        pytest.param(" \n\u00a0 ", "", id="only-whitespace"),
    ],
)
def test_normalize(original: str, expected: str) -> None:
    normalized = normalize(original)
    assert normalized.text == expected
    assert normalized.text == reference_normalize(original)


@pytest.mark.parametrize(
    ("original", "start", "end", "span"),
    [
        pytest.param("Net  Income", 3, 5, (3, 6), id="collapsed-run-maps-to-whole-run"),
        pytest.param("  abc", 0, 3, (2, 5), id="stripped-lead"),
        pytest.param("ﬁne", 0, 1, (0, 1), id="half-a-ligature-maps-to-the-ligature"),
        pytest.param("ﬁne", 1, 4, (0, 3), id="ligature-expansion"),
        pytest.param("ab\u00adcd", 0, 4, (0, 5), id="removed-char-inside"),
        pytest.param("cafe\u0301!", 3, 4, (3, 5), id="composed-char"),
        pytest.param("abc", 3, 3, (3, 3), id="empty-at-end"),
        pytest.param("abc", 1, 1, (1, 1), id="empty-inside"),
    ],
)
def test_to_original(original: str, start: int, end: int, span: tuple[int, int]) -> None:
    assert normalize(original).to_original(start, end) == span


def test_to_original_rejects_out_of_range() -> None:
    with pytest.raises(IndexError):
        normalize("abc").to_original(2, 4)


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        pytest.param("« ratio de 3,4x. »", "ratio de 3,4x", id="french-quotes-and-period"),
        pytest.param('"Net income grew."', "net income grew", id="straight-quotes"),
        pytest.param("“Net income grew”;", "net income grew", id="curly-quotes"),
        pytest.param("'Tis the season,", "tis the season", id="apostrophe"),
        pytest.param(".5 million", ".5 million", id="leading-decimal-point-kept"),
        pytest.param("up 12.", "up 12", id="final-period-after-number"),
        pytest.param("(the Trustee).", "(the trustee)", id="parenthesis-kept"),
    ],
)
def test_normalize_quote(quote: str, expected: str) -> None:
    assert normalize_quote(quote) == expected


def test_whitespace_table_matches_unicode() -> None:
    every_space = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
    assert set(text_module._WHITESPACE) == set(every_space)


def test_fast_path_characters_normalize_to_themselves() -> None:
    # Each character the fast path takes as it is must be what NFKC + lower make of it.
    for char in text_module._SIMPLE:
        expected = text_module._ONE_FOR_ONE.get(char, char)
        assert reference_normalize(f"a{char}b") == f"a{expected}b".lower()


@pytest.mark.parametrize(
    ("normalized", "expected"),
    [
        pytest.param("selling, general and admin", "selling,generalandadmin", id="spaces-dropped"),
        pytest.param("the “company”)", "thecompany)", id="curly-quotes-dropped"),
        pytest.param("issuer's offer", "issuersoffer", id="apostrophe-dropped"),
        pytest.param("capital – shares", "capitalshares", id="spaced-en-dash-dropped"),
        pytest.param("word—word", "wordword", id="em-dash-dropped"),
        pytest.param("wholly-owned", "wholly-owned", id="word-hyphen-kept"),
        pytest.param("manage- ment", "manage-ment", id="eol-hyphen-kept-not-joined"),
        pytest.param("cash – 5 %", "cash-5%", id="dash-before-number-is-sign"),
        pytest.param("a −5", "a-5", id="minus-sign"),
        pytest.param("12 345 and 1, 2", "12 345and1, 2", id="space-between-numbers-kept"),
        pytest.param("12” 34", "12 34", id="dropped-mark-cannot-glue-numbers"),
        pytest.param("5'000 (1,577.5)", "5'000(1,577.5)", id="separators-parens-kept"),
    ],
)
def test_lenient(normalized: str, expected: str) -> None:
    form = lenient(normalized)
    assert form.text == expected
    # Every kept character comes from the right place (replacements: ' and -).
    for index, char in enumerate(form.text):
        source = normalized[form.source_index(index)]
        assert source == char or char in "'-" or (char == " " and source == " ")


# -- properties ---------------------------------------------------------------------------

# Characters that each give at most one normalized character, whatever surrounds them.
ONE_FOR_ONE_ALPHABET = "aBcZ09 .,;-'|\n\t\u00a0\u202f\u2009’“”«»\u00ad\u200eéÀÉ–—−\ufffe"
# ... and characters that expand (ligatures, ½, İ) or attach to the one before (marks).
WIDE_ALPHABET = ONE_FOR_ONE_ALPHABET + "ﬁﬀ½²¨İＡ\u0301\u0308\ufeff"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=WIDE_ALPHABET, max_size=60))
def test_normalize_equals_reference(original: str) -> None:
    normalized = normalize(original)
    assert normalized.text == reference_normalize(original)
    assert normalize(normalized.text).text == normalized.text  # idempotent


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=WIDE_ALPHABET, min_size=1, max_size=50), st.data())
def test_offset_map_round_trips(original: str, data: st.DataObject) -> None:
    normalized = normalize(original)
    size = len(normalized.text)
    start = data.draw(st.integers(0, size))
    end = data.draw(st.integers(start, size))
    s, e = normalized.to_original(start, end)
    assert 0 <= s <= e <= len(original)
    wanted = normalized.text[start:end].strip(" ")
    assert wanted in normalize(original[s:e]).text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ONE_FOR_ONE_ALPHABET, min_size=1, max_size=50), st.data())
def test_offset_map_is_exact_without_expansions(original: str, data: st.DataObject) -> None:
    normalized = normalize(original)
    size = len(normalized.text)
    start = data.draw(st.integers(0, size))
    end = data.draw(st.integers(start, size))
    s, e = normalized.to_original(start, end)
    assert normalize(original[s:e]).text == normalized.text[start:end].strip(" ")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=WIDE_ALPHABET, max_size=60))
def test_lenient_keeps_every_letter_digit_and_number_mark(original: str) -> None:
    normalized = normalize(original).text
    form = lenient(normalized)
    meaningful = re.compile(r"[\w.,()+]")
    assert [c for c in form.text if meaningful.match(c)] == [
        c for c in normalized if meaningful.match(c)
    ]
    assert [form.source_index(i) for i in range(len(form.text))] == sorted(
        {form.source_index(i) for i in range(len(form.text))}
    )
