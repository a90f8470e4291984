"""The viewer in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright)
against a real uvicorn server on 127.0.0.1: follow a source to its highlighted quote, see a
refused digest as STALE, and check that hostile documents stay inert."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from preuve.io.pdf import load_pages
from preuve.web.app import create_app
from tests.web.runfolder import RunFolder, build_run_folder, quote_of

CHROMIUM = Path("/usr/bin/chromium")
DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "viewer.png"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian chromium is not installed at /usr/bin/chromium (make test installs it)",
    ),
]

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Dialog, Page, sync_playwright


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunFolder:
    return build_run_folder(tmp_path_factory.mktemp("browser"))


@pytest.fixture(scope="module")
def base_url(run: RunFolder) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1, on a free port, in a thread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(run.root), log_level="warning", lifespan="off", ws="none", access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


def test_a_source_chip_leads_to_the_quote_highlighted_on_its_page(
    page: Page, base_url: str, run: RunFolder, tmp_path: Path
) -> None:
    site = run.recorded
    page.goto(f"{base_url}/memo")
    page.click(f'a.chip[href="#fact-{site.fact}"]')
    row = page.locator(f'tr[id="fact-{site.fact}"]')
    assert page.url.endswith(f"#fact-{site.fact}")
    assert row.is_visible()
    quote, _ = quote_of(row.locator("td").nth(1).inner_text())

    row.locator("a.page-link").click()
    page.wait_for_load_state("load")
    mark = page.locator("mark#hl")
    text = load_pages(run.root / "memo/reports" / f"{site.doc}.pdf")[site.page - 1]
    assert mark.count() == 1
    assert mark.text_content() == text[site.start : site.end]
    assert " ".join((mark.text_content() or "").split()) == quote
    assert mark.is_visible()
    box = mark.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0
    image = page.locator(".page-image img")
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")

    page.evaluate("window.scrollTo(0, 0)")
    shot = tmp_path / "viewer.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    if (
        os.environ.get("UPDATE_DOCS_SCREENSHOT") == "1"
    ):  # `make screenshot`; tests leave the tree alone
        DOCS_SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, DOCS_SCREENSHOT)


def test_a_digest_whose_serving_was_refused_shows_stale(
    page: Page, base_url: str, run: RunFolder
) -> None:
    page.goto(f"{base_url}/digest")  # the rebuilt summary, served: no refusal
    assert page.locator(".banner[role=alert]").count() == 0
    page.click(f"table.history a:has-text('{run.stale_run[:12]}')")
    page.wait_for_load_state("load")
    banner = page.locator(".banner[role=alert]")
    assert banner.is_visible()
    assert (banner.locator(".banner-status").text_content() or "").strip() == "STALE"
    assert run.stale_run[:12] in (page.locator("h2", has_text="Tree of build").text_content() or "")


def test_hostile_documents_render_inert(page: Page, base_url: str, run: RunFolder) -> None:
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    # The detector works: the same payload, rendered unescaped, does fire a dialog.
    page.set_content("<img src=x onerror=alert(1)>")
    page.wait_for_timeout(200)
    assert dialogs == ["1"]
    dialogs.clear()

    site = run.hostile
    urls = [f"/page/{site.doc}/{site.page}?start={site.start}&end={site.end}", "/memo", "/"]
    urls += ["/dashboard", "/journal"]
    for url in urls:
        page.goto(f"{base_url}{url}")
        page.wait_for_load_state("load")
        assert page.locator("script").count() == 0, url
        assert page.locator("[onerror]").count() == 0, url
        assert page.locator("a[href^='javascript:' i]").count() == 0, url
    page.goto(f"{base_url}{urls[0]}")
    assert "<script>alert(1)</script>" in (page.locator("mark#hl").text_content() or "")
    page.wait_for_timeout(200)
    assert dialogs == []
