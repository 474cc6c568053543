"""Tables on a 390×844 phone (issue 28): one card per row, and what a card must keep.

* Swiss standings keep every tiebreak figure visible, labelled with the tiebreak's translated name, so
  four teams on the same points ranked 1, 2=, 2=, 4 show why;
* the hand log of a match is a card of at most ~120 px per hand (it was ~240 px of 1–3 characters per
  line), and a hand entered trick by trick keeps its ▶ replay link as a tap target of 40 px;
* on a wide screen both stay tables.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.template.defaultfilters import floatformat
from django.utils import translation

from tests.tournaments.test_crawl_browser import _record_a_hand_trick_by_trick
from tournaments.demo import DEMO_ORGANIZER, DEMO_SWISS, DEMO_TOURNAMENT
from tournaments.formats import tiebreaks
from tournaments.models import Match, Stage, Tournament
from tournaments.selectors.standings import COLUMN_LABELS, stage_standings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1280, "height": 900}}
LANGS = {"zh-hans": "zh-CN", "en": "en-US"}
HAND_CARD_MAX = 120  # px: a hand's card on a phone
SHOTS = Path(os.environ.get("CRAWL_SCREENSHOTS") or Path(settings.BASE_DIR) / "bench-output" / "crawl")

# Each cell of a row: its classes, whether it is drawn (in the viewport, not clipped away), its label
# (the ::before of a card's cell) and its text.
CELLS = """(table) => [...table.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => {
  const r = td.getBoundingClientRect();
  let shown = r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth + 1;
  for (let e = td; e && shown; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) shown = false;
  }
  const label = getComputedStyle(td, '::before').content;
  return {cls: td.className, shown, label: label && label !== 'none' ? JSON.parse(label) : '', text: td.innerText.trim()};
}))"""


def _context(browser: Any, lang: str, size: dict[str, Any]) -> Any:
    return browser.new_context(locale=LANGS[lang], **size)


@pytest.mark.parametrize("lang", list(LANGS))
def test_swiss_tiebreak_figures_stay_visible_on_a_phone(browser: Any, live_server: Any, lang: str) -> None:
    call_command("load_demo", verbosity=0)
    swiss = Tournament.objects.get(name=DEMO_SWISS)
    stage = Stage.objects.filter(tournament=swiss).exclude(format__in=["single_elimination", "double_elimination"]).first()
    order = list(stage.tiebreaks or tiebreaks.DEFAULT_PARTNERSHIP)
    assert len(order) >= 2, "the demo's Swiss stage ranks by tiebreaks"
    table = stage_standings(stage)
    # The demo has entries on equal points that the tiebreaks put on different ranks.
    by_points: dict[Any, set[int]] = {}
    for row in table.rows:
        by_points.setdefault(row[order[0]], set()).add(row.rank)
    assert any(len(ranks) > 1 for ranks in by_points.values()), "the demo needs a tie decided by tiebreaks"
    with translation.override(lang):
        labels = {key: str(COLUMN_LABELS[key]) for key in order}
    assert lang == "en" or all(labels[k] != k for k in order)

    context = _context(browser, lang, PHONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/tournaments/{swiss.pk}/standings/")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{lang}-phone-swiss-standings.png"), full_page=True)
        rows = page.locator(f"#standings-{stage.pk} table.stage-table").evaluate(CELLS)
        assert len(rows) == len(table.rows)
        for row, expected in zip(rows, table.rows, strict=True):
            cells = {next(c for c in cell["cls"].split() if c.startswith("col-"))[4:]: cell
                     for cell in row if "col-" in cell["cls"]}
            for key in order:
                cell = cells[key]
                assert cell["shown"], f"{key} of {expected.name} hidden on a phone"
                assert cell["label"] == labels[key], (key, cell["label"])
                value = expected[key]
                with translation.override(lang):
                    shown = "—" if value is None else floatformat(value, "-2")
                assert cell["text"] == shown, (key, cell["text"], value)
        # A card per row, across the phone.
        widths = page.locator(f"#standings-{stage.pk} table.stage-table tbody tr").evaluate_all(
            "rows => rows.map(r => r.getBoundingClientRect().width)")
        assert min(widths) > 300
    finally:
        context.close()

    context = _context(browser, lang, WIDE)  # a wide screen keeps the table and its header
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/tournaments/{swiss.pk}/standings/")
        table_el = page.locator(f"#standings-{stage.pk} table.stage-table")
        assert table_el.evaluate("t => getComputedStyle(t).display") == "table"
        assert table_el.locator("thead th", has_text=labels[order[1]]).is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("lang", list(LANGS))
def test_hand_log_is_a_short_card_per_hand_on_a_phone(browser: Any, live_server: Any, lang: str) -> None:
    from django.contrib.auth import get_user_model

    call_command("load_demo", verbosity=0)
    open_ = Tournament.objects.get(name=DEMO_TOURNAMENT)
    organizer = get_user_model().objects.get(username=DEMO_ORGANIZER)
    finished = (Match.objects.filter(stage__tournament=open_, status=Match.Status.FINISHED)
                .order_by("-hands_played", "position").first())
    assert finished.hands.count() >= 5, "a match with several hands"
    ready = Match.objects.filter(stage__tournament=open_, status=Match.Status.READY).order_by("position").first()
    _record_a_hand_trick_by_trick(ready, organizer)

    context = _context(browser, lang, PHONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/matches/{finished.pk}/")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{lang}-phone-hand-log.png"), full_page=True)
        boxes = page.locator("table.hand-log tbody tr.hand-row").evaluate_all(
            "rows => rows.map(r => { const b = r.getBoundingClientRect(); return [b.width, b.height]; })")
        assert len(boxes) == finished.hands.count()
        tall = [(n, round(h)) for n, (w, h) in enumerate(boxes, start=1) if h > HAND_CARD_MAX]
        assert not tall, f"hands taller than {HAND_CARD_MAX} px on a phone: {tall}"
        assert all(w > 300 for w, _h in boxes), boxes  # one card across the phone, not a column
        assert page.evaluate("document.documentElement.scrollWidth") <= 390

        page.goto(f"{live_server.url}/matches/{ready.pk}/")
        row = page.locator("table.hand-log tr#hand-1")
        assert row.bounding_box()["height"] <= HAND_CARD_MAX
        replay = row.locator("a.replay-link")
        box = replay.bounding_box()
        assert box["height"] >= 40 and box["width"] >= 40, box
        replay.click()
        page.wait_for_url(f"**/matches/{ready.pk}/hands/1/replay/")
    finally:
        context.close()

    context = _context(browser, lang, WIDE)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/matches/{finished.pk}/")
        log = page.locator("table.hand-log")
        assert log.evaluate("t => getComputedStyle(t).display") == "table"
        assert log.locator("thead th").first.is_visible()
    finally:
        context.close()
