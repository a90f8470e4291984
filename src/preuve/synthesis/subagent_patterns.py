"""The general patterns the rules sub-agent reads values with, one sentence at a time.

Each pattern knows a kind of value, not a dossier: latency (a duration in a sentence that
speaks of latency, with its percentile), throughput (``tok/s``, ``req/s``), licence (a
licence name after or before the word, or its kind in ``X : licence commerciale`` /
``sous licence ...``; ``une licence`` is a requirement and ``n'est plus sous licence`` the
past), the state of a security advisory (an id such as ``CVE-2026-1234`` or
``ORV-SA-2026-004`` with ``corrigée en 3.4.2`` / ``sans correctif``; the last state written
wins), end of support (a cue and a date, written in French, English, ISO or ``dd/mm/yyyy``),
prices (an amount with a currency, tax and period) and counts per year (``6 GPU en 2026``).

Values are canonical so that two documents saying the same thing agree: dates as
``30 juin 2027``, durations in ``ms`` or ``s``, throughputs in ``tok/s`` or ``req/s``,
``Apache 2.0``, advisory states as ``corrigée en X`` / ``corrigée`` / ``sans correctif``.
Numbers keep their written form, so each still appears in its document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Found", "advisory_ids", "advisory_state", "extract_values"]

_SP = "[ \u00a0\u202f]"
_NUMBER = rf"(?<![\w.,])(?:\d{{1,3}}(?:{_SP}\d{{3}})+(?!\d)|\d+)(?:[,.]\d+)?"
_LATENCY_CUE = re.compile(
    r"latenc[ey]|temps de (?:réponse|requête)|response time|query time", re.IGNORECASE
)
_PERCENTILE = re.compile(
    r"\b[pP](50|90|95|99|999)\b|\b(50|90|95|99)(?:e|ème|th)?\s+(?:centile|percentile)",
    re.IGNORECASE,
)
_DURATION = re.compile(
    rf"(?P<num>{_NUMBER}){_SP}?(?P<unit>ms|millisecondes?|milliseconds?|s|secondes?|seconds?)"
    r"(?![\w/])",
    re.IGNORECASE,
)
_RATE = re.compile(
    rf"(?P<num>{_NUMBER}){_SP}?(?P<unit>tok(?:ens)?/s|tokens?{_SP}par{_SP}seconde"
    rf"|tokens?{_SP}per{_SP}second|req(?:u[êe]tes)?/s|requ[êe]tes{_SP}par{_SP}seconde"
    rf"|requests?{_SP}per{_SP}second|rps)(?!\w)",
    re.IGNORECASE,
)
_LICENCE_WORD = re.compile(r"\blicen[cs]e[sd]?\b", re.IGNORECASE)
_LICENCE_NAME = (
    r"Apache(?:[ -](?:License|Licence))?(?:[ -]?v?2(?:\.0)?)?|MIT|ISC|Unlicense"
    r"|BSD(?:[ -]?[0-4][ -]?[Cc]lause)?"
    r"|(?:A|L)?GPL(?:[ -]?v?[23](?:\.[01])?)?(?:\+|-only|-or-later)?"
    r"|MPL(?:[ -]?2\.0)?|EUPL(?:[ -]?1\.[12])?|Elastic License(?:[ -]?v?2(?:\.0)?)?"
    r"|[A-Z][A-Z0-9]{1,7}(?:[ -]?v?\d+(?:\.\d+)?)?"
)
_LICENCE_KIND = (
    r"commerciale?s?|propriétaires?|proprietary|commercial|libres?|open[ -]source"
    r"|source[ -]available|permissive?s?"
)
_LICENCE_AFTER = re.compile(
    rf"^\s*(?::\s*)?(?P<kinds>(?i:{_LICENCE_KIND})(?:\s+(?:et\s+)?(?i:{_LICENCE_KIND}))*)?\s*"
    rf"(?P<name>(?:{_LICENCE_NAME})(?![\w-]|\.\d))?"
)
_LICENCE_BEFORE = re.compile(rf"(?P<name>{_LICENCE_NAME})[ -](?i:licen[cs]ed?)\s*$")
_VERSION_AFTER = re.compile(r"^\s+v?(\d+(?:\.\d+)?)\b")
_LICENCE_EXCLUDED = re.compile(r"^(?:HT|TTC|SSO|API|GPU|CPU|SLA|URL)$")
# "une licence commerciale" is a requirement; "n'est plus sous licence X" is the past.
_LICENCE_NOT_CURRENT = re.compile(
    r"(?:\bune?|\ba|\ban|\bplus\b(?:\s+\w+)?|anciennement|précédemment|formerly|previously"
    r"|no longer(?:\s+\w+)?|quitte|abandonne)\s+(?:sous\s+|under\s+(?:the\s+)?)?$",
    re.IGNORECASE,
)
# A licence described only by its kind ("commerciale") must be stated as the product's
# licence ("X : licence ...", "sous licence ..."), not as an offer ("la licence commerciale").
_LICENCE_OF = re.compile(r"(?:\bsous|\bunder(?:\s+an?|\s+the)?|:)\s*$", re.IGNORECASE)
_ADVISORY = re.compile(
    r"\b(?:CVE-\d{4}-\d{4,7}|GHSA(?:-[a-z0-9]{4}){3}|[A-Z]{2,8}(?:-[A-Z]{2,8})?-\d{4}-\d{2,6})\b"
)
_FIXED_IN = re.compile(
    r"\b(?:corrig[ée]+s?|fixed|résolue?s?|patched)\s+(?:dans|en|par|in|by|avec|with)\s+"
    r"(?:la\s+|the\s+)?(?:version\s+|release\s+)?(?:[A-Z][\w-]*\s+){0,2}v?(?P<v>\d+(?:\.\d+)+)",
    re.IGNORECASE,
)
_FIXED = re.compile(
    r"\bcorrig[ée]+s?\b|\bfixed\b|\bpatched\b|correctif\s+(?:publié|disponible)"
    r"|patch\s+(?:released|available)",
    re.IGNORECASE,
)
_UNFIXED = re.compile(
    r"aucun\s+correctif|sans\s+correctif|pas\s+(?:encore\s+)?de\s+correctif"
    r"|pas\s+encore\s+corrig|non\s+corrig|no\s+fix|not\s+(?:yet\s+)?fixed|unpatched"
    r"|no\s+patch|(?:aucun|pas\s+de)\s+patch",
    re.IGNORECASE,
)
_SUPPORT_CUE = re.compile(
    r"fin\s+de\s+(?:support|vie|maintenance)|end[- ]of[- ](?:support|life)|\bEOL\b"
    r"|(?:support(?:é|ée|és|ées)?|maintenue?s?|supported|maintained)\s+jusqu.(?:au|à|en)"
    r"|(?:supported|maintained)\s+until|support\s+ends"
    # "garantit la maintenance du produit jusqu'en 2031", "support ... until 2030"
    r"|\b(?:support|maintenance)\s+(?:[\w.'’-]+\s+){0,4}(?:jusqu.(?:au|à|en)|until|through)\b",
    re.IGNORECASE,
)
_MONTHS_FR = (
    "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
    "octobre", "novembre", "décembre",
)  # fmt: skip
_MONTHS_EN = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_MONTH_INDEX = {
    **{m: i for i, m in enumerate(_MONTHS_FR, 1)},
    **{m: i for i, m in enumerate(_MONTHS_EN, 1)},
    "fevrier": 2, "aout": 8, "decembre": 12,
}  # fmt: skip
_MONTH = "|".join(sorted(_MONTH_INDEX, key=len, reverse=True))
_DATES = (
    re.compile(rf"\b(?P<d>1er|\d{{1,2}}){_SP}+(?P<m>{_MONTH}){_SP}+(?P<y>\d{{4}})\b", re.I),
    re.compile(rf"\b(?P<m>{_MONTH}){_SP}+(?P<d>\d{{1,2}}),?{_SP}+(?P<y>\d{{4}})\b", re.I),
    re.compile(r"\b(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})\b"),
    re.compile(r"\b(?P<d>\d{1,2})/(?P<mo>\d{1,2})/(?P<y>\d{4})\b"),
    re.compile(rf"\b(?P<m>{_MONTH}){_SP}+(?P<y>\d{{4}})\b", re.I),
    re.compile(r"(?<![\w/.-])(?P<y>(?:19|20)\d{2})(?![\w/-]|\.\d)"),  # a year alone, last resort
)
_MONEY = re.compile(
    rf"(?P<pre>[$€£]{_SP}?)?(?P<num>{_NUMBER}){_SP}?"
    r"(?P<cur>k€|M€|€|euros?\b|EUR\b|USD\b|\$|dollars?\b)?"
)
_TAX = re.compile(rf"^{_SP}*(?P<tax>HT|TTC|hors{_SP}taxes)\b")
_PER = re.compile(
    rf"^{_SP}*(?:et{_SP}+)?(?:par|per|/|a|an){_SP}*(?P<unit>an|année|mois|year|month|jour|day"
    r"|GPU|serveur|server|utilisateur|user|nœud|noeud|node|instance|cœur|core|siège|seat)s?\b",
    re.IGNORECASE,
)
_PERIOD_WORDS = {"année": "an", "year": "an", "month": "mois", "day": "jour"}
_COST_NOUN = re.compile(
    r"\b(?:prix|co[ûu]ts?|tarifs?|frais|montant|price|cost|fees?|abonnement|souscription"
    r"|subscription)\b[^.;:]*$",
    re.IGNORECASE,
)
_COST_TRAILER = re.compile(r"(?:\s+(?:de|d'|du|des|of|is|at|à|:|est|de\s+l'ordre\s+de))+\s*$")
_COUNT = re.compile(
    rf"(?<![\w.,])(?P<n>\d+){_SP}+(?P<unit>GPU|serveurs?|servers?|nœuds?|noeuds?|nodes?"
    rf"|instances?|machines?)s?{_SP}+(?:en|pour|in|for|d'ici|fin){_SP}+(?P<y>(?:19|20)\d{{2}})\b"
)


@dataclass(frozen=True, slots=True)
class Found:
    """A value read in a sentence: its kind, attribute, value and offset."""

    kind: str
    attribute: str
    value: str
    position: int


def _space(text: str) -> str:
    return " ".join(text.split())


def _measures(sentence: str) -> list[Found]:
    out = []
    percentile = _PERCENTILE.search(sentence)
    # a duration at a percentile ("8 ms au 99e centile") is a latency even without the word
    if _LATENCY_CUE.search(sentence) or percentile is not None:
        rank = (percentile.group(1) or percentile.group(2)) if percentile else None
        attribute = f"latence p{rank}" if rank else "latence"
        for m in _DURATION.finditer(sentence):
            unit = "ms" if m.group("unit").lower().startswith("m") else "s"
            out.append(Found("measure", attribute, f"{_space(m.group('num'))} {unit}", m.start()))
    for m in _RATE.finditer(sentence):
        requests = m.group("unit").lower().startswith(("req", "rps"))
        attribute, unit = ("débit (requêtes)", "req/s") if requests else ("débit", "tok/s")
        out.append(Found("measure", attribute, f"{_space(m.group('num'))} {unit}", m.start()))
    return out


def _licence_name(name: str) -> str:
    if name.lower().startswith("apache"):
        return "Apache 2.0" if "2" in name else "Apache"
    return _space(name)


def _licences(sentence: str) -> list[Found]:
    out = []
    for word in _LICENCE_WORD.finditer(sentence):
        before_word = sentence[: word.start()]
        if _LICENCE_NOT_CURRENT.search(before_word):
            continue
        after = _LICENCE_AFTER.match(sentence[word.end() :])
        before = _LICENCE_BEFORE.search(sentence[: word.end()])
        name = after.group("name") if after else None
        if name is None and before is not None:
            version = _VERSION_AFTER.match(sentence[word.end() :])
            name = before.group("name") + (f" {version.group(1)}" if version else "")
        if name is not None and not _LICENCE_EXCLUDED.match(name):
            out.append(Found("licence", "licence", _licence_name(name), word.start()))
        elif after is not None and after.group("kinds") and _LICENCE_OF.search(before_word):
            kinds = _space(after.group("kinds")).replace(" et ", " ")
            out.append(Found("licence", "licence", kinds.lower(), word.start()))
    return out


def advisory_ids(sentence: str) -> list[str]:
    """The security advisory ids a sentence names (``CVE-2026-1234``, ``ORV-SA-2026-004``)."""
    return [m.group() for m in _ADVISORY.finditer(sentence)]


def advisory_state(sentence: str) -> str | None:
    """The state of an advisory a sentence gives (``corrigée en X``, ``corrigée``, ``sans
    correctif``), the last one written winning; None when it gives none."""
    unfixed = [(m.start(), "sans correctif") for m in _UNFIXED.finditer(sentence)]
    fixed = [(m.start(), f"corrigée en {m.group('v')}") for m in _FIXED_IN.finditer(sentence)]
    covered = [
        (m.start(), m.end()) for m in (*_UNFIXED.finditer(sentence), *_FIXED_IN.finditer(sentence))
    ]
    fixed += [
        (m.start(), "corrigée")
        for m in _FIXED.finditer(sentence)
        if not any(s <= m.start() < e for s, e in covered)
    ]
    states = sorted(unfixed + fixed)
    # the last word of the sentence on the state is the current one
    return states[-1][1] if states else None


def _advisories(sentence: str) -> list[Found]:
    ids = list(_ADVISORY.finditer(sentence))
    state = advisory_state(sentence) if ids else None
    if state is None:
        return []
    return [Found("advisory", m.group(), state, m.start()) for m in ids]


def _canonical_date(match: re.Match[str]) -> str:
    parts = match.groupdict()
    if parts.get("mo") is None and parts.get("m") is None:
        return parts["y"]
    month = int(parts["mo"]) if parts.get("mo") else _MONTH_INDEX[parts["m"].lower()]
    if not 1 <= month <= 12:
        return _space(match.group())
    name = _MONTHS_FR[month - 1]
    day = parts.get("d")
    if day is None:
        return f"{name} {parts['y']}"
    day_number = 1 if day.lower() == "1er" else int(day)
    return f"{'1er' if day_number == 1 else day_number} {name} {parts['y']}"


def _first_date(text: str) -> tuple[int, str] | None:
    found = []
    for pattern in _DATES:
        found += [(m.start(), -len(m.group()), m) for m in pattern.finditer(text)]
    if not found:
        return None
    start, _, match = min(found)
    return start, _canonical_date(match)


def _support_dates(sentence: str) -> list[Found]:
    cue = _SUPPORT_CUE.search(sentence)
    if cue is None:
        return []
    date = _first_date(sentence[cue.end() :])
    if date is None:
        date = _first_date(sentence)
        if date is None:
            return []
        return [Found("support", "fin de support", date[1], date[0])]
    return [Found("support", "fin de support", date[1], cue.end() + date[0])]


def _period(rest: str) -> tuple[str, int]:
    units, used = [], 0
    while (match := _PER.match(rest[used:])) is not None:
        unit = match.group("unit")
        units.append(_PERIOD_WORDS.get(unit.lower(), unit if unit.isupper() else unit.lower()))
        used += match.end()
    return " et ".join(f"par {u}" for u in units), used


def _cost_attribute(before: str) -> str:
    noun = _COST_NOUN.search(before[-60:])
    if noun is None:
        return "prix"
    words = _COST_TRAILER.sub("", noun.group()).split()
    return " ".join(words[:5]).lower() or "prix"


def _prices(sentence: str) -> list[Found]:
    out = []
    for m in _MONEY.finditer(sentence):
        currency = (m.group("pre") or "").strip() or m.group("cur")
        if not currency:
            continue
        currency = (
            "€" if currency.lower().startswith(("eur", "€")) and currency != "k€" else currency
        )
        rest = sentence[m.end() :]
        tax = _TAX.match(rest)
        tax_text = tax.group("tax") if tax else ""
        period, _ = _period(rest[tax.end() if tax else 0 :])
        value = _space(f"{m.group('num')} {currency} {tax_text} {period}")
        attribute = _space(f"{_cost_attribute(sentence[: m.start()])} {period}")
        out.append(Found("price", attribute, value, m.start()))
    return out


def _counts(sentence: str) -> list[Found]:
    out = []
    for m in _COUNT.finditer(sentence):
        unit = m.group("unit")
        unit = unit if unit.isupper() else unit.lower().rstrip("s")
        value = f"{m.group('n')} {m.group('unit')} en {m.group('y')}"
        out.append(Found("count", f"nombre de {unit} en {m.group('y')}", value, m.start()))
    return out


def extract_values(sentence: str) -> list[Found]:
    """Every value the general patterns read in one sentence, in reading order."""
    found = [
        *_measures(sentence),
        *_licences(sentence),
        *_advisories(sentence),
        *_support_dates(sentence),
        *_prices(sentence),
        *_counts(sentence),
    ]
    return sorted(found, key=lambda f: f.position)
