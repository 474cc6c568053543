"""The pages of online play through Django's test client: "Play" (create a room), the room (join, watch)
and a hand's page (docs/online.md, "The pages")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from online.forms import RoomForm
from online.models import Room, Seat

pytestmark = pytest.mark.django_db


def form_data(variant: str = "tractor", **changes: Any) -> dict[str, Any]:
    """What the browser posts for an untouched form with ``variant`` chosen (every field's initial value)."""
    form = RoomForm(variant=variant)
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = value
    data.update(variant=variant, name="Ann")
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def fieldset_hidden(html: str, variant: str) -> bool:
    found = re.search(rf'<fieldset class="online-options" data-variant="{re.escape(variant)}"( hidden)?>', html)
    assert found, variant
    return found.group(1) is not None


def test_home_offers_play_online(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'id="home-play" href="/play/"' in html
    zh = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "在线打牌" in zh


@pytest.mark.parametrize("variant", ["tractor", "chaodi", "red-five", "yongzhou-300"])
def test_create_form_shows_the_chosen_variants_options_only(client: Client, variant: str) -> None:
    response = client.get("/play/", {"variant": variant})
    assert response.status_code == 200
    html = response.content.decode()
    for other in ("tractor", "chaodi", "red-five", "yongzhou-300"):
        assert fieldset_hidden(html, other) is (other != variant)
    assert f'value="{variant}"' in html and "checked" in html.split(f'value="{variant}"')[1][:40]
    # decks where the variant allows them (red five), players (yongzhou-300), hands of a match (individual)
    decks_box = re.search(r'<div data-variants="([^"]*)"><div class="field[^"]*" id="field-decks"', html)
    players_box = re.search(r'<div data-variants="([^"]*)"><div class="field[^"]*" id="field-players"', html)
    hands_box = re.search(r'<div data-variants="([^"]*)"><div class="field[^"]*" id="field-hands"', html)
    assert decks_box and players_box and hands_box
    assert decks_box.group(1).split() == ["red-five"]
    assert players_box.group(1).split() == ["yongzhou-300"]
    assert hands_box.group(1).split() == ["red-five", "yongzhou-300"]


def test_create_form_in_chinese(client: Client) -> None:
    html = client.get("/play/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    for words in ("在线打牌", "玩法", "不限时", "每步 30 秒", "随机座位", "你在牌桌上的名字", "开桌", "是否允许甩牌"):
        assert words in html, words


def test_bad_input_gives_field_errors(client: Client) -> None:
    response = client.post("/play/", form_data(name=""))
    assert response.status_code == 400
    assert response.context["form"].errors["name"]
    response = client.post("/play/", form_data(decks="3"))
    assert response.context["form"].errors["decks"] == ["Tractor is played with 2 decks."]
    response = client.post("/play/", form_data(**{"opt__tractor__throw_penalty": "7"}))
    assert "opt__tractor__throw_penalty" in response.context["form"].errors
    response = client.post("/play/", form_data(clock="45"))
    assert "clock" in response.context["form"].errors
    assert not Room.objects.exists()
    zh = client.post("/play/", form_data(name=""), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "请填写别人看到的名字。" in zh.content.decode()


def test_creating_lands_on_the_room_as_host_with_a_seat(client: Client) -> None:
    response = client.post("/play/", form_data(clock="30", seat="2", **{"opt__tractor__throw_penalty": "10"}))
    assert response.status_code == 302
    room = Room.objects.get()
    url = response["Location"]
    assert re.fullmatch(rf"/play/{room.code}/#seat=[\w-]+&host=[\w-]+", url), url
    assert room.options == {"throw_penalty": 10}
    assert (room.variant, room.clock, room.decks, room.players, room.seating) == ("tractor", 30, 2, 4, "choice")
    me = Seat.objects.get(room=room, seat=2)
    assert me.name == "Ann" and me.token_digest
    # only the chosen variant's options are read: another variant's field changes nothing
    client.post("/play/", form_data(**{"opt__chaodi__throw_penalty": "20"}))
    assert Room.objects.order_by("-pk").first().options == {}  # type: ignore[union-attr]


def test_red_five_and_yongzhou_sizes_and_seating(client: Client) -> None:
    client.post("/play/", form_data("red-five", decks="3", hands="4"))
    room = Room.objects.get(variant="red-five")
    assert (room.decks, room.hands_limit) == (3, 4)
    client.post("/play/", form_data("yongzhou-300", players="3", seating="", seat="1"))
    room = Room.objects.get(variant="yongzhou-300")
    assert (room.players, room.seating) == (3, "random")  # random by default for yongzhou-300


def test_room_page_join_and_watch(client: Client) -> None:
    client.post("/play/", form_data(seat="0"))
    room = Room.objects.get()
    page = client.get(f"/play/{room.code}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="online-join"' in html and 'id="watch"' in html
    assert f"http://testserver/play/{room.code}/" in html and "data:image/png;base64," in html  # the link and its QR
    assert 'value="0"' not in html.split('id="online-join"')[1].split("</form>")[0]  # seat 1 is taken
    config = page.context["config"]
    assert config["code"] == room.code and config["ws"] == f"/ws/play/{room.code}/"
    assert config["words"]["play"] == "Play"

    taken = client.post(f"/play/{room.code}/", {"name": "Bo", "seat": "0"})
    assert taken.status_code == 400
    assert "seat" in taken.context["form"].errors
    joined = client.post(f"/play/{room.code}/", {"name": "Bo", "seat": "2"})
    assert joined.status_code == 302
    assert re.fullmatch(rf"/play/{room.code}/#seat=[\w-]+", joined["Location"])
    assert Seat.objects.get(room=room, seat=2).name == "Bo"
    nameless = client.post(f"/play/{room.code}/", {"name": "  "}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert nameless.status_code == 400 and "请填写别人看到的名字。" in nameless.content.decode()
    for name in ("Cy", "Di"):
        assert client.post(f"/play/{room.code}/", {"name": name}).status_code == 302
    full = client.get(f"/play/{room.code}/").content.decode()
    assert 'id="online-join"' not in full and 'id="online-full"' in full


def test_room_codes_and_missing_things(client: Client) -> None:
    assert client.get("/play/NOPE42/").status_code == 404
    client.post("/play/", form_data())
    room = Room.objects.get()
    assert client.get(f"/play/{room.code.lower()}/")["Location"] == f"/play/{room.code}/"
    assert client.get(f"/play/{room.code}/hands/1/").status_code == 404


def test_logged_in_user_is_named_by_the_account(client: Client, django_user_model: Any) -> None:
    user = django_user_model.objects.create_user(username="zhangwei", password="x")
    client.force_login(user)
    html = client.get("/play/").content.decode()
    assert "You play as zhangwei." in html and 'name="name"' not in html.split('id="online-create"')[1].split("</form>")[0]
    response = client.post("/play/", form_data(name="Someone else"))
    assert response.status_code == 302
    seat = Seat.objects.get(name="zhangwei")
    assert seat.user == user
