"""The local viewer: a read-only FastAPI app over one run folder.

``create_app(run_dir)`` holds everything it needs in the app it returns (no module-level
state): the run folder's layout, its document library, the templates. Every page is a
Jinja2 template with autoescaping on and renders one view model from
:mod:`preuve.web.loaders`; document text, titles, quotes and model output are only ever
inserted as escaped text. Documents are looked up by id in the run folder's registry, so a
request cannot name a file. Every response, errors and 500s included, carries a
Content-Security-Policy without scripts; requests must come to a local host name (DNS
rebinding; ``[::1]`` included); GET and HEAD are answered. An error page never shows an
absolute server path, and no page is larger than :data:`MAX_PAGE_CHARS` (a larger one is
refused with 422, as is a page pdfium cannot load).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.exceptions import HTTPException as StarletteHTTPException

from preuve.core.errors import PreuveError
from preuve.models.secrets import REDACTED, Scrubber
from preuve.web.layout import RunLayout, discover
from preuve.web.loaders import (
    load_dashboard,
    load_digest,
    load_index,
    load_journal,
    load_memo,
    load_page,
    load_synthesis,
)
from preuve.web.pages import DocumentLibrary

__all__ = [
    "LOCAL_HOSTS",
    "MAX_PAGE_CHARS",
    "REDACTED",
    "create_app",
    "host_name",
    "public_detail",
    "status_class",
]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
_HERE = Path(__file__).resolve().parent
# No HTML page over this (a run file can hold a 10 MB answer; the page says it is too big).
MAX_PAGE_CHARS = 8_000_000
_GET = ["GET", "HEAD"]
# An absolute path in a message: kept to its last part (a 404 must not map the server).
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/-])(?:/[^\s/'\"():,]+)+/([^\s/'\"():,]+)")
_CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
_STATUS_CLASSES = {
    "VERIFIED": "ok",
    "VALID": "ok",
    "SERVED": "ok",
    "OK": "ok",
    "REFUSED": "bad",
    "INVALID": "bad",
    "STALE": "bad",
    "ERROR": "bad",
    "NOT INVESTIGATED": "bad",
    "PARTIAL": "warn",
    "MISSING": "warn",
}


def status_class(status: object) -> str:
    """The CSS class of a status badge: ok, bad, warn, or muted (INELIGIBLE, unknown)."""
    return _STATUS_CLASSES.get(str(status).upper(), "muted")


def host_name(header: str) -> str:
    """The host of a ``Host`` header, without its port: ``[::1]:8000`` → ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.index("]")] if "]" in header else ""
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def public_detail(detail: str) -> str:
    """A message fit for an error page: every absolute path cut to its file name."""
    return _ABSOLUTE_PATH.sub(r"\1", detail)


