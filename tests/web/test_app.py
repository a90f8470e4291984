"""The viewer through FastAPI's TestClient: every route renders from a real run folder,
hostile content comes back escaped, requests cannot name a file, secrets never show."""

from __future__ import annotations

import html
import io
import itertools
import json
import os
import re
from pathlib import Path

import pytest
import typer
from fastapi.testclient import TestClient
from PIL import Image, ImageChops
from typer.testing import CliRunner

from preuve.commands.view import secret_values, view_command
from preuve.io.pdf import load_pages
from preuve.models.base import Message, ModelIdentity
from preuve.models.journal import CallRecord, Journal
from preuve.web.app import create_app, status_class
from preuve.web.layout import discover
from preuve.web.pages import DocumentLibrary, load_registry, merge_line_boxes, reference_index_map
from preuve.web.server import allowed_hosts_for, serve
from preuve.web.store_loaders import MAX_RAW_CHARS
from tests.web.runfolder import FAKE_KEY, QuoteSite, RunFolder, build_run_folder, quote_of

TEMPLATES = Path(__file__).resolve().parents[2] / "src/preuve/web/templates"
SCRIPT = "<script>alert(1)</script>"
ONERROR = "<img src=x onerror=alert(1)>"
ROUTES = ("/", "/memo", "/dashboard", "/synthesis", "/digest", "/journal")
MARK = re.compile(r'<mark id="hl">(.*?)</mark>', re.DOTALL)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunFolder:
    return build_run_folder(tmp_path_factory.mktemp("web"))


@pytest.fixture
def client(run: RunFolder) -> TestClient:
    return TestClient(create_app(run.root), base_url="http://127.0.0.1")


def _span_url(site: QuoteSite) -> str:
    return f"/page/{site.doc}/{site.page}?start={site.start}&end={site.end}"


def _page_text(run: RunFolder, site: QuoteSite) -> str:
    folder = run.root / ("memo/reports" if site.doc != "hostile" else "docs")
    name = f"{site.doc}.pdf" if site.doc != "hostile" else "hostile.txt"
    return load_pages(folder / name)[site.page - 1]


def _fact_row(memo: str, fact: str) -> str:
    row = memo[memo.index(f'<tr id="fact-{fact}">') :]
    return row[: row.index("</tr>")]


def _all_pages(client: TestClient, run: RunFolder) -> dict[str, str]:
    urls = [*ROUTES, _span_url(run.hostile), "/page/hostile/1", _span_url(run.recorded)]
    urls += ["/page/doc-00@1/1", f"/digest?run=digest&build={run.stale_run}"]
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.text[:300])
        pages[url] = response.text
    return pages


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/", ("Run folder", "Credit memos", "/memo?run=memo", "ferlac", "rapport annuel")),
        (
            "/memo",
            ("Maison Ferlac SAS", "Solvéa Énergies SA", "VERIFIED", "REFUSED", "R-ferlac-levier"),
        ),
        ("/dashboard", ("68 extracted", "Levier 5,5x", "memo verified: yes", "memo status")),
        ("/synthesis", ("Kestrel Serve", "340 ms", "120 ms", "rule 1", "Grid score", "doc-06")),
        ("/digest", ("SERVED", "leaf:doc-00", "reduce:", "cache hit", "History of builds")),
        ("/journal", ("memo.reader", "synthesis.planner", "digest generations", "~120")),
    ],
    ids=["index", "memo", "dashboard", "synthesis", "digest", "journal"],
)
def test_each_section_renders_from_the_run_folder(
    client: TestClient, url: str, expected: tuple[str, ...]
) -> None:
    response = client.get(url)
    assert response.status_code == 200
    text = html.unescape(response.text)
    for piece in expected:
        assert piece in text, piece


def test_the_digest_banner_marks_the_build_whose_serving_was_refused(
    client: TestClient, run: RunFolder
) -> None:
    fresh = client.get("/digest").text
    assert 'role="alert"' not in fresh
    assert "Summary as served when this run was recorded" in fresh
    assert 'href="/page/doc-00%402/1?start=' in fresh  # claims link to their spans
    stale = client.get(f"/digest?run=digest&build={run.stale_run}").text
    banner = stale[stale.index('role="alert"') :]
    assert '<strong class="banner-status">STALE</strong>' in banner[:200]
    assert "Summary as served when this run was recorded" not in stale


