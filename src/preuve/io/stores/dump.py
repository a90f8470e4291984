"""A store as JSON lines, and back: ``preuve store export`` and ``import``.

    {"format": "preuve.store.dump/1", "schema_version": 2}
    {"table": "runs", "row": {...}}            one line per row, tables in DUMP_ORDER
    ...
    {"end": {"runs": 3, "nodes": 48, ...}}      rows per table: a cut file is refused

Rows are written as stored: JSON columns stay the canonical text they were stored as, and
ids are kept, so a dump of a store imported elsewhere (SQLite or PostgreSQL) is the same
file byte for byte. Reading a dump checks its shape line by line; digests are checked by
the caller (``preuve store import``), which knows what a result's digest is.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from preuve.core.errors import InputError
from preuve.io.stores.base import DUMP_ORDER, SCHEMA_VERSION, Store
from preuve.io.stores.sql import COLUMNS

__all__ = ["DUMP_FORMAT", "export_store", "read_dump"]

DUMP_FORMAT = "preuve.store.dump/1"


def _line(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def export_store(store: Store, out: TextIO) -> dict[str, int]:
    """Write every row of ``store`` to ``out``; rows written per table."""
    out.write(_line({"format": DUMP_FORMAT, "schema_version": store.schema_version()}))
    counts: dict[str, int] = {}
    for table in DUMP_ORDER:
        counts[table] = 0
        for row in store.dump_rows(table):
            out.write(_line({"table": table, "row": row}))
            counts[table] += 1
    out.write(_line({"end": counts}))
    return counts


def _bad(path: Path, number: int, what: str) -> InputError:
    return InputError(f"{path}:{number}: {what}", fix="give a file written by preuve store export")


def read_dump(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """The ``(table, row)`` pairs of a dump, checked: format, columns, order, end counts."""
    counts = dict.fromkeys(DUMP_ORDER, 0)
    rank = {table: n for n, table in enumerate(DUMP_ORDER)}
    current = 0
    ended = False
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            try:
                entry = json.loads(text)
            except ValueError as err:
                raise _bad(path, number, f"not JSON ({err})") from None
            if not isinstance(entry, dict) or ended:
                raise _bad(path, number, "unexpected line")
            if number == 1:
                if entry.get("format") != DUMP_FORMAT:
                    raise _bad(path, number, f"not a {DUMP_FORMAT} file")
                if not isinstance(entry.get("schema_version"), int) or (
                    entry["schema_version"] > SCHEMA_VERSION
                ):
                    raise _bad(path, number, "written by a newer preuve")
                continue
            if "end" in entry:
                if entry["end"] != counts:
                    raise _bad(path, number, f"the file holds {counts}, its end says otherwise")
                ended = True
                continue
            table, row = entry.get("table"), entry.get("row")
            if table not in rank or not isinstance(row, dict):
                raise _bad(path, number, "neither a row of a known table nor the end")
            if set(row) != set(COLUMNS[table]):
                raise _bad(path, number, f"a {table} row with other columns than the schema's")
            if rank[table] < current:
                raise _bad(path, number, f"{table} rows after later tables")
            current = rank[table]
            counts[table] += 1
            yield table, row
    if not ended:
        raise InputError(f"{path}: the dump is cut short (no end line)", fix="export it again")
