"""A date written as a week number ("week 12 of 2027", "semaine 7 (2027)") is that week: the
month it lies in when the whole week is in one month, else only its year (never a month a
day of it is outside)."""

from __future__ import annotations

from preuve.core.numbers import Locale
from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.reader import document_reads
from preuve.synthesis.types import values_agree
from preuve.synthesis.values import date_value

LEX = default_lexicon()


def _keys(text: str) -> list[object]:
    return [v.key for v in date_value(text)]


def test_a_week_inside_one_month_is_that_month() -> None:
    # week 12 of 2027: Monday 22 to Sunday 28 March
    assert _keys("Shipping in week 12 of 2027, subject to stock.") == [("date", (2027, 3, None))]
    assert _keys("mise en service : semaine 7 (2027)") == [("date", (2027, 2, None))]
    assert _keys("ready by W12 2027") == [("date", (2027, 3, None))]


def test_a_week_across_two_months_is_only_its_year() -> None:
    # week 9 of 2027: Monday 1 March... week 13: Monday 29 March to Sunday 4 April
    assert _keys("week 13, 2027") == [("date", (2027, None, None))]


def test_a_week_and_a_day_of_another_month_disagree() -> None:
    assert not values_agree("semaine 12 (2027)", "3 mai 2027")
    assert values_agree("week 12 of 2027", "24 March 2027")


def test_a_week_number_out_of_range_is_no_date_of_that_week() -> None:
    assert _keys("semaine 60 (2027)") == [("date", (2027, None, None))]


def test_a_quoted_e_mail_s_blockquote_marker_is_no_comparison_sign() -> None:
    """A Markdown blockquote ("> ...") wraps a quoted e-mail line by line: its marker is no
    "greater than" sign, so the date it confirms is the claim, no target."""
    text = (
        "Planning update\n\nThe supplier wrote on 3 April:\n\n"
        "> Following a change of carrier we now\n"
        "> confirm delivery of the Orvik P5 on 14 May 2027 for any order placed before\n"
        "> 20 April.\n"
    )
    document = {"id": "doc-09", "title": "Orvik P5 planning", "text": text}
    reads, _ = document_reads(document, ("Orvik P5",), LEX, "en", Locale.EN)
    [delivery] = [r for r in reads if r.value == "14 May 2027"]
    assert "target" not in delivery.context


def test_a_sign_before_a_figure_is_still_a_bound() -> None:
    # (a property sheet's bound is the claim of that bound, shown and compared with its sign)
    text = "Orvik P5 datasheet\n\n| Parameter | Value |\n|---|---|\n| Noise level | < 55 dB(A) |\n"
    document = {"id": "doc-09", "title": "Orvik P5 datasheet", "text": text}
    reads, _ = document_reads(document, ("Orvik P5",), LEX, "en", Locale.EN)
    [noise] = [r for r in reads if "55" in r.value]
    assert noise.value == "< 55 dB(A)"
    assert "target" not in noise.context
