"""The sentences of a document as the rules sub-agent reads them: prose split into
sentences with their labels (``Label : value``), Markdown and space-aligned tables one
sentence per cell (a header's unit applies to its cells; rows of conditions are the
condition of their value), each with the offsets of its verbatim passage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from preuve.core.sentences import Sentence
from preuve.synthesis.lexicon import default_lexicon, fold, names_sum

__all__ = ["LabelledSentence", "label_condition", "mentions", "sentences", "table_sentences"]

_LABEL = re.compile(r"^\s*(?:[-*•]\s+)?(?P<label>[^:.;!?|]{2,80}?)\s*:\s+\S")


@dataclass(frozen=True, slots=True)
class LabelledSentence(Sentence):
    """A sentence of a document (its offsets in the text, its text on one line), its label
    if any; or a cell of a table."""

    label: str | None
    table: bool = False  # a cell of a table: its row (or column) label is its subject
    head: str = ""  # a cell's attribute (its column header, or its row label by column)
    cell: str = ""  # a cell's text as written
    condition: str = ""  # a cell's row label when it is a condition ("0.25C"), its context


_ROW = re.compile(r"^[ \t]*\|(?P<cells>.*)\|[ \t]*$", re.MULTILINE)
_RULE_ROW = re.compile(r"^[\s|:-]+$")
_HEADER_UNIT = re.compile(r"\s*[(\[](?P<unit>[^)\]]{1,20})[)\]]\s*$")


def _cells(row: str) -> list[str]:
    return [" ".join(c.split()) for c in row.split("|")]


_ALIGNED_SPLIT = re.compile(r"\s{2,}|\t")


def _aligned_blocks(text: str) -> list[list[tuple[int, int, list[str]]]]:
    """Plain-text tables: three or more consecutive lines whose cells are separated by two
    spaces or more, with as many cells on every line (at least three)."""
    blocks: list[list[tuple[int, int, list[str]]]] = []
    current: list[tuple[int, int, list[str]]] = []
    for line in re.finditer(r"^.*$", text, re.MULTILINE):
        cells = [c for c in _ALIGNED_SPLIT.split(line.group().strip()) if c]
        if (
            len(cells) >= 3
            and not line.group().lstrip().startswith("|")
            and (not current or len(cells) == len(current[0][2]))
        ):
            current.append((line.start(), line.end(), cells))
            continue
        if len(current) >= 3:
            blocks.append(current)
        current = [(line.start(), line.end(), cells)] if len(cells) >= 3 else []
    if len(current) >= 3:
        blocks.append(current)
    return blocks


_MAX_UNIT_CHARS = 8
# a row label that is a measurement condition ("0.25C", "25 °C", "4 h"), not a subject: a
# number with a unit letter, not a bare year
_CONDITION_LABEL = re.compile(r"^[<>≤≥~]?\s*[-−–]?\d+(?:[.,]\d+)?\s*(?:[^\W\d_]|°|%)")
# a condition a row label states after a preposition ("Production à −6 °C humide", "Noise
# at 50 m"): the label's value is measured under it
_LABEL_CONDITION = re.compile(
    r"(?<!\w)(?:à|a|at|@)\s+(?P<condition>[-−–]?\d+(?:[.,]\d+)?\s*(?:°\s?[CF]|[^\W\d_]+))"
)


# a cell of words ("**Total excl. VAT**", "VAT 23 %"), no figure alone
_WORDS_CELL = re.compile(r"[*_]*[^\W\d_][^|]*")
# a row label that only numbers the row (a run, a passage, a day): "1", "**2**"
_INDEX_LABEL = re.compile(r"[*_]*\d{1,3}[*_]*")


def label_condition(label: str | None) -> str:
    """The condition a label states after a preposition ("Production à −6 °C humide" is
    measured at −6 °C), or ""."""
    stated = _LABEL_CONDITION.search(label or "")
    return stated.group("condition") if stated else ""


def _bare(label: str) -> str:
    return " ".join(label.strip(" *_").lower().split())


def _row_condition(label: str, rows: dict[str, str]) -> str:
    """The value of the row a label names as its condition ("... at design flow", the sheet
    giving "Design flow | 310 m³/h"), or ""."""
    stated = re.search(r"(?<!\w)(?:at|à|a|@)\s+(?P<row>[^\d(),;]+?)\s*$", _bare(label))
    cell = rows.get(stated.group("row")) if stated else None
    return cell if cell and _CONDITION_LABEL.match(cell) else ""


def _condition_columns(rows: Sequence[tuple[int, int, list[str]]], width: int) -> set[int]:
    """The first column after the row labels whose cells are measurement conditions ("−6
    °C", "310 m³/h (design)") set out alike for several subjects: each subject's rows give
    it different cells, the same ones for every subject (a test of two machines at two
    temperatures). Each row then gives its values under that condition, its context, not a
    value of its own; a measured column differs between subjects."""
    by_subject: dict[str, list[str]] = {}
    for _, _, cells in rows:
        if len(cells) < width:
            return set()
        by_subject.setdefault(cells[0], []).append(" ".join(cells[1:]))
    if len(by_subject) < 2 or width < 3 or all(len(v) == 1 for v in by_subject.values()):
        return set()
    for j in range(1, width - 1):
        column: dict[str, list[str]] = {}
        for _, _, cells in rows:
            column.setdefault(cells[0], []).append(cells[j])
        sets = [frozenset(c) for c in column.values()]
        if (
            all(_CONDITION_LABEL.match(c) for cs in column.values() for c in cs)
            and all(len(set(cs)) == len(cs) > 1 for cs in column.values())
            and len(set(sets)) == 1
        ):
            return {j}
    return set()


def _header_unit(head: str) -> tuple[str, str]:
    """(the header without its unit, the unit written in it: ``Latency (ms)``, ``msg/s``)."""
    unit = _HEADER_UNIT.search(head)
    if unit is not None and re.search(r"\d", unit.group("unit")):
        return head, ""  # "timeouts (>10 s)": a condition of the column, no unit
    if unit is not None:
        # "Efficiency (at rated load, %)": the unit last, what comes first qualifies
        *qualifiers, last = [p.strip() for p in unit.group("unit").split(",")]
        if qualifiers and len(last) <= _MAX_UNIT_CHARS:
            return f"{_HEADER_UNIT.sub('', head)} ({', '.join(qualifiers)})", last
        return _HEADER_UNIT.sub("", head), unit.group("unit")
    last = head.rsplit(maxsplit=1)[-1] if head.split() else ""
    if len(head.split()) > 1 and ("/" in last or last.isupper()):
        return head[: -len(last)].strip(), last
    return head, ""


# a document stating the currency of its figures once ("Prices in GBP", "montants en euros")
_CURRENCY_NOTE = re.compile(
    r"(?i)\b(?:prices?|amounts?|figures?|prix|montants?|tarifs?)\b[^.\n|]{0,20}?\b(?:in|en)"
    r"\s+(?P<currency>GBP|EUR|USD|CHF|euros?|€|£|\$)(?![\w])"
)


def _priced(head: str) -> bool:
    """Whether a column header names an amount ("Unit price", "Line total", "Montant")."""
    lexicon = default_lexicon()
    price = lexicon.concept("price")
    words = [*(price.terms if price else ()), *(lexicon.pricing or {}).get("aggregates", ())]
    folded = fold(head)
    return any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", folded) for w in words)


def _cell_sentences(
    header: list[str], rows: Sequence[tuple[int, int, list[str]]], products: Sequence[str],
    currency: str = "",
) -> list[LabelledSentence]:  # fmt: skip
    by_column = any(mentions(p, cell) for p in products for cell in header[1:])
    # two columns and no product among the row labels: a property sheet ("charge utile |
    # 600 kg") of the document's product, each row label what its value measures
    sheet = len(header) == 2 and not any(
        mentions(p, cells[0]) for p in products for _, _, cells in rows if cells
    )
    out = []
    conditions = set() if by_column else _condition_columns(rows, len(header))
    # a sheet's rows by label, for a label naming another row as its condition ("Validated
    # dose at design flow", the "Design flow" row giving 310 m³/h)
    named_rows = {_bare(cells[0]): cells[1] for _, _, cells in rows if sheet and len(cells) >= 2}
    for start, end, row in rows:
        cells, label = row, row[0]
        if not label.strip(" *_") and not by_column:
            # a row without its first cell ("| | **Total excl. VAT** | | 48 900.00 |") is
            # labelled by its first cell of words when it names a sum under the items' column
            named = [j for j, c in enumerate(cells) if j and _WORDS_CELL.fullmatch(c)]
            if named and names_sum(cells[named[0]], default_lexicon()):
                label = cells[named[0]].strip(" *_")
                cells = [label, *(c if j != named[0] else "" for j, c in enumerate(cells) if j)]
        if sheet and len(cells) >= 2 and cells[1] and cells[1] not in {"-", "—", "n/a", "N/A"}:
            text = f"{label} : {cells[1]}"
            condition = label_condition(label) or _row_condition(label, named_rows)
            out.append(LabelledSentence(start, end, text, None, table=True, head=label,
                                        cell=cells[1], condition=condition))  # fmt: skip
            continue
        row_condition = " ".join(cells[j] for j in sorted(conditions) if j < len(cells))
        for index, (head, written) in enumerate(zip(header[1:], cells[1:], strict=False), 1):
            # (a figure in bold, "**48 900.00**", is that figure)
            cell = (
                written.strip("*_ ") if re.fullmatch(r"[*_]+[\d\s.,]+[*_]+", written) else written
            )
            if not cell or cell in {"-", "—", "n/a", "N/A"} or index in conditions:
                continue
            name, unit = _header_unit(head)
            bare = re.fullmatch(r"[\d\s.,]+", cell) is not None
            suffix = f" {unit}" if unit and bare else ""
            if not unit and bare and currency and _priced(head):
                suffix = f" {currency}"  # "420.00" under "Unit price", prices in GBP
            if not by_column and _CONDITION_LABEL.match(label):
                # rows of conditions ("C-rate | efficiency"): the cells are of the document's
                # (or its section's) subject, each row the condition of its value
                text = f"{name} {cell}{suffix}"
                out.append(LabelledSentence(start, end, text, None, table=True, head=name,
                                            cell=cell, condition=label))  # fmt: skip
                continue
            if by_column and _INDEX_LABEL.fullmatch(label):
                # a row numbered by its run ("| 1 | 17/03 | 2 h 19 min | 861 doc./h |"): the
                # number is the row's condition, no attribute, and never glued to the value
                # ("1 861" read as one thousand eight hundred and sixty-one)
                text = f"{name} {cell}{suffix}"
                condition = f"{header[0]} {label}".strip(" *_")
                out.append(LabelledSentence(start, end, text, name, table=True, head=name,
                                            cell=cell, condition=condition))  # fmt: skip
                continue
            subject, attribute = (name, label) if by_column else (label, name)
            text = f"{subject} : {attribute} {cell}{suffix}"
            out.append(LabelledSentence(start, end, text, subject, table=True, head=attribute,
                                        cell=cell, condition=row_condition))  # fmt: skip
    return out


def table_sentences(text: str, products: Sequence[str] = ()) -> list[list[LabelledSentence]]:
    """Markdown tables of ``text`` as sentences: one per cell, ``row label : column header
    value unit`` (a unit written in a header, ``Latency p99 (ms)``, applies to its cells),
    with the offsets of the row (its verbatim quote). When the header names the products,
    columns are subjects and row labels attributes; otherwise rows are the subjects."""
    out: list[list[LabelledSentence]] = []
    declared = _CURRENCY_NOTE.search(text)
    currency = declared.group("currency") if declared else ""
    rows = list(_ROW.finditer(text))
    blocks: list[list[re.Match[str]]] = []
    for row in rows:
        if blocks and text[blocks[-1][-1].end() : row.start()].strip() == "":
            blocks[-1].append(row)
        else:
            blocks.append([row])
    for block in blocks:
        body = [r for r in block if not _RULE_ROW.match(r.group("cells"))]
        if len(body) < 2:
            continue
        header = _cells(body[0].group("cells"))
        rows_of = [(r.start(), r.end(), _cells(r.group("cells"))) for r in body[1:]]
        out.append(_cell_sentences(header, rows_of, products, currency))
    for aligned in _aligned_blocks(text):
        out.append(_cell_sentences(aligned[0][2], aligned[1:], products))
    return [paragraph for paragraph in out if paragraph]


def sentences(text: str) -> list[list[LabelledSentence]]:
    """The paragraphs of ``text`` (tables left out: see :func:`table_sentences`), each a
    list of sentences with their offsets."""
    paragraphs: list[list[LabelledSentence]] = []
    text = _ROW.sub(lambda m: " " * len(m.group()), text)
    for aligned in _aligned_blocks(text):
        start, end = aligned[0][0], aligned[-1][1]
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    for block in re.finditer(r"(?:[^\n]|\n(?![ \t]*\n))+", text):
        out: list[LabelledSentence] = []
        for item in re.finditer(
            r"(?:[^\n]|\n(?![ \t]*(?:[-*•|]|#{1,6}|\d+[.)])\s))+", block.group()
        ):
            base = block.start() + item.start()
            # (leader dots "Training ........ $9,600.00" and an ellipsis end no sentence)
            # (a bold sentence, "**... 2027.** This date ...", ends at its period too)
            # (nor does an abbreviation of single letters: "week 38, i.e. in September")
            for piece in re.finditer(r"(?:(?<!\w)(?:[^\W\d_]\.){2,}(?=\s+[a-z\d])"
                                     r"|[^.!?;\n]|\.{2,}|[.!?;](?!\**\s)|\n(?!\s*\S+\s*:\s))+"
                                     r"[.!?;]?(?:\*\*(?=\s))?", item.group()):  # fmt: skip
                raw = piece.group()
                stripped = raw.strip()
                if not stripped:
                    continue
                start = base + piece.start() + (len(raw) - len(raw.lstrip()))
                flat = " ".join(stripped.split())
                match = _LABEL.match(flat)
                # (a bold label, "**Total HT : 355 700 €**", is its words without the marks)
                label = match.group("label").strip(" *_") or None if match else None
                out.append(LabelledSentence(start, start + len(stripped), flat, label))
        if out:
            paragraphs.append(out)
    return paragraphs


def mentions(name: str, text: str) -> list[int]:
    """Start offsets where ``name`` appears as whole words (case-sensitive)."""
    pattern = r"(?<![\w-])" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?![\w-])"
    return [m.start() for m in re.finditer(pattern, text)]
