"""The planner's cap on new tokens grows with the documents it plans.

A fixed cap was too small for the bundled dossier when the cassette was recorded at 128 new
tokens: no plan of 32 documents fits, so SmolLM2's plan was always cut on length (refused)
before a word of it was checked. The cap is derived from the number of documents, for the
whole dossier and for each part of a dossier planned in parts.
"""

from __future__ import annotations

import pytest

from preuve.models.base import Message
from preuve.models.budget import BudgetedModel, counter_for
from preuve.synthesis.dossier import Dossier
from preuve.synthesis.pipeline import synthesis_rules_model
from preuve.synthesis.planner import plan_token_cap, planner_request, rules_plan
from preuve.synthesis.planning import plan_within_budget


@pytest.mark.parametrize(
    ("documents", "cap"),
    [
        pytest.param(0, 126, id="none-counts-as-one"),
        pytest.param(1, 126, id="one"),
        pytest.param(16, 576, id="half-the-bundled-dossier"),
        pytest.param(32, 1056, id="the-bundled-dossier"),
    ],
)
def test_plan_token_cap(documents: int, cap: int) -> None:
    assert plan_token_cap(documents) == cap


def test_the_request_asks_the_cap_of_its_documents(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    assert planner_request(dossier, products).max_new_tokens == plan_token_cap(32)
    assert len(dossier.documents) == 32


def test_the_rules_plan_fits_its_cap_with_room(dossier: Dossier, products: tuple[str, ...]) -> None:
    # The rules engine counts about four characters a token; a real tokenizer counts more
    # tokens for the ids (SmolLM2's: 409 for this plan), hence the half kept as room.
    request = planner_request(dossier, products)
    plan = rules_plan(request)
    tokens = counter_for(synthesis_rules_model()).count_prompt_tokens((Message("assistant", plan),))
    assert tokens * 2 <= request.max_new_tokens


def test_each_part_of_a_split_plan_asks_the_cap_of_its_own_documents(
    dossier: Dossier, products: tuple[str, ...]
) -> None:
    whole = counter_for(synthesis_rules_model()).count_prompt_tokens(
        planner_request(dossier, products).messages
    )
    model = BudgetedModel(synthesis_rules_model(), max_input_tokens=int(whole * 0.7))
    split = plan_within_budget(dossier, model, products)
    assert [a.request.max_new_tokens for a in split.attempts] == [plan_token_cap(16)] * 2
