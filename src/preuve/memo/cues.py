"""General risk cues and PDF-aware sentence splitting, for the rules risk reader.

The rules reader must work on reports it has never seen, so nothing here knows a company:

- :func:`page_sentences` cuts a page's extracted text into sentences. PDF text breaks
  lines where the layout wrapped them, so lines are first grouped into *blocks*: a line
  much shorter than the page's usual prose line ends its block (a heading, a table row, the
  last line of a paragraph); a full-width line continues into the next one. Blocks are then
  split after ``. ! ?`` followed by a capital, a digit or an opening quote, except after an
  abbreviation or an initial. Each :class:`Sentence` keeps its offsets in the page text.
- :func:`classify_sentence` gives a sentence its risk category from cue patterns in French
  and English (concentration, covenant, refinancing, liquidity, litigation, dependency,
  going concern), matched on a folded copy (lower case, no accents, straight apostrophes).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = [
    "CATEGORIES",
    "CATEGORY_LABELS",
    "Sentence",
    "classify_sentence",
    "fold",
    "page_sentences",
]

CATEGORIES: tuple[str, ...] = (
    "concentration",
    "covenant",
    "refinancing",
    "liquidity",
    "litigation",
    "dependency",
    "going_concern",
)

CATEGORY_LABELS: dict[str, str] = {
    "concentration": "Concentration",
    "covenant": "Covenant",
    "refinancing": "Refinancement",
    "liquidity": "Liquidité",
    "litigation": "Litige",
    "dependency": "Dépendance",
    "going_concern": "Continuité d'exploitation",
}

# A line shorter than this share of the page's usual prose line ends its block.
_SHORT_LINE = 0.75
_MIN_WORDS = 5
_MIN_CHARS = 30
_MAX_CHARS = 700
_MAX_DIGIT_SHARE = 0.4  # more numbers than this among the words: a table row, not prose
_HEADING_WORD = 4  # letters: shorter words (and, of, the, et, des) keep their case in titles
_HEADING_MIN_WORDS = 3
_HEADING_SHARE = 0.8
_FIGURE_TOKEN = re.compile(r"[\d$€£%]")
_ABBREVIATIONS = frozenset(
    {"m", "mm", "mme", "mlle", "dr", "me", "st", "ste", "cf", "art", "no", "n°", "nos"}
    | {"inc", "ltd", "co", "corp", "vs", "etc", "mr", "mrs", "ms", "jr", "sr", "fig"}
    | {"p", "pp", "vol", "env", "approx", "resp", "ex", "e.g", "i.e"}
)
_SENTENCE_END = re.compile(r"[.!?…]+[\"»”’)\]]*(?=\s)")
_NEXT_START = re.compile(r"\s+[«\"“(\[]?\s*[A-ZÀ-ÖØ-Þ0-9]")
_WORD_BEFORE = re.compile(r"([\w°.]+)$")
_TABLE_CELL = re.compile(r"\(?[-−–+]?\d[\d,\u00a0\u202f]*(?:[.,]\d+)?\)?%?")


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of a page: ``text == page[start:end]`` (with its line breaks)."""

    start: int
    end: int
    text: str

    def quote(self) -> str:
        """The sentence on one line, as a reader copies it from the page."""
        return re.sub(r"[ \t]*\n[ \t]*", " ", self.text)


def fold(text: str) -> str:
    """Lower case, accents removed, typographic apostrophes and spaces made plain."""
    decomposed = unicodedata.normalize("NFKD", text.replace("\u2019", "'").casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"\s+", " ", plain)


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


def _split_block(page: str, start: int, end: int) -> list[tuple[int, int]]:
    block = page[start:end]
    cuts: list[int] = []
    for match in _SENTENCE_END.finditer(block):
        if _NEXT_START.match(block, match.end()) and not _is_abbreviation(block, match.start()):
            cuts.append(match.end())
    spans: list[tuple[int, int]] = []
    begin = 0
    for cut in [*cuts, len(block)]:
        piece = block[begin:cut]
        left = len(piece) - len(piece.lstrip())
        right = len(piece.rstrip())
        if right > left:
            spans.append((start + begin + left, start + begin + right))
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
    words = text.split()
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


def page_sentences(page: str) -> list[Sentence]:
    """The prose sentences of a page, in reading order (table rows and headings left out)."""
    sentences: list[Sentence] = []
    for block_start, block_end in _blocks(page):
        for start, end in _split_block(page, block_start, block_end):
            text = page[start:end]
            if _is_prose(text):
                sentences.append(Sentence(start, end, text))
    return sentences


# --- Cues --------------------------------------------------------------------------------

