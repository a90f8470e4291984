"""Quote check: is a model's quote on the page it cites, and where exactly?

A quote is looked up on its cited page in three declared tiers, strictest first:

1. ``EXACT`` — verbatim in the page text;
2. ``NORMALIZED`` — after the SPEC normalization (:func:`preuve.core.text.normalize`);
3. ``LENIENT`` — in the lenient form (:func:`preuve.core.text.lenient`), which also
   absorbs lost or gained spaces and dropped quote marks, apostrophes and dashes, and
   nothing that carries meaning. It can be switched off, and a lenient match must be at
   least :data:`MIN_LENIENT_CHARS` long and start and end on word and number boundaries,
   so that gluing words together never creates a match by chance.

In every tier a match must start and end on token boundaries of the text it is found in
(:mod:`preuve.core.tokens`): never inside a word, never inside a number with its groups,
decimals, sign and parentheses. A quote that is on the page only as a cut is refused as
``CUTS_TOKEN``, naming the token it cuts.

Every answer is a :class:`QuoteResult`; a quote is never dropped silently. On acceptance
the span indexes the *original* page text (``matched == page[start:end]``). On rejection
the verdict says why (page out of range, too short, cuts a token, found on another page,
not found); a quote not found comes with a :class:`Diagnostic`: the closest passage of the
cited page and how it differs. rapidfuzz only *describes* a rejection; it never accepts a
quote, and its search is bounded (:data:`DIAGNOSTIC_QUOTE_CHARS`), since it is no verdict.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from preuve.core.documents import Document
from preuve.core.evidence import Span, make_span
from preuve.core.text import Lenient, Normalized, lenient, normalize, normalize_quote
from preuve.core.tokens import TokenCut, TokenIndex, cell_join

__all__ = [
    "DIAGNOSTIC_QUOTE_CHARS",
    "MIN_LENIENT_CHARS",
    "MIN_QUOTE_CHARS",
    "Diagnostic",
    "QuoteChecker",
    "QuoteResult",
    "Verdict",
    "verify_quote",
]

MIN_QUOTE_CHARS = 12
"""A normalized quote shorter than this could match by chance: it is refused."""

MIN_LENIENT_CHARS = 20
"""The lenient tier needs a longer quote (counted in lenient characters)."""

DIAGNOSTIC_QUOTE_CHARS = 300
"""The closest-passage search aligns at most this many characters of a quote, and compares
at most a few hundred words: a diagnostic answers fast for any quote and page."""

_DIAGNOSTIC_WORDS = 120
_MAX_DIFFERENCES = 6
_MAX_WORDS_SHOWN = 8
_WORD_EDGE = ".,;:!?\"'\u201c\u201d\u2018\u2019«»"


class Verdict(StrEnum):
    """The outcome of a quote check: the tier that matched, or why it was refused."""

    EXACT = "exact"
    NORMALIZED = "normalized"
    LENIENT = "lenient"
    PAGE_OUT_OF_RANGE = "page_out_of_range"
    TOO_SHORT = "too_short"
    CUTS_TOKEN = "cuts_token"
    NOT_FOUND = "not_found"
    FOUND_ON_OTHER_PAGE = "found_on_other_page"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """The closest passage on the cited page and how the quote differs from it.

    ``start``/``end`` index the original page text and ``passage == page[start:end]``;
    ``similarity`` is rapidfuzz's partial ratio (0-100) of the normalized texts;
    ``differences`` are word-level edits, from the quote's point of view.
    """

    passage: str
    start: int
    end: int
    similarity: float
    differences: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class QuoteResult:
    """The verdict on one (page, quote): verified or not, where, and why not.

    ``start``/``end`` index the cited page; ``span`` is the same passage as the one
    :class:`~preuve.core.evidence.Span` of every workflow (offsets into the whole document
    text), set on a verified quote when the checker knows its document
    (:meth:`QuoteChecker.of`)."""

    verified: bool
    verdict: Verdict
    page: int
    start: int | None = None
    end: int | None = None
    matched: str | None = None
    reason: str = ""
    other_page: int | None = None
    diagnostic: Diagnostic | None = None
    span: Span | None = None


def _find_aligned(
    text: str, tokens: TokenIndex, needle: str, cuts: list[TokenCut] | None = None
) -> int:
    """First occurrence of ``needle`` in ``text`` that cuts no token, else -1; the cut of
    the first rejected occurrence is appended to ``cuts``."""
    at = text.find(needle)
    while at >= 0:
        cut = tokens.span_cut(at, at + len(needle))
        if cut is None:
            return at
        if cuts is not None and not cuts:
            cuts.append(cut)
        at = text.find(needle, at + 1)
    return -1


def _find_lenient(
    tokens: TokenIndex,
    form: Lenient,
    needle: str,
    start: int,
    stop: int,
    *,
    cuts: list[TokenCut] | None = None,
) -> int:
    """First occurrence of ``needle`` in ``form.text[start:stop]`` whose normalized source
    cuts no token, else -1 (the first cut seen is appended to ``cuts``)."""
    at = form.text.find(needle, start, stop)
    while at >= 0:
        first = form.source_index(at)
        last = form.source_index(at + len(needle) - 1)
        cut = tokens.span_cut(first, last + 1)
        if cut is None:
            return at
        if cuts is not None and not cuts:
            cuts.append(cut)
        at = form.text.find(needle, at + 1, stop)
    return -1


def _unless_joined(
    verdict: Verdict, page: str, quote: str, cuts: list[TokenCut], span: tuple[int, int]
) -> tuple[Verdict, int, int] | None:
    """The match, unless the quote drops table rules that keep two cells' numbers apart."""
    start, end = span
    joined = None if "|" in quote else cell_join(page[start:end])
    if joined is None:
        return verdict, start, end
    if not cuts:
        cuts.append(joined)
    return None


