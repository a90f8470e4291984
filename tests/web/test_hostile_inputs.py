"""The viewer against the second pass of hostile inputs (issue 18): crafted PDFs, bad
registry entries, symlinked and hard-linked files, huge files, and the small HTTP ones."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from preuve.eval.reliability_files import write_digest_dossier
from preuve.eval.reliability_pdfs import (
    HUGE_PAGE_POINTS,
    PAGE_TEXT,
    write_huge_page_pdf,
    write_page_loop_pdf,
)
from preuve.eval.reliability_stores import build_store, corrupt_claims
from preuve.web import app as app_module
from preuve.web import layout as layout_module
from preuve.web import pages as pages_module
from preuve.web.app import create_app, host_name, public_detail
from preuve.web.layout import discover, read_json
from preuve.web.loaders import MAX_SHOWN_CHARS
from preuve.web.pages import MAX_RENDER_PIXELS, DocumentLibrary, load_registry, render_scale
from preuve.web.server import viewer_url

LOCAL = "http://127.0.0.1"


def _run_folder(root: Path, entries: list[dict[str, str]]) -> Path:
    """A minimal run folder: an empty memo run and a registry of ``entries``."""
    (root / "memo").mkdir(parents=True, exist_ok=True)
    (root / "memo/run.json").write_text('{"engine": "rules", "companies": []}', "utf-8")
    (root / "memo/memo.md").write_text("# memo\n", "utf-8")
    (root / "documents.json").write_text(json.dumps({"documents": entries}), "utf-8")
    return root


def _client(root: Path, base_url: str = LOCAL) -> TestClient:
    return TestClient(create_app(root), base_url=base_url)


# --- 1. memory bomb and response sizes ------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "height", "scale"),
    [
        (595.0, 842.0, 2.0),  # A4: twice its size
        (14_400.0, 14_400.0, (MAX_RENDER_PIXELS / 14_400.0**2) ** 0.5),
        (14_400.0, 10.0, 6_000 / 14_400.0),  # a ribbon: the longest side is capped
        (0.0, 842.0, 0.0),
        (float("inf"), 1.0, 0.0),
    ],
    ids=["a4", "huge-square", "ribbon", "no-width", "infinite"],
)
def test_render_scale(width: float, height: float, scale: float) -> None:
    assert render_scale(width, height) == pytest.approx(scale)


def test_a_huge_page_renders_scaled_down_within_the_pixel_cap(tmp_path: Path) -> None:
    write_huge_page_pdf(tmp_path / "bomb.pdf")
    assert (tmp_path / "bomb.pdf").stat().st_size < 1_000
    client = _client(_run_folder(tmp_path, [{"id": "bomb", "path": "bomb.pdf"}]))
    response = client.get("/page/bomb/1.png")
    assert response.status_code == 200
    width, height = Image.open(io.BytesIO(response.content)).size
    assert width * height <= MAX_RENDER_PIXELS
    assert width == height == int(HUGE_PAGE_POINTS * render_scale(HUGE_PAGE_POINTS, 14_400))
    assert PAGE_TEXT in client.get("/page/bomb/1").text


def test_a_very_long_page_is_shown_around_its_span(tmp_path: Path) -> None:
    text = "a" * 600_000 + " the planted quote here " + "b" * 600_000
    (tmp_path / "long.txt").write_text(text, "utf-8")
    client = _client(_run_folder(tmp_path, [{"id": "long", "path": "long.txt"}]))
    start = text.index("the planted")
    end = start + len("the planted quote here")
    body = client.get(f"/page/long/1?start={start}&end={end}").text
    assert '<mark id="hl">the planted quote here</mark>' in body
    assert f"characters {start}–{end} of the page text" in body
    assert len(body) < MAX_SHOWN_CHARS + 20_000
    assert f"This page has {len(text)} characters" in body


def test_a_page_over_the_size_limit_is_refused_not_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "x" * 50_000
    (tmp_path / "t.txt").write_text(text, "utf-8")
    client = _client(_run_folder(tmp_path, [{"id": "t", "path": "t.txt"}]))
    monkeypatch.setattr(app_module, "MAX_PAGE_CHARS", 20_000)
    response = client.get("/page/t/1")
    assert response.status_code == 422
    assert "too large to show" in response.text
    assert len(response.text) < 20_000


def test_a_run_file_over_the_size_limit_is_a_one_line_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "run.json").write_text(json.dumps({"x": "y" * 5_000}), "utf-8")
    monkeypatch.setattr(layout_module, "MAX_RUN_FILE_BYTES", 1_000)
    data, problem = read_json(tmp_path / "run.json")
    assert data is None
    assert problem.startswith("run.json: unreadable (") and "over the run-file limit" in problem


# --- 3. unloadable pages ------------------------------------------------------------------


def test_a_page_pdfium_cannot_load_is_shown_as_unreadable(tmp_path: Path) -> None:
    write_page_loop_pdf(tmp_path / "loop.pdf")
    client = _client(_run_folder(tmp_path, [{"id": "loop", "path": "loop.pdf"}]))
    for url in ("/page/loop/1", "/page/loop/2", "/page/loop/1.png"):
        response = client.get(url)
        assert response.status_code == 422, url
        assert "page unreadable" in response.text
        assert "page 2: the page cannot be loaded" in response.text
        assert str(tmp_path) not in response.text
        assert response.headers["content-security-policy"].startswith("default-src 'none'")
    assert client.get("/").status_code == 200


# --- 4. bad registry entries, symlinks and hard links ----------------------------------------


def test_bad_registry_entries_are_skipped_and_reported(tmp_path: Path) -> None:
    (tmp_path / "ok.txt").write_text("page one of the good document", "utf-8")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    os.link(tmp_path / "ok.txt", tmp_path / "hard.txt")
    (tmp_path / "other.txt").write_text("another", "utf-8")
    entries = [
        {"id": "nul", "path": "ok\u0000.txt"},
        {"id": "long", "path": "x" * 5_000},
        {"id": "deep", "path": "/".join(["d"] * 3_000)},
        {"id": "loop", "path": "loop"},
        {"id": "hard", "path": "hard.txt"},
        {"id": "nul\u0000id", "path": "other.txt"},
        {"id": "other", "path": "other.txt"},
    ]
    root = _run_folder(tmp_path, entries)
    registry = load_registry(root, [root / "documents.json"])
    assert list(registry.documents) == ["other"]
    assert [p.split(":")[0] for p in registry.problems] == [
        "document nul",
        "document long",
        "document deep",
        "document loop",
        "document hard",
        "document id 'nul\\x00id' refused (letters, digits, . _ @ ",
    ]
    assert "hard link" in registry.problems[4]
    client = _client(root)
    for url in ("/", "/memo", "/page/other/1"):
        assert client.get(url).status_code == 200, url
    assert "document loop" in client.get("/").text
    assert client.get("/page/hard/1").status_code == 404


def test_run_files_that_are_symlinks_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "run.json").write_text('{"engine": "stolen", "companies": []}', "utf-8")
    (outside / "journal.sqlite").write_bytes(b"")
    root = tmp_path / "run"
    (root / "memo").mkdir(parents=True)
    (root / "memo/memo.md").write_text("# memo\n", "utf-8")
    (root / "memo/run.json").symlink_to(outside / "run.json")
    (root / "memo/journal.sqlite").symlink_to(outside / "journal.sqlite")
    layout = discover(root)
    assert dict(layout.memo) == {} and dict(layout.journals) == {}
    assert layout.refused == (
        "memo/run.json: a symbolic link, refused",
        "memo/journal.sqlite: a symbolic link, refused",
    )
    assert read_json(root / "memo/run.json") == (None, "run.json: a symbolic link, refused")
    assert "memo/run.json: a symbolic link, refused" in _client(root).get("/").text


# --- 5. documents.json read once per change -------------------------------------------------


def test_the_registry_is_read_again_only_when_it_changes(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("page one of document a", "utf-8")
    root = _run_folder(tmp_path, [{"id": "a", "path": "a.txt"}])
    library = DocumentLibrary(root, [root / "documents.json"])
    for _ in range(5):
        assert list(library.registry().documents) == ["a"]
    assert library.registry_loads == 1
    (tmp_path / "b.txt").write_text("page one of document b", "utf-8")
    _run_folder(tmp_path, [{"id": "a", "path": "a.txt"}, {"id": "b", "path": "b.txt"}])
    assert list(library.registry().documents) == ["a", "b"]
    assert library.registry_loads == 2


def test_a_registry_over_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.txt").write_text("page one", "utf-8")
    root = _run_folder(tmp_path, [{"id": "a", "path": "a.txt", "title": "t" * 4_000}])
    monkeypatch.setattr(pages_module, "MAX_REGISTRY_BYTES", 1_000)
    registry = load_registry(root, [root / "documents.json"])
    assert dict(registry.documents) == {}
    assert registry.problems[0].startswith("documents.json: unreadable registry (")
    assert "over the viewer's limit of 1000" in registry.problems[0]


# --- 9. the small ones ------------------------------------------------------------------------


def test_a_500_carries_the_security_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("/srv/secret/path broke")

    monkeypatch.setattr(app_module, "load_journal", broken)
    client = TestClient(create_app(_run_folder(tmp_path, [])), LOCAL, raise_server_exceptions=False)
    response = client.get("/journal")
    assert response.status_code == 500
    assert response.headers["content-security-policy"].startswith("default-src 'none'")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "/srv/secret" not in response.text


def test_error_pages_show_no_absolute_server_path(tmp_path: Path) -> None:
    (tmp_path / "bad.pdf").write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8)
    client = _client(_run_folder(tmp_path, [{"id": "bad", "path": "bad.pdf"}]))
    response = client.get("/page/bad/1")
    assert response.status_code == 422
    assert "bad.pdf: not a readable PDF" in response.text
    assert str(tmp_path) not in response.text


@pytest.mark.parametrize(
    ("detail", "public"),
    [
        ("/tmp/x/run/bad.pdf: not a readable PDF", "bad.pdf: not a readable PDF"),
        ("digest store /srv/a/b.sqlite: locked", "digest store b.sqlite: locked"),
        ("span 3:9 is outside page 2", "span 3:9 is outside page 2"),
        ("see https://example.org/a/b", "see https://example.org/a/b"),
    ],
    ids=["leading", "inside", "no-path", "url-kept"],
)
def test_public_detail(detail: str, public: str) -> None:
    assert public_detail(detail) == public


@pytest.mark.parametrize(
    ("header", "host"),
    [
        ("127.0.0.1:8000", "127.0.0.1"),
        ("localhost", "localhost"),
        ("[::1]:8000", "::1"),
        ("[::1]", "::1"),
        ("EVIL.example:80", "evil.example"),
        ("[::1", ""),
    ],
    ids=["v4-port", "name", "v6-port", "v6", "upper", "unclosed"],
)
def test_host_name(header: str, host: str) -> None:
    assert host_name(header) == host


def test_ipv6_loopback_is_answered_and_its_url_valid(tmp_path: Path) -> None:
    client = _client(_run_folder(tmp_path, []), base_url="http://[::1]:8000")
    assert client.get("/").status_code == 200
    assert viewer_url("::1", 8000) == "http://[::1]:8000/"
    assert viewer_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"


def test_head_is_answered_like_get(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("page one of document a", "utf-8")
    client = _client(_run_folder(tmp_path, [{"id": "a", "path": "a.txt"}]))
    for url in ("/", "/memo", "/journal", "/page/a/1", "/static/style.css"):
        response = client.head(url)
        assert response.status_code == 200, url
        assert response.headers["x-content-type-options"] == "nosniff"


# --- 6. a digest store whose claims do not decode -------------------------------------------


@pytest.mark.parametrize("claims", ['[{"subject": ', '{"a": 1}'], ids=["invalid", "not-a-list"])
def test_a_corrupt_digest_store_is_a_one_line_problem(tmp_path: Path, claims: str) -> None:
    root = tmp_path / "run"
    write_digest_dossier(tmp_path / "dossier")
    (root / "digest").mkdir(parents=True)
    build_store(tmp_path / "dossier", root / "digest/digest.sqlite")
    corrupt_claims(root / "digest/digest.sqlite", claims)
    client = _client(root)
    response = client.get("/digest")
    assert response.status_code == 200
    # one error type for a store that does not read back (issues 11 and 18): CorruptStoreError
    assert "CORRUPT: digest store" in response.text and "column claims" in response.text
    assert client.get("/journal").status_code == 200  # generations still decode
