"""Printables: every document renders as a page and as a PDF whose text (read back with pypdf) holds
the Chinese and Latin names, the ranks and the figures; one score sheet per table; bulk runs go
through a PrintJob in-process, through a real worker, and fail quickly and visibly with no broker."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.factories import TAKEOVER, UserFactory, play_hand, win_match
from tournaments import documents as docs
from tournaments.models import (
    Entry,
    HandRecord,
    Match,
    Player,
    PrintJob,
    Round,
    Stage,
    TableSeat,
    Team,
    Tournament,
)
from tournaments.services import Actor, printing
from tournaments.services.results import match_award
from tournaments.services.setup import entry_add, staff_add, tournament_create
from tournaments.services.stages import tournament_start

TEAMS = [("王小明 & 李华", "王小明", "李华"), ("Zoë & Ali", "Zoë", "Ali"), ("张伟 & 刘洋", "张伟", "刘洋"),
         ("Bob & Carol", "Bob", "Carol")]
PLAYERS = ["王小明", "Zoë", "李华", "Ali"]


def pdf_text(pdf: bytes) -> tuple[str, int]:
    reader = PdfReader(io.BytesIO(pdf))
    return "\n".join(page.extract_text() for page in reader.pages), len(reader.pages)


def pdf_fonts(pdf: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(pdf))
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font") or {}
        for font in fonts.values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


class Fixture:
    """Four named teams, seeds 1–4: 王小明 & 李华 beat Bob & Carol (4 shut-outs, A–2); Zoë & Ali v
    张伟 & 刘洋 has one hand played (attackers 85: the deal passes)."""

    def __init__(self, variant: str = "tractor", *, is_public: bool = True, **options: Any) -> None:
        self.owner = UserFactory(username=f"owner-{variant}-{is_public}")
        self.actor = Actor(self.owner)
        self.tournament = tournament_create(owner=self.owner, name="春季升级赛 Spring Cup", variant=variant,
                                            is_public=is_public, options=options or None)
        for seed, (name, first, second) in enumerate(TEAMS, start=1):
            team = Team.objects.create(name=name, player1=Player.objects.create(name=first),
                                       player2=Player.objects.create(name=second))
            entry_add(tournament=self.tournament, actor=self.actor, team=team, seed=seed)
        self.stage = tournament_start(tournament=self.tournament, actor=self.actor)
        self.first, self.second = Match.objects.filter(stage=self.stage, round__number=1).order_by("position")
        self.round = self.first.round
        if variant == "tractor":
            win_match(self.first, 0, self.actor)
        else:  # chaodi climbs to A: award the match instead
            play_hand(self.first, TAKEOVER, self.actor, dealer=0)
            match_award(match_id=self.first.pk, winner_side=0, reason="对方弃权 forfeit", actor=self.actor)
        play_hand(self.second, TAKEOVER, self.actor, dealer=1)
        self.tournament.refresh_from_db()
        self.first = docs.match_for_print(self.first.pk)


@pytest.fixture
def cup(db: None) -> Fixture:
    return Fixture()


# --------------------------------------------------------------------------- documents, per variant

@pytest.mark.parametrize("variant", ["tractor", "chaodi"])
def test_every_document_renders_as_page_and_pdf_for_partnership_variants(db: None, variant: str) -> None:
    fx = Fixture(variant)
    t = fx.tournament
    cases = [
        (docs.StandingsDocument(tournament=t, stage=fx.stage), 1, ["王小明 & 李华", "Zoë & Ali", "Bob & Carol"]),
        (docs.BracketDocument(tournament=t, stage=fx.stage), 1, ["王小明 & 李华", "Zoë & Ali", "R1-M1"]),
        (docs.ScoreSheetsDocument(tournament=t, round=fx.round), 2, [*PLAYERS, "Bob", "张伟"]),
        (docs.SeatingDocument(tournament=t, round=fx.round), 1, [*PLAYERS, "刘洋"]),
        (docs.TableCardsDocument(tournament=t, round=fx.round), 1, [*PLAYERS, "Carol"]),
        (docs.ResultSlipDocument(tournament=t, match=fx.first), 1, ["王小明", "李华", "Bob", "Carol"]),
    ]
    for document, pages, names in cases:
        html = document.render_html()
        assert "春季升级赛" in html and all(name.replace("&", "&amp;") in html for name in names), document.kind
        pdf, count = docs.pdf_bytes(document)
        text, read_pages = pdf_text(pdf)
        assert pdf.startswith(b"%PDF") and count == read_pages == pages, (document.kind, count)
        assert "春季升级赛" in text, document.kind
        for name in names:
            assert name in text, (document.kind, name)


def test_standings_pdf_has_ranks_ties_and_figures(cup: Fixture) -> None:
    """Ranks 1, 2, 2, 4: the two unfinished teams tie; the winner has +12 levels (A against 2)."""
    pdf, _pages = docs.pdf_bytes(docs.StandingsDocument(tournament=cup.tournament, stage=cup.stage))
    text, _ = pdf_text(pdf)
    lines = [re.sub(r"\s+", " ", line).strip() for line in text.splitlines()]
    # rank, name, place (every entry: the three still in play can reach 1st–3rd, the one out is 4th),
    # played, wins, lost, level difference
    assert "1 王小明 & 李华 1–3 1 1 0 +12" in lines
    assert {"2 Zoë & Ali 1–3 0 0 0 0", "2 张伟 & 刘洋 1–3 0 0 0 0"} <= set(lines)
    assert "4 Bob & Carol 4 1 0 1 -12" in lines
    for heading in ("Rank", "Place", "Played", "Wins", "Lost", "Level diff.", "排名表"):
        assert heading in text


def test_bracket_fits_64_entries_on_one_page_and_splits_bigger_ones(db: None) -> None:
    from tests.tournaments.factories import make_tournament

    t64 = make_tournament(teams=64, third_place=True)
    document = docs.BracketDocument(tournament=t64, stage=t64.stages.get())
    pdf, pages = docs.pdf_bytes(document)
    text, _ = pdf_text(pdf)
    assert pages == 1 and "R1-M32" not in text  # compact: keys hidden, names shown
    names = list(Entry.objects.filter(tournament=t64).select_related("team").values_list("team__name", flat=True))
    assert all(name in text for name in names[:64:9]) and "third-place match" in text
    t128 = make_tournament(teams=128)
    context = docs.BracketDocument(tournament=t128, stage=t128.stages.get()).get_context()
    assert [len(page["grid"]) for page in context["pages"]] == [32, 32, 2]  # 2 blocks of 32 matches, then to the final
    assert [len(page["round_names"]) for page in context["pages"]] == [6, 6, 2]


def double_elimination_cup() -> tuple[Tournament, Stage, dict[str, Match]]:
    """Six teams, double elimination with a reset grand final (seeds 1 and 2 have byes): W1-M2 and
    W1-M4 played, then W2-M1, then L2-M2 between the losers of W1-M4 and W2-M1."""
    from tests.tournaments.factories import make_tournament

    t = make_tournament(teams=6, start=False, name="双败赛 Double Cup")
    actor = Actor(t.owner)
    stage = tournament_start(tournament=t, actor=actor, format="double_elimination", grand_final="reset")
    for key, side in [("W1-M2", 0), ("W1-M4", 1), ("W2-M1", 0), ("L2-M2", 1)]:
        win_match(Match.objects.get(stage=stage, key=key), side, actor)
    matches = {m.key: m for m in Match.objects.filter(stage=stage).select_related(
        "entry0__team", "entry1__team")}
    return t, stage, matches


def test_double_elimination_bracket_prints_winners_losers_and_grand_final(db: None) -> None:
    t, stage, matches = double_elimination_cup()
    document = docs.BracketDocument(tournament=t, stage=stage)
    html = document.render_html()
    names = list(Entry.objects.filter(tournament=t).values_list("team__name", flat=True))
    assert len(names) == 6 and all(name in html for name in names)
    pdf, pages = docs.pdf_bytes(document)
    text, read_pages = pdf_text(pdf)
    assert pages == read_pages == 1  # six teams: both brackets and the grand final on one landscape page
    flat = re.sub(r"\s+", " ", text)
    assert "双败赛" in text and all(name in flat for name in names)
    for label in ("Winners' bracket", "Losers' bracket", "winners' round 1", "winners' final", "losers' round 2",
                  "losers' final", "grand final", "grand final reset", "only if needed"):
        assert label in flat, label
    for key in ("W1-M2", "W2-M2", "W3-M1", "L2-M1", "L3-M1", "L4-M1", "GF1", "GF2"):
        assert key in flat, key
    # the winners are marked, the losers not; empty places say where their entry comes from
    winners = [m.winner.name for key, m in matches.items() if m.status == Match.Status.FINISHED]
    losers = [m.entry(1 - m.winner_side).name for m in matches.values() if m.status == Match.Status.FINISHED]
    assert len(winners) == 4
    assert all(re.search(re.escape(name) + r"\s*✔", flat) for name in winners), flat
    assert not any(re.search(re.escape(name) + r"\s*✔", flat) for name in set(losers) - set(winners))
    assert "winner of W2-M2" in flat and "loser of W2-M2" in flat and "winner of L4-M1" in flat
    assert "winner of" in html and "✔" in html
    # a reset that was not needed is left out
    Match.objects.filter(pk=matches["GF2"].pk).update(status=Match.Status.VOID)
    html = docs.BracketDocument(tournament=t, stage=stage).render_html()
    assert "GF1" in html and "GF2" not in html and "grand final reset" not in html


def test_bigger_double_elimination_puts_the_losers_bracket_on_its_own_page(db: None) -> None:
    from tests.tournaments.factories import make_tournament

    t = make_tournament(teams=40, start=False)
    stage = tournament_start(tournament=t, actor=Actor(t.owner), format="double_elimination")
    context = docs.BracketDocument(tournament=t, stage=stage).get_context()
    parts = [part for page in context["pages"] for part in page["parts"]]
    assert [len(page["parts"]) for page in context["pages"]] == [1, 1]
    assert [len(part["grid"]) for part in parts] == [32, 16]  # 64 places: 32 winners' rows, 16 losers' rows
    assert parts[0]["round_names"][-1] == "grand final" and parts[1]["round_names"][-1] == "losers' final"
    assert docs.pdf_bytes(docs.BracketDocument(tournament=t, stage=stage))[1] == 2


def test_double_elimination_print_pages_answer(client: Any, db: None) -> None:
    t, stage, matches = double_elimination_cup()
    client.force_login(t.owner)
    page = client.get(reverse("print-bracket", args=[t.pk]))
    assert page.status_code == 200
    content = page.content.decode()
    assert matches["W1-M2"].winner.name in content and "Losers&#x27; bracket" in content
    pdf = client.get(reverse("print-bracket-pdf", args=[t.pk]) + f"?stage={stage.pk}")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert "GF1" in pdf_text(pdf.content)[0]
    jobs = client.get(reverse("print-jobs", args=[t.pk])).content.decode()
    assert f"?stage={stage.pk}" in jobs  # the print page offers the bracket of the double elimination


def test_chinese_is_drawn_with_an_embedded_cjk_font(cup: Fixture) -> None:
    pdf, _pages = docs.pdf_bytes(docs.SeatingDocument(tournament=cup.tournament, round=cup.round))
    assert any("Noto-Sans-CJK-SC" in name for name in pdf_fonts(pdf)), pdf_fonts(pdf)
    text, _ = pdf_text(pdf)
    assert "王小明" in text and "座位表" in text and "□" not in text


def test_documents_in_chinese_have_chinese_headings(cup: Fixture) -> None:
    from django.utils import translation

    with translation.override("zh-hans"):
        document = docs.ScoreSheetsDocument(tournament=cup.tournament, matches=[cup.second])
        text, pages = pdf_text(docs.pdf_bytes(document)[0])
    assert pages == 1 and text.count("记分表") == 2  # the heading and the running footer, no English beside
    for word in ("签名", "庄家座位", "打完后级数", "Zoë", "张伟"):
        assert word in text, word
    assert "Score sheet" not in text and "Signature" not in text


def test_score_sheets_one_page_per_table_with_link_levels_and_figures(cup: Fixture) -> None:
    document = docs.ScoreSheetsDocument(tournament=cup.tournament, round=cup.round, base_url="https://club.example")
    pdf, pages = docs.pdf_bytes(document)
    text, _ = pdf_text(pdf)
    assert pages == 2
    first, second = (page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    compact = re.sub(r"\s+", "", first)
    assert f"https://club.example/t/{cup.first.scorer_token}/" in compact  # the QR code's text, printed too
    assert "Table1" in compact and "semi-final" in first
    assert "Seat1:王小明" in compact and "Seat3:李华" in compact and "Seat2:Bob" in compact and "Seat4:Carol" in compact
    # the four recorded hands: dealer (seats as people read them, 1–4), trump, points, last trick, levels after
    for hand, (dealer, levels) in enumerate([(1, "52"), (3, "82"), (1, "J2"), (3, "A2")], start=1):
        assert f"{hand}{dealer}NT00D1{levels}" in compact
    assert "Attackers'points" in compact and "Levelsafter" in compact and "Signature" in first
    assert "Seat1:Zoë" in re.sub(r"\s+", "", second) and "Throw penalties" not in text


def test_sheet_columns_follow_the_variant(db: None) -> None:
    """RULES.md §7: what the scorer fills per hand, then the results after it."""
    from scoring.rules import scoring_rules

    def keys(variant: str, players: int | None = None, **options: Any) -> list[str]:
        rules = scoring_rules(variant, options, players=players)
        return [c.key for c in docs.sheet_columns(rules, [str(s) for s in range(rules.players)], ["A", "B"])]

    tractor = keys("tractor")
    assert tractor == ["number", "dealer", "trump", "attackers_points", "kitty_points", "last_winner",
                       "last_largest", "level_0", "level_1", "initials"]
    assert "throw_penalties" in keys("tractor", throw_penalties=True)
    assert {"a_first", "a_last"} <= set(keys("chaodi")) and "a_first" not in tractor
    assert keys("red-five") == ["number", "dealer", "bid", "trump", "dealer_points", "kitty_points", "dealer_last",
                                "red_fives", "gp_0", "gp_1", "gp_2", "gp_3", "initials"]
    assert keys("yongzhou-300", 3) == ["number", "points_0", "points_1", "points_2", "declarer", "net_0", "net_1",
                                       "net_2", "initials"]
    assert len([k for k in keys("yongzhou-300", 4) if k.startswith("points_")]) == 4


def _table_round(variant: str, players: int, tables: int) -> tuple[Tournament, Round]:
    """Individual variants have no draw yet: seat the players by hand (TableSeat rows)."""
    owner = UserFactory(username=f"owner-{variant}-{players}")
    actor = Actor(owner)
    tournament = tournament_create(owner=owner, name="红五个人赛 Solo", variant=variant,
                                   players_per_table=players if variant == "yongzhou-300" else 4)
    names = ["王小明", "Zoë", "李华", "Ali", "张伟", "Émile", "刘洋", "Søren"]
    entries = [entry_add(tournament=tournament, actor=actor, player=Player.objects.create(name=name))
               for name in names[:players * tables]]
    stage = Stage.objects.create(tournament=tournament, format=Stage.Format.TABLE_ROUNDS, hands_per_table=8)
    round_ = Round.objects.create(stage=stage, number=1, name="")
    for table in range(tables):
        match = Match.objects.create(stage=stage, round=round_, key=f"T{table + 1}", position=table + 1,
                                     table=table + 1, status=Match.Status.READY)
        for seat in range(players):
            TableSeat.objects.create(match=match, seat=seat, entry=entries[table * players + seat])
    return tournament, round_


@pytest.mark.parametrize(("variant", "players"), [("red-five", 4), ("yongzhou-300", 3), ("yongzhou-300", 4)])
def test_individual_score_sheets_have_the_variant_seats_and_columns(db: None, variant: str, players: int) -> None:
    tournament, round_ = _table_round(variant, players, tables=2)
    first = round_.matches.get(table=1)
    if variant == "red-five":
        HandRecord.objects.create(match=first, number=1, dealer=2, trump="H", outcome={
            "dealer": 2, "bid": 120, "trump": "H", "dealer_points": 125, "kitty_points": 10,
            "dealer_won_last_trick": True, "red_fives": [{"played_by": 1, "won_by": 2}]},
            result={"game_points": [-6, -6, 18, -6]})
    else:
        points = [150, 100, 50] if players == 3 else [100, 100, 50, 50]
        HandRecord.objects.create(match=first, number=1, dealer=0, outcome={"points": points, "declarer": 0},
                                  result={"net": [p - 300 // players for p in points]})
    document = docs.ScoreSheetsDocument(tournament=tournament, round=round_)
    assert len(document.units()) == 2
    pdf, pages = docs.pdf_bytes(document)
    text, _ = pdf_text(pdf)
    compact = re.sub(r"\s+", "", text)
    assert pages == 2
    assert "王小明" in text and "Zoë" in text and (players == 3 or "Ali" in text)
    if variant == "red-five":
        assert "Bid" in text and "Red fives" in text and "Game points" in text
        assert "13120♥12510✓3→2-6-6+18-6" in compact
    else:
        assert "Points (sum 300)" in text and "Declarer" in text and "Net" in text
        assert ("1150100501+500-50" if players == 3 else "110010050501+25+25-25-25") in compact
    sheet = document.get_context(document.units()[:1])["sheets"][0]
    assert len(sheet.seats) == players and not sheet.sides


def test_table_rounds_standings_and_sheets_through_the_services(db: None) -> None:
    """Red five: cumulative game points in the standings; Yongzhou: a 3-seat table among 4-seat ones
    gets a 3-seat sheet."""
    from tournaments.services.stages import stage_create, stage_start
    from tournaments.services.table_hands import table_hand_record

    owner = UserFactory(username="solo-owner")
    actor = Actor(owner)
    red = tournament_create(owner=owner, name="红五个人赛 Solo", variant="red-five")
    for name in ["王小明", "Zoë", "李华", "Ali", "张伟", "Émile", "刘洋", "Søren"]:
        entry_add(tournament=red, actor=actor, player=Player.objects.create(name=name))
    stage = stage_create(tournament=red, actor=actor, format="table_rounds", rounds=1, hands_per_table=1)
    stage_start(stage=stage, actor=actor, random_seed=3)
    outcome = {"dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
               "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 1}]}
    tables = list(Match.objects.filter(stage=stage).order_by("table"))
    for m in tables:
        table_hand_record(match_id=m.pk, outcome=outcome, version=m.version, actor=actor)
    stage.refresh_from_db()
    pdf, pages = docs.pdf_bytes(docs.StandingsDocument(tournament=red, stage=stage))
    text, _ = pdf_text(pdf)
    lines = [re.sub(r"\s+", " ", line).strip() for line in text.splitlines()]
    seat = {s.seat: s.entry.name for s in TableSeat.objects.filter(match=tables[0]).select_related("entry__player")}
    assert "Game points" in text and pages == 1
    assert any(line.startswith(f"1 {seat[1]} ") and "+4" in line for line in lines), lines
    assert any(line.startswith(f"7 {seat[0]} ") and "-8" in line for line in lines), lines
    sheets = docs.ScoreSheetsDocument(tournament=red, round=tables[0].round)
    text, pages = pdf_text(docs.pdf_bytes(sheets)[0])
    assert pages == 2 and "11120♣10020✓2→1-8+4+2+2" in re.sub(r"\s+", "", text)

    yz = tournament_create(owner=owner, name="永州 300", variant="yongzhou-300", players_per_table=4)
    for index in range(7):
        entry_add(tournament=yz, actor=actor, player=Player.objects.create(name=f"选手{index}"))
    stage = stage_create(tournament=yz, actor=actor, format="table_rounds", rounds=1, hands_per_table=1)
    stage_start(stage=stage, actor=actor, random_seed=2)
    document = docs.ScoreSheetsDocument(tournament=yz, round=stage.rounds.get())
    sheets = document.get_context()["sheets"]
    assert sorted(len(sheet.seats) for sheet in sheets) == [3, 4]
    for sheet in sheets:
        assert len([c for c in sheet.columns if c.key.startswith("points_")]) == len(sheet.seats)
    seating = docs.SeatingDocument(tournament=yz, round=stage.rounds.get()).render_html()
    assert "选手6" in seating and seating.count("<td>—</td>") == 0


@pytest.mark.parametrize(("variant", "players"), [("tractor", None), ("chaodi", None), ("red-five", None),
                                                  ("yongzhou-300", 3)])
def test_blank_sheets_for_walk_in_games(db: None, variant: str, players: int | None) -> None:
    document = docs.BlankSheetsDocument(variant=variant, players=players, count=2 if variant == "tractor" else 1)
    pdf, pages = docs.pdf_bytes(document)
    text, _ = pdf_text(pdf)
    assert pages == (2 if variant == "tractor" else 1)
    assert "空白记分表" in text and "Score sheet" in text and "Signature" in text
    assert ("Levels after" in text) == (variant in ("tractor", "chaodi"))
    assert ("A by dealer side" in text) == (variant == "chaodi")
    assert ("Points (sum 300)" in text) == (variant == "yongzhou-300")


# --------------------------------------------------------------------------- pages and permissions

def test_pdfs_on_demand_for_anyone_on_a_public_tournament(client: Any, cup: Fixture) -> None:
    pk = cup.tournament.pk
    response = client.get(reverse("print-standings-pdf", args=[pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "王小明 & 李华" in pdf_text(response.content)[0]
    page = client.get(reverse("print-bracket", args=[pk]))
    assert page.status_code == 200 and "Zoë &amp; Ali" in page.content.decode()
    assert client.get(reverse("print-seating", args=[pk, cup.round.pk])).status_code == 200
    assert client.get(reverse("print-result-slip", args=[cup.first.pk])).status_code == 200
    assert client.get(reverse("print-result-slip", args=[cup.second.pk])).status_code == 404  # not finished
    assert client.get(reverse("print-blank-sheets", args=["red-five"])).status_code == 200


def test_private_tournament_prints_only_for_its_staff(client: Any, db: None) -> None:
    fx = Fixture(is_public=False)
    pk = fx.tournament.pk
    urls = [reverse("print-standings-pdf", args=[pk]), reverse("print-bracket", args=[pk]),
            reverse("print-seating-pdf", args=[pk, fx.round.pk]), reverse("print-result-slip-pdf", args=[fx.first.pk])]
    for url in urls:
        assert client.get(url).status_code == 404, url
    scorer = UserFactory(username="scorer")
    staff_add(tournament=fx.tournament, username="scorer", role="scorer", actor=fx.actor)
    client.force_login(scorer)
    for url in urls:
        assert client.get(url).status_code == 200, url
    assert client.get(urls[0])["Cache-Control"] == "private, no-store"


def test_only_organizers_print_score_sheets(client: Any, cup: Fixture) -> None:
    sheets = reverse("print-score-sheets-pdf", args=[cup.tournament.pk, cup.round.pk])
    one = reverse("print-match-score-sheet", args=[cup.second.pk])
    response = client.get(sheets)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    scorer = UserFactory(username="scorer")
    staff_add(tournament=cup.tournament, username="scorer", role="scorer", actor=cup.actor)
    client.force_login(scorer)
    for url in (sheets, one, reverse("print-jobs", args=[cup.tournament.pk])):
        response = client.get(url)
        assert response.status_code == 403 and cup.second.scorer_token not in response.content.decode(), url
    client.force_login(cup.owner)
    response = client.get(one)
    assert response.status_code == 200 and f"/t/{cup.second.scorer_token}/" in response.content.decode()
    assert response.content.decode().count('src="data:image/png;base64,') == 1  # the QR code
    response = client.get(sheets)
    assert response.status_code == 200 and pdf_text(response.content)[1] == 2


# --------------------------------------------------------------------------- bulk runs

@pytest.fixture
def eager() -> Iterator[Any]:
    from config.celery_app import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = saved


def test_bulk_job_runs_in_process_and_is_listed_for_download(client: Any, cup: Fixture, eager: Any,
                                                             django_capture_on_commit_callbacks: Any) -> None:
    client.force_login(cup.owner)
    pk = cup.tournament.pk
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("print-job-create", args=[pk]), {"kind": "score-sheets", "round": cup.round.pk})
    assert response.status_code == 302
    job = PrintJob.objects.get(tournament=cup.tournament)
    assert (job.status, job.progress, job.total, job.pages, job.error) == ("done", 2, 2, 2, "")
    assert job.created_by == cup.owner and job.file.name.startswith("prints/")
    page = client.get(reverse("print-jobs", args=[pk])).content.decode()
    download = reverse("print-job-download", args=[job.pk])
    assert download in page and "hx-trigger" not in page  # nothing left to poll
    response = client.get(download)
    pdf = b"".join(response.streaming_content)
    assert response["Content-Type"] == "application/pdf" and "attachment" in response["Content-Disposition"]
    text, pages = pdf_text(pdf)
    assert pages == 2 and "王小明" in text and "Zoë" in text
    client.logout()
    assert client.get(download).status_code == 302


def test_bulk_job_through_htmx_answers_with_the_job_list(client: Any, cup: Fixture, eager: Any,
                                                        django_capture_on_commit_callbacks: Any) -> None:
    client.force_login(cup.owner)
    url = reverse("print-job-create", args=[cup.tournament.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kind": "seating", "round": cup.round.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="print-jobs"' in response.content.decode()
    assert PrintJob.objects.get(tournament=cup.tournament).kind == "seating"
    response = client.post(url, {"kind": "poster"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Unknown document: poster." in response.content.decode()
    response = client.post(url, {"kind": "score-sheets", "round": 987654})
    assert response.status_code == 302 and PrintJob.objects.count() == 1
    assert "No such round in this tournament." in client.get(response["Location"]).content.decode()


def test_job_list_polls_while_a_job_is_open_and_shows_failures(client: Any, cup: Fixture) -> None:
    client.force_login(cup.owner)
    PrintJob.objects.create(tournament=cup.tournament, kind="standings", title="Standings", total=1)
    PrintJob.objects.create(tournament=cup.tournament, kind="bracket", title="Bracket", status="failed",
                            error="The task queue (broker) is unavailable")
    html = client.get(reverse("print-job-list", args=[cup.tournament.pk])).content.decode()
    assert 'hx-trigger="every 2s"' in html and "<progress" in html
    assert "The task queue (broker) is unavailable" in html


def test_a_job_that_cannot_be_made_is_marked_failed_with_the_reason(cup: Fixture) -> None:
    job = PrintJob.objects.create(tournament=cup.tournament, kind="score-sheets", params={"round": 999999})
    assert printing.print_job_run(job_id=job.pk) == "failed"
    job.refresh_from_db()
    assert job.status == "failed" and "No such round" in job.error and job.finished_at


def test_a_broker_that_is_down_fails_the_job_quickly(client: Any, cup: Fixture, monkeypatch: pytest.MonkeyPatch,
                                                     django_capture_on_commit_callbacks: Any) -> None:
    from config.celery_app import app

    dead = "redis://127.0.0.1:9/0"  # nothing listens on the discard port
    monkeypatch.setenv("CELERY_BROKER_URL", dead)  # Celery prefers the environment to its settings
    saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url")}
    app.conf.task_always_eager = False
    app.conf.broker_url = dead
    client.force_login(cup.owner)
    try:
        start = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("print-job-create", args=[cup.tournament.pk]),
                                   {"kind": "table-cards", "round": cup.round.pk})
        elapsed = time.monotonic() - start
    finally:
        app.conf.update(saved)
    assert response.status_code == 302
    job = PrintJob.objects.get(tournament=cup.tournament)
    assert job.status == "failed" and "broker" in job.error and not job.file
    assert elapsed < 10, elapsed
    page = client.get(response["Location"]).content.decode()
    assert "The task queue (broker) is unavailable" in page and "hx-trigger" not in page


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_bulk_job_runs_through_a_real_worker(celery_worker: Any) -> None:
    from config.celery_app import app

    assert app.conf.task_always_eager is False
    fx = Fixture()
    job = printing.print_job_create(tournament=fx.tournament, kind="table-cards", params={"round": fx.round.pk},
                                user=fx.owner)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in ("done", "failed"):
            break
        time.sleep(0.2)
    assert job.status == "done", job.error
    assert job.task_id and job.pages == 1 and job.progress == job.total == 2
    with job.file.open("rb") as handle:
        text, _pages = pdf_text(handle.read())
    assert "王小明" in text and "Zoë" in text


def test_entry_names_are_escaped_in_pages(client: Any, cup: Fixture) -> None:
    entry = Entry.objects.get(tournament=cup.tournament, seed=2)
    Team.objects.filter(pk=entry.team_id).update(name="<script>x</script>")
    html = client.get(reverse("print-standings", args=[cup.tournament.pk])).content.decode()
    assert "<script>x</script>" not in html and "&lt;script&gt;" in html
