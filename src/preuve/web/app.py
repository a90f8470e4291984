"""The local viewer: a read-only FastAPI app over one run folder.

``create_app(run_dir)`` holds everything it needs in the app it returns (no module-level
state): the run folder's layout, its document library, the templates. Every page is a
Jinja2 template with autoescaping on and renders one view model from
:mod:`preuve.web.loaders`; document text, titles, quotes and model output are only ever
inserted as escaped text. Documents are looked up by id in the run folder's registry, so a
request cannot name a file. Every response carries a Content-Security-Policy without
scripts, and requests must come to a local host name (DNS rebinding).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from preuve.core.errors import PreuveError
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

__all__ = ["LOCAL_HOSTS", "REDACTED", "create_app", "status_class"]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
REDACTED = "[REDACTED]"
_HERE = Path(__file__).resolve().parent
_MIN_SECRET = 8
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


def _environment(secrets: Sequence[str]) -> Environment:
    known = tuple(s for s in secrets if len(s) >= _MIN_SECRET)

    def redact(value: object) -> object:
        # Defence in depth: a key that slipped into a run file is still never displayed.
        if isinstance(value, str):
            for secret in known:
                value = value.replace(secret, REDACTED)
        return value

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
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers.update(_HEADERS)
        return response

    def render(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        html = env.get_template(template).render(
            folder=layout.root.name, **{"section": "", **context}
        )
        return HTMLResponse(html, status_code=status_code)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> HTMLResponse:
        return render("error.html", exc.status_code, code=exc.status_code, detail=str(exc.detail))

    _add_section_routes(app, layout, library, render)
    _add_page_routes(app, library, render)
    app.mount("/static", StaticFiles(directory=_HERE / "static"), name="static")
    return app


def _add_section_routes(
    app: FastAPI, layout: RunLayout, library: DocumentLibrary, render: _Render
) -> None:
    @app.get("/", response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return render("index.html", view=load_index(layout, library.registry()), section="")

    @app.get("/memo", response_class=HTMLResponse)
    def memo(run: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.memo), run)
        view = load_memo(layout, key, library) if key else None
        return render("memo.html", view=view, section="memo")

    @app.get("/dashboard", response_class=HTMLResponse)
    def dashboard(run: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.memo), run)
        view = load_dashboard(layout, key) if key else None
        return render("dashboard.html", view=view, section="dashboard")

    @app.get("/synthesis", response_class=HTMLResponse)
    def synthesis(run: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.synthesis), run)
        view = load_synthesis(layout, key, library) if key else None
        if isinstance(view, str):
            return render("synthesis.html", view=None, problem=view, section="synthesis")
        return render("synthesis.html", view=view, problem="", section="synthesis")

    @app.get("/digest", response_class=HTMLResponse)
    def digest(run: str | None = None, build: str | None = None) -> HTMLResponse:
        key = _pick(list(layout.digest), run)
        view = load_digest(layout, key, library, build) if key else None
        if key and view is None:
            raise HTTPException(404, "no such build in this digest store")
        return render("digest.html", view=view, section="digest")

    @app.get("/journal", response_class=HTMLResponse)
    def journal() -> HTMLResponse:
        return render("journal.html", view=load_journal(layout), section="journal")


def _add_page_routes(app: FastAPI, library: DocumentLibrary, render: _Render) -> None:
    @app.get("/page/{doc}/{number:int}.png")
    def page_image(doc: str, number: int, start: _Offset = None, end: _Offset = None) -> Response:
        span = _span(start, end)
        try:
            document = library.registry().get(doc)
            if document is None or not document.is_pdf:
                raise HTTPException(404, "no such page image")
            pages = library.pages(document)
            if not 1 <= number <= len(pages):
                raise HTTPException(404, "no such page image")
            if span is not None and not 0 <= span[0] < span[1] <= len(pages[number - 1]):
                raise HTTPException(400, f"span {span[0]}:{span[1]} is outside page {number}")
            png = library.png(document, number, span)
        except PreuveError as err:
            raise HTTPException(404, str(err)) from None
        return Response(png, media_type="image/png")

    @app.get("/page/{doc}/{number:int}", response_class=HTMLResponse)
    def page_text(
        doc: str, number: int, start: _Offset = None, end: _Offset = None
    ) -> HTMLResponse:
        try:
            view = load_page(library, doc, number, _span(start, end))
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        except PreuveError as err:
            raise HTTPException(404, str(err)) from None
        if view is None:
            raise HTTPException(404, "no such document or page in this run folder")
        return render("page.html", view=view, section="")