def test_a_source_chip_leads_to_its_fact_and_the_fact_to_its_highlighted_page(
    client: TestClient, run: RunFolder
) -> None:
    site = run.recorded
    memo = client.get("/memo").text
    assert f'<a class="chip kind-Q" href="#fact-{site.fact}">{site.fact}</a>' in memo
    link = f'href="/page/{site.doc}/{site.page}?start={site.start}&amp;end={site.end}#hl"'
    assert link in _fact_row(memo, site.fact)

    page = client.get(_span_url(site)).text
    text = _page_text(run, site)
    assert [html.unescape(m) for m in MARK.findall(page)] == [text[site.start : site.end]]
    fact_line = html.unescape(_fact_row(memo, site.fact))
    quote, _ = quote_of(fact_line)
    assert " ".join(text[site.start : site.end].split()) == quote
    assert f'src="/page/{site.doc}/{site.page}.png?start={site.start}&amp;end={site.end}"' in page


def test_a_quote_without_recorded_span_is_located_by_the_core_quote_check(
    client: TestClient, run: RunFolder
) -> None:
    site = run.relocated  # its span was removed from run.json: the viewer finds it again
    link = f'href="/page/{site.doc}/{site.page}?start={site.start}&amp;end={site.end}#hl"'
    assert link in _fact_row(client.get("/memo").text, site.fact)


def test_the_page_image_boxes_the_span_line_by_line(client: TestClient, run: RunFolder) -> None:
    site = run.recorded
    layout = discover(run.root)
    library = DocumentLibrary(layout.root, layout.registries)
    document = library.registry().get(site.doc)
    assert document is not None
    boxes = library.boxes(document, site.page, (site.start, site.end))
    lines = _page_text(run, site)[site.start : site.end].split("\n")
    assert len(boxes) == len(lines) > 1  # one box per line of the quote
    assert all(upper[1] > lower[1] for upper, lower in itertools.pairwise(boxes))

    plain = client.get(f"/page/{site.doc}/{site.page}.png")
    boxed = client.get(f"/page/{site.doc}/{site.page}.png?start={site.start}&end={site.end}")
    assert boxed.headers["content-type"] == "image/png"

    def yellow(content: bytes) -> int:
        """Pixels of the highlight's colour (no such yellow in a black-on-white report)."""
        red, green, blue = Image.open(io.BytesIO(content)).convert("RGB").split()
        mask = ImageChops.multiply(
            ImageChops.multiply(
                red.point(lambda v: 255 * (v > 230)), green.point(lambda v: 255 * (v > 200))
            ),
            blue.point(lambda v: 255 * (v < 190)),
        )
        return mask.histogram()[255]

    assert yellow(plain.content) == 0
    assert yellow(boxed.content) > 5_000


@pytest.mark.parametrize(
    ("raw", "text", "indices"),
    [
        ("ab", "ab", [0, 1]),
        ("a\r\nb", "a\nb", [0, 2, 3]),
        ("a\rb\r\n", "a\nb\n", [0, 1, 2, 4]),
        ("", "", []),
    ],
    ids=["plain", "crlf", "cr-and-crlf", "empty"],
)
def test_reference_index_map(raw: str, text: str, indices: list[int]) -> None:
    assert reference_index_map(raw) == (text, indices)


@pytest.mark.parametrize(
    ("boxes", "merged"),
    [
        ([(0, 0, 5, 10), (6, 0, 9, 10)], [(0, 0, 9, 10)]),
        ([(0, 20, 5, 30), (0, 0, 5, 10)], [(0, 20, 5, 30), (0, 0, 5, 10)]),
        ([(0, 0, 5, 10), (5, 0, 5, 0), (6, 1, 8, 9)], [(0, 0, 8, 10)]),
        ([], []),
    ],
    ids=["one-line", "two-lines", "empty-box-skipped", "nothing"],
)
def test_merge_line_boxes(
    boxes: list[tuple[float, float, float, float]], merged: list[tuple[float, float, float, float]]
) -> None:
    assert merge_line_boxes(boxes) == merged


