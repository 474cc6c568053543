"""The replay page (/replay/): demo hands by seed, pasted and uploaded logs, refused logs, both languages."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from gameplay.notation import log_text
from gameplay.simulate import simulate_hand

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", ["tractor", "chaodi", "red-five", "red-five-3", "yongzhou-300", "yongzhou-300-3"])
def test_demo_hand_by_variant_and_seed(client: Client, variant: str) -> None:
    r = client.get("/replay/", {"variant": variant, "seed": "7"})
    assert r.status_code == 200
    html = r.content.decode()
    assert "trick-1" in html and variant.removesuffix("-3") in html
    # seats are counted from 1, as people count them: no "Seat 0"
    assert "Seat 1" in html and "Seat 0" not in html and '<span class="seat">0</span>' not in html
    assert 'class="pc' in html


def test_paste_json_and_upload_text_log(client: Client) -> None:
    log = simulate_hand("red-five", 3, 0, ["heuristic", "random"], keep_log=True)["log"]
    r = client.post("/replay/", {"log": json.dumps(log)})
    assert r.status_code == 200 and "trick-1" in r.content.decode()
    upload = SimpleUploadedFile("hand.txt", log_text(log).encode(), content_type="text/plain")
    r2 = client.post("/replay/", {"file": upload})
    assert r2.status_code == 200 and "trick-1" in r2.content.decode()


def test_tampered_log_is_refused_with_the_reason(client: Client) -> None:
    log = simulate_hand("tractor", 3, 0, ["random"], keep_log=True)["log"]
    for e in log["events"]:
        if e["kind"] == "trick":
            e["value"] += 5
            break
    r = client.post("/replay/", {"log": json.dumps(log)})
    assert r.status_code == 400 and "differs" in r.content.decode()
    r_zh = client.post("/replay/", {"log": json.dumps(log)}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert r_zh.status_code == 400


def test_empty_form_and_unknown_variant(client: Client) -> None:
    assert client.get("/replay/").status_code == 200
    assert "Unknown variant" in client.get("/replay/", {"variant": "poker"}).content.decode()
    assert client.post("/replay/", {"log": ""}).status_code == 400


def test_chinese_page_uses_the_chinese_messages(client: Client) -> None:
    client.cookies["django_language"] = "zh-hans"
    r = client.get("/replay/", {"variant": "yongzhou-300", "seed": "2"})
    assert r.status_code == 200 and 'lang="zh-hans"' in r.content.decode()


def test_json_lines_file_shows_the_first_hand(client: Client, tmp_path) -> None:
    logs = [simulate_hand("tractor", 3, i, ["random"], keep_log=True)["log"] for i in range(2)]
    body = "\n".join(json.dumps(x) for x in logs) + "\n"
    upload = SimpleUploadedFile("hands.jsonl", body.encode(), content_type="application/json")
    r = client.post("/replay/", {"file": upload})
    assert r.status_code == 200 and "trick-1" in r.content.decode()


def test_chaodi_replay_shows_the_kitty_as_dealt(client: Client) -> None:
    html = client.get("/replay/", {"variant": "chaodi", "seed": "7"}).content.decode()
    assert 'class="replay-kitty-shown"' in html and "Kitty as dealt, shown to all" in html
    zh = client.get("/replay/", {"variant": "chaodi", "seed": "7"}, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "亮底（原始底牌，所有人可见）" in zh
    assert 'class="replay-kitty-shown"' not in client.get("/replay/", {"variant": "tractor", "seed": "7"}).content.decode()


def test_a_red_five_log_with_a_random_first_bidder_shows_the_same_hand(client: Client) -> None:
    """The drawn first bidder travels in the log's config: the pasted log shows the hand as played."""
    log = simulate_hand("red-five", 5, 2, ["heuristic", "random"], keep_log=True,
                        options={"first_bidder": "random"})["log"]
    assert log["config"]["first_bidder"] is not None
    r = client.post("/replay/", {"log": json.dumps(log)})
    assert r.status_code == 200, r.content.decode()[:500]
    html = r.content.decode()
    assert "trick-1" in html and "differs" not in html and "refused" not in html
    bid = next(e for e in log["events"] if e["kind"] == "bid")
    assert f"{bid['value']}" in html
