"""Model text written into Markdown stays text (preuve.core.markdown)."""

from __future__ import annotations

import pytest

from preuve.core.markdown import escape_markdown, markdown_quote


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        pytest.param("Le levier atteint 5,5x (2024 : 3,6x).",
                     "Le levier atteint 5,5x (2024 : 3,6x).", id="plain-prose-unchanged"),
        pytest.param("![x](https://evil.example/p.png)",
                     "\\!\\[x\\](https\\://evil\\.example/p\\.png)", id="image"),
        pytest.param("[clic](javascript:alert(1))", "\\[clic\\](javascript\\:alert(1))", id="link"),
        pytest.param("<img src=//evil.example/p>", "\\<img src=//evil\\.example/p\\>", id="html"),
        pytest.param("# Titre\n- item\n1. un\n> cité", "\\# Titre\n\\- item\n1\\. un\n\\> cité",
                     id="block-markers"),
        pytest.param("voir www.evil.example", "voir www\\.evil\\.example", id="gfm-autolink"),
        pytest.param("a *b* _c_ `d` ~e~ | f & g", "a \\*b\\* \\_c\\_ \\`d\\` \\~e\\~ \\| f \\& g",
                     id="inline-marks"),
        pytest.param("back\\slash", "back\\\\slash", id="backslash"),
    ],
)  # fmt: skip
def test_escape_markdown(text: str, escaped: str) -> None:
    assert escape_markdown(text) == escaped


def test_markdown_quote_quotes_every_line() -> None:
    assert markdown_quote("un\n# deux") == "> un\n> \\# deux"
