"""Link rates and how runs are summarized, on sentences of domains no dossier here is about:
bits per second are a unit of their own (``9.1 Gbit/s`` = ``9100 Mbit/s``), and a median of
a few runs ("median of 3 runs", "médiane de trois passages") is how a measurement is
summarized, not a percentile of a distribution (``median latency`` stays p50)."""

from __future__ import annotations

import pytest

from preuve.synthesis.lexicon import default_lexicon
from preuve.synthesis.matcher import attribute_key, related_attributes, same_value

LEX = default_lexicon()


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        pytest.param("9.1 Gbit/s", "9100 Mbit/s", True, id="giga-and-mega-bits"),
        pytest.param("9,1 Gbit/s", "9.1 GB/s", False, id="bits-are-not-bytes"),
        pytest.param("180 Mbit/s", "180 Mbit/s", True, id="as-written"),
    ],
)
def test_bit_rates(a: str, b: str, same: bool) -> None:
    assert same_value(a, b, LEX) is same


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        pytest.param(
            ("uplink throughput (median of 3 runs)", "7 Gbit/s"),
            ("uplink throughput", "9 Gbit/s"),
            True,
            id="median-of-runs-is-no-percentile",
        ),
        pytest.param(
            ("débit montant (médiane de trois passages)", "7 Gbit/s"),
            ("débit montant", "9 Gbit/s"),
            True,
            id="mediane-de-passages",
        ),
        pytest.param(
            ("median latency", "40 ms"), ("latency", "90 ms"), False, id="median-latency-is-p50"
        ),
    ],
)
def test_a_median_of_runs(a: tuple[str, str], b: tuple[str, str], same: bool) -> None:
    assert (attribute_key(*a, LEX) == attribute_key(*b, LEX)) is same


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        pytest.param(
            ("portée mesurée", "31 km"),
            ("portée annoncée", "40 km"),
            True,
            id="fr-measured-claimed",
        ),
        pytest.param(
            ("claimed runtime", "16 h"),
            ("observed runtime", "11 h"),
            True,
            id="en-claimed-observed",
        ),
        pytest.param(
            ("measured read speed", "2 GB/s"),
            ("measured write speed", "1 GB/s"),
            False,
            id="the-quantity-s-own-words-stay",
        ),
    ],
)
def test_how_a_value_was_obtained_is_no_part_of_its_quantity(
    a: tuple[str, str], b: tuple[str, str], same: bool
) -> None:
    assert (attribute_key(*a, LEX) == attribute_key(*b, LEX)) is same


@pytest.mark.parametrize(
    ("a", "b", "related"),
    [
        pytest.param(
            ("label printing, typical", "40 s"),
            ("roll cutting, 500 labels", "95 s"),
            False,
            id="one-shared-word-is-not-enough",
        ),
        pytest.param(
            ("manifest generation, pallet batch of 40 crates, typical", "2.1 s"),
            ("manifest pallet batch, 40 crates", "7.5 s"),
            True,
            id="most-words-in-common",
        ),
        pytest.param(
            ("sequential read speed", "2 GB/s"),
            ("sequential write speed", "1 GB/s"),
            False,
            id="a-shared-measurement-kind-word-names-two-quantities",
        ),
        pytest.param(
            ("manifest pallet batch", "7.5 s"),
            ("manifest pallet batch", "7 %"),
            False,
            id="another-kind-of-value",
        ),
        pytest.param(
            ("manifest pallet batch crates", "2.1 s"),
            ("manifest pallet batch crates p95", "7.5 s"),
            False,
            id="a-percentile-on-one-side-only",
        ),
    ],
)
def test_attributes_with_most_words_in_common(
    a: tuple[str, str], b: tuple[str, str], related: bool
) -> None:
    key_a, key_b = attribute_key(*a, LEX), attribute_key(*b, LEX)
    assert related_attributes(key_a, key_b, LEX) is related