_PERCENT = r"\d[\d ,.]*\s?%"
_SHARE_OF_REVENUE = (
    rf"{_PERCENT} (?:du|de notre|de son|de leur) chiffre d'affaires"
    rf"|{_PERCENT} (?:of )?(?:our |its |the company's |total |net |consolidated )*"
    r"(?:revenues?|sales|net sales)"
)
# Ordered: the first category whose cues match names the sentence (going concern and
# covenants are the most specific; dependency words such as "depend" are the loosest).
_CUES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "going_concern",
        (
            r"continuite d'exploitation",
            r"incertitude significative",
            r"going concern",
            r"material uncertainty",
            r"substantial doubt",
        ),
    ),
    (
        "covenant",
        (
            r"\bcovenants?\b",
            r"ratios? financiers?",
            r"\bbris\b",
            r"engagements? financiers?",
            r"exigibilite anticipee",
            # a waiver from lenders; "no waiver of this Agreement" (an exhibit) is boilerplate
            r"\bwaivers?\b.{0,80}\b(?:lenders?|banks?|covenants?|noteholders?|creditors?)\b",
            r"\b(?:lenders?|banks?|covenants?|noteholders?|creditors?)\b.{0,80}\bwaivers?\b",
            r"\bratios?\b.{0,160}(?:ne pas depasser|au moins|au plus|n'(?:etait|est) pas respecte"
            r"|respect|contrat|contractuel|impos|plafond|maximum|minimum|not (?:to )?exceed"
            r"|at least|at most|required|compliance|breach)",
            r"(?:ne pas depasser|au moins|au plus|plafond|impos|maximum|minimum|not (?:to )?exceed"
            r"|at least|at most|requires?|required|maintain)\b.{0,60}\bratios?\b",
            r"\brenonciation\b.{0,80}\bpreteurs?\b|\bpreteurs?\b.{0,80}\brenonciation\b",
        ),
    ),
    (
        "refinancing",
        (
            r"\brefinanc",
            r"arrivent? a echeance",
            r"\becheances?\b.{0,80}\b(?:emprunt|credit|dette|obligat|pret)",
            r"\b(?:emprunt|credit|dette|obligat|pret).{0,80}\becheances?\b",
            r"\brembours\w* (?:in fine|en totalite|a l'echeance)",
            # "maturities of three months or less" (cash equivalents) is not a debt to refinance
            r"\b(?:debt|notes?|loans?|borrowings?|facility|debentures?|bonds?|credit)\b.{0,80}"
            r"\bmatur(?:e|es|ity|ities)\b",
            r"\bmatur(?:e|es|ity|ities)\b.{0,80}\b(?:debt|notes?|loans?|borrowings?|facility"
            r"|debentures?|bonds?)\b",
            r"\bdue in (?:19|20)\d\d\b",
        ),
    ),
    (
        "liquidity",
        (
            r"non tire(?:e|es|s)?\b",
            r"(?<!flux de )tresorerie disponible",  # "flux de trésorerie disponible" is FCF
            r"\bliquidite\b",
            r"\bliquidity\b",
            r"\bundrawn\b",
            r"n'est finance qu",
            r"tensions? (?:de|sur la) tresorerie",
            r"besoins? (?:de tresorerie|de financement|d'exploitation)",
            r"cash runway|funding gap|not (?:yet )?(?:fully )?funded",
            r"available (?:cash|liquidity|credit)",
        ),
    ),
    (
        "litigation",
        (
            r"\blitiges?\b",
            r"\bcontentieux\b",
            r"\bassigne(?:e|es|s)?\b",  # "assigné(e)" in court, not the English "assigned"
            r"\btribunal\b",
            r"\bproces\b",
            r"\barbitrage\b",
            r"\breclame\b",
            r"action en justice",
            r"procedure judiciaire",
            r"\bprud'?hom",
            r"\bcontrefacon\b",
            r"\blawsuits?\b",
            r"\blitigation\b",
            r"legal proceedings?",
            r"\barbitration\b",
            r"\bsued\b",
            r"\b(?:the|district|federal|supreme|appeals?) court\b",  # not "à court terme"
            r"\bplaintiffs?\b",
            r"\bdamages\b",
            r"dommages et interets",
        ),
    ),
    (
        "concentration",
        (
            r"(?:premier|principal|plus important|seul) client",
            r"client (?:principal|unique)",
            r"(?:premiers|principaux|plus importants) clients",
            r"acheteur unique|un seul acheteur",
            rf"(?:client|acheteur|contrat|provient).{{0,160}}(?:{_SHARE_OF_REVENUE})",
            rf"(?:{_SHARE_OF_REVENUE}).{{0,160}}(?:client|acheteur|contrat|provient)",
            r"(?:largest|major|principal|single|top (?:\w+ )?) customers?",
            r"customer concentration",
            rf"customers?.{{0,160}}(?:{_SHARE_OF_REVENUE})",
            rf"(?:{_SHARE_OF_REVENUE}).{{0,160}}customers?",
        ),
    ),
    (
        "dependency",
        (
            r"fournisseur unique|seul fournisseur|source unique",
            r"\bdepend(?:ance|ant|ante|ent)?\b\s+(?:de|d'|du|des|a l'egard)",
            r"\blicences?\b(?: \w+){0,3} exclusives?\b|\bexclusives?\b(?: \w+){0,2} licences?\b",
            r"sole (?:supplier|source)|single (?:supplier|source)",
            # the company depends on someone; "depends on many factors" is no dependency
            r"\b(?:we|our|us|the company(?:'s)?)\b.{0,60}\bdepend(?:s|ent|ence)? (?:up)?on\b"
            r"(?! (?:many|several|various|a number of|a variety of) factors)",
            r"exclusive licen[cs]e",
        ),
    ),
)
# Set phrases that carry a cue word but name no risk: the US safe-harbour statute, a
# non-compete agreement (a "covenant" of an employee, not of a borrower).
_NOT_RISK = re.compile(
    r"private securities litigation reform act|covenants? not to compete|non-?compet\w*"
)
# A pointer to another section ("see Note 10", "see “Liquidity ...”", "est détaillé en note
# 9") states nothing itself.
_CROSS_REFERENCE = re.compile(
    r"\bsee (?:note|item|part|section|\"|“)|\b(?:voir|cf\.?) (?:la )?note\b"
    r"|\b(?:est|sont) (?:detaille|decrit|presente|expose)e?s? (?:en|dans la|a la) note\b"
    r"|\b(?:is|are) (?:detailed|described|presented|discussed) in note\b"
)
# Reassurance names a risk only to say it is absent or met: "no other significant
# uncertainty", "the group complies with all its covenants", "financing is sufficient to
# meet its needs". Accounting-policy definitions ("are recognised at fair value") neither.
_NOT_SIGNAL: tuple[str, ...] = (
    r"\baucune? autre (?:\w+ ){0,3}(?:significati|materiel|notable|important|majeur)",
    r"\bn'a (?:ete )?(?:identifie|releve|constate|detecte) aucune?\b",
    r"\bn'a connaissance d'aucune?\b",
    r"\bno other (?:\w+ ){0,2}(?:significant|material)\b",
    r"\b(?:is|are|was|were|remains?|remained) in (?:full )?compliance with\b",
    r"\brespect(?:e|ait|ent|aient) (?:l'ensemble de |tous |toutes )?(?:ses|leurs|le|les) "
    r"(?:engagements|covenants?|ratios?)\b",
    r"\b(?:complies|complied) with (?:all |each of )?(?:its |the )?(?:covenants?|ratios?)\b",
    r"(?<!ne )\bpermet(?:tent|tra|tront)? de faire face\b",
    r"\bsuffisante?s? pour (?:faire face|couvrir)",
    r"\b(?:sufficient|adequate) to (?:meet|fund|cover|satisfy)\b",
    r"\bn'est pas expose\b|\bis not exposed\b",
    r"\baucune? (?:[\w']+ ){0,8}n'(?:est|etait|sont|etaient) en cours\b",
    r"\bno (?:event of )?default (?:has occurred|exists|existed|is continuing)\b",
    r"\b(?:sont|est) (?:comptabilise|evalue|enregistre|constate|amorti)e?s?\b"
    r".{0,80}\b(?:juste valeur|cout amorti|methode|lineaire|date)",
    r"\b(?:are|is) (?:recognized|recognised|measured|accounted for|stated) (?:at|using|on)\b",
)
_REASSURANCE = re.compile("|".join(_NOT_SIGNAL))
_COMPILED: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...] = tuple(
    (category, tuple(re.compile(p) for p in patterns)) for category, patterns in _CUES
)


def classify_sentence(text: str) -> tuple[str, int] | None:
    """The sentence's risk category and how many of its cues matched, or None."""
    folded = _NOT_RISK.sub(" ", fold(text))
    if _CROSS_REFERENCE.search(folded) or _REASSURANCE.search(folded):
        return None
    for category, patterns in _COMPILED:
        hits = sum(1 for pattern in patterns if pattern.search(folded))
        if hits:
            return category, hits
    return None