def _environment(secrets: Sequence[str]) -> Environment:
    scrubber = Scrubber(tuple(secrets))

    def redact(value: object) -> object:
        # Defence in depth: a key that slipped into a run file is still never displayed,
        # in any of its echo forms (case, base64, hex), as every artefact is scrubbed.
        return scrubber.scrub(value) if isinstance(value, str) and scrubber else value

    env = Environment(
        loader=FileSystemLoader(_HERE / "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=redact,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["status_class"] = status_class
    return env


def _span(start: int | None, end: int | None) -> tuple[int, int] | None:
    if start is None and end is None:
        return None
    if start is None or end is None:
        raise HTTPException(400, "give both start and end, or neither")
    return start, end


def _pick(runs: Sequence[str], run: str | None) -> str | None:
    """The requested run key if it exists (404 otherwise); the first one by default."""
    if run is None:
        return runs[0] if runs else None
    if run not in runs:
        raise HTTPException(404, "no such run in this folder")
    return run


_Offset = Annotated[int | None, Query(ge=0)]
_Render = Callable[..., HTMLResponse]


def create_app(
    run_dir: Path,
    *,
    secrets: Sequence[str] = (),
    allowed_hosts: Sequence[str] = LOCAL_HOSTS,
) -> FastAPI:
    """The viewer of ``run_dir``. ``secrets`` are values never to display (API keys);
    ``allowed_hosts`` are the Host names it answers (local ones by default)."""
    layout: RunLayout = discover(run_dir)
    library = DocumentLibrary(layout.root, layout.registries)
    env = _environment(secrets)
    app = FastAPI(title="preuve viewer", docs_url=None, redoc_url=None, openapi_url=None)
    hosts = {h.lower() for h in allowed_hosts}

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        if "*" not in hosts and host_name(request.headers.get("host", "")) not in hosts:
            response: Response = PlainTextResponse("Invalid host header", status_code=400)
        else:
            response = await call_next(request)
        response.headers.update(_HEADERS)
        return response

    def render(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        html = env.get_template(template).render(
            folder=layout.root.name, **{"section": "", **context}
        )
        if len(html) > MAX_PAGE_CHARS:
            detail = (
                f"this page would be {len(html) // 1_000_000} MB of HTML, over the viewer's "
                f"limit of {MAX_PAGE_CHARS // 1_000_000} MB: the run file is too large to show"
            )
            html = env.get_template("error.html").render(
                folder=layout.root.name, section="", code=422, detail=detail
            )
            status_code = 422
        return HTMLResponse(html, status_code=status_code)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> HTMLResponse:
        detail = public_detail(str(exc.detail))
        return render("error.html", exc.status_code, code=exc.status_code, detail=detail)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> Response:
        # Sent by Starlette's outermost middleware, past the one above: headers set here.
        del request, exc
        return PlainTextResponse("500 · internal error", status_code=500, headers=_HEADERS)

    _add_section_routes(app, layout, library, render)
    _add_page_routes(app, library, render)
    app.mount("/static", StaticFiles(directory=_HERE / "static"), name="static")
    return app


def _add_section_routes(
    app: FastAPI, layout: RunLayout, library: DocumentLibrary, render: _Render
) -> None:
    @app.api_route("/", methods=_GET, response_class=HTMLResponse)
    def index() -> HTMLResponse:
        view = load_index(layout, library.registry())
        return render("index.html", view=view, section="")

    @app.api_route("/memo", methods=_GET, response_class=HTMLResponse)
    def memo(run: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.memo), run)
        view = load_memo(layout, key, library) if key else None
        return render("memo.html", view=view, section="memo")

    @app.api_route("/dashboard", methods=_GET, response_class=HTMLResponse)
    def dashboard(run: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.memo), run)
        view = load_dashboard(layout, key) if key else None
        return render("dashboard.html", view=view, section="dashboard")

    @app.api_route("/synthesis", methods=_GET, response_class=HTMLResponse)
    def synthesis(run: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.synthesis), run)
        view = load_synthesis(layout, key, library) if key else None
        if isinstance(view, str):
            return render("synthesis.html", view=None, problem=view, section="synthesis")
        return render("synthesis.html", view=view, problem="", section="synthesis")

    @app.api_route("/digest", methods=_GET, response_class=HTMLResponse)
    def digest(run: str | None = None, build: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.digest), run)
        view = load_digest(layout, key, library, build) if key else None
        if key and view is None:
            raise HTTPException(404, "no such build in this digest store")
        return render("digest.html", view=view, section="digest")

    @app.api_route("/journal", methods=_GET, response_class=HTMLResponse)
    def journal() -> HTMLResponse:
        return render("journal.html", view=load_journal(layout), section="journal")


def _add_page_routes(app: FastAPI, library: DocumentLibrary, render: _Render) -> None:
    @app.api_route("/page/{doc}/{number:int}.png", methods=_GET)
    def page_image(doc: str, number: int, start: _Offset = None, end: _Offset = None) -> Response:
        span = _span(start, end)
        document = library.registry().get(doc)
        if document is None or not document.is_pdf:
            raise HTTPException(404, "no such page image")
        try:
            pages = library.pages(document)
            if not 1 <= number <= len(pages):
                raise HTTPException(404, "no such page image")
            if span is not None and not 0 <= span[0] < span[1] <= len(pages[number - 1]):
                raise HTTPException(400, f"span {span[0]}:{span[1]} is outside page {number}")
            png = library.png(document, number, span)
        except PreuveError as err:
            raise HTTPException(422, f"page unreadable: {err.one_line()}") from None
        return Response(png, media_type="image/png")

    @app.api_route("/page/{doc}/{number:int}", methods=_GET, response_class=HTMLResponse)
    def page_text(
        doc: str, number: int, start: _Offset = None, end: _Offset = None
    ) -> HTMLResponse:
        try:
            view = load_page(library, doc, number, _span(start, end))
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        except PreuveError as err:
            raise HTTPException(422, f"page unreadable: {err.one_line()}") from None
        if view is None:
            raise HTTPException(404, "no such document or page in this run folder")
        return render("page.html", view=view, section="")
