"""Fixtures shared by the planner's tests: the bundled dossier and its products."""

from __future__ import annotations

import pytest

from preuve.corpora.synthesis_dossier import generate_synthesis_dossier
from preuve.loaders import load_dossier
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.planner import detect_products


@pytest.fixture(scope="module")
def dossier(tmp_path_factory: pytest.TempPathFactory) -> Dossier:
    return load_dossier(generate_synthesis_dossier(tmp_path_factory.mktemp("plan")).dossier)


@pytest.fixture(scope="module")
def products(dossier: Dossier) -> tuple[str, ...]:
    return detect_products(dossier.question, [f"{d.title}\n{d.text}" for d in dossier.documents])
