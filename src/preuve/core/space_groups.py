"""Whether a document groups its amounts' thousands by spaces, whatever its language.

The language of a report and the way it writes its amounts are two things: South African,
Swiss or Scandinavian reports in English print ``674 880`` and ``53.8``. A table reader
that joins space-grouped pieces (``674`` ``880``) only for French text reads such a report
as two amounts per figure. The amounts decide: many figures grouped by spaces and few, or
no, grouped by commas (``1,234``) say the document groups by spaces.
"""

from __future__ import annotations

import re

from preuve.core.numbers import Locale

__all__ = ["amounts_locale", "groups_by_spaces"]

_SPACE_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,]|\.\d{3})")
_COMMA_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
_MIN_SPACED = 10  # a few space-grouped figures may be a list of years or note numbers
_MARGIN = 5  # and they outnumber the comma-grouped ones by far


def groups_by_spaces(text: str) -> bool:
    """Whether ``text`` writes its amounts' thousands with spaces (``674 880``)."""
    spaced = len(_SPACE_GROUPED.findall(text))
    commas = len(_COMMA_GROUPED.findall(text))
    return spaced >= _MIN_SPACED and spaced >= _MARGIN * commas


def amounts_locale(text: str, locale: Locale) -> Locale:
    """The locale that reads the amounts of ``text`` (written in ``locale``'s language):
    the French one (space-grouped thousands) for a document that groups by spaces."""
    return Locale.FR if locale is Locale.EN and groups_by_spaces(text) else locale
