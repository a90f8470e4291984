"""The cases of the bad-input matrix (see :mod:`preuve.eval.reliability_inputs`).

Ids are ``family/what``: ``pdf`` and ``text`` (a document to check quotes against),
``page`` (out-of-range pages), ``quotes`` (the JSON-lines of ``check-quotes``), ``facts``
and ``memo`` (``check-memo``), ``workflow1`` (``preuve memo`` on a report), ``dossier``
(``synthesize``), ``run`` and ``grid`` (``check-synthesis``, ``grade``), ``digest`` (a
digest dossier and its options), ``store`` (the digest store), ``corpus`` (the gold files
of a digest corpus). Every argument ``{d}`` is the case's own folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from preuve.eval.reliability_files import (
    FACTS,
    QUOTE_PAGE_1,
    REPORT_PAGES,
    write_digest_dossier,
    write_encrypted_pdf,
    write_image_only_pdf,
    write_synthesis_dossier,
    write_text_pdf,
    write_truncated_pdf,
    write_zero_page_pdf,
)
from preuve.eval.reliability_inputs import Expect, InputCase
from preuve.eval.reliability_pdfs import write_missing_page_pdf, write_page_loop_pdf
from preuve.eval.reliability_stores import (
    build_store,
    corrupt_claims,
    write_corpus_layout,
    write_run_folder,
)

__all__ = ["INPUT_CASES"]

Setup = Callable[[Path], object]

DEEP = "[" * 10_000 + "]" * 10_000
HUGE_INT = "1" * 5_000  # over Python's 4 300-digit limit for int("...")
LATIN1 = "Un texte écrit en Latin-1, pas en UTF-8 : é à ç".encode("latin-1")
GARBAGE_PDF = b"%PDF-1.7\n" + bytes(range(256)) * 16


def _nothing(folder: Path) -> None:
    del folder


def _put(name: str, content: str | bytes) -> Setup:
    def setup(folder: Path) -> None:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        path.write_bytes(data)

    return setup


def _all(*setups: Setup) -> Setup:
    def setup(folder: Path) -> None:
        for step in setups:
            step(folder)

    return setup


def _pdf(name: str, writer: Callable[[Path], object]) -> Setup:
    def setup(folder: Path) -> None:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        writer(folder / name)

    return setup


def _report(name: str = "report.pdf") -> Setup:
    return _pdf(name, lambda path: write_text_pdf(path, REPORT_PAGES))


def _folder(name: str) -> Setup:
    return lambda folder: (folder / name).mkdir(parents=True, exist_ok=True)


def _digest(folder: Path) -> None:
    write_digest_dossier(folder / "dossier")


def _synthesis(folder: Path) -> None:
    write_synthesis_dossier(folder / "dossier")


def _doc(body: str, name: str = "doc-03.md") -> Setup:
    return _all(_synthesis, _put(f"dossier/documents/{name}", body))


def _header(**fields: str) -> str:
    values = {"id": "doc-03", "title": "T", "date": "2026-01-01", "source_type": "blog", **fields}
    lines = [f"{k}: {v}" for k, v in values.items() if v]
    return "---\n" + "\n".join(lines) + "\n---\n\nKestrel Serve atteint 200 ms.\n"


def _quotes(*rows: str) -> Setup:
    return _all(_report(), _put("q.jsonl", "\n".join(rows) + "\n"))


def _memo(memo: str | bytes, facts: str | bytes = FACTS) -> Setup:
    return _all(_put("facts.txt", facts), _put("memo.json", memo))


def _meta(content: str | bytes) -> Setup:
    return _all(_digest, _put("dossier/doc-01/meta.json", content))


Q = ("--quote", QUOTE_PAGE_1)
CHECK = ("check-quote", "{d}/report.pdf", "--page", "1", *Q)
QUOTES = ("check-quotes", "{d}/report.pdf", "--input", "{d}/q.jsonl")
MEMO = ("check-memo", "--facts", "{d}/facts.txt", "--memo", "{d}/memo.json")
W1 = ("memo", "{d}/report.pdf", "--out", "{d}/out", "--rates", "{d}/rates.jsonl")
SYN = ("synthesize", "{d}/dossier", "--out", "{d}/out")
BUILD = ("digest", "build", "{d}/dossier", "--store", "{d}/store.sqlite")
GRADE = ("grade", "{d}/run", "--grid", "{d}/grid.json")
GOOD_MEMO = '{"paragraphs": [{"text": "Le levier atteint 5,5x.", "sources": ["R-ferlac-levier"]}]}'


def _c(
    id: str,
    argv: tuple[str, ...],
    setup: Setup = _nothing,
    *names: str,
    refused: bool = False,
    out: str | None = None,
) -> InputCase:
    expect = Expect.REFUSED if refused else Expect.ERROR
    return InputCase(id, argv, setup, tuple(names), expect, out)


def _pdf_cases() -> list[InputCase]:
    return [
        _c("pdf/missing-file", CHECK, _nothing, "{d}/report.pdf"),
        _c("pdf/corrupt", CHECK, _put("report.pdf", GARBAGE_PDF), "{d}/report.pdf"),
        _c("pdf/truncated", CHECK, _pdf("report.pdf", write_truncated_pdf), "{d}/report.pdf"),
        _c("pdf/encrypted", CHECK, _pdf("report.pdf", write_encrypted_pdf), "encrypted"),
        _c("pdf/image-only", CHECK, _pdf("report.pdf", write_image_only_pdf), "no text layer"),
        _c("pdf/zero-page", CHECK, _pdf("report.pdf", write_zero_page_pdf), "{d}/report.pdf"),
        _c("pdf/not-a-pdf", CHECK, _put("report.pdf", "plain text"), "not a PDF"),
        _c("pdf/page-tree-loop", CHECK, _pdf("report.pdf", write_page_loop_pdf),
           "{d}/report.pdf: page 2"),
        _c("pdf/missing-page-object", CHECK, _pdf("report.pdf", write_missing_page_pdf),
           "{d}/report.pdf: page 2"),
        _c("pdf/a-folder", CHECK, _folder("report.pdf"), "{d}/report.pdf"),
        _c("text/non-utf8", ("check-quote", "{d}/r.txt", "--page", "1", *Q), _put("r.txt", LATIN1),
           "{d}/r.txt", "UTF-8"),
        _c("text/empty", ("check-quote", "{d}/r.txt", "--page", "1", *Q), _put("r.txt", b""),
           "{d}/r.txt"),
        _c("text/form-feeds-only", ("check-quote", "{d}/r.txt", "--page", "1", *Q),
           _put("r.txt", "\f \f\n"), "{d}/r.txt"),
        _c("page/beyond-the-last", (*CHECK[:3], "9", *Q), _report(), "page_out_of_range",
           refused=True),
        _c("page/zero", (*CHECK[:3], "0", *Q), _report(), "page_out_of_range", refused=True),
        _c("page/negative", (*CHECK[:3], "-3", *Q), _report(), "page_out_of_range", refused=True),
        _c("page/jsonl-beyond-the-last", QUOTES, _quotes('{"page": 99, "quote": "abcdefghijklm"}'),
           "page_out_of_range", refused=True),
        _c("page/jsonl-over-long-integer", QUOTES,
           _quotes(f'{{"page": {HUGE_INT}, "quote": "abcdefghijklm"}}'), "{d}/q.jsonl:1"),
        _c("page/jsonl-fraction", QUOTES, _quotes('{"page": 1.5, "quote": "abcdefghijklm"}'),
           "{d}/q.jsonl:1"),
        _c("page/jsonl-boolean", QUOTES, _quotes('{"page": true, "quote": "abcdefghijklm"}'),
           "{d}/q.jsonl:1"),
        _c("page/jsonl-nan", QUOTES, _quotes('{"page": NaN, "quote": "abcdefghijklm"}'),
           "{d}/q.jsonl:1"),
    ]  # fmt: skip


def _quote_and_memo_cases() -> list[InputCase]:
    return [
        _c("quotes/missing-file", QUOTES, _report(), "{d}/q.jsonl"),
        _c("quotes/malformed-line", QUOTES, _quotes('{"page": 1, "quote": "abcdefghijklm"}',
           '{"page": 1,'), "{d}/q.jsonl:2"),
        _c("quotes/not-an-object", QUOTES, _quotes("[1, 2]"), "{d}/q.jsonl:1"),
        _c("quotes/quote-not-text", QUOTES, _quotes('{"page": 1, "quote": 7}'), "{d}/q.jsonl:1"),
        _c("quotes/nested-10000", QUOTES, _quotes(DEEP), "{d}/q.jsonl:1"),
        _c("quotes/non-utf8", QUOTES, _all(_report(), _put("q.jsonl", LATIN1)), "{d}/q.jsonl"),
        _c("quotes/empty", QUOTES, _quotes(""), "{d}/q.jsonl"),
        _c("facts/missing-file", MEMO, _put("memo.json", GOOD_MEMO), "{d}/facts.txt"),
        _c("facts/non-utf8", MEMO, _memo(GOOD_MEMO, LATIN1), "{d}/facts.txt"),
        _c("facts/malformed-line", MEMO, _memo(GOOD_MEMO, FACTS + "no id on this line\n"),
           "{d}/facts.txt line 3"),
        _c("facts/duplicate-id", MEMO, _memo(GOOD_MEMO, FACTS + "[A-ferlac-1] again\n"),
           "{d}/facts.txt line 3"),
        _c("memo/missing-file", MEMO, _put("facts.txt", FACTS), "{d}/memo.json"),
        _c("memo/malformed-json", MEMO, _memo('{"paragraphs": [\n  {"text": }'),
           "{d}/memo.json:2:"),
        _c("memo/nested-10000", MEMO, _memo(DEEP), "{d}/memo.json"),
        _c("memo/over-long-integer", MEMO, _memo(f'{{"paragraphs": {HUGE_INT}}}'),
           "{d}/memo.json"),
        _c("memo/non-utf8", MEMO, _memo(LATIN1.decode("latin-1").encode("utf-16")),
           "{d}/memo.json"),
        _c("memo/wrong-shape", MEMO, _memo('{"paragraphs": {"text": "x"}}'), "{d}/memo.json"),
        _c("memo/duplicate-key", MEMO, _memo('{"paragraphs": [], "paragraphs": [{"text": "x",'
           ' "sources": ["R-ferlac-levier"]}]}'), "{d}/memo.json", '"paragraphs" appears more'),
        _c("quotes/duplicate-key", QUOTES,
           _quotes('{"page": 1, "page": 2, "quote": "abcdefghijklm"}'), "{d}/q.jsonl:1",
           '"page" appears more'),
        _c("memo/extra-key", MEMO, _memo('{"paragraphs": [], "run": "rm -rf /"}'),
           "{d}/memo.json"),
        _c("memo/no-paragraph", MEMO, _memo('{"paragraphs": []}'), "{d}/memo.json"),
        _c("memo/unknown-fact-id", MEMO,
           _memo('{"paragraphs": [{"text": "Levier de 5,5x.", "sources": ["R-nope"]}]}'),
           "R-nope", refused=True),
        _c("workflow1/missing-report", W1, _nothing, "{d}/report.pdf", out="out"),
        _c("workflow1/corrupt-pdf", W1, _put("report.pdf", GARBAGE_PDF), "{d}/report.pdf",
           out="out"),
        _c("workflow1/truncated-pdf", W1, _pdf("report.pdf", write_truncated_pdf),
           "{d}/report.pdf", out="out"),
        _c("workflow1/encrypted-pdf", W1, _pdf("report.pdf", write_encrypted_pdf), "encrypted",
           out="out"),
        _c("workflow1/image-only-pdf", W1, _pdf("report.pdf", write_image_only_pdf),
           "no text layer", out="out"),
        _c("workflow1/zero-page-pdf", W1, _pdf("report.pdf", write_zero_page_pdf),
           "{d}/report.pdf", out="out"),
        _c("workflow1/page-tree-loop", W1, _pdf("report.pdf", write_page_loop_pdf),
           "{d}/report.pdf: page 2", out="out"),
        _c("workflow1/missing-page-object", W1, _pdf("report.pdf", write_missing_page_pdf),
           "{d}/report.pdf: page 2", out="out"),
    ]  # fmt: skip


def _dossier_cases() -> list[InputCase]:
    doc = "{d}/dossier/documents/doc-03.md"
    return [
        _c("dossier/missing-folder", SYN, _nothing, "{d}/dossier", out="out"),
        _c("dossier/no-question", SYN, _all(_synthesis, lambda f: (f / "dossier/question.md")
           .unlink()), "question.md", out="out"),
        _c("dossier/empty-question", SYN, _all(_synthesis, _put("dossier/question.md", " \n")),
           "question.md:1", out="out"),
        _c("dossier/no-document", SYN, _put("dossier/question.md", "Q ?"), "documents",
           out="out"),
        _c("dossier/no-header", SYN, _doc("Kestrel Serve, 200 ms.\n"), f"{doc}:1", out="out"),
        _c("dossier/bad-date", SYN, _doc(_header(date="2026-02-30")), f"{doc}:4", out="out"),
        _c("dossier/unknown-source-type", SYN, _doc(_header(source_type="rumour")), f"{doc}:5",
           out="out"),
        _c("dossier/unknown-header-key", SYN, _doc(_header(author="x")), f"{doc}:6", out="out"),
        _c("dossier/missing-header-key", SYN, _doc(_header(title="")), f"{doc}:5", out="out"),
        _c("dossier/duplicate-id", SYN, _doc(_header(id="doc-01")), f"{doc}:2", out="out"),
        _c("dossier/unclosed-header", SYN, _doc("---\nid: doc-03\ntitle: T\n"), doc, out="out"),
        _c("dossier/empty-body", SYN, _doc(_header().split("\n\n")[0] + "\n"), doc, out="out"),
        _c("dossier/non-utf8-document", SYN, _all(_synthesis, _put("dossier/documents/doc-03.md",
           LATIN1)), doc, out="out"),
        _c("dossier/unknown-model-spec", (*SYN, "--model", "nonsense:xyz"), _synthesis,
           "nonsense", out="out"),
        _c("dossier/replay-missing", (*SYN, "--model", "replay:{d}/calls.jsonl"), _synthesis,
           "{d}/calls.jsonl", out="out"),
        _c("dossier/replay-non-utf8", (*SYN, "--model", "replay:{d}/calls.jsonl"),
           _all(_synthesis, _put("calls.jsonl", LATIN1)), "{d}/calls.jsonl", out="out"),
        _c("dossier/replay-malformed-line", (*SYN, "--model", "replay:{d}/calls.jsonl"),
           _all(_synthesis, _put("calls.jsonl", '{"hash": "h", "error": {"message": "x"}}\n[')),
           "{d}/calls.jsonl line 2", out="out"),
        _c("run/no-trajectory", ("check-synthesis", "{d}/run"), _folder("run"), "{d}/run"),
        _c("run/trajectory-malformed-json", ("check-synthesis", "{d}/run"),
           _put("run/trajectory.json", '{"format": '), "{d}/run/trajectory.json:1:"),
        _c("run/trajectory-nested-10000", ("check-synthesis", "{d}/run"),
           _put("run/trajectory.json", DEEP), "{d}/run/trajectory.json"),
        _c("run/trajectory-not-a-run", ("check-synthesis", "{d}/run"),
           _put("run/trajectory.json", '{"format": "other"}'), "{d}/run/trajectory.json"),
        _c("run/trajectory-damaged", ("check-synthesis", "{d}/run"),
           lambda f: write_run_folder(f / "run", damage=True), "{d}/run/trajectory.json"),
        _c("run/synthesis-not-a-synthesis",
           ("check-synthesis", "{d}/run", "--synthesis", "{d}/s.json"),
           _all(lambda f: write_run_folder(f / "run"), _put("s.json", '{"paragraphs": 3}')),
           "{d}/s.json"),
        _c("grid/missing-file", GRADE, _folder("run"), "{d}/grid.json"),
        _c("grid/malformed-json", GRADE, _all(_folder("run"), _put("grid.json", "{,}")),
           "{d}/grid.json"),
        _c("grid/nested-10000", GRADE, _all(_folder("run"), _put("grid.json", DEEP)),
           "{d}/grid.json"),
        _c("grid/over-long-integer", GRADE, _all(_folder("run"), _put("grid.json", HUGE_INT)),
           "{d}/grid.json"),
        _c("grid/non-utf8", GRADE, _all(_folder("run"), _put("grid.json", LATIN1)),
           "{d}/grid.json"),
        _c("grid/wrong-shape", GRADE, _all(_folder("run"), _put("grid.json", "[1, 2, 3]")),
           "{d}/grid.json"),
    ]  # fmt: skip


def _digest_cases() -> list[InputCase]:
    meta = "{d}/dossier/doc-01/meta.json"
    serve = ("digest", "serve", "{d}/dossier", "--store", "{d}/store.sqlite")
    built = _all(_digest, lambda f: build_store(f / "dossier", f / "store.sqlite"))
    return [
        _c("digest/missing-folder", BUILD, _nothing, "{d}/dossier"),
        _c("digest/stray-file", BUILD, _all(_digest, _put("dossier/notes.txt", "x")),
           "{d}/dossier/notes.txt"),
        _c("digest/document-without-version", BUILD, _all(_digest, _folder("dossier/doc-09")),
           "{d}/dossier/doc-09"),
        _c("digest/bad-version-name", BUILD, _all(_digest, _put("dossier/doc-01/v01.txt", "x")),
           "{d}/dossier/doc-01/v01.txt"),
        _c("digest/meta-malformed", BUILD, _meta('{\n  "title": ,\n}'), f"{meta}:2:12"),
        _c("digest/meta-duplicate-key", BUILD, _meta('{"title": "a", "title": "b"}'), meta),
        _c("digest/meta-bad-date", BUILD, _meta('{"date": "2026-13-40"}'), meta),
        _c("digest/meta-unknown-key", BUILD, _meta('{"author": "x"}'), meta),
        _c("digest/meta-non-utf8", BUILD, _meta(LATIN1), meta),
        _c("digest/meta-nested-10000", BUILD, _meta(DEEP), meta),
        _c("digest/meta-over-long-integer", BUILD, _meta(f'{{"title": {HUGE_INT}}}'), meta),
        _c("digest/text-non-utf8", BUILD, _all(_digest, _put("dossier/doc-01/v1.txt", LATIN1)),
           "{d}/dossier/doc-01/v1.txt"),
        _c("digest/pdf-corrupt", BUILD, _all(_digest, _put("dossier/doc-01/v2.pdf",
           GARBAGE_PDF)), "{d}/dossier/doc-01/v2.pdf"),
        _c("digest/pdf-page-tree-loop", BUILD, _all(_digest, _pdf("dossier/doc-01/v2.pdf",
           write_page_loop_pdf)), "{d}/dossier/doc-01/v2.pdf: page 2"),
        _c("digest/pdf-missing-page-object", BUILD, _all(_digest, _pdf("dossier/doc-01/v2.pdf",
           write_missing_page_pdf)), "{d}/dossier/doc-01/v2.pdf: page 2"),
        _c("digest/pdf-encrypted", BUILD, _all(_digest, _pdf("dossier/doc-01/v2.pdf",
           write_encrypted_pdf)), "encrypted"),
        _c("digest/unknown-document-id", (*BUILD, "--version", "doc-99=2"), _digest, "doc-99"),
        _c("digest/unknown-version", (*BUILD, "--version", "doc-01=7"), _digest, "version 7"),
        _c("digest/version-not-doc-eq-n", (*BUILD, "--version", "doc-01"), _digest, "doc-01"),
        _c("digest/withdraw-unknown-id", (*BUILD, "--withdraw", "doc-99"), _digest, "doc-99"),
        _c("digest/revoke-unknown-id", (*BUILD, "--revoke", "doc-99"), _digest, "doc-99"),
        _c("digest/unknown-model-spec", (*BUILD, "--model", "nonsense:xyz"), _digest,
           "nonsense"),
        _c("store/serve-without-store", serve, _digest, "{d}/store.sqlite"),
        _c("store/not-a-database", BUILD, _all(_digest, _put("store.sqlite", GARBAGE_PDF * 8)),
           "{d}/store.sqlite"),
        _c("store/history-not-a-database", ("digest", "history", "--store", "{d}/store.sqlite"),
           _put("store.sqlite", b"SQLite format 3\x00" + bytes(4000)), "{d}/store.sqlite"),
        _c("store/folder-missing", (*BUILD[:3], "--store", "{d}/no/such/folder/s.sqlite"),
           _digest, "{d}/no/such/folder/s.sqlite"),
        _c("store/claims-invalid-json", BUILD, _all(built, lambda f: corrupt_claims(
           f / "store.sqlite")), "{d}/store.sqlite", "CORRUPT"),
        _c("store/claims-not-a-list", BUILD, _all(built, lambda f: corrupt_claims(
           f / "store.sqlite", '{"a": 1}')), "{d}/store.sqlite", "CORRUPT"),
        _c("store/compare-unknown-run", ("digest", "compare", "nope-a", "nope-b", "--store",
           "{d}/store.sqlite"), built, "nope-a"),
        _c("store/prov-unknown-run", ("digest", "prov", "nope", "--store", "{d}/store.sqlite",
           "--out", "{d}/out/prov.json"), built, "nope", out="out"),
        # gold is given explicitly (--gold): audit never guesses it from the folder's place
        _c("corpus/gold-malformed", ("digest", "audit", "{d}/corpus/dossiers/test-00", "--store",
           "{d}/store.sqlite", "--gold", "{d}/corpus/gold/test-00.json"),
           lambda f: write_corpus_layout(f, gold="{"), "{d}/corpus/gold/test-00.json"),
        _c("corpus/gold-without-a-document", ("digest", "audit", "{d}/corpus/dossiers/test-00",
           "--store", "{d}/store.sqlite", "--gold", "{d}/corpus/gold/test-00.json"),
           lambda f: write_corpus_layout(f, gold=json.dumps({"documents": {}})),
           "{d}/corpus/gold/test-00.json"),
    ]  # fmt: skip


INPUT_CASES: tuple[InputCase, ...] = (
    *_pdf_cases(),
    *_quote_and_memo_cases(),
    *_dossier_cases(),
    *_digest_cases(),
)
