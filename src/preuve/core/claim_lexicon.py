"""Declared cue words for the claim checks (subject, period, direction, polarity).

Everything here is general French and English vocabulary, matched on a folded copy of the
text (lower case, no accents, straight apostrophes; see :func:`preuve.core.claimtext.fold`).
Nothing names a company or copies a bundled report. A user extends it with
:meth:`ClaimLexicon.extended` (``preuve check-memo --lexicon FILE.json``), e.g.::

    {"aliases": {"Maison Ferlac SAS": ["MFS", "le groupe Ferlac"]},
     "up": ["s'envole"], "negation": ["guère"]}

Patterns are regular expressions on folded text, each matched between word boundaries.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

__all__ = ["DEFAULT_LEXICON", "LEXICON_KEYS", "ClaimLexicon"]

# Legal forms written after (or before) a company name; a name ends with one of these.
LEGAL_SUFFIXES: tuple[str, ...] = (
    "sa", "sas", "sasu", "sarl", "sca", "scs", "se", "snc", "eurl", "sci", "selarl",
    "plc", "inc", "incorporated", "corp", "corporation", "ltd", "limited", "llc", "llp",
    "lp", "gmbh", "ag", "kg", "kgaa", "nv", "bv", "spa", "srl", "sl", "oy", "oyj", "ab",
    "asa", "as", "co", "pty", "sapa", "bhd",
)  # fmt: skip

# Words that open a company name without distinguishing it ("Groupe X", "The X Company").
GENERIC_NAME_WORDS: tuple[str, ...] = (
    "groupe", "group", "maison", "societe", "compagnie", "company", "the", "la", "le",
    "les", "l", "holding", "holdings", "ets", "etablissements",
)  # fmt: skip

# A change over time: the value went up ...
UP: tuple[str, ...] = (
    r"hausses?", r"en hausse", r"augment\w*", r"progress\w*", r"croissance", r"cro[iî]t\w*",
    r"accro\w*", r"mont[ée]\w*", r"grimp\w*", r"bondi\w*", r"gagn\w*",
    r"rises?", r"rose", r"risen", r"rising", r"increas\w*", r"grew", r"grow\w*", r"climb\w*",
    r"jump\w*", r"gain\w*", r"up(?= (?:by |to |from )?[-+−–$€£]?\d)", r"soared", r"surg\w*",
    r"remont\w*", r"s'alourdi\w*", r"alourdi\w*", r"widen\w*", r"lengthen\w*", r"expand\w*",
    r"s'elargi\w*", r"s'allonge\w*",
)  # fmt: skip
# ... or down.
DOWN: tuple[str, ...] = (
    r"baisses?", r"en baisse", r"baiss\w*", r"recul\w*", r"diminu\w*", r"decro\w*",
    r"chut\w*", r"repli\w*", r"se contract\w*", r"reduc\w*", r"redui\w*",
    r"fell", r"falls?", r"fallen", r"falling", r"declin\w*", r"decreas\w*", r"dropp?\w*",
    r"shr[aiu]nk\w*", r"slipp?\w*", r"eroded",
    r"down(?= (?:by |to |from )?[-+−–$€£]?\d)", r"s'allege\w*", r"allegement", r"narrow\w*",
    r"shorten\w*", r"contracted(?= (?:to|by|from) )", r"flechi\w*", r"s'effrit\w*",
    r"plong\w*", r"plung\w*", r"tumbl\w*", r"slump\w*", r"dipp?(?:ed|s)?",
    r"eas(?:ed|ing)(?= (?:to|by|from) )", r"se resserr\w*", r"retomb\w*", r"redescend\w*",
    r"se detend\w*", r"detente",
)  # fmt: skip

# A change told by its effect: better or worse. Its direction depends on the metric
# (a better margin went up, a better leverage went down): see LOWER_IS_BETTER.
BETTER: tuple[str, ...] = (
    r"s'amelior\w*", r"amelior\w*", r"improv\w*", r"strengthen\w*", r"se renforc\w*",
    r"se redress\w*", r"redress\w*", r"recover\w*", r"assaini\w*",
)  # fmt: skip
WORSE: tuple[str, ...] = (
    r"se degrad\w*", r"degrad\w*", r"deteriorat\w*", r"weaken\w*", r"s'affaibli\w*",
    r"worsen\w*", r"fragilis\w*",
)  # fmt: skip
# Metrics where a lower value is better; HIGHER_IS_BETTER the reverse. A metric named by
# neither leaves a better/worse word unchecked.
LOWER_IS_BETTER: tuple[str, ...] = (
    r"levier", r"leverage", r"gearing", r"endettement", r"dettes?", r"debts?", r"indebtedness",
    r"churn", r"attrition", r"jours", r"days", r"delais?", r"dso", r"dio", r"couts?", r"costs?",
    r"pertes?", r"loss(?:es)?", r"defaillances?", r"defaults?", r"impayes", r"arrears",
)  # fmt: skip
HIGHER_IS_BETTER: tuple[str, ...] = (
    r"marges?", r"margins?", r"couverture", r"cover", r"coverage", r"chiffre d'affaires",
    r"revenues?", r"sales", r"ventes", r"ebitda", r"resultats?", r"income", r"profits?",
    r"benefices?", r"tresorerie", r"cash", r"liquidite", r"liquidity", r"current ratio",
    r"capitaux propres", r"fonds propres", r"equity", r"solvabilite", r"solvency",
    r"carnet de commandes", r"backlog", r"dscr", r"rentabilite", r"profitability",
)  # fmt: skip

# An order between two numbers: left is greater than right ...
GREATER: tuple[str, ...] = (
    r"superieur\w* (?:a|au|aux)", r"au[- ]dessus (?:de|du|des|d')", r"au[- ]dela (?:de|du|des|d')",
    r"depass\w*", r"exced\w*", r"plus eleve\w* (?:que|qu')", r"plus fort\w* (?:que|qu')",
    r"higher than", r"greater than", r"larger than", r"above", r"exceed\w*", r"in excess of",
    r"franchi\w*", r"surpass\w*", r"outpac\w*", r"outstrip\w*", r"ahead of",
    r"plus endett\w* (?:que|qu')", r"more (?:indebted|leveraged) than",
)  # fmt: skip
# ... or smaller.
LESS: tuple[str, ...] = (
    r"inferieur\w* (?:a|au|aux)", r"en[- ]dessous (?:de|du|des|d')", r"en[- ]deca (?:de|du|des|d')",
    r"moins eleve\w* (?:que|qu')", r"plus faible\w* (?:que|qu')", r"lower than", r"less than",
    r"smaller than", r"below", r"beneath", r"(?:pass|tomb|repass|rest|chut|descend)\w* sous",
    r"sous (?:le|la|les|son|sa|ses) (?:seuil|plafond|plancher|minimum|maximum|limite)\w*",
    r"f[ae]ll\w* short of", r"short of", r"lagg?\w* behind",
    r"moins endett\w* (?:que|qu')", r"less (?:indebted|leveraged) than",
)  # fmt: skip

# Words naming a limit a value is compared with ("le plafond de 3,5x", "a maximum of 3.0x").
LIMITS: tuple[str, ...] = (
    r"plafonds?", r"planchers?", r"seuils?", r"limites?", r"maximum", r"minimum", r"covenants?",
    r"ceilings?", r"floors?", r"caps?", r"limits?", r"thresholds?", r"triggers?",
)  # fmt: skip

# A limit that is a maximum, or a minimum (for breach / comply below).
MAX_LIMITS: tuple[str, ...] = (
    r"plafonds?", r"maximum", r"max", r"ceilings?", r"caps?", r"au plus", r"at most",
    r"ne pas depasser", r"not (?:to )?exceed",
)  # fmt: skip
MIN_LIMITS: tuple[str, ...] = (
    r"planchers?", r"minimum", r"min", r"floors?", r"au moins", r"at least",
)  # fmt: skip
# Breaking a covenant limit, or keeping within it.
BREACH: tuple[str, ...] = (r"breach\w*", r"enfrei\w*", r"viol[eé]\w*", r"contrevien\w*")
COMPLY: tuple[str, ...] = (
    r"respect\w*", r"compl(?:y|ies|ied|ying|iance|iant)", r"within", r"conforme\w*",
)  # fmt: skip

# Explicit negation. French "ne ... que" restricts, it does not negate (handled in code).
NEGATION: tuple[str, ...] = (
    r"pas", r"aucun\w*", r"jamais", r"sans", r"ni", r"non", r"nul", r"nulle", r"rien",
    r"guere", r"not", r"no", r"never", r"none", r"without", r"nor", r"neither", r"cannot",
    r"\w+n't", r"nothing", r"nobody", r"absence (?:de|d')", r"absence of", r"lack of",
)  # fmt: skip

# Words naming the year before the one the sentence (or paragraph) is about.
PRIOR_PERIOD: tuple[str, ...] = (
    r"un an plus tot", r"l'annee precedente", r"l'exercice precedent", r"l'an dernier",
    r"l'annee derniere", r"l'exercice anterieur", r"n-1", r"a year earlier", r"a year before",
    r"the prior year", r"the previous year", r"last year", r"the year before",
    r"one year earlier", r"prior-year",
)  # fmt: skip

# Words naming the whole year the sentence is about ("un total annuel", "full-year").
WHOLE_YEAR: tuple[str, ...] = (
    r"(?:total|montant|niveau|chiffre d'affaires|resultat) annuel\w*",
    r"annual (?:total|revenue|figure|amount|sales)", r"full[- ]year",
    r"sur l'ensemble de l'exercice",
    r"for the year as a whole", r"for the full year", r"sur l'annee",
)  # fmt: skip

# Metrics that are a share of another base (a margin is a share of revenue): a value of
# one, written as an amount of change ("grew 6.2%"), is given another base.
SHARE_METRICS: tuple[str, ...] = (
    r"marges?", r"margins?", r"taux", r"rates?", r"ratios?", r"parts?", r"shares?",
    r"poids", r"rendements?", r"yields?", r"pourcentages?", r"percentages?", r"proportions?",
)  # fmt: skip
# Metrics that are a change of a value (besides the up and down words): "variation", "change".
CHANGE_METRICS: tuple[str, ...] = (
    r"variations?", r"changes?", r"evolutions?", r"deltas?", r"ecarts?", r"yoy",
    r"year[- ]on[- ]year", r"sur un an",
)  # fmt: skip

# Words that carry no content for aligning a sentence with a fact's text.
STOPWORDS: tuple[str, ...] = (
    "le", "la", "les", "l", "un", "une", "des", "du", "de", "d", "et", "ou", "a", "au", "aux",
    "en", "dans", "par", "pour", "sur", "avec", "que", "qu", "qui", "est", "sont", "ete",
    "etait", "ont", "a", "ce", "cet", "cette", "ces", "son", "sa", "ses", "leur", "leurs",
    "se", "s", "il", "elle", "ils", "elles", "ne", "n", "y", "the", "an", "of", "and", "or",
    "to", "in", "on", "for", "with", "by", "at", "from", "as", "is", "are", "was", "were",
    "be", "been", "has", "have", "had", "its", "their", "it", "this", "that", "these",
    "those", "which", "who", "than", "also", "aussi", "ainsi", "tres", "very", "selon",
    "any", "all", "tout", "toute", "tous", "toutes", "part",
)  # fmt: skip

LEXICON_KEYS = (
    "aliases", "legal_suffixes", "generic_name_words", "up", "down", "better", "worse",
    "lower_is_better", "higher_is_better", "greater", "less", "limits", "max_limits",
    "min_limits", "breach", "comply", "negation", "prior_period",
    "whole_year", "share_metrics", "change_metrics", "stopwords",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ClaimLexicon:
    """The cue lists the claim checks read; ``aliases`` maps a subject as the facts name
    it to other names a writer may use for it."""

    legal_suffixes: tuple[str, ...] = LEGAL_SUFFIXES
    generic_name_words: tuple[str, ...] = GENERIC_NAME_WORDS
    up: tuple[str, ...] = UP
    down: tuple[str, ...] = DOWN
    better: tuple[str, ...] = BETTER
    worse: tuple[str, ...] = WORSE
    lower_is_better: tuple[str, ...] = LOWER_IS_BETTER
    higher_is_better: tuple[str, ...] = HIGHER_IS_BETTER
    greater: tuple[str, ...] = GREATER
    less: tuple[str, ...] = LESS
    limits: tuple[str, ...] = LIMITS
    max_limits: tuple[str, ...] = MAX_LIMITS
    min_limits: tuple[str, ...] = MIN_LIMITS
    breach: tuple[str, ...] = BREACH
    comply: tuple[str, ...] = COMPLY
    negation: tuple[str, ...] = NEGATION
    prior_period: tuple[str, ...] = PRIOR_PERIOD
    whole_year: tuple[str, ...] = WHOLE_YEAR
    share_metrics: tuple[str, ...] = SHARE_METRICS
    change_metrics: tuple[str, ...] = CHANGE_METRICS
    stopwords: tuple[str, ...] = STOPWORDS
    aliases: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())

    def extended(self, data: Mapping[str, object]) -> ClaimLexicon:
        """This lexicon plus the entries of ``data`` (keys in :data:`LEXICON_KEYS`; lists
        of strings, and for ``aliases`` an object of lists). Raises ``ValueError`` naming
        the first bad entry."""
        unknown = sorted(set(data) - set(LEXICON_KEYS))
        if unknown:
            raise ValueError(f"unknown key(s) {', '.join(unknown)}; use {', '.join(LEXICON_KEYS)}")
        changes: dict[str, object] = {}
        for key, value in data.items():
            if key == "aliases":
                changes["aliases"] = self.aliases + _aliases(value)
            else:
                added = _strings(key, value)
                if key not in _PLAIN_WORDS:
                    _check_patterns(key, added)
                changes[key] = getattr(self, key) + added
        return replace(self, **changes)  # type: ignore[arg-type]


_PLAIN_WORDS = frozenset({"legal_suffixes", "generic_name_words", "stopwords"})


def _check_patterns(key: str, patterns: tuple[str, ...]) -> None:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as err:
            raise ValueError(f"{key}: {pattern!r} is not a valid pattern ({err})") from None


def _strings(key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{key} must be a list of non-empty strings")
    return tuple(v.strip() for v in value)


def _aliases(value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ValueError("aliases must be an object: subject -> list of other names")
    return tuple((str(k), _strings(f"aliases[{k!r}]", v)) for k, v in value.items())


DEFAULT_LEXICON = ClaimLexicon()
