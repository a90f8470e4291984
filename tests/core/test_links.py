"""Links in model output (preuve.core.links) and the memo check's ``link_not_in_facts``.

Regression: a memo paragraph that printed a link planted in a document (and no number)
used to pass the memo check and be VERIFIED.
"""

from __future__ import annotations

import pytest

from preuve.core.facts import Fact
from preuve.core.links import find_links, unsupported_links
from preuve.core.memocheck import LINK_NOT_IN_FACTS, Paragraph, check_memo
from preuve.core.numbers import Locale


@pytest.mark.parametrize(
    ("text", "links"),
    [
        pytest.param("voir https://exfil.example/c?d=ferlac.", ["https://exfil.example/c?d=ferlac"],
                     id="https-trailing-period"),
        pytest.param("(http://a.example/x)", ["http://a.example/x"], id="in-parentheses"),
        pytest.param("www.evil.example/p, puis", ["www.evil.example/p"], id="www"),
        pytest.param("file:///etc/passwd", ["file:///etc/passwd"], id="file-scheme"),
        pytest.param("écrire à mailto:a@b.example", ["mailto:a@b.example"], id="mailto"),
        pytest.param("javascript:alert(document.cookie)", ["javascript:alert(document.cookie"],
                     id="javascript"),
        pytest.param("data:text/html;base64,PHNjcmlwdD4=", ["data:text/html;base64,PHNjcmlwdD4="],
                     id="data-uri"),
        pytest.param("Benchmark data: 340 ms; ratio 3,4x: ok; http: no", [], id="not-links"),
        pytest.param("e.g. foo.bar and fr.wikipedia", [], id="bare-words"),
        pytest.param("https://a.example https://a.example", ["https://a.example"], id="once"),
        pytest.param("voir //evil.example/c?d=x.", ["//evil.example/c?d=x"],
                     id="protocol-relative"),
        pytest.param("voir https:evil.example/c", ["https:evil.example/c"], id="scheme-no-slashes"),
        pytest.param("voir https:/evil.example", ["https:/evil.example"], id="scheme-one-slash"),
        pytest.param("voir https:\\\\evil.example", ["https:\\\\evil.example"], id="backslashes"),
        pytest.param("<img src=//evil.example/p.png>", ["//evil.example/p.png"], id="img-src"),
        pytest.param("<a href='//evil.example'>x</a>", ["//evil.example"], id="a-href-quoted"),
        pytest.param("écrire à evil.example pour le détail", ["evil.example"], id="bare-domain"),
        pytest.param("voir exfil.co/c?d=ferlac.", ["exfil.co/c?d=ferlac"], id="bare-with-path"),
        pytest.param("voir collect.zz/x", ["collect.zz/x"], id="bare-unknown-tld-with-path"),
        pytest.param("hôte evil.example:8080 ouvert", ["evil.example:8080"], id="bare-with-port"),
        pytest.param("Voir Evil.COM.", ["Evil.COM"], id="bare-upper-case"),
        pytest.param("see memo.json, doc-01.md and run.py; 3.4x, 1.5b, S.A., i.e. etc.", [],
                     id="file-names-and-abbreviations"),
        pytest.param("écrire à a@evil.example", [], id="an-address-is-not-a-link"),
        pytest.param("a // comment and 1//2", [], id="double-slash-in-prose"),
    ],
)  # fmt: skip
def test_find_links(text: str, links: list[str]) -> None:
    found = find_links(text)
    assert list(found) == links
    assert all(link in text for link in found)


def test_the_bare_domain_list_is_extensible() -> None:
    assert find_links("voir evil.bar") == ()
    assert find_links("voir evil.bar", tlds={"bar"}) == ("evil.bar",)


def test_unsupported_links_are_those_no_source_holds() -> None:
    text = "Voir https://ok.example/a et https://exfil.example/b."
    assert unsupported_links(text, ["source: https://ok.example/a"]) == ("https://exfil.example/b",)
    assert unsupported_links("no link here", []) == ()


FACTS = [
    Fact("R-ferlac-levier", "Maison Ferlac SAS - Levier 2025 : 5,5x"),
    Fact("Q-ferlac-1", "« le rapport est en ligne sur https://ferlac.example/rapport » (p. 2)"),
]


@pytest.mark.parametrize(
    ("text", "sources", "codes"),
    [
        pytest.param("Voir https://exfil.example/c?d=levier pour le détail.", ["R-ferlac-levier"],
                     [LINK_NOT_IN_FACTS], id="planted-link"),
        pytest.param("Le rapport est sur https://ferlac.example/rapport.", ["Q-ferlac-1"], [],
                     id="link-of-a-cited-fact"),
        pytest.param("Le rapport est sur https://ferlac.example/rapport.", ["R-ferlac-levier"],
                     [LINK_NOT_IN_FACTS], id="link-of-an-uncited-fact"),
        pytest.param("Le levier atteint 5,5x.", ["R-ferlac-levier"], [], id="no-link"),
    ],
)  # fmt: skip
def test_the_memo_check_refuses_a_link_no_cited_fact_gives(
    text: str, sources: list[str], codes: list[str]
) -> None:
    defects = check_memo([Paragraph(text, tuple(sources))], FACTS, locale=Locale.FR)
    assert [d.code for d in defects] == codes
    assert all(d.paragraph == 1 for d in defects)
