"""A sentence located in a text: the one sentence type of every workflow.

Workflow 1's risk reader cuts a page into sentences (:func:`preuve.memo.cues.page_sentences`,
``text`` the page's ``[start:end]`` with its line breaks); workflow 2's rules sub-agent reads
a document's sentences and table cells (:mod:`preuve.synthesis.sentences`, whose
``LabelledSentence`` adds a label and, for a cell, its header, text and condition, its
``text`` on one line). Both splitters keep the offsets of the passage the sentence is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Sentence"]

_LINE_BREAK = re.compile(r"[ \t]*\n[ \t]*")


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of a text: its passage is ``source[start:end]``, ``text`` as its splitter
    read it there."""

    start: int
    end: int
    text: str

    def quote(self) -> str:
        """The sentence on one line, as a reader copies it from the page."""
        return _LINE_BREAK.sub(" ", self.text)