def _word_key(word: str) -> str:
    return word.strip(_WORD_EDGE) or word


def _edits(quote_words: list[str], page_words: list[str]) -> list[tuple[str, str, str]]:
    """Word-level edits turning the page words into the quote words: (tag, quoted, on page).

    Words are compared without the punctuation and quote marks at their edges first, so
    that a sentence's final period does not hide the word that really changed; when
    that finds nothing (only punctuation differs), they are compared as they are.
    """
    for compare in (_word_key, str):
        ops = Levenshtein.opcodes(
            [compare(w) for w in quote_words], [compare(w) for w in page_words]
        )
        edits = [
            (
                op.tag,
                " ".join(map(compare, quote_words[op.src_start : op.src_end])),
                " ".join(map(compare, page_words[op.dest_start : op.dest_end])),
            )
            for op in ops
            if op.tag != "equal"
        ]
        if edits:
            return edits
    return []


def _describe(tag: str, quoted: str, on_page: str) -> str:
    if tag == "replace":
        return f"quote has {_shorten(quoted)} where the page has {_shorten(on_page)}"
    if tag == "delete":
        return f"quote adds {_shorten(quoted)}"
    return f"quote omits {_shorten(on_page)}"


def _shorten(words: str) -> str:
    parts = words.split(" ")
    shown = " ".join(parts[:_MAX_WORDS_SHOWN])
    return f'"{shown} ..."' if len(parts) > _MAX_WORDS_SHOWN else f'"{shown}"'


def _trim_to_quote(quote_words: list[str], words: list[str]) -> tuple[int, int]:
    """The words of a passage that face the quote: page words past its ends are dropped."""
    ops = list(
        Levenshtein.opcodes([_word_key(w) for w in quote_words], [_word_key(w) for w in words])
    )
    first = ops[0].dest_end if ops and ops[0].tag == "insert" else 0
    last = ops[-1].dest_start if ops and ops[-1].tag == "insert" else len(words)
    return (first, last) if first < last else (0, len(words))


def _closest_passage(page: str, normalized: Normalized, quote: str) -> Diagnostic:
    """The passage of ``page`` closest to the normalized ``quote``, in whole words.

    The search is bounded: the passage is placed by the quote's first
    :data:`DIAGNOSTIC_QUOTE_CHARS` characters and compared word by word on at most
    ``_DIAGNOSTIC_WORDS`` words, so a long quote on a long page answers fast.
    """
    text = normalized.text
    head = quote[:DIAGNOSTIC_QUOTE_CHARS]
    if len(head) < len(quote) and " " in head:
        head = head[: head.rindex(" ")]
    alignment = fuzz.partial_ratio_alignment(head, text) if text else None
    if alignment is None:
        return Diagnostic("", 0, 0, 0.0, ("the page has no text",))
    start, end = alignment.dest_start, alignment.dest_end
    if len(head) < len(quote):  # the passage faces the whole quote, not only its head
        end = min(len(text), start + len(quote))
    while start > 0 and text[start - 1] != " ":
        start -= 1
    while end < len(text) and text[end] != " ":
        end += 1
    quote_words = quote.split(" ")[:_DIAGNOSTIC_WORDS]
    words = text[start:end].split(" ")[: 2 * _DIAGNOSTIC_WORDS]
    first, last = _trim_to_quote(quote_words, words)
    end = start + len(" ".join(words[:last]))
    start += sum(len(word) + 1 for word in words[:first])
    original_start, original_end = normalized.to_original(start, end)
    edits = _edits(quote_words, words[first:last])
    return Diagnostic(
        passage=page[original_start:original_end],
        start=original_start,
        end=original_end,
        similarity=round(float(alignment.score), 1),
        differences=tuple(_describe(*edit) for edit in edits[:_MAX_DIFFERENCES]),
    )


