"""General risk cues and PDF-aware sentence splitting, for the rules risk reader.

The rules reader must work on reports it has never seen, so nothing here knows a company:

- :func:`page_sentences` cuts a page's extracted text into sentences. PDF text breaks
  lines where the layout wrapped them, so lines are first grouped into *blocks*: a line
  much shorter than the page's usual prose line ends its block (a heading, a table row, the
  last line of a paragraph); a full-width line continues into the next one, unless it opens
  with a list marker (``•``, ``–``...): a list item opens its own block, its sentence starting
  after the marker (an item opening lower case or ending on ``;`` is a fragment of the
  sentence that introduced the list, and is left out). Blocks are then split after
  ``. ! ?`` followed by a capital, a digit or an opening quote, except after an abbreviation
  or an initial. Each :class:`Sentence` keeps its offsets in the page text.
- :func:`classify_sentence` (from :mod:`preuve.memo.risk_cues`) gives a sentence its risk
  category from the declared cues of ``data/cues.json`` in French and English, matched on a
  folded copy (lower case, no accents, straight apostrophes). The categories themselves
  (name, labels, what each covers) are declared there too: :data:`CATEGORIES` lists them in
  the order they are tried.
"""

from __future__ import annotations

import re

from preuve.core.sentences import Sentence
from preuve.memo.risk_cues import Category, bundled_cues, classify_sentence, fold

__all__ = [
    "CATEGORIES",
    "CATEGORY_INFO",
    "CATEGORY_LABELS",
    "Sentence",
    "classify_sentence",
    "fold",
    "page_sentences",
]

# The categories are declared data (``data/cues.json``): their names, in the order they are
# tried, are what a reader may answer; their labels name them in the memo.
CATEGORY_INFO: tuple[Category, ...] = bundled_cues().described
CATEGORIES: tuple[str, ...] = tuple(c.name for c in CATEGORY_INFO)
CATEGORY_LABELS: dict[str, str] = {c.name: c.label_fr for c in CATEGORY_INFO}

# A line shorter than this share of the page's usual prose line ends its block.
_SHORT_LINE = 0.75
_MIN_WORDS = 5
_MIN_CHARS = 30
_MAX_CHARS = 700
_MAX_DIGIT_SHARE = 0.4  # more numbers than this among the words: a table row, not prose
_HEADING_WORD = 4  # letters: shorter words (and, of, the, et, des) keep their case in titles
_HEADING_MIN_WORDS = 3
_HEADING_SHARE = 0.8
_TITLE_MAX_WORDS = 7  # a line this short with no final punctuation is a title, not a sentence
_TITLE_LINE_MAX_WORDS = 14  # one line this short, unpunctuated: a title among table rows
_FIGURE_TOKEN = re.compile(r"[\d$€£%]")
_ABBREVIATIONS = frozenset(
    {"m", "mm", "mme", "mlle", "dr", "me", "st", "ste", "cf", "art", "no", "n°", "nos"}
    | {"inc", "ltd", "co", "corp", "vs", "etc", "mr", "mrs", "ms", "jr", "sr", "fig"}
    | {"p", "pp", "vol", "env", "approx", "resp", "ex", "e.g", "i.e"}
)
_SENTENCE_END = re.compile(r"[.!?…]+[\"»”’)\]]*(?=\s)")
_NEXT_START = re.compile(r"\s+[«\"“(\[]?\s*[A-ZÀ-ÖØ-Þ0-9]")
_WORD_BEFORE = re.compile(r"([\w°.]+)$")
_NUMBERED_TITLE = re.compile(
    r"(?i)(?:note|annexe|section|chapitre|partie|part|item|article)\s+\d+(?:\.\d+)*\s*[–—:.-]\s"
)
_ENDS = (".", "!", "?", ":", ";", "…")
# A list item's marker (• ● ▪ ■ ◦ ‣ ⁃ – — * -) and its space: the item starts its own block,
# and its sentence starts after the marker (each item of a risk list is one sentence).
_BULLET = re.compile(r"[\u2022\u25cf\u25aa\u25a0\u25e6\u2023\u2043\u2013\u2014*-][ \t]+(?=\S)")
_TABLE_CELL = re.compile(r"\(?[-−–+]?\d[\d,\u00a0\u202f]*(?:[.,]\d+)?\)?%?")


# --- Blocks and sentences ----------------------------------------------------------------


def _prose_width(lines: list[str]) -> int:
    """The usual length of a full prose line: the 90th percentile of lines of 4+ words."""
    lengths = sorted(len(line.strip()) for line in lines if len(line.split()) >= 4)
    if not lengths:
        return max((len(line.strip()) for line in lines), default=0)
    return lengths[min(len(lengths) - 1, int(len(lengths) * 0.9))]


