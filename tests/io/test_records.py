"""``record_of``: a run-file record filled from a domain value by field name, nothing left out."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from preuve.core.evidence import Span
from preuve.io.records import SpanEntry, dump_record, load_record, record_of


@dataclass(frozen=True)
class Reading:
    gauge: str
    litres: float
    seen_by: str


@dataclass(frozen=True, kw_only=True)
class ReadingEntry:
    gauge: str
    volume: float
    seen_by: str = "nobody"


def test_a_record_takes_each_field_by_name_or_as_given() -> None:
    reading = Reading("cuve-3", 1250.5, "Léa")
    entry = record_of(ReadingEntry, reading, volume=reading.litres)
    assert entry == ReadingEntry(gauge="cuve-3", volume=1250.5, seen_by="Léa")  # not the default


def test_nothing_is_left_to_a_default_or_dropped_silently() -> None:
    reading = Reading("cuve-3", 1250.5, "Léa")
    with pytest.raises(TypeError, match=r"ReadingEntry.volume: Reading has no 'volume'"):
        record_of(ReadingEntry, reading)
    with pytest.raises(TypeError, match="ReadingEntry has no field litres"):
        record_of(ReadingEntry, reading, volume=1.0, litres=2.0)


def test_a_span_goes_to_its_record_and_back() -> None:
    span = Span(doc_id="d-1", version=2, start=4, end=9, quote="cuves", text_sha256="ab", page=1)
    entry = SpanEntry.of(span)
    assert entry.id == "d-1@2:4:9" and entry.page == 1
    assert load_record(SpanEntry, json.dumps(dump_record(entry)), "span.json").span() == span
