"""One sentence type for every workflow: both splitters give ``core.Sentence`` with offsets."""

from __future__ import annotations

from preuve.core.sentences import Sentence
from preuve.memo.cues import page_sentences
from preuve.synthesis.sentences import LabelledSentence, sentences, table_sentences

PAGE = (
    "The group renewed its revolving credit facility in March for another five years.\n"
    "Its main customer now accounts for a larger share of the order book than last year."
)
DOCUMENT = "Débit nominal : 12 m3/h.\n\n| Pompe | Débit (m3/h) |\n|---|---|\n| P-1 | 14 |\n"


def test_workflow_1_and_workflow_2_sentences_are_one_type_located_in_their_text() -> None:
    found = page_sentences(PAGE)
    assert [type(s) for s in found] == [Sentence, Sentence]
    assert all(PAGE[s.start : s.end] == s.text for s in found)
    assert found[0].quote() == found[0].text  # one line already
    prose = [s for paragraph in sentences(DOCUMENT) for s in paragraph]
    cells = [s for row in table_sentences(DOCUMENT) for s in row]
    assert prose and cells
    for sentence in (*prose, *cells):
        assert isinstance(sentence, Sentence) and isinstance(sentence, LabelledSentence)
        assert DOCUMENT[sentence.start : sentence.end].strip()
    assert prose[0].label == "Débit nominal" and DOCUMENT[prose[0].start :].startswith("Débit")
    assert cells[0].table and cells[0].cell == "14"


def test_a_sentence_on_several_lines_is_quoted_on_one() -> None:
    assert Sentence(0, 12, "two \n  lines").quote() == "two lines"
