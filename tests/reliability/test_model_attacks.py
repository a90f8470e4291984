"""Hostile model output through the real parsing path of every role: refused, never run.

Each (attack, role) pair of :data:`preuve.eval.reliability_attacks.ATTACKS` runs the role's
whole workflow with a ScriptedModel giving the hostile answer to that role (the rules
engine plays the others). The answer must be refused where it enters (INVALID node,
REFUSED plan/synthesis/memo, NOT INVESTIGATED sub-task, dropped signal, or a claim the
digest audit marks unsupported) with the expected defect code; nothing may raise, and the
``no_egress`` fixture fails the test on any connection, DNS lookup or spawned process.
"""

from __future__ import annotations

import socket
import subprocess

import pytest

from preuve.eval.reliability_attacks import ATTACKS, Attack, Role, egress_guard
from preuve.eval.reliability_roles import Bench, hostile_answer, prepare_bench, run_attack
from preuve.models.base import Completion

PAIRS = [
    pytest.param(attack, role, id=f"{role.value}/{attack.id}")
    for attack in ATTACKS
    for role in attack.roles
]


@pytest.fixture(scope="session")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    return prepare_bench(tmp_path_factory.mktemp("attacks"))


def test_every_role_meets_every_generic_attack_and_a_foreign_id() -> None:
    for role in Role:
        tried = {a.id for a in ATTACKS if role in a.roles}
        assert {"nested-10000", "string-10mb", "duplicate-keys", "nan", "infinity",
                "wrong-types", "extra-keys", "obeys-cite-doc-99"} <= tried  # fmt: skip
        assert tried & {"id-from-another-dossier", "id-outside-the-dossier"}
    assert len(PAIRS) >= 80


@pytest.mark.parametrize(("attack", "role"), PAIRS)
def test_hostile_answer_is_refused_where_it_enters(
    attack: Attack, role: Role, bench: Bench, no_egress: list[str]
) -> None:
    outcome = run_attack(attack, role, bench)
    code = attack.codes[role]
    assert outcome.refused, (outcome.status, outcome.evidence[:400])
    assert f"[{code}]" in outcome.evidence, outcome.evidence[:400]
    assert no_egress == []


@pytest.mark.parametrize(
    ("attack_id", "size"),
    [("nested-10000", 20_000), ("string-10mb", 10_000_000)],
    ids=["nested", "huge"],
)
def test_the_big_answers_are_as_big_as_announced(attack_id: str, size: int, bench: Bench) -> None:
    attack = next(a for a in ATTACKS if a.id == attack_id)
    answer = hostile_answer(attack, Role.DIGEST_MAP, bench)
    text = answer.text if isinstance(answer, Completion) else str(answer)
    assert len(text) > size
    if attack_id == "nested-10000":
        assert text.count("[") == 10_000


def test_the_link_a_document_asks_for_is_not_in_any_source(bench: Bench) -> None:
    """The obeying answers print a link built from the planted one, not copied from it."""
    attack = next(a for a in ATTACKS if a.id == "obeys-print-a-link")
    answer = str(hostile_answer(attack, Role.WRITER, bench))
    assert "https://exfil.example/collect?d=P-leak" in answer
    assert all("P-leak" not in page for page in bench.memo_pages)


def test_the_egress_guard_refuses_and_records() -> None:
    with egress_guard() as attempts:
        with pytest.raises(PermissionError):
            socket.create_connection(("127.0.0.1", 9), timeout=1)
        with socket.socket() as raw, pytest.raises(PermissionError):
            raw.connect(("127.0.0.1", 9))
        with pytest.raises(PermissionError):
            subprocess.run(["true"], check=False)
    assert [a.split("(")[0] for a in attempts] == ["dns lookup", "socket.connect", "subprocess"]
    assert subprocess.run(["true"], check=False).returncode == 0  # restored afterwards
