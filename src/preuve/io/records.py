"""Dataclasses ↔ JSON for run files, through one maintained library: pydantic's TypeAdapter.

A run file's type is a plain (frozen) dataclass; :func:`dump_record` turns it into JSON data
(tuples become arrays, enums their values, ``Decimal`` a string, fields in declaration
order) and :func:`load_record` reads JSON back into the same type, strictly: a missing
field, a wrong type or an unknown key (where the type forbids extras) is a
:class:`RecordError` whose one line says where (``companies[0].memo.status: ...``).
:func:`dump_records` and :func:`load_records` do the same for a tuple of records.

pydantic is already installed with ``openai`` (and the viewer's FastAPI); it is used here,
at the I/O edge only: the dataclasses themselves do not import it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar, cast

from pydantic import Field, TypeAdapter, ValidationError

from preuve.core.errors import InputError
from preuve.core.evidence import Span
from preuve.core.quotes import Diagnostic, QuoteResult, Verdict

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "OMITTED_IF_NONE",
    "STRICT",
    "QuoteEntry",
    "RecordError",
    "SpanEntry",
    "dump_record",
    "dump_records",
    "load_data",
    "load_record",
    "load_records",
    "load_records_data",
    "record_of",
]

T = TypeVar("T")
D = TypeVar("D", bound="DataclassInstance")


class RecordError(InputError):
    """A run file's JSON does not have the shape of its type."""


# A run-file type's pydantic config: an unknown key is refused.
STRICT: dict[str, Any] = {"extra": "forbid"}


def _is_none(value: object) -> bool:
    return value is None


# A field left out of the JSON when it is None (a key that is absent rather than null).
OMITTED_IF_NONE = Field(exclude_if=_is_none)


def record_of(kind: type[D], source: object, **given: object) -> D:
    """A ``kind`` (a record, or a domain dataclass read back) filled from ``source``: each
    field from ``source``'s attribute of the same name, or from ``given`` where the record's
    value is not one (a renamed key, a computed figure, a nested record). A field ``source``
    does not have and ``given`` does not name, or a ``given`` name ``kind`` has no field for,
    is a ``TypeError``: nothing is left to a default silently."""
    names = [f.name for f in dataclasses.fields(kind) if f.init]
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise TypeError(f"{kind.__name__} has no field {', '.join(unknown)}")
    values: dict[str, object] = {}
    for name in names:
        if name in given:
            values[name] = given[name]
        elif hasattr(source, name):
            values[name] = getattr(source, name)
        else:
            kind_name, source_name = kind.__name__, type(source).__name__
            raise TypeError(f"{kind_name}.{name}: {source_name} has no {name!r} and none is given")
    return kind(**values)


@dataclass(frozen=True, slots=True, kw_only=True)
class SpanEntry:
    """A :class:`~preuve.core.evidence.Span` as ``Span.as_dict`` writes it, in every
    workflow's run files."""

    id: str
    doc_id: str
    version: int
    page: int | None
    start: int
    end: int
    quote: str
    text_sha256: str
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, span: Span) -> SpanEntry:
        return record_of(cls, span)

    def span(self) -> Span:
        """The span back; ``ValueError`` when the id does not match its fields."""
        span = record_of(Span, self)
        if span.id != self.id:
            raise ValueError(f"span id {self.id!r} does not match its fields ({span.id!r})")
        return span


@dataclass(frozen=True, slots=True, kw_only=True)
class QuoteEntry:
    """A :class:`~preuve.core.quotes.QuoteResult` as ``check-quote --json`` and the demo
    write it: its fields in order, the span (with its id) last and only when known."""

    verified: bool
    verdict: Verdict
    page: int
    start: int | None
    end: int | None
    matched: str | None
    reason: str
    other_page: int | None
    diagnostic: Diagnostic | None
    span: Annotated[SpanEntry | None, OMITTED_IF_NONE] = None
    __pydantic_config__: ClassVar[dict[str, Any]] = STRICT

    @classmethod
    def of(cls, result: QuoteResult) -> QuoteEntry:
        return record_of(
            cls, result, span=None if result.span is None else SpanEntry.of(result.span)
        )


@functools.cache
def _adapter(kind: Any) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


def _many(item: type[T]) -> Any:
    return tuple[item, ...]  # type: ignore[valid-type]


def dump_record(value: object) -> Any:
    """``value`` (a dataclass) as JSON data: dicts, lists, strings, numbers, None."""
    return _adapter(cast("Any", type(value))).dump_python(value, mode="json")


def dump_records(values: Iterable[T], item: type[T]) -> list[Any]:
    """Records of one type as a JSON array."""
    return cast("list[Any]", _adapter(_many(item)).dump_python(tuple(values), mode="json"))


def _where(location: tuple[int | str, ...]) -> str:
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "(top level)"


_REWRITE = "the file was not written by this version of preuve, or was edited: re-run the workflow"


def _validated(kind: Any, data: bytes | str, source: str, fix: str = _REWRITE) -> Any:
    try:
        return _adapter(kind).validate_json(data, strict=True)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        more = err.error_count() - 1
        tail = f" (and {more} more)" if more else ""
        raise RecordError(
            f"{source}: {_where(tuple(first['loc']))}: {first['msg']}{tail}",
            fix=fix,
        ) from None


def load_record(kind: type[T], data: bytes | str, source: str, fix: str = _REWRITE) -> T:
    """Read JSON text into ``kind``, strictly; :class:`RecordError` names ``source`` and the
    first wrong place (and how many more there are); ``fix`` is what the user should do."""
    return cast("T", _validated(kind, data, source, fix))


def load_records(item: type[T], data: bytes | str, source: str) -> tuple[T, ...]:
    """Read a JSON array of ``item`` records."""
    return cast("tuple[T, ...]", _validated(_many(item), data, source))


def load_data(kind: type[T], data: object, source: str, fix: str = _REWRITE) -> T:
    """JSON data already parsed (part of a larger file) read into ``kind``, as strictly."""
    return load_record(kind, json.dumps(data, ensure_ascii=False), source, fix)


def load_records_data(item: type[T], data: object, source: str) -> tuple[T, ...]:
    """Parsed JSON data read into a tuple of ``item`` records, as strictly."""
    return load_records(item, json.dumps(data, ensure_ascii=False), source)
