"""A memo as the writer returns it: ``{"paragraphs": [{"text", "sources"}]}`` decoded into
:class:`Paragraph` values, any other shape refused with an ``InputError`` naming it."""

from __future__ import annotations

from dataclasses import dataclass

from preuve.core.errors import InputError

__all__ = ["Paragraph", "parse_memo"]

_MEMO_FIX = 'expected {"paragraphs": [{"text": "...", "sources": ["ID", ...]}, ...]}'


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One memo paragraph and the ids of the facts it cites."""

    text: str
    sources: tuple[str, ...]


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def _memo_error(source: str, problem: str) -> InputError:
    return InputError(f"{source}: {problem}", fix=_MEMO_FIX)


def _parse_paragraph(item: object, index: int, source: str) -> Paragraph:
    where = f"paragraphs[{index}]"
    if not isinstance(item, dict):
        raise _memo_error(source, f"{where} must be an object, got {_json_type(item)}")
    keys = {str(k) for k in item}
    if keys != {"text", "sources"}:
        missing, extra = sorted({"text", "sources"} - keys), sorted(keys - {"text", "sources"})
        problem = "; ".join(
            part
            for part in (
                f"missing {', '.join(missing)}" if missing else "",
                f"unexpected {', '.join(extra)}" if extra else "",
            )
            if part
        )
        raise _memo_error(source, f"{where}: {problem}")
    text, sources = item["text"], item["sources"]
    if not isinstance(text, str) or not text.strip():
        raise _memo_error(source, f"{where}.text must be a non-empty string")
    if not isinstance(sources, list):
        raise _memo_error(source, f"{where}.sources must be an array, got {_json_type(sources)}")
    for position, sid in enumerate(sources):
        if not isinstance(sid, str) or not sid.strip():
            raise _memo_error(source, f"{where}.sources[{position}] must be a non-empty string")
    return Paragraph(text=text, sources=tuple(sources))


def parse_memo(data: object, *, source: str = "memo") -> list[Paragraph]:
    """Paragraphs of a decoded memo JSON ``{"paragraphs": [{"text", "sources"}]}``; any
    other shape, extra key or empty memo raises ``InputError`` naming the problem."""
    if not isinstance(data, dict):
        raise _memo_error(source, f"the memo must be a JSON object, got {_json_type(data)}")
    extra = sorted(str(k) for k in data if k != "paragraphs")
    if extra:
        raise _memo_error(source, f"unexpected key(s) {', '.join(extra)}")
    if "paragraphs" not in data:
        raise _memo_error(source, "missing key paragraphs")
    items = data["paragraphs"]
    if not isinstance(items, list):
        raise _memo_error(source, f"paragraphs must be an array, got {_json_type(items)}")
    if not items:
        raise _memo_error(source, "the memo has no paragraphs")
    return [_parse_paragraph(item, index, source) for index, item in enumerate(items)]
