"""Coverage-guided fuzzing of number extraction (preuve.core.numbers) and the memo check.

    .venv/bin/python fuzz/fuzz_numbers.py -atheris_runs=1000000 -max_len=2048

Any Unicode text, in both locales: ``extract_numbers`` returns finite values located
exactly (``text[start:end] == raw``, in order, not overlapping); ``parse_number`` and
``detect_locale`` never raise; ``check_memo`` of the text against itself as a fact never
raises and refuses none of its numbers.
"""

from __future__ import annotations

from _atheris import Provider, fuzz, instrumented, provider

with instrumented():
    from preuve.core.facts import Fact
    from preuve.core.memocheck import Paragraph, check_memo
    from preuve.core.numbers import Locale, detect_locale, extract_numbers, parse_number

# Half the inputs are written with the characters of report numbers, so they parse deep.
PIECES = [
    *"0123456789 ,.-+()%x",
    "\u00a0", "\u202f", "\u2009", "\u2212", "'", "’", "k€", " M€", " €", "$", " %", "x",
    " négatif", " perte", " loss", " 2025", " 2024", "\n", ";", " et ", "(", ")", "e", "E",
]  # fmt: skip


def _text(source: Provider) -> str:
    if source.ConsumeBool():
        return source.ConsumeUnicode(source.remaining_bytes())
    count = source.ConsumeIntInRange(0, 120)
    return "".join(source.PickValueInList(PIECES) for _ in range(count))


def test_one_input(data: bytes) -> None:
    source = provider(data)
    locale = Locale.FR if source.ConsumeBool() else Locale.EN
    text = _text(source)
    mentions = extract_numbers(text, locale)
    end = 0
    for mention in mentions:
        if text[mention.start : mention.end] != mention.raw or mention.start < end:
            raise AssertionError(f"misplaced mention {mention!r} in {text!r}")
        if not mention.value.is_finite():
            raise AssertionError(f"non-finite value {mention!r}")
        end = mention.end
    parsed = parse_number(text, locale)
    if parsed is not None and not parsed.is_finite():
        raise AssertionError(f"parse_number gave {parsed!r}")
    detect_locale(text)
    line = " ".join(text.split())
    if line:
        defects = check_memo([Paragraph(line, ("F-1",))], [Fact("F-1", line)], locale=locale)
        grounded = [d for d in defects if d.code == "number_not_in_facts"]
        if grounded:
            raise AssertionError(f"a number of the cited fact itself was refused: {line!r}")


if __name__ == "__main__":
    fuzz(test_one_input)
