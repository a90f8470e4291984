"""Lay out one bundled annual report as a PDF with reportlab, and say on which page each
statement and each planted signal landed.

Layout follows real French reports: a cover, a management report, one statement per page
(income statement, balance sheet, cash-flow statement) as ruled tables with a year header,
amounts in k€ with narrow no-break spaces (U+202F) as thousands separators, negatives in
parentheses or with a minus sign, then the notes. ``invariant=1`` pins dates and ids so the
same data always gives the same bytes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from preuve.corpora.memo_data import CompanySpec, HeaderStyle, NegativeStyle
from preuve.corpora.memo_model import LINES, Kind, LineSpec
from preuve.corpora.memo_prose import KeyFigures, NoteTable, Para, Section, Signal

__all__ = ["Layout", "format_amount", "layout_report"]

FONTS_DIR = Path(__file__).parent / "fonts"
_REGULAR = "PreuveDejaVuSans"
_BOLD = "PreuveDejaVuSans-Bold"
NNBSP = "\u202f"
NBSP = "\u00a0"
_WIDTHS = (265.0, 40.0, 85.0, 85.0)
_INCOME, _BALANCE, _CASHFLOW = "statement:income", "statement:balance", "statement:cashflow"


@dataclass(frozen=True, slots=True)
class Layout:
    """A laid-out report: its PDF bytes and the page (from 1) of every tag."""

    pdf: bytes
    pages: dict[str, int] = field(default_factory=dict)


def _register_fonts() -> None:
    # reportlab keeps registered fonts process-wide; registering twice is harmless.
    if _REGULAR not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_REGULAR, str(FONTS_DIR / "DejaVuSans.ttf")))
        pdfmetrics.registerFont(TTFont(_BOLD, str(FONTS_DIR / "DejaVuSans-Bold.ttf")))


def format_amount(value: int, negatives: NegativeStyle, *, zero_dash: bool = False) -> str:
    """``-61300`` → ``(61 300)`` or ``−61 300`` with a narrow no-break space."""
    if value == 0 and zero_dash:
        return "—"
    digits = f"{abs(value):,}".replace(",", NNBSP)
    if value >= 0:
        return digits
    return f"({digits})" if negatives is NegativeStyle.PARENTHESES else f"\u2212{digits}"


def _typeset(text: str) -> str:
    """French typography: no line break inside an amount, before %, k€, ; : or inside « »."""
    text = re.sub(r"(?<=\d) (?=\d{3}\b)", NBSP, text)
    text = re.sub(r" (?=%|k€|€|;|:|»)", NBSP, text)
    return escape(text.replace("« ", f"«{NBSP}"))


class _Tagged(Paragraph):  # type: ignore[misc]  # reportlab ships no type hints
    """A paragraph whose page is recorded under ``tags`` when it is drawn."""

    def __init__(self, text: str, style: ParagraphStyle, tags: tuple[str, ...]) -> None:
        super().__init__(text, style)
        self.tags = tags


class _TaggedTable(Table):  # type: ignore[misc]
    def __init__(self, data: list[list[str]], tags: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.tags = tags


class _Doc(BaseDocTemplate):  # type: ignore[misc]
    def __init__(self, buffer: io.BytesIO, spec: CompanySpec) -> None:
        super().__init__(
            buffer,
            pagesize=A4,
            leftMargin=2 * cm,
            rightMargin=2 * cm,
            topMargin=2.2 * cm,
            bottomMargin=2 * cm,
            title=f"{spec.name} – Rapport annuel {spec.year}",
            author=spec.name,
            invariant=1,
        )
        self.spec = spec
        self.tag_pages: dict[str, int] = {}
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body")
        self.addPageTemplates(
            [PageTemplate(id="page", frames=[frame], onPage=self._header, onPageEnd=self._footer)]
        )

    def afterFlowable(self, flowable: Flowable) -> None:  # noqa: N802 (reportlab's hook name)
        for tag in getattr(flowable, "tags", ()):
            self.tag_pages.setdefault(tag, self.page)

    def _header(self, canvas: Any, doc: Any) -> None:
        if doc.page == 1:
            return
        canvas.setFont(_REGULAR, 8)
        canvas.drawString(
            2 * cm, A4[1] - 1.3 * cm, f"{self.spec.name} – Rapport annuel {self.spec.year}"
        )

    def _footer(self, canvas: Any, doc: Any) -> None:
        if doc.page == 1:
            return
        canvas.setFont(_REGULAR, 8)
        canvas.drawRightString(A4[0] - 2 * cm, 1.2 * cm, f"Page {doc.page}")


@dataclass(frozen=True, slots=True)
class _Styles:
    cover: ParagraphStyle
    subtitle: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle


def _styles() -> _Styles:
    body = ParagraphStyle("body", fontName=_REGULAR, fontSize=9.5, leading=13.5, spaceAfter=7)
    return _Styles(
        cover=ParagraphStyle("cover", fontName=_BOLD, fontSize=26, leading=32, spaceAfter=18),
        subtitle=ParagraphStyle("subtitle", fontName=_REGULAR, fontSize=13, leading=18),
        h1=ParagraphStyle("h1", fontName=_BOLD, fontSize=15, leading=20, spaceAfter=10),
        h2=ParagraphStyle(
            "h2",
            fontName=_BOLD,
            fontSize=11,
            leading=15,
            spaceBefore=6,
            spaceAfter=5,
            keepWithNext=1,
        ),
        body=ParagraphStyle("justified", parent=body, alignment=TA_JUSTIFY),
        small=ParagraphStyle("small", fontName=_REGULAR, fontSize=8, leading=11, spaceBefore=8),
    )


def _year_headers(spec: CompanySpec) -> tuple[str, str]:
    years = (spec.year, spec.year - 1)
    if spec.style.header is HeaderStyle.DATES:
        return (f"31/12/{years[0]}", f"31/12/{years[1]}")
    if spec.style.header is HeaderStyle.EXERCICE:
        return (f"Exercice {years[0]}", f"Exercice {years[1]}")
    return (str(years[0]), str(years[1]))


def _table(
    spec: CompanySpec,
    rows: Iterable[tuple[str, str, int, int, bool]],
    tags: tuple[str, ...] = (),
    *,
    with_notes: bool = True,
) -> Table:
    """A ruled two-year table: (label, note, value, prior value, is_subtotal) rows."""
    style = spec.style
    note_caption = style.note_caption if with_notes else ""
    data = [[style.unit_caption, note_caption, *_year_headers(spec)]]
    commands: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), _REGULAR, 8.5),
        ("FONT", (0, 0), (-1, 0), _BOLD, 8.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.lightgrey),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
    ]
    for index, (label, note, current, prior, subtotal) in enumerate(rows, start=1):
        data.append(
            [
                label,
                note,
                format_amount(current, style.negatives, zero_dash=style.zero_dash),
                format_amount(prior, style.negatives, zero_dash=style.zero_dash),
            ]
        )
        if subtotal:
            commands.append(("FONT", (0, index), (-1, index), _BOLD, 8.5))
            commands.append(("LINEABOVE", (0, index), (-1, index), 0.7, colors.black))
    table = _TaggedTable(data, tags, colWidths=list(_WIDTHS), hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table


def _statement_rows(
    spec: CompanySpec, figures: dict[int, dict[str, int]], lines: Iterable[LineSpec]
) -> list[tuple[str, str, int, int, bool]]:
    notes = dict(spec.notes_by_field)
    year, prior = spec.year, spec.year - 1
    return [
        (
            spec.label(line.key, line.label),
            notes.get(line.key, ""),
            figures[year][line.key],
            figures[prior][line.key],
            line.subtotal,
        )
        for line in lines
    ]


def _statement_pages(
    spec: CompanySpec, figures: dict[int, dict[str, int]], styles: _Styles
) -> list[Flowable]:
    income_title, balance_title, cashflow_title = spec.style.headings
    footnote = Paragraph(
        "Les notes annexes font partie intégrante des états financiers.", styles.small
    )

    def of(kind: Kind, section: str = "") -> list[LineSpec]:
        return [
            line for line in LINES if line.kind is kind and (not section or line.section == section)
        ]

    story: list[Flowable] = [
        PageBreak(),
        Paragraph(escape(income_title), styles.h1),
        _table(spec, _statement_rows(spec, figures, of(Kind.INCOME)), (_INCOME,)),
        footnote,
        PageBreak(),
        Paragraph(escape(balance_title), styles.h1),
        Paragraph("Actif", styles.h2),
        _table(spec, _statement_rows(spec, figures, of(Kind.BALANCE, "actif")), (_BALANCE,)),
        Paragraph("Capitaux propres et passif", styles.h2),
        _table(spec, _statement_rows(spec, figures, of(Kind.BALANCE, "passif")), (_BALANCE,)),
        Paragraph("Endettement financier net", styles.h2),
        _table(spec, _statement_rows(spec, figures, of(Kind.BALANCE, "dette")), (_BALANCE,)),
        footnote,
        PageBreak(),
        Paragraph(escape(cashflow_title), styles.h1),
        _table(spec, _statement_rows(spec, figures, of(Kind.CASHFLOW)), (_CASHFLOW,)),
        footnote,
    ]
    return story


def _section_flowables(
    spec: CompanySpec,
    sections: tuple[Section, ...],
    figures: dict[int, dict[str, int]],
    styles: _Styles,
    signal_ids: dict[Signal, str],
) -> list[Flowable]:
    labels = {line.key: spec.label(line.key, line.label) for line in LINES}
    story: list[Flowable] = []
    for section in sections:
        story.append(Paragraph(_typeset(section.title), styles.h2))
        for block in section.blocks:
            if isinstance(block, Para):
                tags = tuple(signal_ids[c] for c in block.chunks if isinstance(c, Signal))
                paragraph = _Tagged(_typeset(block.text), styles.body, tags)
                # A paragraph carrying a signal never splits, so its sentence has one page.
                story.append(KeepTogether([paragraph]) if tags else paragraph)
            elif isinstance(block, KeyFigures):
                rows = [
                    (labels[k], "", figures[spec.year][k], figures[spec.year - 1][k], False)
                    for k in block.keys
                ]
                story += [_table(spec, rows, with_notes=False), Spacer(1, 8)]
            elif isinstance(block, NoteTable):
                rows = [(label, "", a, b, label.startswith("Total")) for label, a, b in block.rows]
                story += [_table(spec, rows, with_notes=False), Spacer(1, 8)]
    return story


def _cover(spec: CompanySpec, styles: _Styles) -> list[Flowable]:
    return [
        Spacer(1, 6 * cm),
        Paragraph(escape(spec.name), styles.cover),
        Paragraph(f"Rapport annuel {spec.year}", styles.subtitle),
        Paragraph(f"Exercice clos le 31 décembre {spec.year}", styles.subtitle),
        Spacer(1, 1.5 * cm),
        Paragraph(escape(spec.activity), styles.subtitle),
        Spacer(1, 8 * cm),
        Paragraph(_typeset(spec.legal), styles.small),
        PageBreak(),
        Paragraph("Sommaire", styles.h1),
        Paragraph("1. Rapport de gestion", styles.body),
        Paragraph("2. Comptes consolidés de l’exercice", styles.body),
        Paragraph("3. Annexe aux comptes consolidés", styles.body),
        PageBreak(),
        Paragraph("Rapport de gestion", styles.h1),
        Paragraph(
            _typeset(
                f"Le présent rapport rend compte de l’activité de {spec.name} et de ses "
                f"filiales au cours de l’exercice clos le 31 décembre {spec.year}."
            ),
            styles.body,
        ),
    ]


def layout_report(
    spec: CompanySpec, figures: dict[int, dict[str, int]], signal_ids: dict[Signal, str]
) -> Layout:
    """The PDF of one report. ``signal_ids`` maps each planted signal to the tag its page is
    recorded under; statements are tagged ``statement:income|balance|cashflow``."""
    _register_fonts()
    styles = _styles()
    story = _cover(spec, styles)
    story += _section_flowables(spec, spec.report, figures, styles, signal_ids)
    story += _statement_pages(spec, figures, styles)
    story += [PageBreak(), Paragraph("Annexe aux comptes consolidés", styles.h1)]
    story += _section_flowables(spec, spec.notes, figures, styles, signal_ids)
    buffer = io.BytesIO()
    doc = _Doc(buffer, spec)
    doc.build(story)
    return Layout(pdf=buffer.getvalue(), pages=dict(doc.tag_pages))
