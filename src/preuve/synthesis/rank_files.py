"""A dossier's own rank table: ``ranks.toml`` or a "Source ranks" section of ``question.md``.

``ranks.toml``::

    [ranks]                      # replaces the default table
    "internal benchmark" = 3
    "official announcement" = 2
    "rumour" = 0
    [aliases]                    # optional: other names of those types
    "bruit de couloir" = "rumour"

The section of ``question.md`` (a heading ``Source ranks``, ``Rangs des sources``, ``Ranks``
or ``Rangs``, then one ``type: rank`` or ``type = rank`` line each, bullets allowed) is
taken out of the question and read the same way. The lexicon's aliases still name the
types the table lists. Both at once is refused: a dossier has one table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from preuve.core.dossier_files import RANKS_FILE
from preuve.core.errors import InputError
from preuve.synthesis.lexicon import default_lexicon, fold, normalize_type_name
from preuve.synthesis.ranks import RankTable

__all__ = ["RANKS_FILE", "dossier_rank_table", "rank_table_from", "split_rank_section"]

_HEADING = re.compile(r"^#{1,6}\s*(?P<title>.+?)\s*#*\s*$")
_TITLES = frozenset({"source ranks", "rangs des sources", "ranks", "rangs", "source types"})
_LINE = re.compile(
    r"^\s*(?:[-*]\s*)?[\"'`]?(?P<name>[^:=\"'`]+?)[\"'`]?\s*[:=]\s*(?P<rank>-?\d+)\s*$"
)


def split_rank_section(question: str) -> tuple[str, list[tuple[int, str]]]:
    """(the question without its rank section, the section's lines with their numbers)."""
    lines = question.splitlines()
    kept: list[str] = []
    section: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(lines, start=1):
        heading = _HEADING.match(line)
        if heading is not None:
            inside = fold(heading.group("title")).strip(" :") in _TITLES
            if inside:
                continue
        if inside:
            if line.strip():
                section.append((number, line))
        else:
            kept.append(line)
    return "\n".join(kept), section


def rank_table_from(ranks: dict[str, int], aliases: dict[str, str], origin: str) -> RankTable:
    """A table whose types are ``ranks``, named also by ``aliases`` and the lexicon's."""
    canonical = {normalize_type_name(name): name for name in ranks}
    merged = {
        alias: canonical[normalize_type_name(target)]
        for alias, target in default_lexicon().source_aliases.items()
        if normalize_type_name(target) in canonical
    }
    for alias, target in aliases.items():
        if normalize_type_name(target) not in canonical:
            raise InputError(f"{origin}: alias {alias!r} names {target!r}, which has no rank")
        merged[normalize_type_name(alias)] = canonical[normalize_type_name(target)]
    return RankTable(dict(ranks), merged, origin)


def _from_toml(data: Mapping[str, Any], path: str) -> RankTable:
    ranks, aliases = data.get("ranks"), data.get("aliases", {})
    if not isinstance(ranks, dict) or not ranks:
        raise InputError(f"{path}: a [ranks] table of 'type = rank' lines is required")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in ranks.values()):
        raise InputError(f"{path}: every rank must be an integer")
    if not isinstance(aliases, dict) or not all(isinstance(v, str) for v in aliases.values()):
        raise InputError(f"{path}: [aliases] maps names to types of [ranks]")
    return rank_table_from(
        {str(k): int(v) for k, v in ranks.items()}, {str(k): v for k, v in aliases.items()},
        path,
    )  # fmt: skip


def _from_section(section: list[tuple[int, str]], origin: str) -> RankTable:
    ranks: dict[str, int] = {}
    for number, line in section:
        match = _LINE.match(line)
        if match is None:
            raise InputError(f"{origin}:{number}: rank line {line.strip()!r} is not 'type: rank'")
        ranks[" ".join(match.group("name").split())] = int(match.group("rank"))
    if not ranks:
        raise InputError(f"{origin}: the source ranks section has no 'type: rank' line")
    return rank_table_from(ranks, {}, origin)


def dossier_rank_table(
    folder: str,
    ranks: tuple[str, Mapping[str, Any]] | None,
    section: list[tuple[int, str]],
    question_path: str,
) -> RankTable | None:
    """The dossier's own table (None: the default one applies), from its ``ranks.toml``
    (``(path, parsed table)``, None without one) or its question's rank section."""
    if ranks is not None and section:
        raise InputError(
            f"{folder}: both {RANKS_FILE} and a source ranks section in question.md; keep one"
        )
    if ranks is not None:
        return _from_toml(ranks[1], ranks[0])
    if section:
        return _from_section(section, question_path)
    return None
