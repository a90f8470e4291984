"""Source ranks and the ordered arbitration rule."""

from __future__ import annotations

import random
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preuve.synthesis import ranks
from preuve.synthesis.ranks import (
    Candidate,
    SourceInfo,
    SourceType,
    arbitrate,
    parse_source_type,
    rank_of,
    rule_three_holds,
)

T = SourceType


def src(doc_id: str, source_type: SourceType, day: str | None) -> SourceInfo:
    return SourceInfo(doc_id, date.fromisoformat(day) if day else None, source_type)


def cand(value: str, *sources: SourceInfo) -> Candidate:
    return Candidate(value, sources)


def test_public_surface_is_pinned() -> None:
    assert set(ranks.__all__) == {
        "RANKS", "Arbitration", "Candidate", "RankTable", "SourceInfo", "SourceType",
        "arbitrate", "default_rank_table", "parse_source_type", "rank_of", "rule_three_holds",
        "rules_that_hold",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("source_type", "rank"),
    [
        (T.INTERNAL_BENCHMARK, 3),
        (T.AUDIT, 3),
        (T.OFFICIAL_ANNOUNCEMENT, 2),
        (T.CHANGELOG, 2),
        (T.SECURITY_BULLETIN, 2),
        (T.QUOTE_ESTIMATE, 2),
        (T.MEETING_MINUTES, 2),
        (T.TICKET, 2),
        (T.TECHNICAL_NOTE, 1),
        (T.VENDOR_NOTE, 1),
        (T.BLOG, 0),
        (T.UNKNOWN, 1),
    ],
    ids=str,
)
def test_rank_table_of_the_spec(source_type: SourceType, rank: int) -> None:
    assert rank_of(source_type) == rank


def test_every_source_type_has_a_rank() -> None:
    assert set(ranks.RANKS) == set(SourceType)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("internal benchmark", T.INTERNAL_BENCHMARK),
        ("Internal  Benchmark", T.INTERNAL_BENCHMARK),
        ("internal_benchmark", T.INTERNAL_BENCHMARK),
        ("security-bulletin", T.SECURITY_BULLETIN),
        ("quote/estimate", T.QUOTE_ESTIMATE),
        ("quote", T.QUOTE_ESTIMATE),
        ("estimate", T.QUOTE_ESTIMATE),
        ("unknown", T.UNKNOWN),
        ("benchmark-interne", T.INTERNAL_BENCHMARK),
        ("note-fournisseur", T.VENDOR_NOTE),
        ("annonce-officielle", T.OFFICIAL_ANNOUNCEMENT),
        ("bulletin-securite", T.SECURITY_BULLETIN),
        ("Bulletin de sécurité", T.SECURITY_BULLETIN),
        ("compte-rendu", T.MEETING_MINUTES),
        ("devis", T.QUOTE_ESTIMATE),
        ("note-technique", T.TECHNICAL_NOTE),
        ("e-mail", T.UNKNOWN),
        ("Courriel", T.UNKNOWN),
        ("rumour", None),
        ("", None),
    ],
    ids=["plain", "case-spaces", "underscore", "hyphen", "slash", "quote", "estimate",
         "unknown", "fr-benchmark", "fr-vendor", "fr-announcement", "fr-bulletin",
         "fr-bulletin-accents", "fr-minutes", "fr-quote", "fr-technical", "e-mail",
         "fr-e-mail", "not-a-type",
         "empty"],
)  # fmt: skip
def test_parse_source_type(written: str, expected: SourceType | None) -> None:
    assert parse_source_type(written) is expected


VENDOR_FEB = src("doc-02", T.VENDOR_NOTE, "2026-02-10")
BENCH_JUL = src("doc-06", T.INTERNAL_BENCHMARK, "2026-07-09")
BLOG_MAR = src("doc-04", T.BLOG, "2026-03-05")
OFFICIAL_MAY = src("doc-05", T.OFFICIAL_ANNOUNCEMENT, "2026-05-19")
BULLETIN_APR = src("doc-16", T.SECURITY_BULLETIN, "2026-04-08")
BULLETIN_JUN = src("doc-17", T.SECURITY_BULLETIN, "2026-06-24")
CHANGELOG_JUN = src("doc-13", T.CHANGELOG, "2026-06-26")
MINUTES_MAY = src("doc-30", T.MEETING_MINUTES, "2026-05-12")
OFFICIAL_SEP = src("doc-31", T.OFFICIAL_ANNOUNCEMENT, "2026-09-15")


