"""CSV import with a preview, the JSON export/import round trip, standings as CSV, check-in."""

from __future__ import annotations

import json

import pytest

from tests.tournaments.factories import SHUTOUT, make_tournament, play_hand, win_match
from tournaments import selectors
from tournaments.errors import ServiceError
from tournaments.models import Entry, Match, Player, Team
from tournaments.services import Actor
from tournaments.services.results import match_award
from tournaments.services.setup import tournament_create
from tournaments.services.stages import tournament_start
from tournaments.services.transfer import (
    csv_import,
    csv_preview,
    entry_check_in,
    standings_csv,
    tournament_export,
    tournament_import,
)

pytestmark = pytest.mark.django_db

TEAMS_CSV = """team,player1,player2,club,rating
王李组合,王小明,李华,北京,1800
Zoë & Ali,Zoë Dubois,Ali Hassan,Paris,1750
"""


def test_csv_preview_lists_rows_and_writes_nothing(organizer):
    t = tournament_create(owner=organizer, name="Cup")
    preview = csv_preview(tournament=t, data=TEAMS_CSV.encode("utf-8-sig"))
    assert preview.ok and preview.kind == "teams"
    assert [r.values["team"] for r in preview.rows] == ["王李组合", "Zoë & Ali"]
    assert preview.rows[0].values["rating"] == 1800
    assert not Team.objects.exists() and not Player.objects.exists()


def test_csv_with_bad_rows_names_each_line_and_imports_nothing(organizer):
    t = tournament_create(owner=organizer, name="Cup")
    bad = TEAMS_CSV + "孤单,张三,,上海,abc\n重复,甲,甲,上海,\n王李组合,丙,丁,,\n"
    preview = csv_preview(tournament=t, data=bad)
    errors = {r.line: r.errors for r in preview.rows if r.errors}
    assert set(errors) == {4, 5, 6}
    assert any("player2" in e for e in errors[4]) and any("rating" in e for e in errors[4])
    assert any("different" in e for e in errors[5])
    assert any("twice" in e for e in errors[6])
    with pytest.raises(ServiceError) as exc:
        csv_import(tournament=t, data=bad, actor=Actor(organizer))
    assert {"line 4", "line 5", "line 6"} <= set(exc.value.field_errors)
    assert not Entry.objects.exists() and not Team.objects.exists()


def test_csv_missing_columns_and_non_utf8(organizer):
    t = tournament_create(owner=organizer, name="Cup")
    assert not csv_preview(tournament=t, data="name,club\nx,y\n").ok
    with pytest.raises(ServiceError) as exc:
        csv_preview(tournament=t, data="team,player1,player2\n王,李,张\n".encode("gbk"))
    assert "file" in exc.value.field_errors


def test_csv_import_enters_teams_and_players_for_individual_variants(organizer):
    t = tournament_create(owner=organizer, name="Cup")
    csv_import(tournament=t, data=TEAMS_CSV, actor=Actor(organizer))
    assert sorted(e.name for e in t.entries.all()) == ["Zoë & Ali", "王李组合"]
    red = tournament_create(owner=organizer, name="红五", variant="red-five")
    csv_import(tournament=red, data="name,club,contact,rating\n陈静,长沙,,1600\n赵磊,长沙,,\n", actor=Actor(organizer))
    assert sorted(e.name for e in red.entries.all()) == ["赵磊", "陈静"]


def test_json_export_imports_back_unchanged(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=5, third_place=True, name="导出测试 Export")
    ready = list(Match.objects.filter(stage__tournament=t, status="ready"))
    win_match(ready[0], 1, actor)
    play_hand(ready[1], SHUTOUT, actor, dealer=0)
    match_award(match_id=Match.objects.filter(stage__tournament=t, status="ready").last().pk, winner_side=0,
                reason="没来 no show", actor=actor, kind="forfeit")
    exported = tournament_export(t)
    text = json.dumps(exported, ensure_ascii=False)
    again = tournament_import(data=json.loads(text), owner=organizer)
    assert again.pk != t.pk
    assert tournament_export(again) == exported
    standings = [(r.name, r.rank, r.wins) for r in selectors.elimination_standings(t)]
    assert [(r.name, r.rank, r.wins) for r in selectors.elimination_standings(again)] == standings
    assert Player.objects.count() == 10  # players were reused, not duplicated


def test_json_import_refuses_bad_documents_and_writes_nothing(organizer):
    with pytest.raises(ServiceError) as exc:
        tournament_import(data={"format": "other"}, owner=organizer)
    assert "format" in exc.value.field_errors
    doc = tournament_export(make_tournament(owner=organizer, teams=2))
    doc["entries"][0]["team"] = "T99"
    count = Entry.objects.count()
    with pytest.raises(ServiceError) as exc:
        tournament_import(data=doc, owner=organizer)
    assert "file" in exc.value.field_errors and Entry.objects.count() == count


def test_standings_csv_has_a_bom_and_chinese_names(organizer):
    t = make_tournament(owner=organizer, teams=2)
    rows = selectors.elimination_standings(t)
    text = standings_csv(rows, [("rank", "Rank"), ("name", "Name"), ("wins", "Wins")])
    assert text.startswith("\ufeffRank,Name,Wins")
    assert "队伍" in text


@pytest.mark.parametrize("absent", ["withdraw", "forfeit"])
def test_check_in_withdraws_or_forfeits_absent_entries(organizer, absent):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4, start=False)
    entries = list(t.entries.order_by("seed"))
    for e in entries[:3]:
        entry_check_in(entry=e, present=True, actor=actor)
    tournament_start(tournament=t, actor=actor, absent=absent, seeding="rating" if absent == "withdraw" else "manual")
    if absent == "withdraw":
        entries[3].refresh_from_db()
        assert entries[3].status == "withdrawn"
        assert Match.objects.filter(stage__tournament=t).count() == 2
    else:
        forfeited = Match.objects.get(stage__tournament=t, status="finished")
        assert forfeited.adjustments.get().kind == "forfeit"
        assert forfeited.winner == entries[0]
