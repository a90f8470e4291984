"""The viewer on crafted files in a process of its own (issue 18, items 1, 3, 4, 6):
every page answers what it should, under a load too, and the process's peak memory stays
under 300 MiB (``preuve reliability`` runs the full 4 500-request load)."""

from __future__ import annotations

from pathlib import Path

from preuve.eval.reliability_viewer import MAX_VIEWER_MIB, probe_viewer


def test_the_viewer_answers_crafted_files_within_its_memory_bound(tmp_path: Path) -> None:
    probe = probe_viewer(tmp_path, load=360, concurrency=200)
    assert probe.problems == ()
    assert probe.statuses["/page/huge-page/1.png"] == 200  # rendered, scaled down
    assert probe.statuses["/page/page-tree-loop/2"] == 422  # shown as unreadable
    assert probe.statuses["/digest"] == 200  # the corrupt store is a problem line
    assert probe.largest_body < 1_000_000  # the 30 MB page is shown around its span
    assert (probe.load, probe.concurrency) == (360, 200)
    assert 10 < probe.peak_mib < MAX_VIEWER_MIB
    print(f"\nviewer on crafted files: peak RSS {probe.peak_mib:.1f} MiB")