class QuoteChecker:
    """Verifies quotes against the pages of one document; each page is normalized once.

    Pages are normalized on first use and kept, so checking many quotes against one
    document costs one normalization per page. ``lenient=False`` switches the lenient
    tier off; ``diagnose=False`` skips the closest-passage diagnostic on rejections.
    """

    def __init__(
        self, pages: Sequence[str], *, lenient: bool = True, diagnose: bool = True
    ) -> None:
        self._pages = tuple(pages)
        self._use_lenient = lenient
        self._diagnose = diagnose
        self._normalized: dict[int, Normalized] = {}
        self._lenient: dict[int, Lenient] = {}
        self._tokens: dict[tuple[int, bool], TokenIndex] = {}
        self._token_pages: dict[str, int] | None = None
        self._joined_lenient: tuple[str, list[int]] | None = None
        self._document: Document | None = None

    @classmethod
    def of(cls, document: Document, *, lenient: bool = True, diagnose: bool = True) -> QuoteChecker:
        """A checker over ``document``'s pages whose verified results carry their
        :class:`~preuve.core.evidence.Span` in that document."""
        checker = cls(document.pages, lenient=lenient, diagnose=diagnose)
        checker._document = document
        return checker

    @property
    def n_pages(self) -> int:
        return len(self._pages)

    def verify(self, page: int, quote: str) -> QuoteResult:
        """Check ``quote`` against ``page`` (numbered from 1)."""
        if not 1 <= page <= len(self._pages):
            span = f"pages 1 to {len(self._pages)}" if self._pages else "no pages"
            return QuoteResult(
                False,
                Verdict.PAGE_OUT_OF_RANGE,
                page,
                reason=f"page {page} does not exist: the document has {span}",
            )
        needle = normalize_quote(quote)
        if len(needle) < MIN_QUOTE_CHARS:
            return QuoteResult(
                False,
                Verdict.TOO_SHORT,
                page,
                reason=(
                    f"quote has {len(needle)} characters after normalization, fewer than"
                    f" {MIN_QUOTE_CHARS}: quote a longer passage so it cannot match by chance"
                ),
            )
        index = page - 1
        cuts: list[TokenCut] = []
        found = self._locate(index, quote.strip(), needle, cuts)
        if found is not None:
            verdict, start, end = found
            return QuoteResult(
                True,
                verdict,
                page,
                start,
                end,
                self._pages[index][start:end],
                span=self._span(page, start, end),
            )
        other = self._other_page(index, needle)
        if other is not None:
            return QuoteResult(
                False,
                Verdict.FOUND_ON_OTHER_PAGE,
                page,
                reason=f"quote is not on page {page} but is on page {other + 1}: cite that page",
                other_page=other + 1,
            )
        if cuts:
            return QuoteResult(
                False,
                Verdict.CUTS_TOKEN,
                page,
                reason=(
                    f"quote is on page {page} only as a cut: {cuts[0].describe()}; start and"
                    " end the quote on whole words and whole numbers (with their sign)"
                ),
            )
        return self._not_found(index, needle)

    def find(self, quote: str) -> QuoteResult:
        """Check ``quote`` when no page is cited: on page 1, else on the page the check
        finds it on (same tiers); a refusal names page 1."""
        first = self.verify(1, quote)
        if first.verdict is Verdict.FOUND_ON_OTHER_PAGE and first.other_page is not None:
            return self.verify(first.other_page, quote)
        return first

    def _span(self, page: int, start: int, end: int) -> Span | None:
        document = self._document
        if document is None or start >= end:
            return None
        offset = document.page_offset(page)
        return make_span(document, offset + start, offset + end)

    # -- tiers on the cited page ------------------------------------------------------

    def _locate(
        self, index: int, quote: str, needle: str, cuts: list[TokenCut]
    ) -> tuple[Verdict, int, int] | None:
        text = self._pages[index]
        if quote and quote in text:
            at = _find_aligned(text, self._original_tokens(index), quote, cuts)
            if at >= 0:
                return Verdict.EXACT, at, at + len(quote)
        normalized = self._normalized_page(index)
        tokens = self._normalized_tokens(index)
        at = _find_aligned(normalized.text, tokens, needle, cuts)
        if at >= 0:
            return _unless_joined(
                Verdict.NORMALIZED, text, quote, cuts, normalized.to_original(at, at + len(needle))
            )
        if not self._use_lenient:
            return None
        lenient_needle = lenient(needle).text
        if len(lenient_needle) < MIN_LENIENT_CHARS:
            return None
        form = self._lenient_page(index)
        at = _find_lenient(tokens, form, lenient_needle, 0, len(form.text), cuts=cuts)
        if at < 0:
            return None
        first = form.source_index(at)
        last = form.source_index(at + len(lenient_needle) - 1)
        return _unless_joined(
            Verdict.LENIENT, text, quote, cuts, normalized.to_original(first, last + 1)
        )

    # -- other pages --------------------------------------------------------------------

    def _other_page(self, index: int, needle: str) -> int | None:
        """The page (from 0) nearest to ``index`` where the quote is, by the best tier."""
        hits = [
            other
            for other in self._candidate_pages(needle)
            if other != index
            and _find_aligned(
                self._normalized_page(other).text, self._normalized_tokens(other), needle
            )
            >= 0
        ]
        if not hits and self._use_lenient:
            hits = self._lenient_hits(index, lenient(needle).text)
        return min(hits, key=lambda other: (abs(other - index), other)) if hits else None

    def _candidate_pages(self, needle: str) -> list[int]:
        # The inner words of a quote are whole words of any page that contains it: a page
        # lacking one of them cannot hold the quote (the first and last may be cut).
        inner = needle.split(" ")[1:-1]
        if not inner:
            return list(range(len(self._pages)))
        token_pages = self._token_index()
        mask = -1
        for token in inner:
            mask &= token_pages.get(token, 0)
            if not mask:
                return []
        return [page for page in range(len(self._pages)) if mask >> page & 1]

    def _lenient_hits(self, index: int, needle: str) -> list[int]:
        if len(needle) < MIN_LENIENT_CHARS:
            return []
        joined, offsets = self._joined_lenient_forms()
        hits: list[int] = []
        at = joined.find(needle)
        while at >= 0:
            page = bisect_right(offsets, at) - 1
            if page != index and page not in hits:
                form = self._lenient_page(page)
                local = at - offsets[page]
                tokens = self._normalized_tokens(page)
                if _find_lenient(tokens, form, needle, local, local + len(needle)) == local:
                    hits.append(page)
            at = joined.find(needle, at + 1)
        return hits

    # -- rejection --------------------------------------------------------------------

    def _not_found(self, index: int, needle: str) -> QuoteResult:
        page = index + 1
        if not self._diagnose:
            return QuoteResult(
                False,
                Verdict.NOT_FOUND,
                page,
                reason=f"quote not found on page {page} nor on any other page",
            )
        diagnostic = _closest_passage(self._pages[index], self._normalized_page(index), needle)
        how = "; ".join(diagnostic.differences[:3]) or "the texts differ"
        reason = (
            f"quote not found on page {page}; the closest passage"
            f" ({diagnostic.similarity:.0f}% similar) differs: {how}; copy the passage exactly"
        )
        return QuoteResult(False, Verdict.NOT_FOUND, page, reason=reason, diagnostic=diagnostic)

    # -- per-document caches ----------------------------------------------------------

    def _normalized_page(self, index: int) -> Normalized:
        normalized = self._normalized.get(index)
        if normalized is None:
            normalized = self._normalized[index] = normalize(self._pages[index])
        return normalized

    def _original_tokens(self, index: int) -> TokenIndex:
        tokens = self._tokens.get((index, False))
        if tokens is None:
            tokens = self._tokens[index, False] = TokenIndex(self._pages[index])
        return tokens

    def _normalized_tokens(self, index: int) -> TokenIndex:
        tokens = self._tokens.get((index, True))
        if tokens is None:
            normalized = self._normalized_page(index)
            tokens = TokenIndex(normalized.text, (self._pages[index], normalized))
            self._tokens[index, True] = tokens
        return tokens

    def _lenient_page(self, index: int) -> Lenient:
        form = self._lenient.get(index)
        if form is None:
            form = self._lenient[index] = lenient(self._normalized_page(index).text)
        return form

    def _token_index(self) -> dict[str, int]:
        """Each word of the document → a bit mask of the pages it is on."""
        if self._token_pages is None:
            token_pages: dict[str, int] = {}
            for page in range(len(self._pages)):
                bit = 1 << page
                for token in set(self._normalized_page(page).text.split(" ")):
                    token_pages[token] = token_pages.get(token, 0) | bit
            self._token_pages = token_pages
        return self._token_pages

    def _joined_lenient_forms(self) -> tuple[str, list[int]]:
        """All lenient pages in one string (one search finds every page) and their offsets."""
        if self._joined_lenient is None:
            offsets: list[int] = []
            length = 0
            forms = []
            for page in range(len(self._pages)):
                form = self._lenient_page(page).text
                offsets.append(length)
                forms.append(form)
                length += len(form) + 1
            # A newline never occurs in a lenient form, so no match spans two pages.
            self._joined_lenient = "\n".join(forms), offsets
        return self._joined_lenient


def verify_quote(
    pages: Sequence[str], page: int, quote: str, *, lenient: bool = True
) -> QuoteResult:
    """Check one quote against a document's pages (use :class:`QuoteChecker` for many)."""
    return QuoteChecker(pages, lenient=lenient).verify(page, quote)
