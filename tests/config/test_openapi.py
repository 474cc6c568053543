"""The OpenAPI document as a client generator sees it: it validates with no warning, and a hand's ``outcome``
is typed per variant — every field the scoring core reads is a component property with its type, the
documented examples validate against the components, and the API agrees on what is required."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

FULL = {  # every field each variant's outcome accepts (docs/scoring.md)
    "tractor": {"attackers_points": 35, "kitty_points": 10, "last_trick": {"winner": "attackers", "largest": 2},
                "a_first_trick": True, "a_last_trick": True, "throw_penalties": 0},
    "red-five": {"dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
                 "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 1}]},
    "yongzhou-300": {"points": [20, 130, 150], "declarer": 1, "tie_break": 2},
}
BODY = {
    "tractor": {"variant": "tractor", "state": {"levels": ["10", "9"], "dealer": 0}},
    "red-five": {"variant": "red-five", "decks": 2},
    "yongzhou-300": {"variant": "yongzhou-300", "players": 3},
}
COMPONENT = {"tractor": "PartnershipOutcome", "red-five": "RedFiveOutcome", "yongzhou-300": "YongzhouOutcome"}


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory, django_db_blocker: Any) -> dict[str, Any]:
    path = Path(tmp_path_factory.mktemp("schema")) / "schema.yaml"
    with django_db_blocker.unblock():
        # The same command as `make` would run: any warning (an untyped field, an enum clash) fails it.
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def resolve(node: Any, doc: dict[str, Any]) -> Any:
    """The schema with every ``$ref`` replaced (and one-element ``allOf`` unwrapped), as a generator does."""
    if isinstance(node, list):
        return [resolve(item, doc) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return resolve(doc["components"]["schemas"][name], doc)
    if len(node.get("allOf", [])) == 1:
        merged = {**resolve(node["allOf"][0], doc), **{k: v for k, v in node.items() if k != "allOf"}}
        return resolve(merged, doc)
    return {key: resolve(value, doc) for key, value in node.items()}


def test_each_variant_has_an_outcome_component_with_typed_fields(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for variant, name in COMPONENT.items():
        component = resolve(components[name], schema)
        assert component["description"], name
        assert set(component["properties"]) == set(FULL[variant]), name
        for field, prop in component["properties"].items():
            assert prop.get("type") in {"integer", "boolean", "string", "array", "object"}, (name, field)
            assert prop.get("description"), (name, field)
    last_trick = resolve(components["PartnershipOutcome"]["properties"]["last_trick"], schema)
    assert last_trick["properties"]["winner"]["enum"] == ["dealer", "attackers"]
    assert resolve(components["RedFiveOutcome"], schema)["properties"]["red_fives"]["items"]["properties"][
        "won_by"]["type"] == "integer"
    assert components["YongzhouOutcome"]["properties"]["points"]["items"]["type"] == "integer"


def test_the_scoring_body_is_chosen_by_variant_with_a_discriminator(schema: dict[str, Any]) -> None:
    body = schema["paths"]["/api/v1/scoring/hand"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    hand = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    assert hand["discriminator"]["propertyName"] == "variant"
    mapping = hand["discriminator"]["mapping"]
    assert set(mapping) == {"tractor", "chaodi", "red-five", "yongzhou-300"}
    for variant, ref in mapping.items():
        branch = resolve({"$ref": ref}, schema)
        outcome = branch["properties"]["outcome"]
        assert set(outcome["properties"]) == set(FULL["tractor" if variant == "chaodi" else variant])


def test_a_tournament_hand_outcome_is_one_of_the_variant_outcomes(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    outcome = resolve(components["HandInputRequest"]["properties"]["outcome"], schema)
    names = {tuple(sorted(branch["properties"])) for branch in outcome["oneOf"]}
    assert names == {tuple(sorted(full)) for full in FULL.values()}
    stored = resolve(components["Hand"]["properties"]["outcome"], schema)  # the hand history answers it typed too
    assert len(stored["oneOf"]) == 3


@pytest.mark.django_db
@pytest.mark.parametrize("variant", list(FULL))
def test_the_documented_outcomes_fit_the_schema_and_the_api_agrees_on_required_fields(
        schema: dict[str, Any], variant: str) -> None:
    component = resolve(schema["components"]["schemas"][COMPONENT[variant]], schema)
    jsonschema.validate(FULL[variant], component)
    api = APIClient()
    answer = api.post("/api/v1/scoring/hand", {**BODY[variant], "outcome": FULL[variant]}, format="json")
    assert answer.status_code == 200, answer.json()
    for field in component["required"]:
        outcome = copy.deepcopy(FULL[variant])
        del outcome[field]
        refused = api.post("/api/v1/scoring/hand", {**BODY[variant], "outcome": outcome}, format="json")
        assert refused.status_code == 400 and f"outcome.{field}" in str(refused.json()), field
    for field in set(component["properties"]) - set(component["required"]):
        outcome = {k: v for k, v in FULL[variant].items() if k != field}
        assert api.post("/api/v1/scoring/hand", {**BODY[variant], "outcome": outcome},
                        format="json").status_code == 200, field


def test_standings_rows_document_place_and_place_range(schema: dict[str, Any]) -> None:
    """Both standings endpoints name every row's ``place`` and ``place_range``: nullable strings, described."""
    components = schema["components"]["schemas"]
    for name in ("Standing", "StageStandingRow"):
        for field in ("place", "place_range"):
            prop = components[name]["properties"][field]
            assert prop["type"] == "string" and prop.get("nullable") is True, (name, field)
            assert prop.get("description"), (name, field)
    assert "shared" in components["Standing"]["properties"]["place"]["description"]
    stage = schema["paths"]["/api/v1/stages/{id}/standings/"]["get"]["responses"]["200"]["content"]
    assert stage["application/json"]["schema"]["$ref"].endswith("/StageStandings")
    rows = schema["paths"]["/api/v1/tournaments/{id}/standings/"]["get"]["responses"]["200"]["content"]
    listed = rows["application/json"]["schema"]
    assert listed["type"] == "array"  # a plain list, not a page
    row = resolve(listed["items"], schema)
    assert all({"place", "place_range"} <= set(branch["properties"]) for branch in row["oneOf"])