@pytest.mark.parametrize(
    ("candidates", "retained", "rule"),
    [
        pytest.param(
            [cand("120 ms", VENDOR_FEB), cand("340 ms", BENCH_JUL)], "340 ms", 1, id="C1-rule-1"
        ),
        pytest.param(
            [cand("Apache 2.0", BLOG_MAR), cand("TSL", OFFICIAL_MAY)], "TSL", 2, id="C2-rule-2"
        ),
        pytest.param(
            [cand("sans correctif", BULLETIN_APR), cand("3.4.2", BULLETIN_JUN, CHANGELOG_JUN)],
            "3.4.2",
            3,
            id="C3-rule-3-by-date",
        ),
        pytest.param(
            [cand("2028-12-31", MINUTES_MAY), cand("2027-06-30", OFFICIAL_SEP)],
            "2027-06-30",
            3,
            id="C4-rule-3",
        ),
        pytest.param(
            [
                cand("old official", src("a", T.OFFICIAL_ANNOUNCEMENT, "2026-01-01")),
                cand("new vendor", src("b", T.VENDOR_NOTE, "2026-12-01")),
            ],
            "old official",
            2,
            id="reliability-beats-recency",
        ),
        pytest.param(
            [
                cand("x", src("a", T.INTERNAL_BENCHMARK, "2026-03-01")),
                cand("y", src("b", T.AUDIT, "2026-08-01")),
                cand("z", src("c", T.BLOG, "2026-12-01")),
            ],
            "y",
            3,
            id="two-measurements-then-date",
        ),
        pytest.param(
            [
                cand("x", src("a", T.TECHNICAL_NOTE, "2026-01-01")),
                cand("y", src("b", T.BLOG, "2026-06-01")),
            ],
            "x",
            2,
            id="rank-1-beats-blog",
        ),
        pytest.param(
            [
                cand(
                    "x", src("a", T.SECURITY_BULLETIN, "2026-04-01"), src("b", T.BLOG, "2026-12-01")
                ),
                cand("y", src("c", T.SECURITY_BULLETIN, "2026-06-01")),
            ],
            "y",
            3,
            id="a-later-blog-does-not-date-a-bulletin",
        ),
        pytest.param(
            [
                cand("x", src("a", T.TICKET, None)),
                cand("y", src("b", T.TICKET, "2026-06-01")),
            ],
            "y",
            3,
            id="undated-loses-rule-3",
        ),
    ],
)
def test_arbitrate(candidates: list[Candidate], retained: str, rule: int) -> None:
    result = arbitrate(candidates)
    assert result.retained is not None
    assert result.retained.value == retained
    assert result.rule == rule
    assert result.reason.startswith(f"rule {rule}:")
    assert sorted(c.value for c in result.rejected) == sorted(
        c.value for c in candidates if c.value != retained
    )


@pytest.mark.parametrize(
    "candidates",
    [
        pytest.param(
            [
                cand("x", src("a", T.TICKET, "2026-06-01")),
                cand("y", src("b", T.TICKET, "2026-06-01")),
            ],
            id="same-rank-same-date",
        ),
        pytest.param(
            [cand("x", src("a", T.BLOG, None)), cand("y", src("b", T.BLOG, None))],
            id="same-rank-undated",
        ),
    ],
)
def test_arbitrate_unresolved(candidates: list[Candidate]) -> None:
    result = arbitrate(candidates)
    assert result.retained is None
    assert result.rule is None
    assert len(result.rejected) == 2
    assert result.reason.startswith("unresolved")


def test_arbitrate_needs_two_values() -> None:
    with pytest.raises(ValueError, match="at least two"):
        arbitrate([cand("x", BENCH_JUL)])


def test_candidate_needs_a_source() -> None:
    with pytest.raises(ValueError, match="no source"):
        Candidate("x", ())


@pytest.mark.parametrize(
    ("retained", "rejected", "holds"),
    [
        (cand("TSL", OFFICIAL_MAY), [cand("Apache", BLOG_MAR)], True),
        (cand("340", BENCH_JUL), [cand("120", VENDOR_FEB)], True),
        (cand("Apache", BLOG_MAR), [cand("TSL", OFFICIAL_MAY)], False),
        (cand("new blog", src("a", T.BLOG, "2026-12-01")), [cand("TSL", OFFICIAL_MAY)], False),
        (cand("same day", src("a", T.TICKET, "2026-05-19")), [cand("TSL", OFFICIAL_MAY)], False),
    ],
    ids=["C2", "C1", "C2-swapped", "newer-but-less-reliable", "same-date"],
)
def test_rule_three_holds(retained: Candidate, rejected: list[Candidate], holds: bool) -> None:
    assert rule_three_holds(retained, rejected) is holds


_TYPES = st.sampled_from(list(SourceType))
_DATES = st.one_of(st.none(), st.dates(min_value=date(2025, 1, 1), max_value=date(2027, 1, 1)))
_CANDIDATE_SOURCES = st.lists(
    st.builds(lambda t, d: (t, d), _TYPES, _DATES), min_size=1, max_size=3
)


@given(st.lists(_CANDIDATE_SOURCES, min_size=2, max_size=4), st.randoms(use_true_random=False))
def test_arbitration_does_not_depend_on_order(
    specs: list[list[tuple[SourceType, date | None]]], rng: random.Random
) -> None:
    candidates = [
        Candidate(f"v{i}", tuple(SourceInfo(f"d{i}-{j}", d, t) for j, (t, d) in enumerate(spec)))
        for i, spec in enumerate(specs)
    ]
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    first, second = arbitrate(candidates), arbitrate(shuffled)
    assert first.rule == second.rule
    assert (first.retained and first.retained.value) == (second.retained and second.retained.value)
    if first.retained is not None:
        # The retained value is never less reliable than a rejected one.
        assert all(first.retained.rank >= c.rank for c in first.rejected)
