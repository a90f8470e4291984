"""Coverage-guided fuzzing of quote verification and normalization (preuve.core.quotes, .text).

    .venv/bin/python fuzz/fuzz_quotes.py -atheris_runs=1000000 -max_len=4096

Any pages and quote (Unicode, surrogates included), any page number, strict or lenient:
``normalize``, ``lenient`` and ``normalize_quote`` never raise and map back inside the
original; ``QuoteChecker.verify`` never raises, and a verified span is exactly
``page[start:end]``; a plain page (ASCII letters, digits, spaces) quoted whole verifies.
"""

from __future__ import annotations

from _atheris import Provider, fuzz, instrumented, provider

with instrumented():
    from preuve.core.quotes import QuoteChecker
    from preuve.core.text import lenient, normalize, normalize_quote

# Half the inputs are written with what extracted PDF text holds, and the quote is then a
# slice of a page, edited: that is where normalization and the lenient tier work hardest.
PIECES = [
    "Le ", "levier ", "atteint ", "5,5x", " ", "  ", "\n", "-\n", "\u00ad", "\u00a0",
    "\u202f", "ﬁ", "ﬂ", "’", "'", "«", "»", '"', "|", ".", ",", ";", "—", "–", "-", "é",
    "e\u0301", "A", "a", "1", "2025", "(", ")", "[...]", "\f", "\t", "Ⅻ", "①",
]  # fmt: skip


def _page(source: Provider) -> str:
    count = source.ConsumeIntInRange(0, 80)
    return "".join(source.PickValueInList(PIECES) for _ in range(count))


def _inputs(source: Provider) -> tuple[list[str], str]:
    if source.ConsumeBool():
        pages = [source.ConsumeUnicode(source.ConsumeIntInRange(0, 600)) for _ in range(3)]
        return pages, source.ConsumeUnicode(source.remaining_bytes())
    pages = [_page(source) for _ in range(3)]
    page = pages[source.ConsumeIntInRange(0, 2)]
    start = source.ConsumeIntInRange(0, len(page))
    quote = page[start : source.ConsumeIntInRange(start, len(page))]
    edit = source.ConsumeIntInRange(0, 3)
    if edit == 1 and quote:  # one character changed
        at = source.ConsumeIntInRange(0, len(quote) - 1)
        quote = quote[:at] + source.PickValueInList(PIECES) + quote[at + 1 :]
    elif edit == 2:  # what models add around a quote
        quote = f"« {quote}. »"
    return pages, quote


def test_one_input(data: bytes) -> None:
    source = provider(data)
    strict = source.ConsumeBool()
    page_number = source.ConsumeIntInRange(-2, 4)
    pages, quote = _inputs(source)
    for page in pages:
        form = normalize(page)
        if form.original_length != len(page):
            raise AssertionError("normalize lost track of the original length")
        if form.text:
            start, end = form.to_original(0, len(form.text))
            if not 0 <= start <= end <= len(page):
                raise AssertionError(f"offset map out of the page: {(start, end)}")
        lenient(form.text)
    normalize_quote(quote)
    checker = QuoteChecker(pages, lenient=not strict)
    result = checker.verify(page_number, quote)
    if result.verified:
        page = pages[page_number - 1]
        span = page[result.start : result.end] if result.start is not None else None
        if result.end is None or result.matched != span:
            raise AssertionError(f"verified span is not the page text: {result!r}")
    first = pages[0].strip()
    plain = first.isascii() and all(c.isalnum() or c == " " for c in first)
    if plain and len(" ".join(first.split())) >= 12 and not checker.verify(1, first).verified:
        raise AssertionError(f"page 1 quoted whole was refused: {first!r}")


if __name__ == "__main__":
    fuzz(test_one_input)
