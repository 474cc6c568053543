"""Schemathesis over ``/api/v1/schema/``: every operation, as each role (anonymous, outsider, scorer,
organizer — token auth headers), called on the Django WSGI app in-process (no server).

Each operation gets a bounded number of generated requests per role, about half of them aimed at
objects that exist (so the writes reach the services, not only 404s). The test collects every
response with status 5xx, and every 4xx without a non-empty ``detail``, and fails listing them all
with the request that caused each one.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode

from tests.tournaments.factories import SHUTOUT, UserFactory, make_tournament
from tournaments.models import Entry, Match, Player, Stage, Team, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.setup import staff_add

pytestmark = [pytest.mark.django_db(transaction=True)]

STATUSES: dict[int, int] = {}  # answers seen, for the report (pytest -s prints them)
# Per operation, role and generation mode (positive, negative; also on existing ids): about 300
# requests a role by default. FUZZ_EXAMPLES=40 for a deeper run (~2 minutes).
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
ROLES = ["anonymous", "outsider", "scorer", "organizer"]
SKIP: set[tuple[str, str]] = set()  # (method, path) left out of the fuzzing: none


@pytest.fixture
def no_connection_churn():
    """Like Django's test client: do not close the test database connection after each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(no_connection_churn):
    import schemathesis

    from config.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/v1/schema/", application)


@pytest.fixture
def world():
    organizer = UserFactory(username="fuzz-organizer")
    scorer = UserFactory(username="fuzz-scorer")
    outsider = UserFactory(username="fuzz-outsider")
    t = make_tournament(owner=organizer, teams=4, name="Fuzz Cup")
    staff_add(tournament=t, username="fuzz-scorer", role="scorer", actor=Actor(organizer))
    m = Match.objects.filter(stage__tournament=t, status="ready").order_by("position").first()
    hand_record(match_id=m.pk, outcome=SHUTOUT, version=m.version, actor=Actor(organizer), dealer=0)
    make_tournament(owner=organizer, teams=4, start=False, name="Fuzz Draft")
    make_tournament(owner=organizer, teams=4, is_public=False, name="Fuzz Private")
    tokens = {role: Token.objects.create(user=user).key for role, user in
              [("organizer", organizer), ("scorer", scorer), ("outsider", outsider)]}
    return {"tokens": tokens}


def real_ids() -> dict[str, list[int]]:
    return {
        "players": list(Player.objects.values_list("pk", flat=True)[:20]),
        "teams": list(Team.objects.values_list("pk", flat=True)[:20]),
        "tournaments": list(Tournament.objects.values_list("pk", flat=True)),
        "entries": list(Entry.objects.values_list("pk", flat=True)[:20]),
        "stages": list(Stage.objects.values_list("pk", flat=True)),
        "matches": list(Match.objects.values_list("pk", flat=True)[:20]),
    }


def describe(case: Any, headers: dict[str, str]) -> str:
    body = getattr(case, "body", None)
    try:
        shown = json.dumps(body, ensure_ascii=False, default=str)[:400]
    except Exception:
        shown = repr(body)[:400]
    role = "token" if "Authorization" in headers else "anonymous"
    return f"{case.method.upper()} {case.formatted_path} query={case.query or {}} ({role}) body={shown}"


def fuzz_operation(operation: Any, headers: dict[str, str], ids: dict[str, list[int]], found: list[str]) -> int:
    resource = operation.path.split("/")[3]
    pinned: list[Any] = []
    names = {p.name for p in operation.path_parameters}
    if "id" in names and ids.get(resource):
        for pk in ids[resource][:3]:
            fixed: dict[str, Any] = {"id": pk}
            if "number" in names:
                fixed["number"] = 1
            pinned.append(operation.as_strategy(path_parameters=fixed))
            pinned.append(operation.as_strategy(generation_mode=GenerationMode.NEGATIVE, path_parameters=fixed))
    strategy = st.one_of(operation.as_strategy(), operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
                         *pinned)
    calls = 0

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def run(case: Any) -> None:
        nonlocal calls
        calls += 1
        response = case.call(headers=headers)
        status = response.status_code
        STATUSES[status] = STATUSES.get(status, 0) + 1

        text = response.content.decode("utf-8", "replace")
        if status >= 500:
            found.append(f"{status} ← {describe(case, headers)}: {text[:200]!r}")
        elif status >= 400:
            try:
                detail = json.loads(text)
            except ValueError:
                detail = {}
            if not (isinstance(detail, dict) and str(detail.get("detail") or "").strip()):
                found.append(f"{status} without a detail ← {describe(case, headers)}: {text[:200]!r}")

    run()
    return calls


@pytest.mark.parametrize("role", ROLES)
def test_every_operation_as_each_role_has_no_5xx_and_every_4xx_says_why(api_schema, world, role):
    headers = {} if role == "anonymous" else {"Authorization": f"Token {world['tokens'][role]}"}
    found: list[str] = []
    calls = 0
    operations = [r.ok() for r in api_schema.get_all_operations()]
    random.Random(1).shuffle(operations)  # destructive calls (DELETE) do not always come last
    assert len(operations) >= 40, "the schema lost its operations"
    for operation in operations:
        if (operation.method.upper(), operation.path) in SKIP:
            continue
        calls += fuzz_operation(operation, headers, real_ids(), found)
    assert calls >= len(operations) * 2
    print(f"\nfuzz as {role}: {calls} requests; answers so far {dict(sorted(STATUSES.items()))}")
    unique = sorted(set(found))
    assert not unique, f"{len(unique)} bad answers as {role}:\n" + "\n".join(unique[:60])


