"""Issue 28, the tournament day walked again in 简体中文 and English: every match links to its live page and
its replays; no sentence with an empty fill, no doubled label, nothing left in English in the Chinese
pages; one behaviour for pages a visitor may not open (anonymous: log in; signed in without rights: the
site's 403 page), the site's 404 page, and JSON under /api/."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from gameplay.bots import make_bot
from gameplay.hand import Hand
from gameplay.record import HandFacts, record_to_json, tricks_from_hand
from gameplay.simulate import make_hand, play_out
from scoring.partnership import MatchState
from tests.tournaments.factories import SHUTOUT, UserFactory, make_tournament, play_hand
from tournaments.models import Match, Stage, Tournament
from tournaments.services import Actor
from tournaments.services.corrections import CorrectionPreview
from tournaments.services.setup import staff_add
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
C = "/api/v1/matches/{}/trick-entry/"


def tractor_hand(seed: int = 5) -> Hand:
    """An engine-played tractor hand with seat 0 dealing at level 2 (a match's first hand)."""
    h = make_hand("tractor", seed, state=MatchState(levels=("2", "2"), dealer=0, hands_played=1))
    play_out(h, [make_bot("heuristic", random.Random(seed + s)) for s in range(4)])
    return h


def text(html: str) -> str:
    """The page as read: tags out, spaces squeezed."""
    body = re.sub(r"<(script|style|head)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def doubled(page: str) -> list[str]:
    """Labels said twice in a row ("瑞士制 瑞士制", "Swiss · Swiss", "桌号 · 桌号")."""
    return [m.group(0) for m in re.finditer(r"(?<![\w\u4e00-\u9fff])([A-Za-z][\w-]{2,}|[\u4e00-\u9fff]{2,})"
                                            r"(?: · | )\1(?![\w\u4e00-\u9fff])(?! link)", page)]  # "Table | Table link"


def empty_fills(page: str) -> list[str]:
    """Sentences with an empty name, level or quotation: "（）", "()", "打 。", "“”", "为—"."""
    return re.findall(r"（\s*）|\(\s*\)|打 。|“\s*”|为—|after —\.", page)


def playing(owner: Any, teams: int = 4, **kw: Any) -> tuple[Tournament, Match]:
    tournament = make_tournament(owner=owner, teams=teams, **kw)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    assert match is not None
    return tournament, match


def trick_hand(owner: Any, match: Match) -> None:
    """Hand 1 of ``match`` recorded trick by trick (it has a replay)."""
    api = APIClient()
    api.force_authenticate(owner)
    h = tractor_hand(5)
    record = record_to_json(HandFacts("tractor", dealer=0, trump=h.trump, level="2"), tricks_from_hand(h))
    draft = api.post(C.format(match.pk) + "record/", {"record": record}, format="json").json()
    assert api.post(C.format(match.pk) + "finish/", {"version": draft["version"]}, format="json").status_code == 201


# --------------------------------------------------------------------------- 1. links


def test_the_match_page_links_to_its_live_page_and_its_hands_replays(client: Client) -> None:
    owner = UserFactory()
    _t, match = playing(owner)
    trick_hand(owner, match)
    play_hand(match, SHUTOUT, Actor(owner))  # hand 2 by its totals: no replay
    html = client.get(reverse("match-detail", args=[match.pk]), **ZH).content.decode()
    assert f'href="{reverse("match-live", args=[match.pk])}"' in html and 'id="match-live-link"' in html
    replays = re.search(r'id="match-replays">(.*?)</span>', html, re.S)
    assert replays is not None
    assert f'href="{reverse("hand-replay", args=[match.pk, 1])}"' in replays.group(1)
    assert reverse("hand-replay", args=[match.pk, 2]) not in html
    assert "逐轮回放" in replays.group(1) and "第 1 局" in replays.group(1)
    # the htmx refresh of the page keeps them
    partial = client.get(reverse("match-detail", args=[match.pk]), headers={"HX-Request": "true"}).content.decode()
    assert 'id="match-live-link"' in partial and 'id="match-replays"' in partial


def test_a_finished_match_has_no_live_link_and_a_pending_one_none_either(client: Client) -> None:
    owner = UserFactory()
    tournament = make_tournament(owner=owner, teams=4)
    first, second = Match.objects.filter(stage__tournament=tournament, round__number=1).order_by("position")
    for _ in range(4):
        play_hand(first, SHUTOUT, Actor(owner))
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED
    final = Match.objects.get(stage__tournament=tournament, round__number=2)
    for match in (first, final):
        html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
        assert reverse("match-live", args=[match.pk]) not in html
    bracket = client.get(reverse("tournament-bracket", args=[tournament.pk])).content.decode()
    assert reverse("match-live", args=[second.pk]) in bracket  # ready: at its table
    assert reverse("match-live", args=[first.pk]) not in bracket


def test_bracket_tables_and_rounds_link_each_match_at_a_table_to_its_live_page(client: Client) -> None:
    owner = UserFactory()
    tournament, match = playing(owner)
    play_hand(match, SHUTOUT, Actor(owner))
    live = reverse("match-live", args=[match.pk])
    bracket = client.get(reverse("tournament-bracket", args=[tournament.pk]), **ZH).content.decode()
    box = re.search(rf'<div class="bm-wrap">.*?id="bm-{match.key}".*?</div>', bracket, re.S)
    assert box is not None and f'class="bm-live live" href="{live}"' in box.group(0) and "直播" in box.group(0)
    tables = client.get(reverse("tournament-tables", args=[tournament.pk]), **ZH).content.decode()
    assert f'href="{live}">● 直播牌桌' in tables
    swiss = make_tournament(owner=owner, teams=4, start=False, name="Swiss 28")
    stage = stage_create(tournament=swiss, actor=Actor(owner), format="swiss", rounds=2)
    from tournaments.services.stages import stage_start

    stage_start(stage=stage, actor=Actor(owner), random_seed=1)
    pairing = Match.objects.filter(stage=stage, status="ready").first()
    assert pairing is not None
    rounds = client.get(reverse("tournament-bracket", args=[swiss.pk]), **ZH).content.decode()
    assert reverse("match-live", args=[pairing.pk]) in rounds


# --------------------------------------------------------------------------- 2. text


def test_a_stage_named_by_its_format_says_it_once(client: Client) -> None:
    owner = UserFactory()
    tournament = make_tournament(owner=owner, teams=4)
    client.force_login(owner)
    for lang, label in ((ZH, "单败淘汰赛"), (EN, "Single elimination")):
        for name in ("tournament-detail", "tournament-bracket", "tournament-tables", "tournament-standings",
                     "tournament-manage"):
            page = text(client.get(reverse(name, args=[tournament.pk]), **lang).content.decode())
            assert doubled(page) == [], (name, doubled(page))
        assert label in text(client.get(reverse("tournament-detail", args=[tournament.pk]), **lang).content.decode())
    # a stage with its own name keeps its format beside it
    stage = Stage.objects.get(tournament=tournament)
    stage.name = "Knockout"
    stage.save()
    assert stage.format_note == "single elimination"
    with translation.override("zh-hans"):
        assert stage.format_note == "单败淘汰赛"
    stage.name = "单败淘汰赛"
    assert stage.format_note == ""
    page = text(client.get(reverse("tournament-detail", args=[tournament.pk]), **ZH).content.decode())
    assert "Knockout · 单败淘汰赛" in page


def test_swiss_and_table_round_stages_are_not_doubled_either(client: Client) -> None:
    owner = UserFactory()
    swiss = make_tournament(owner=owner, teams=4, start=False, name="Swiss 28")
    stage = stage_create(tournament=swiss, actor=Actor(owner), format="swiss", rounds=2)
    from tournaments.services.stages import stage_start

    stage_start(stage=stage, actor=Actor(owner), random_seed=1)
    client.force_login(owner)
    for lang in (ZH, EN):
        for name in ("tournament-detail", "tournament-bracket", "tournament-tables", "tournament-standings",
                     "tournament-manage"):
            page = text(client.get(reverse(name, args=[swiss.pk]), **lang).content.decode())
            assert doubled(page) == [], (name, doubled(page))


def test_the_stage_added_message_names_a_stage_without_a_name_by_its_format(client: Client) -> None:
    owner = UserFactory()
    tournament = make_tournament(owner=owner, teams=4, start=False)
    client.force_login(owner)
    client.cookies["django_language"] = "zh-hans"
    page = client.post(reverse("tournament-manage", args=[tournament.pk]),
                       {"action": "stage_create", "stage-format": "single_elimination", "stage-seeding": "manual"},
                       follow=True).content.decode()
    assert "已添加阶段“单败淘汰赛”" in page and "“”" not in text(page)


def test_the_scoring_pages_first_hand_preview_leaves_no_empty_fill(client: Client) -> None:
    """The hand preview (no JavaScript) used to stand in for the match's next deal: "1号座位（）坐庄；… 打 。"."""
    owner = UserFactory()
    _t, match = playing(owner)
    client.force_login(owner)
    url = reverse("match-score", args=[match.pk])
    data = {"action": "preview", "version": match.version, "dealer": 0, "trump": "H", "attackers_points": 60,
            "kitty_points": 0, "last_trick_winner": "dealer", "last_trick_largest": 1}
    for lang in (ZH, EN):
        page = text(client.post(url, data, **lang).content.decode())
        assert empty_fills(page) == [], empty_fills(page)
    play_hand(match, SHUTOUT, Actor(owner))
    match.refresh_from_db()
    data["version"] = match.version
    data.pop("dealer")
    page = text(client.post(url, data, **ZH).content.decode())
    assert empty_fills(page) == [] and page.count("坐庄") >= 1
    # the match page says who deals next, with the player and the level
    detail = text(client.get(reverse("match-detail", args=[match.pk]), **ZH).content.decode())
    dealer = match.state["dealer"]
    assert f"（{match.entry(dealer % 2).team.player1.name if dealer < 2 else match.entry(dealer % 2).team.player2.name}）坐庄" \
        in detail and f"打 {match.state['levels'][dealer % 2]}。" in detail


def test_a_correction_that_undoes_or_makes_a_win_says_so_in_a_whole_sentence() -> None:
    owner = UserFactory()
    _t, match = playing(owner)
    cases = {(0, None): ("不再获胜，比赛继续", "no longer wins; the match goes on"),
             (None, 1): ("赢得本场比赛", "now wins the match"),
             (0, 1): ("更正前胜方为", "winner before")}
    for (before, after), (zh, en) in cases.items():
        effect = CorrectionPreview(1, [], winner_before=before, winner_after=after)
        for lang, expected in (("zh-hans", zh), ("en", en)):
            with translation.override(lang):
                html = render_to_string("tournaments/_correction_effect.html", {"effect": effect, "match": match})
            assert expected in html and empty_fills(text(html)) == [], (lang, html)


def test_printed_cards_and_slips_do_not_say_table_or_winner_twice_in_chinese(client: Client) -> None:
    owner = UserFactory()
    tournament, match = playing(owner)
    client.force_login(owner)
    cards = client.get(reverse("print-table-cards", args=[tournament.pk, match.round_id]), **ZH).content.decode()
    assert "桌号" in cards and doubled(text(cards)) == []
    english = client.get(reverse("print-table-cards", args=[tournament.pk, match.round_id]), **EN).content.decode()
    assert "Table · 桌号" in english
    for _ in range(4):
        play_hand(match, SHUTOUT, Actor(owner))
    slip = client.get(reverse("print-result-slip", args=[match.pk]), **ZH).content.decode()
    assert "胜者" in slip and "胜者 胜" not in text(slip)
    assert "winner 胜" in text(client.get(reverse("print-result-slip", args=[match.pk]), **EN).content.decode())


def test_the_home_page_heading_is_not_said_twice_in_chinese(client: Client) -> None:
    h1 = re.search(r"<h1>(.*?)</h1>", client.get("/", **ZH).content.decode(), re.S)
    assert h1 is not None and "升级 · 拖拉机" not in h1.group(1)
    h1 = re.search(r"<h1>(.*?)</h1>", client.get("/", **EN).content.decode(), re.S)
    assert h1 is not None and "升级 · 拖拉机" in h1.group(1)


def test_the_manage_page_and_its_link_tools_are_chinese(client: Client) -> None:
    owner = UserFactory()
    tournament, _match = playing(owner)
    client.force_login(owner)
    page = text(client.get(reverse("tournament-manage", args=[tournament.pk]), **ZH).content.decode())
    for english in ("Tables and links", "Settings and more", "QR code", "On the day", "finished match"):
        assert english not in page, english
    assert "牌桌与链接" in page and "设置及更多" in page and "二维码" in page
    settings = text(client.get(reverse("tournament-manage-settings", args=[tournament.pk]), **ZH).content.decode())
    for english in ("On the day", "Export", "Settings and more"):
        assert english not in settings, english


def test_the_live_page_names_the_variant_and_no_trump_in_the_visitors_language(client: Client) -> None:
    owner = UserFactory()
    _t, match = playing(owner)
    html = client.get(reverse("match-live", args=[match.pk]), **ZH).content.decode()
    assert 'data-variant-name="拖拉机' in html and 'data-no-trump="无主"' in html
    html = client.get(reverse("match-live", args=[match.pk]), **EN).content.decode()
    assert 'data-variant-name="Tractor' in html and 'data-no-trump="no trump"' in html


# --------------------------------------------------------------------------- 3. pages a visitor may not open


def organizer_pages(tournament: Tournament, match: Match) -> list[str]:
    return [reverse("tournament-manage", args=[tournament.pk]),
            reverse("tournament-manage-settings", args=[tournament.pk]),
            reverse("tournament-staff", args=[tournament.pk]),
            reverse("print-jobs", args=[tournament.pk]),
            reverse("match-score", args=[match.pk]),
            reverse("trick-entry", args=[match.pk])]


def test_anonymous_visitors_are_sent_to_log_in_from_every_organizer_and_scorer_page(client: Client) -> None:
    owner = UserFactory()
    tournament, match = playing(owner)
    for url in organizer_pages(tournament, match):
        response = client.get(url, **ZH)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")) and "next=" in response["Location"], url


def test_a_signed_in_user_without_rights_gets_the_sites_403_page(client: Client) -> None:
    owner = UserFactory()
    tournament, match = playing(owner)
    client.force_login(UserFactory(username="nobody28"))
    for url in organizer_pages(tournament, match):
        response = client.get(url, **ZH)
        html = response.content.decode()
        assert response.status_code == 403, url
        assert 'class="site-header"' in html and 'id="refused"' in html, url  # the site's layout
        assert "你无权打开此页面" in html and "nobody28" in html and "以其他用户身份登录" in html, url
        assert f"{reverse('login')}?next=" in html
    staff = client.get(reverse("tournament-staff", args=[tournament.pk]), **EN).content.decode()
    assert "You may not open this page" in staff and "Only an organizer of this tournament may do this." in staff
    assert "ask its organizer to invite you" in staff


def test_a_scorer_is_refused_the_organizer_pages_with_the_reason(client: Client) -> None:
    owner = UserFactory()
    tournament, match = playing(owner)
    scorer = UserFactory(username="scorer28")
    staff_add(tournament=tournament, username="scorer28", role="scorer", actor=Actor(owner))
    client.force_login(scorer)
    assert client.get(reverse("match-score", args=[match.pk])).status_code == 200
    refused = client.get(reverse("tournament-staff", args=[tournament.pk]), **ZH)
    assert refused.status_code == 403 and "只有" in refused.content.decode()


def test_the_404_page_is_the_sites_in_the_visitors_language(client: Client) -> None:
    for url in ("/no-such-page/", "/matches/99999/", "/tournaments/99999/"):
        response = client.get(url, **ZH)
        html = response.content.decode()
        assert response.status_code == 404 and 'class="site-header"' in html and "找不到此页面" in html, url
        assert "Not Found" not in html
    english = client.get("/matches/99999/", **EN).content.decode()
    assert "Page not found" in english and "No such match." in english


def test_the_api_keeps_answering_json_in_the_callers_language(client: Client) -> None:
    owner = UserFactory()
    _t, match = playing(owner)
    for url in ("/api/v1/no-such-thing/", "/api/v1/matches/99999/trick-entry/", "/api/v1/tournaments/99999/"):
        response = client.get(url, **ZH)
        assert response.status_code == 404 and response["Content-Type"].startswith("application/json"), url
        assert response.json()["detail"] == "未找到。" and response.json()["code"] == "not_found", url
    english = client.get("/api/v1/matches/99999/trick-entry/", **EN).json()
    assert english["detail"] == "Not found." and "matches the given query" not in english["detail"]
    refused = client.post(f"/api/v1/matches/{match.pk}/trick-entry/", {}, content_type="application/json", **ZH)
    assert refused.status_code in (401, 403) and refused["Content-Type"].startswith("application/json")
    client.force_login(UserFactory(username="nobody28"))
    refused = client.post(f"/api/v1/matches/{match.pk}/trick-entry/", {}, content_type="application/json", **ZH)
    assert refused.status_code == 403 and "detail" in refused.json()
