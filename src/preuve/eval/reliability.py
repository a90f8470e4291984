"""The reliability matrix: bad inputs, hostile model output and faults, counted in one report.

:func:`run_reliability` runs every case the tests run (the lists live in this package, so
the two cannot drift):

- **bad inputs** (:data:`~preuve.eval.reliability_cases.INPUT_CASES`) through the CLI
  given as ``invoke``, and a representative subset (:data:`PROCESS_CASES`) again through a
  real ``preuve`` process; a 2 000-page PDF through ``check-quotes`` in a process of its
  own, whose peak resident memory is measured next to a 2-page one;
- **model output** (:data:`~preuve.eval.reliability_attacks.ATTACKS` on every role they
  apply to), with :func:`~preuve.eval.reliability_attacks.egress_guard` on;
- **faults**: digest builds killed with SIGKILL at seeded random points, two builds on one
  store at once, a read-only store file and folder, a full disk;
- **the viewer** on crafted files (:mod:`~preuve.eval.reliability_viewer`: a 14 400 pt
  page, damaged page trees, a 30 MB page, a corrupt store, bad registry entries), every
  page requested in one process whose peak resident memory is measured;
- **secrets** (:mod:`~preuve.eval.reliability_secrets`): real runs against an endpoint on
  127.0.0.1 that echoes the API key in every form; every file they write is searched.

Counted: inputs tried, faults injected, crashes (an uncaught exception, a traceback),
anything fetched or executed because of a model answer, and data lost (a store that fails
its integrity check, a finished run no longer readable whole, a rerun that differs from an
uninterrupted build), and secrets found (an echo of the key in a file or an output). The
goal is 0 crashes, 0 data lost and 0 secrets found; other failures (a wrong exit code, a
message that does not name the file, a half-written output) are counted apart.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from preuve.eval.reliability_attacks import ATTACKS, egress_guard
from preuve.eval.reliability_cases import INPUT_CASES
from preuve.eval.reliability_disk import DiskFault, full_disk_faults, read_only_faults
from preuve.eval.reliability_faults import concurrent_builds, kill_loop
from preuve.eval.reliability_files import (
    REPORT_PAGES,
    big_pdf_quotes,
    write_big_pdf,
    write_corpus_dossier,
    write_text_pdf,
)
from preuve.eval.reliability_inputs import Invoke, run_input_case
from preuve.eval.reliability_process import measure_cli, run_cli
from preuve.eval.reliability_roles import prepare_bench, run_attack
from preuve.eval.reliability_secrets import run_secret_scenarios
from preuve.eval.reliability_viewer import MAX_VIEWER_MIB, ViewerProbe, probe_viewer
from preuve.io.records import record_of

__all__ = [
    "PROCESS_CASES",
    "BigPdf",
    "Check",
    "ReliabilityEntry",
    "ReliabilityReport",
    "measure_big_pdf",
    "run_reliability",
]

# Run again in a real process: one per family of input.
PROCESS_CASES = (
    "pdf/encrypted",
    "pdf/zero-page",
    "pdf/page-tree-loop",
    "text/non-utf8",
    "page/beyond-the-last",
    "quotes/nested-10000",
    "memo/over-long-integer",
    "workflow1/missing-report",
    "dossier/bad-date",
    "grid/nested-10000",
    "digest/meta-duplicate-key",
    "store/not-a-database",
    "corpus/gold-malformed",
)


@dataclass(frozen=True, slots=True)
class Check:
    """One case of the matrix and its verdict."""

    group: str
    id: str
    problems: tuple[str, ...] = ()
    crashed: bool = False
    data_lost: bool = False
    egress: bool = False  # a connection, lookup or process was attempted meanwhile
    secrets: int = 0  # places an echo of the API key was found

    @property
    def passed(self) -> bool:
        return not (self.problems or self.crashed or self.data_lost or self.egress or self.secrets)


@dataclass(frozen=True, slots=True)
class BigPdf:
    """``check-quotes`` on a long report, in a process of its own, next to a short one."""

    pages: int
    exit_code: int
    verified: int
    quotes: int
    seconds: float
    peak_mib: float
    baseline_mib: float


@dataclass(frozen=True, slots=True)
class ReliabilityReport:
    checks: tuple[Check, ...]
    big_pdf: BigPdf | None = None
    notes: tuple[str, ...] = field(default=())
    viewer: ViewerProbe | None = None

    def _count(self, kind: str) -> int:
        return sum(c.group.startswith(kind) for c in self.checks)

    @property
    def inputs_tried(self) -> int:
        return self._count("input") + self._count("model") + self._count("secrets")

    @property
    def faults_injected(self) -> int:
        return self._count("fault")

    @property
    def crashes(self) -> int:
        return sum(c.crashed for c in self.checks)

    @property
    def data_lost(self) -> int:
        return sum(c.data_lost for c in self.checks)

    @property
    def egress(self) -> int:
        return sum(c.egress for c in self.checks)

    @property
    def secrets_found(self) -> int:
        return sum(c.secrets for c in self.checks)

    @property
    def failures(self) -> int:
        return sum(not c.passed for c in self.checks)

    def rows(self) -> list[tuple[str, int, int, int, int]]:
        """(group, tried, passed, crashes, data lost), groups in order of appearance."""
        groups = list(dict.fromkeys(c.group for c in self.checks))
        return [
            (
                group,
                sum(c.group == group for c in self.checks),
                sum(c.group == group and c.passed for c in self.checks),
                sum(c.group == group and c.crashed for c in self.checks),
                sum(c.group == group and c.data_lost for c in self.checks),
            )
            for group in groups
        ]

    def summary(self) -> str:
        return (
            f"inputs tried {self.inputs_tried}, faults injected {self.faults_injected}, "
            f"crashes {self.crashes}, data lost {self.data_lost}, secrets found "
            f"{self.secrets_found}, fetched or executed {self.egress}, other failures "
            f"{self.failures - self._counted()}"
        )

    def _counted(self) -> int:
        return sum(c.crashed or c.data_lost or c.egress or bool(c.secrets) for c in self.checks)


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupRow:
    group: str
    tried: int
    passed: int
    crashes: int
    data_lost: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FailedCheck:
    group: str
    id: str
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReliabilityEntry:
    """``preuve reliability --json``: the totals, one row per group, every failed case."""

    inputs_tried: int
    faults_injected: int
    crashes: int
    data_lost: int
    secrets_found: int
    fetched_or_executed: int
    failures: int
    groups: tuple[GroupRow, ...]
    failed: tuple[FailedCheck, ...]
    big_pdf: BigPdf | None
    viewer: ViewerProbe | None
    notes: tuple[str, ...]

    @classmethod
    def of(cls, report: ReliabilityReport) -> ReliabilityEntry:
        return record_of(
            cls,
            report,
            fetched_or_executed=report.egress,
            groups=tuple(
                GroupRow(group=g, tried=t, passed=p, crashes=c, data_lost=d)
                for g, t, p, c, d in report.rows()
            ),
            failed=tuple(record_of(FailedCheck, c) for c in report.checks if not c.passed),
        )


def _input_checks(workdir: Path, invoke: Invoke, process: Sequence[str]) -> list[Check]:
    checks = []
    for case in INPUT_CASES:
        outcome, problems = run_input_case(case, workdir / "in-process" / case.id, invoke)
        crashed = bool(outcome.crash) or any("traceback" in p for p in problems)
        checks.append(Check(f"input: {case.family}", case.id, problems, crashed))
    by_id = {case.id: case for case in INPUT_CASES}
    for case_id in process:
        case = by_id[case_id]
        outcome, problems = run_input_case(case, workdir / "process" / case.id, run_cli)
        crashed = any("traceback" in p for p in problems)
        checks.append(Check("input: real process", case.id, problems, crashed))
    return checks


def measure_big_pdf(workdir: Path, pages: int = 2000) -> BigPdf:
    """Peak RSS of ``check-quotes`` on a ``pages``-page PDF, and on the 2-page report."""
    workdir.mkdir(parents=True, exist_ok=True)
    quotes = big_pdf_quotes(pages)
    listing = workdir / "quotes.jsonl"
    listing.write_text("".join(json.dumps(q) + "\n" for q in quotes), encoding="utf-8")
    small = write_text_pdf(workdir / "small.pdf", REPORT_PAGES)
    baseline = measure_cli(["check-quotes", str(small), "--input", str(listing), "--json"])
    big = write_big_pdf(workdir / "big.pdf", pages)
    measured = measure_cli(["check-quotes", str(big), "--input", str(listing), "--json"])
    results = json.loads(measured.outcome.stdout) if measured.outcome.exit_code in (0, 1) else []
    return BigPdf(
        pages=pages,
        exit_code=measured.outcome.exit_code,
        verified=sum(bool(r.get("verified")) for r in results),
        quotes=len(quotes),
        seconds=round(measured.seconds, 2),
        peak_mib=round(measured.peak_mib, 1),
        baseline_mib=round(baseline.peak_mib, 1),
    )


def _attack_checks(workdir: Path) -> list[Check]:
    bench = prepare_bench(workdir / "attacks")
    checks = []
    for attack in ATTACKS:
        for role in attack.roles:
            problems: list[str] = []
            with egress_guard() as attempts:
                try:
                    outcome = run_attack(attack, role, bench)
                except Exception as err:  # a crash is what this matrix counts
                    checks.append(
                        Check(f"model: {role.value}", attack.id, (repr(err)[:200],), crashed=True)
                    )
                    continue
            code = attack.codes[role]
            if not outcome.refused:
                problems.append(f"accepted ({outcome.status})")
            if f"[{code}]" not in outcome.evidence:
                problems.append(f"no [{code}] defect: {outcome.evidence[:160]!r}")
            problems += [f"egress attempted: {a}" for a in attempts]
            checks.append(
                Check(f"model: {role.value}", attack.id, tuple(problems), egress=bool(attempts))
            )
    return checks


def _disk_check(fault: DiskFault) -> Check:
    crashed = any(p.startswith("crash") for p in fault.problems)
    group = f"fault: {fault.id.rsplit('-', 1)[0]} ({fault.method})"
    return Check(group, fault.id, fault.problems, crashed, fault.data_lost)


def _fault_checks(workdir: Path, invoke: Invoke, kill_rounds: int) -> tuple[list[Check], list[str]]:
    dossier = write_corpus_dossier(workdir / "faults" / "test-00")
    checks = []
    for kill in kill_loop(dossier, workdir / "faults" / "killed.sqlite", rounds=kill_rounds):
        problems = [] if kill.integrity == "ok" else [f"integrity_check: {kill.integrity}"]
        problems += [f"finished run lost: {run}" for run in kill.lost_runs]
        if kill.differences:
            problems.append(f"rerun differs from an uninterrupted build: {kill.differences}")
        label = f"kill {kill.index:02d} at {kill.delay:.3f}s ({kill.recorded} nodes recorded)"
        checks.append(Check("fault: sigkill", label, tuple(problems), data_lost=kill.data_lost))
    both = concurrent_builds(dossier, workdir / "faults" / "concurrent.sqlite")
    checks.append(Check("fault: two builds at once", "same store, same principal",
                        () if both.ok else (repr(both),), data_lost=not both.ok))  # fmt: skip
    notes = []
    for name, inject in (("read-only", read_only_faults), ("full-disk", full_disk_faults)):
        try:
            checks += [_disk_check(f) for f in inject(workdir / "faults" / name, invoke)]
        except RuntimeError as err:  # e.g. root without mount: say so, count nothing
            notes.append(f"{name} not injected: {err}")
    return checks, notes


def _viewer_checks(probe: ViewerProbe) -> list[Check]:
    checks = [
        Check("input: viewer", url, tuple(p for p in probe.problems if p.startswith(f"{url}:")))
        for url in probe.statuses
    ]
    memory = tuple(p for p in probe.problems if not p.startswith("/"))
    checks.append(Check("input: viewer", f"peak memory ≤ {MAX_VIEWER_MIB:.0f} MiB", memory))
    return checks


def _secret_checks(workdir: Path) -> list[Check]:
    checks = []
    for result in run_secret_scenarios(workdir / "secrets"):
        crashed = "Traceback (most recent call last)" in result.outcome.stderr
        checks.append(Check(f"secrets: {result.scenario}", f"{result.files_read} files read",
                            result.problems(), crashed, secrets=len(result.leaks)))  # fmt: skip
    return checks


def run_reliability(
    workdir: Path,
    invoke: Invoke,
    *,
    kill_rounds: int = 20,
    big_pages: int = 2000,
    process_cases: Sequence[str] = PROCESS_CASES,
    progress: Callable[[str], None] = lambda _: None,
) -> ReliabilityReport:
    """Run the whole matrix under ``workdir`` (which it fills) and count what happened."""
    progress("bad inputs")
    checks = _input_checks(workdir, invoke, process_cases)
    progress(f"a {big_pages}-page PDF")
    big = measure_big_pdf(workdir / "big-pdf", big_pages) if big_pages else None
    if big is not None:
        ok = big.exit_code == 0 and big.verified == big.quotes
        detail = () if ok else (f"exit {big.exit_code}, {big.verified}/{big.quotes} verified",)
        checks.append(Check("input: long report", f"{big.pages} pages", detail))
    progress("model-output attacks")
    checks += _attack_checks(workdir)
    progress("the viewer on crafted files")
    viewer = probe_viewer(workdir / "viewer")
    checks += _viewer_checks(viewer)
    progress("secrets echoed by an endpoint")
    checks += _secret_checks(workdir)
    progress("faults")
    faults, notes = _fault_checks(workdir, invoke, kill_rounds)
    return ReliabilityReport((*checks, *faults), big, tuple(notes), viewer)
