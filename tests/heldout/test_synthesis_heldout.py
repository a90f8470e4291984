"""Held-out synthesis dossiers, graded with the rules engine: measured, not tuned on.

The scores are printed (one row per dossier); the assertions are the goals of issue 15 that
hold for every dossier: the run is VALID, no contradiction outside the planted ones is listed
(a trap is never reported as a contradiction), and no planted contradiction is swapped.

:data:`BLIND` are the dossiers a second writer who never saw the code wrote last: copied as
delivered and measured once before any change (their scores are the honest held-out figure,
in the README). No planted contradiction is required of them, only the goals above.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from preuve.core.quotes import QuoteChecker
from preuve.eval.grid import load_grid
from preuve.eval.synthesis_eval import evaluate_synthesis, heldout_dossiers
from preuve.loaders import load_dossier
from preuve.models import LoopStatus
from preuve.synthesis.pipeline import synthesize
from tests.heldout.rules_cache import CachedRules, dossier_group

HERE = Path(__file__).parent / "synthesis"
DOSSIERS = heldout_dossiers(HERE)
BLIND = frozenset(
    {
        "en-backup-storage",
        "fr-telereleve-eau",
        "en-eprescribing",
        "fr-robots-entrepot",
        # a fourth writer's, measured once on arrival after this session's issue-15 changes
        "en-grid-storage",
        "fr-flotte-vehicules",
        # a fifth writer's, measured on arrival (54.9 and 39.1 after the s23 merges)
        "lims-northmoor",
        "pare-feu-smlon",
        # a sixth and a seventh writer's, measured on arrival (main 976ce42) and after the
        # s24 merges, which never saw them
        "hrt-fare-validators-en",
        "eclairage-led-saint-aurel-fr",
        "fr-pompes-perfusion",
        "en-vibration-sensors",
        # a seventeenth writer's two (s30), measured on arrival at main fe96568 (65.0 and
        # 60.0, one planted contradiction found in each) and after the s30 merges, which
        # never saw them
        "calderbrook-gallery-climate",
        "sterilisation-autoclaves-vezelin",
    }
)
# The fifteenth writer's two (s28: 50.8 and 53.3 on arrival, main 6299cb3, no planted
# contradiction found in the English one, one in the French one; 65.8 and 73.3 after the s28
# merges) are worked on in s29: no longer blind, they must find one (s30: 95.8 and 88.3, 5/5
# and 3/4, by subject aliasing, end-of-support phrasings and a sheet's bound as its claim).
# The thirteenth writer's two (s27: 49.2 and 50.2 on arrival, main 4688fc1, no planted
# contradiction found in the English one, one in the French one) are worked on in s28: no
# longer blind, they must find one.
# The eleventh writer's two (s26: 35.2 and 42.7 on arrival, main 6e65c1e, one planted
# contradiction found in each) are worked on in s27: no longer blind, they must find one.
# The ninth writer's two (s25: 41.7 and 46.7 on arrival, no planted contradiction found) were
# worked on in s26 (74.8 and 78.8): no longer blind, they must find a planted contradiction.
# Known misses of issue 15, kept visible as strict xfails: dossiers whose run lists a
# contradiction the grid does not recognize. None left: en-eprescribing's (two median times
# measured on different screens) is gone, a column or an aside naming only a percentile
# taking the quantity of its heading or of the value it qualifies.
# en-grid-storage's (a container's energy grouped with the plant's; a datasheet bound and a
# grid-code requirement taken for two values of one candidate) is gone too: a scope a heading
# declares ("(per container)") is the context of extensive values, a bound written "<" or
# "within" is a target, and a note naming every candidate alike is about none of them.
# The sixth and seventh writers' four (s24, never tuned on) each listed contradictions their
# grid does not plant. Three are gone (s25): a revised quote's totals follow from the unit
# price it revises (only that one is listed), a revision repeating an item row of the
# earlier quote opposes its rows item by item, a bold label naming a sum ("**Total HT") is
# no subject, and a value inside a range another document states for the quantity (a test
# run "à 25 mL/h" within "0,1 à 1 200 mL/h") is an operating point, no claim.
# eclairage's is left: a warranty of another product of the candidate's vendor, which the
# vendor's press release names by a name without the brand word.
# The ninth writer's two (s25, never tuned on) listed contradictions their grids do not
# plant: values of one quantity from different contexts grouped under a subject that is no
# candidate ("UV", "des Mélèzes", "Validité"). Gone (s26): their questions name no candidate
# (only the committee, the site and the term "UV"), and the planner now takes the product
# models the documents recur on ("Lumaqua LX-400", "Boréa V12") for the candidates, an
# acronym the question defines ("ultraviolet (UV)") being a term.
# The eleventh writer's two (s26) listed contradictions their grids do not plant, on arrival
# and after the s26 merges ("Lead time / number of time"; "RFID / prix", "RT-500 / prix").
# cellar's is gone (s27): a label of common words ("Lead time: 6 weeks") opening a line of a
# document about a product says what its value is, not whom it is about. mediatheques' is
# gone too (s28): the price of a locker of the candidate's maker, whose announcement's title
# names that other product (a model code and the maker) and mentions the candidate in passing.
# The thirteenth writer's two (s27, never tuned on) listed 1 and 2 contradictions their grids
# do not plant on arrival (4 and 2 after the s27 merges). Gone (s28): a revised quote's line
# items (the revision changes several lines: the net total is the contradiction, its lines,
# tax and gross follow), a tax acronym ("VAT") and a word after a possessive ("via its Irish
# distributor") taken for parties, and the date of another document in an aside ("see the
# notice of 20 May 2026") taken for a delivery date.
# The fifteenth writer's English one (s28, never tuned on) lists one on arrival ("VAT /
# valid": a quote's validity period opposed to a tax line) and one after the s28 merges
# ("Harrowgate University / valid": the buyer taken for a party of the validity periods).
# Gone (s29): an offer's validity period ("Valid for 60 days") is each quote's own term,
# never a claim about what it offers; a validity ending on a date is still compared.
# eclairage's is gone too (s30): the vendor's announcement of another range, its title saying
# the maker launches a name that is no candidate ("Solévia lance la gamme ... Éclats
# Patrimoine"), is about that range and left out.
SPURIOUS: frozenset[str] = frozenset(
    {
        # s30 on arrival: five pairs the grid does not plant, four under "USt" (the
        # sterilisers' capacity unit, "8 USt", read as a product: values of different
        # candidates grouped) and the committee's wished delivery (autumn 2026) opposed
        # to another hospital's unit "livré en 2025"
        "sterilisation-autoclaves-vezelin",
    }
)


def test_the_held_out_dossiers_are_there() -> None:
    assert [d.name for d in DOSSIERS] == [
        "ashgrove-pool-uv",
        "calderbrook-gallery-climate",
        "cellar-ferment-control",
        "controle-soudures-thermelys",
        "eclairage-led-saint-aurel-fr",
        "en-backup-service",
        "en-backup-storage",
        "en-eprescribing",
        "en-grid-storage",
        "en-message-broker",
        "en-vibration-sensors",
        "fr-flotte-vehicules",
        "fr-pompes-perfusion",
        "fr-robots-entrepot",
        "fr-telematique-flotte",
        "fr-telereleve-eau",
        "hrt-fare-validators-en",
        "lecture-capture-harrowgate",
        "lims-northmoor",
        "mediatheques-automates-rfid",
        "pare-feu-smlon",
        "refectory-dishwashers-en",
        "robots-affinage-fr",
        "sterilisation-autoclaves-vezelin",
        "val-orsenne-enneigement",
    ]


@pytest.mark.parametrize(
    "folder",
    [
        pytest.param(
            d,
            marks=[
                pytest.mark.xfail(
                    d.name in SPURIOUS, reason="issue 15: a spurious contradiction", strict=True
                ),
                dossier_group(d.name),
            ],
        )
        for d in DOSSIERS
    ],
    ids=[d.name for d in DOSSIERS],
)
def test_rules_engine_on_a_held_out_dossier(folder: Path) -> None:
    result = evaluate_synthesis(load_dossier(folder), CachedRules, load_grid(folder / "grid.json"))
    [run] = result.runs
    print(f"\n{folder.name}, --model rules:", *run.score.lines(), sep="\n  ")
    assert run.status is LoopStatus.VALID
    assert run.unplanned == ()
    if folder.name not in BLIND:
        assert run.score.contradictions_right  # at least one planted contradiction found
    assert result.worst == result.mean  # the rules engine gives the same run every time


@dossier_group("en-backup-service")
def test_the_engineer_s_own_dossier_scores_full_marks() -> None:
    folder = HERE / "en-backup-service"
    result = evaluate_synthesis(load_dossier(folder), CachedRules, load_grid(folder / "grid.json"))
    assert result.worst == 100.0


@pytest.mark.parametrize(
    "folder",
    [pytest.param(d, marks=dossier_group(d.name)) for d in DOSSIERS],
    ids=[d.name for d in DOSSIERS],
)
def test_every_rules_statement_rests_on_a_verbatim_quote_of_its_source(folder: Path) -> None:
    """Each source of a statement carries the passage it was read in (plain data); the quote
    check of the core finds it verbatim (normalized) in that document, never a paraphrase."""
    dossier = load_dossier(folder)
    run = synthesize(dossier, CachedRules())
    checkers = {d.doc_id: QuoteChecker([d.text]) for d in dossier.documents}
    checked = 0
    for finding in run.findings:
        for statement in finding.statements:
            for source in statement.sources:
                assert source.doc_id in checkers and source.quote
                if len(source.quote) < 12:
                    continue  # the quote check refuses a quote that short, by design
                result = checkers[source.doc_id].verify(1, source.quote)
                assert result.verified, (source.doc_id, source.quote, result.reason)
                checked += 1
    assert checked > 20