# --------------------------------------------------------------------------- what the fuzzer found, pinned

FOUND = [
    ("get", "/api/v1/matches/abc/hands/", {}),
    ("post", "/api/v1/matches/abc/hands/", {}),
    ("put", "/api/v1/matches/abc/hands/1/", {}),
    ("post", "/api/v1/matches/abc/hands/undo/", {}),
    ("post", "/api/v1/matches/abc/confirm/", {}),
    ("post", "/api/v1/matches/null/time/", {}),
    ("post", "/api/v1/matches/abc/award/", {}),
    ("get", "/api/v1/matches/?tournament=99999999999999999999", {}),
    ("get", "/api/v1/entries/?tournament=99999999999999999999", {}),
    ("get", "/api/v1/stages/?tournament=99999999999999999999", {}),
    ("patch", "/api/v1/entries/{entry}/", 0),
    ("patch", "/api/v1/entries/{entry}/", []),
    ("put", "/api/v1/entries/{entry}/", None),
    ("get", "/api/v1/matches/1.5/", {}),
    ("get", "/api/v1/no-such-endpoint/", {}),
]


@pytest.mark.parametrize(("method", "path", "body"), FOUND, ids=[f"{m} {p} {b!r}" for m, p, b in FOUND])
def test_requests_the_fuzzer_found_answer_a_json_4xx(world, method, path, body):
    """Each of these answered a 500 (or an HTML 404 page) when the fuzzer found it."""
    from rest_framework.test import APIClient

    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens']['organizer']}")
    entry = Entry.objects.filter(tournament__name="Fuzz Draft").first()
    if method == "get":
        r = client.get(path.format(entry=entry.pk))
    else:
        r = getattr(client, method)(path.format(entry=entry.pk), json.dumps(body), content_type="application/json")
    assert 400 <= r.status_code < 500, (r.status_code, r.content[:200])
    assert r["Content-Type"].startswith("application/json"), r.content[:200]
    assert r.json().get("detail"), r.content[:200]


# --------------------------------------------------------------------------- hostile bodies (issue 14)

HOSTILE_VALUES = ["fast", 10**30, -(10**30), "\x00", "a\x00b", [[1]], {"x": {"y": [None]}}, True, None, 1.5]
NESTED_KEYS = ["attackers_points", "kitty_points", "last_trick", "winner", "largest", "fast"]


def _resolve(schema: dict[str, Any], node: Any) -> dict[str, Any]:
    while isinstance(node, dict) and "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    if isinstance(node, dict) and "allOf" in node:
        merged: dict[str, Any] = {"properties": {}}
        for part in node["allOf"]:
            merged["properties"].update(_resolve(schema, part).get("properties", {}))
        return merged
    return node if isinstance(node, dict) else {}


def hostile_bodies(schema: dict[str, Any], body_schema: Any) -> list[Any]:
    """Every property in turn set to each hostile value, nested objects' keys too, all at once, and a
    document nested 200 levels deep."""
    properties = _resolve(schema, body_schema).get("properties", {})
    bodies: list[Any] = []
    deep: Any = 1
    for _level in range(200):
        deep = {"a": [deep]}
    bodies.append(deep)
    for name, prop in properties.items():
        prop = _resolve(schema, prop)
        for value in HOSTILE_VALUES:
            bodies.append({name: value})
        if prop.get("type") == "object" or "additionalProperties" in prop:
            for key in NESTED_KEYS:
                for value in HOSTILE_VALUES[:6]:
                    bodies.append({name: {key: value, "last_trick": {"winner": value, "largest": value}}})
    for value in HOSTILE_VALUES:
        bodies.append({name: value for name in properties})
    return bodies


def test_every_write_refuses_deep_nesting_nul_huge_integers_and_wrong_types_with_a_4xx(world):
    """Each write operation of the schema (as the organizer, on objects that exist): no 5xx, and each
    4xx says why. Huge integers, NUL characters, wrong types in every field and in nested objects, and
    JSON nested deeper than the parser accepts."""
    from rest_framework.test import APIClient

    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens']['organizer']}")
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    ids = real_ids()
    found: list[str] = []
    requests = 0
    for path, methods in schema["paths"].items():
        resource = path.split("/")[3]
        for method, operation in methods.items():
            if method not in ("post", "put", "patch"):
                continue
            pk = (ids.get(resource) or [1])[0]
            url = path.replace("{id}", str(pk)).replace("{number}", "1")
            content = (operation.get("requestBody") or {}).get("content", {})
            body_schema = content.get("application/json", {}).get("schema", {})
            for body in hostile_bodies(schema, body_schema):
                requests += 1
                response = getattr(client, method)(url, json.dumps(body), content_type="application/json")
                text = response.content.decode("utf-8", "replace")
                if response.status_code >= 500:
                    found.append(f"{response.status_code} ← {method.upper()} {url} {json.dumps(body)[:200]}: "
                                 f"{text[:200]!r}")
                elif response.status_code >= 400:
                    try:
                        detail = json.loads(text).get("detail")
                    except (ValueError, AttributeError):
                        detail = None
                    if not str(detail or "").strip():
                        found.append(f"{response.status_code} without a detail ← {method.upper()} {url}: "
                                     f"{text[:200]!r}")
    assert requests > 500
    unique = sorted(set(found))
    assert not unique, f"{len(unique)} bad answers:\n" + "\n".join(unique[:60])
