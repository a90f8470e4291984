"""Workflow 2's evidence in the viewer: each source of a statement opens its document's
page with the quoted passage highlighted at its span (as workflow 1's quotes do), and a
statement refused by the quote check is shown as refused, never silently gone."""

from __future__ import annotations

import html
import json
import re

import pytest
from fastapi.testclient import TestClient

from preuve.commands.synthesize import write_run
from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.loaders import load_dossier
from preuve.models import FunctionModel
from preuve.models.base import Completion, Request
from preuve.synthesis.pipeline import synthesis_rules_model, synthesize
from preuve.synthesis.subagent import SUBAGENT_TASK
from preuve.web.app import create_app

MARK = re.compile(r'<mark id="hl">(.*?)</mark>', re.DOTALL)
QUOTE_LINK = re.compile(
    r'<a class="page-link quote" href="(/page/[^"?]+/\d+\?start=\d+&amp;end=\d+#hl)"[^>]*>'
    r"«([^<]+)»</a>"
)
INVENTED = "Tamaris Inference est publié sous licence MIT."


def _invented_licence(request: Request) -> str | Completion:
    """The rules, plus a statement doc-04 does not hold, for the sub-task reading doc-04."""
    answer = json.loads(synthesis_rules_model().complete(request).text)
    if request.task == SUBAGENT_TASK and '<document id="doc-04"' in request.messages[1].content:
        answer["statements"].append(
            {"subject": "Tamaris Inference", "attribute": "licence", "value": "MIT",
             "text": INVENTED, "sources": [{"doc_id": "doc-04", "quote": INVENTED}]}
        )  # fmt: skip
    return json.dumps(answer, ensure_ascii=False)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    root = tmp_path_factory.mktemp("synthesis-view")
    dossier = load_dossier(generate_synthesis_dossier(root / "src").dossier)
    run = synthesize(dossier, FunctionModel(_invented_licence, name="invented"))
    write_run(run, root / "run" / "synthesis", dossier)
    return TestClient(create_app(root / "run"), base_url="http://127.0.0.1")


def test_every_statement_source_opens_its_page_with_the_quote_highlighted(
    client: TestClient,
) -> None:
    page = client.get("/synthesis").text
    links = QUOTE_LINK.findall(page)
    assert len(links) > 40
    for href, quote in links:
        marked = MARK.findall(client.get(html.unescape(href).removesuffix("#hl")).text)
        assert [html.unescape(m) for m in marked] == [html.unescape(quote)]


def test_a_refused_statement_is_shown_refused_with_its_reason(client: TestClient) -> None:
    page = html.unescape(client.get("/synthesis").text)
    assert "statements refused: 1" in page
    assert "1 statement(s) refused: their quotes failed the check" in page
    refused = page[page.index("statement(s) refused") :]
    assert "Tamaris Inference · licence = MIT" in refused and "quote_not_found" in refused
    assert f"«{INVENTED}»" not in page.split("statement(s) refused")[0]  # never as evidence
