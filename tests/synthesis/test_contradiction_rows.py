"""Which of its several values a document opposes to another's (contradiction_rows), on
documents of domains no dossier here is about (pumps, links, cold rooms)."""

from __future__ import annotations

from datetime import date

import pytest

from preuve.synthesis.contradiction_rows import split_rows
from preuve.synthesis.types import SourcedValue

_v = SourcedValue
D = {"sheet": date(2025, 1, 10), "bench": date(2026, 3, 1), "bench2": date(2026, 9, 1),
     "note": date(2026, 10, 1)}  # fmt: skip


@pytest.mark.parametrize(
    ("values", "quotes", "expected"),
    [
        pytest.param(
            [_v("18 Gbit/s", ("sheet", "note")), _v("7.2 Gbit/s", ("bench", "note"))],
            {
                ("sheet", "18 Gbit/s"): "Throughput | 18 Gbit/s",
                ("bench", "7.2 Gbit/s"): "Throughput | 7.2 Gbit/s",
                ("note", "18 Gbit/s"): "the sheet gives 18 Gbit/s, the bench 7.2 Gbit/s",
                ("note", "7.2 Gbit/s"): "the sheet gives 18 Gbit/s, the bench 7.2 Gbit/s",
            },
            [(_v("18 Gbit/s", ("sheet",)), _v("7.2 Gbit/s", ("bench",)))],
            id="a-note-quoting-two-earlier-documents-is-no-side",
        ),
        pytest.param(
            [_v("9.1 m3/h", ("bench", "bench2")), _v("11.4 m3/h", ("bench2",))],
            {
                ("bench", "9.1 m3/h"): "Flow | 9.1 m3/h",
                ("bench2", "9.1 m3/h"): "Flow | 9.1 m3/h | 11.4 m3/h",
                ("bench2", "11.4 m3/h"): "Flow | 9.1 m3/h | 11.4 m3/h",
            },
            [(_v("9.1 m3/h", ("bench",)), _v("11.4 m3/h", ("bench2",)))],
            id="a-report-repeating-an-earlier-figure-keeps-its-own",
        ),
        pytest.param(
            [
                _v("60 Gbit/s", ("sheet",)),
                _v("18 Gbit/s", ("sheet",)),
                _v("7.2 Gbit/s", ("bench",)),
            ],
            {
                ("sheet", "60 Gbit/s"): "| Link throughput, routing only (UDP) | 60 Gbit/s |",
                ("sheet", "18 Gbit/s"): "| Link throughput, deep inspection (mix) | 18 Gbit/s |",
                ("bench", "7.2 Gbit/s"): "| Sustained throughput, deep inspection | 7.2 Gbit/s |",
            },
            [
                (_v("60 Gbit/s", ("sheet",)),),
                (_v("18 Gbit/s", ("sheet",)), _v("7.2 Gbit/s", ("bench",))),
            ],
            id="a-sheet-row-is-opposed-to-the-passage-sharing-its-words",
        ),
        pytest.param(
            [
                _v("60 Gbit/s", ("sheet",)),
                _v("18 Gbit/s", ("sheet",)),
                _v("7.2 Gbit/s", ("bench",)),
            ],
            {
                ("sheet", "60 Gbit/s"): "| Throughput, cold room A | 60 Gbit/s |",
                ("sheet", "18 Gbit/s"): "| Throughput, cold room B | 18 Gbit/s |",
                ("bench", "7.2 Gbit/s"): "Sustained throughput: 7.2 Gbit/s",
            },
            [
                (_v("60 Gbit/s", ("sheet",)),),
                (_v("18 Gbit/s", ("sheet",)),),
                (_v("7.2 Gbit/s", ("bench",)),),
            ],
            id="a-passage-matching-no-row-alone-is-compared-with-none",
        ),
        pytest.param(
            [_v("3 bar", ("bench2",)), _v("4 bar", ("bench2",)), _v("5 bar", ("sheet",))],
            {
                ("bench2", "3 bar"): "| Pressure | 3 bar | 4 bar |",
                ("bench2", "4 bar"): "| Pressure | 3 bar | 4 bar |",
                ("sheet", "5 bar"): "Pressure: 5 bar",
            },
            [(_v("5 bar", ("sheet",)),)],
            id="two-own-values-in-one-row-contradict-no-one",
        ),
    ],
)
def test_split_rows(
    values: list[SourcedValue],
    quotes: dict[tuple[str, str], str],
    expected: list[tuple[SourcedValue, ...]],
) -> None:
    assert split_rows(values, quotes, D) == expected