def test_hostile_content_comes_back_escaped_everywhere(client: TestClient, run: RunFolder) -> None:
    pages = _all_pages(client, run)
    tag_with_handler = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)
    for url, body in pages.items():
        assert SCRIPT not in body, url
        assert ONERROR not in body, url
        assert "<script" not in body.lower(), url
        assert not re.search(r"""(href|src)\s*=\s*["']?\s*javascript:""", body, re.I), url
        assert not tag_with_handler.search(body), url
    hostile = pages[_span_url(run.hostile)]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in MARK.findall(hostile)[0]
    assert "&lt;img src=x onerror=alert(1)&gt;" in pages["/memo"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages["/journal"]


def test_no_template_marks_content_as_safe() -> None:
    for template in TEMPLATES.glob("*.html"):
        source = template.read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe|autoescape\s+false|Markup", source), template.name


@pytest.mark.parametrize(
    "url",
    [
        "/page/../../etc/passwd/1",
        "/page/..%2F..%2Fetc%2Fpasswd/1",
        "/page/%2e%2e/1",
        "/page/%2e%2e%2f%2e%2e%2fetc%2fpasswd/1",
        "/page/%2Fetc%2Fpasswd/1",
        "/page//etc/passwd/1",
        "/page/..%5C..%5Cetc%5Cpasswd/1",
        "/page/C:%5CWindows%5Cwin.ini/1",
        "/page/reports%2Fferlac.pdf/1",
        "/page/memo%2Freports%2Fferlac.pdf/1",
        "/page/reports/ferlac.pdf/1",
        "/page/ferlac.pdf/1",
        "/page/documents.json/1",
        "/page/..%2Fdocuments.json/1.png",
        "/static/../../etc/passwd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2F..%2Fapp.py",
        "/memo?run=../../etc",
        "/memo?run=%2Fetc",
        "/digest?run=digest&build=..%2F..%2Fetc%2Fpasswd",
    ],
)
def test_path_traversal_is_not_found(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "root:" not in response.text


def test_a_registry_cannot_point_outside_the_run_folder(tmp_path: Path) -> None:
    root = tmp_path / "run"
    root.mkdir()
    (root / "ok.txt").write_text("page one", encoding="utf-8")
    (tmp_path / "outside.txt").write_text("secret", encoding="utf-8")
    (root / "link.txt").symlink_to(tmp_path / "outside.txt")
    entries = [
        {"id": "ok", "path": "ok.txt"},
        {"id": "up", "path": "../outside.txt"},
        {"id": "abs", "path": str(tmp_path / "outside.txt")},
        {"id": "link", "path": "link.txt"},
        {"id": "../x", "path": "ok.txt"},
        {"id": "a/b", "path": "ok.txt"},
        {"id": "twice", "path": "ok.txt"},
        {"id": "twice", "path": "ok.txt"},
    ]
    registry_file = root / "documents.json"
    registry_file.write_text(json.dumps({"documents": entries}), encoding="utf-8")
    registry = load_registry(root, [registry_file])
    assert list(registry.documents) == ["ok"]
    assert len(registry.problems) == 6


def test_a_secret_from_the_environment_is_never_displayed(
    run: RunFolder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    app = create_app(run.root, secrets=secret_values(os.environ))
    pages = _all_pages(TestClient(app, base_url="http://127.0.0.1"), run)
    for url, body in pages.items():
        assert FAKE_KEY not in body, url
    assert "[REDACTED]" in pages["/journal"]  # the fixture's journal leaked it in an output


def test_secret_values_takes_secret_looking_variables_only() -> None:
    environ = {"OPENAI_API_KEY": FAKE_KEY, "HF_TOKEN": "hf_abcdefgh1234", "PATH": "/usr/bin:/bin"}
    assert secret_values(environ) == (FAKE_KEY, "hf_abcdefgh1234")


def test_security_headers_forbid_scripts(client: TestClient) -> None:
    headers = client.get("/memo").headers
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp
    assert "unsafe-inline" not in csp
    assert "script-src" not in csp  # so scripts fall back to default-src 'none'
    assert headers["x-content-type-options"] == "nosniff"


def test_a_foreign_host_name_is_refused(run: RunFolder) -> None:
    client = TestClient(create_app(run.root), base_url="http://evil.example")
    assert client.get("/").status_code == 400


def test_the_viewer_binds_to_localhost_unless_told_otherwise() -> None:
    import inspect

    assert inspect.signature(serve).parameters["host"].default == "127.0.0.1"
    assert "*" not in allowed_hosts_for("127.0.0.1")
    assert allowed_hosts_for("0.0.0.0") == ("*",)


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/memo?run=nope", 404),
        ("/digest?run=digest&build=nope", 404),
        ("/page/ferlac/1?start=5", 400),
        ("/page/ferlac/1?start=9&end=3", 400),
        ("/page/ferlac/1?start=0&end=999999", 400),
        ("/page/ferlac/1?start=-1&end=3", 422),
        ("/page/ferlac/0", 404),
        ("/page/ferlac/99", 404),
        ("/page/hostile/1.png", 404),
        ("/page/ferlac/1.png?start=0&end=999999", 400),
        ("/page/ferlac/99.png", 404),
    ],
    ids=[
        "run",
        "build",
        "half-span",
        "reversed",
        "past-end",
        "negative",
        "page-0",
        "page-99",
        "txt-png",
        "png-past-end",
        "png-page-99",
    ],
)
def test_bad_requests_get_a_clear_status(client: TestClient, url: str, status: int) -> None:
    assert client.get(url).status_code == status


def test_unreadable_run_files_become_one_line_problems(tmp_path: Path) -> None:
    (tmp_path / "memo").mkdir()
    (tmp_path / "memo/run.json").write_text('{"companies": [', encoding="utf-8")
    (tmp_path / "memo/memo.md").write_text("# memo", encoding="utf-8")
    (tmp_path / "synthesis").mkdir()
    (tmp_path / "synthesis/trajectory.json").write_text('{"format": "other"}', encoding="utf-8")
    (tmp_path / "digest").mkdir()
    (tmp_path / "digest/digest.sqlite").write_bytes(b"not a database at all" * 100)
    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1")
    assert "run.json:1:16: invalid JSON" in client.get("/memo").text
    assert "not a synthesis run" in client.get("/synthesis").text
    assert "digest store" in client.get("/digest").text
    assert client.get("/journal").status_code == 200


def test_a_huge_model_output_is_cut_for_display(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.record(
            CallRecord(
                run_id="r",
                task="memo.writer",
                request_hash="h",
                identity=ModelIdentity("rules", "rules"),
                messages=(Message("user", "x"),),
                settings={},
                raw_output="x" * (MAX_RAW_CHARS + 30_000),
                finish_reason="length",
                prompt_tokens=1,
                generated_tokens=1,
                tokens_estimated=False,
                token_ids=None,
                seconds=0.0,
                status="invalid",
            )
        )
    body = TestClient(create_app(tmp_path), base_url="http://127.0.0.1").get("/journal").text
    assert "30000 more not shown" in body
    assert len(body) < MAX_RAW_CHARS + 10_000


@pytest.mark.parametrize(
    ("status", "css"),
    [("VERIFIED", "ok"), ("STALE", "bad"), ("PARTIAL", "warn"), ("INELIGIBLE", "muted")],
)
def test_status_class(status: str, css: str) -> None:
    assert status_class(status) == css


def test_view_refuses_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command()(view_command)
    result = CliRunner().invoke(app, [str(tmp_path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert "not a run folder" in lines[0]


STATEMENT_LINK = re.compile(
    r'<a class="page-link" href="(/page/[^"?]+/\d+\?start=\d+&amp;end=\d+#hl)">([^<]+)</a>'
)


def test_each_statement_value_opens_highlighted_on_its_page(client: TestClient) -> None:
    memo = client.get("/memo").text
    block = memo[memo.index('<details class="statement">') :]
    block = block[: block.index("</details>")]
    links = STATEMENT_LINK.findall(block)
    assert len(links) >= 10
    for href, raw in links[:10]:
        page = client.get(html.unescape(href).removesuffix("#hl")).text
        marked = [html.unescape(m) for m in MARK.findall(page)]
        same = [" ".join(m.replace("\u202f", " ").replace("\u00a0", " ").split()) for m in marked]
        assert same == [" ".join(html.unescape(raw).replace("\u202f", " ").split())]