def _blocks(page: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each block of consecutive lines that may share sentences."""
    lines = page.split("\n")
    width = _prose_width(lines)
    blocks: list[tuple[int, int]] = []
    start = position = 0
    for line in lines:
        end = position + len(line)
        stripped = line.strip()
        if position > start and _BULLET.match(stripped):
            blocks.append((start, position - 1))  # a list item opens a new block
            start = position
        if not stripped:
            if position > start:
                blocks.append((start, position))
            start = end + 1
        elif len(stripped) < width * _SHORT_LINE:
            blocks.append((start, end))
            start = end + 1
        position = end + 1
    if start < len(page):
        blocks.append((start, len(page)))
    return blocks


def _is_abbreviation(text: str, dot: int) -> bool:
    """Whether the period at ``dot`` closes an abbreviation or an initial (``M.``, ``U.S.``)."""
    if text[dot] != ".":
        return False
    word = _WORD_BEFORE.search(text[:dot])
    if word is None:
        return False
    token = word.group(1).lower()
    return token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha()) or "." in token


def _split_block(page: str, start: int, end: int) -> list[tuple[int, int, bool]]:
    """``(start, end, item)`` of each sentence of a block; ``item``: the first one of a list
    item, its marker left out."""
    block = page[start:end]
    cuts: list[int] = []
    for match in _SENTENCE_END.finditer(block):
        if _NEXT_START.match(block, match.end()) and not _is_abbreviation(block, match.start()):
            cuts.append(match.end())
    spans: list[tuple[int, int, bool]] = []
    begin = 0
    for cut in [*cuts, len(block)]:
        piece = block[begin:cut]
        left = len(piece) - len(piece.lstrip())
        marker = _BULLET.match(piece, left) if begin == 0 else None
        left = marker.end() if marker is not None else left
        right = len(piece.rstrip())
        if right > left:
            spans.append((start + begin + left, start + begin + right, marker is not None))
        begin = cut
    return spans


def _is_heading(text: str, lettered: list[str]) -> bool:
    """A title-case line without a final period (``Fair Value and Future Maturities``):
    nearly every long word capitalized, which prose in either language never does."""
    long_words = [w for w in lettered if sum(c.isalpha() for c in w) >= _HEADING_WORD]
    capitalized = [w for w in long_words if w.lstrip("(«\"“'")[:1].isupper()]
    return (
        len(long_words) >= _HEADING_MIN_WORDS
        and len(capitalized) >= _HEADING_SHARE * len(long_words)
        and not text.rstrip('»"”’)').endswith((".", "!", "?"))
    )


def _is_prose(text: str) -> bool:
    if _NUMBERED_TITLE.match(text) and not text.rstrip().endswith((".", "!", "?")):
        return False  # "Note 6 – Debt and covenants": a numbered title, not a sentence
    words = text.split()
    if len(words) <= _TITLE_MAX_WORDS and not text.rstrip('»"”’)').endswith(_ENDS):
        return False  # "Going concern and viability statement": a title standing alone
    if (
        "\n" not in text.strip()
        and len(words) <= _TITLE_LINE_MAX_WORDS
        and not text.rstrip('»"”’)').endswith(_ENDS)
    ):
        return False  # "Maturity of the loans at 30 June (nominal amounts)": a table's title
    if words and _TABLE_CELL.fullmatch(words[-1]):
        return False  # ends on a figure: a table row (prose ends on a word or a period)
    lettered = [w for w in words if any(c.isalpha() for c in w)]
    # "$" and "%" standing alone are cells of a table row as much as the figures they frame
    figures = [w for w in words if _FIGURE_TOKEN.search(w) and not any(c.isalpha() for c in w)]
    return (
        not _is_heading(text, lettered)
        and len(lettered) >= _MIN_WORDS
        and _MIN_CHARS <= len(text) <= _MAX_CHARS
        and len(figures) <= _MAX_DIGIT_SHARE * len(words)
        and any(c.islower() for c in text)
    )


def _is_whole_item(text: str) -> bool:
    """A list item that is a sentence of its own: it opens with a capital or a figure and
    ends as a sentence ends (an item opening lower case or ending on ``;`` continues the
    sentence that introduced the list)."""
    first = text.lstrip('«"“(')[:1]
    return (first.isupper() or first.isdigit()) and text.rstrip('»"”’)').endswith((".", "!", "?"))


def page_sentences(page: str) -> list[Sentence]:
    """The prose sentences of a page, in reading order (table rows and headings left out)."""
    sentences: list[Sentence] = []
    for block_start, block_end in _blocks(page):
        for start, end, item in _split_block(page, block_start, block_end):
            text = page[start:end]
            if item and not _is_whole_item(text):
                continue  # "the loss of key customers;": a fragment of a listed sentence
            if _is_prose(text):
                sentences.append(Sentence(start, end, text))
    return sentences
