"""The replay page: any hand log shown trick by trick (uploaded, pasted, or a seeded demo hand).

Django is imported lazily inside the view, so that this module (and :func:`replay_context`, the pure
view-model) imports without Django like the rest of the engine.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gameplay.cards import SUITS, code_suit
from gameplay.events import Play as PlayEvent
from gameplay.hand import Hand
from gameplay.notation import InvalidLog, replay
from gameplay.record import RECORD_FORMAT
from variants import SUIT_SYMBOLS
from variants.seats import en_seat, side_number, zh_seat

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

DEMOS: dict[str, tuple[str, dict[str, int]]] = {
    "tractor": ("tractor", {}), "chaodi": ("chaodi", {}), "red-five": ("red-five", {"decks": 2}),
    "red-five-3": ("red-five", {"decks": 3}), "yongzhou-300": ("yongzhou-300", {"players": 4}),
    "yongzhou-300-3": ("yongzhou-300", {"players": 3}),
}
"""Demo choices: the variant key, or ``red-five-3`` (3 decks) and ``yongzhou-300-3`` (3 players)."""
SYMBOLS = SUIT_SYMBOLS
MAX_LOG_BYTES = 2_000_000

KIND_WORDS = {
    "en": {"declare": "declares", "reinforce": "reinforces (自保/保主)", "overturn": "overturns (反主)",
           "self_overturn": "self-overturns (自反)", "no_trump": "no trump (反无主)", "insured": "declares insured (定主)",
           "pass": "passes", "bid": "bids", "name_trump": "names trump", "trump": "trump", "NT": "no trump",
           "flip": "kitty card turned (翻底)", "dealer": "dealer", "declarer": "declarer", "side": "side",
           "round": "overturn round 炒底"},
    "zh-hans": {"declare": "亮主", "reinforce": "保主", "overturn": "反主", "self_overturn": "自反",
                "no_trump": "反无主", "insured": "定主", "pass": "不叫", "bid": "叫分", "name_trump": "定主",
                "trump": "主", "NT": "无主", "flip": "翻底", "dealer": "庄家", "declarer": "庄家（叫主）", "side": "方",
                "round": "反主炒底"},
}


def card_chips(codes: Any, ctx: Any = None) -> list[dict[str, Any]]:
    """Cards for display, strongest first when a context is known: text with suit symbols and colour."""
    from gameplay.cards import CODE_NAMES

    order = ctx.sorted_desc(list(codes)) if ctx is not None else list(codes)
    out = []
    for c in order:
        name = CODE_NAMES[c]
        if c >= 52:
            out.append({"text": "大王" if c == 53 else "小王", "red": c == 53, "code": name})
        else:
            s = SUITS[code_suit(c)]
            out.append({"text": SYMBOLS[s] + name[1:], "red": s in "HD", "code": name})
    return out


def seat_labels_for(n: int, lang: str) -> list[str]:
    """The seats as the generic replay page names them: ``Seat 1`` … (``1号座位`` …)."""
    return [zh_seat(s) if lang.startswith("zh") else en_seat(s) for s in range(n)]


def replay_context(hand: Hand, lang: str = "en", *, seat_labels: Sequence[str] | None = None,
                   side_labels: Sequence[str] | None = None,
                   declarations: Sequence[tuple[int, Sequence[int]]] = ()) -> dict[str, Any]:
    """The pure view-model of a finished (or partial) hand.

    ``seat_labels``: how the page names each seat (a tournament passes ``Seat 1 · Zhang Wei``; by
    default ``Seat 1`` …), ``side_labels`` each side (a team's name; by default ``side 1``, ``side 2``).
    ``declarations``: (seat, cards) shown during the deal of a hand recorded
    trick by trick (its facts), which its log (a placed position) cannot hold."""
    from scoring.api import explain_hand_request

    words = KIND_WORDS["zh-hans" if lang.startswith("zh") else "en"]
    ctx = hand.ctx
    n = hand.n
    labels = list(seat_labels) if seat_labels is not None else seat_labels_for(n, lang)
    labels += seat_labels_for(n, lang)[len(labels):]

    def named(seat: int | None) -> str:
        return "" if seat is None else labels[seat]

    dealt: list[list[int]] = [[] for _ in range(n)]
    calls: list[dict[str, Any]] = []
    kitty_taken: list[dict[str, Any]] = []
    buried: list[dict[str, Any]] = []
    for e in hand.log:
        k = e.kind
        if k == "position" and e.cards:
            # a hand placed at the play phase (recorded trick by trick): the cards in dealing order, then the kitty
            size = (len(e.cards) - len(hand.kitty)) // n
            dealt = [list(e.cards[s:n * size:n]) for s in range(n)]
        elif k == "redeal":
            dealt = [[] for _ in range(n)]
            calls.append({"seat": None, "text": "redeal / 重新发牌", "cards": []})
        elif k == "deal" and e.seat is not None:
            dealt[e.seat].append(e.cards[0])
        elif k in ("declare", "overturn", "insure"):
            calls.append({"seat": e.seat, "text": words.get(str(e.value), str(e.value)), "cards": card_chips(e.cards)})
        elif k == "pass":
            phase = {"overturn": words["round"], "bid": words["bid"]}.get(str(e.value), "")
            calls.append({"seat": e.seat, "text": f"{words['pass']} ({phase})" if phase else words["pass"],
                          "cards": []})
        elif k == "bid":
            calls.append({"seat": e.seat, "text": f"{words['bid']} {e.value}", "cards": []})
        elif k in ("name_trump", "trump"):
            v = str(e.value)
            label = words["NT"] if v == "NT" else SYMBOLS.get(v, v)
            text = f"{words['trump']}: {label}"
            if e.cards:
                text = f"{words['flip']} → {text}"
            calls.append({"seat": e.seat, "text": text, "cards": card_chips(e.cards)})
        elif k == "take_kitty":
            kitty_taken.append({"seat": e.seat, "cards": card_chips(e.cards, ctx)})
        elif k == "bury":
            buried.append({"seat": e.seat, "cards": card_chips(e.cards, ctx)})
    if not any(c["cards"] for c in calls):
        calls += [{"seat": seat, "text": words["declare"], "cards": card_chips(cards)} for seat, cards in declarations]
    for call in (*calls, *kitty_taken, *buried):
        call["label"] = named(call["seat"])
    tricks = []
    running = [0] * n
    for number, (leader, plays, winner, points) in enumerate(hand.tricks, start=1):
        running[winner] += points
        tricks.append({
            "number": number, "leader": leader, "winner": winner, "points": points, "running": list(running),
            "leader_label": named(leader), "winner_label": named(winner),
            "plays": [{"seat": p.seat, "label": named(p.seat), "cards": card_chips(p.cards, ctx), "winner": p.seat == winner,
                       "forced": card_chips(p.forced, ctx) if p.forced is not None else None,
                       "penalty": p.penalty} for p in plays if isinstance(p, PlayEvent)],
        })
    result: dict[str, Any] | None = None
    explanation: list[str] = []
    if hand.finished and hand.outcome is not None:
        body = explain_hand_request(hand.score_request(), lang)
        explanation = body.pop("explanation", [])
        result = body
    seats = []
    for s in range(n):
        role = []
        if hand.dealer == s:
            role.append(words["declarer"] if hand.rules.spec.dealer_is_declarer else words["dealer"])
        if hand.partnership:
            role.append(side_labels[s % 2] if side_labels and len(side_labels) == 2
                        else f"{words['side']} {side_number(s % 2)}")
        seats.append({"seat": s, "label": named(s), "role": ", ".join(role), "cards": card_chips(dealt[s], ctx),
                      "points": hand.points[s]})
    return {
        "variant": hand.variant, "players": n, "decks": hand.rules.decks, "level": hand.level,
        "trump": words["NT"] if hand.trump is None else SYMBOLS[hand.trump] + " " + hand.trump,
        "trump_symbol": words["NT"] if hand.trump is None else SYMBOLS[hand.trump],
        "dealer": hand.dealer, "dealer_label": named(hand.dealer), "bid": hand.contract, "seats": seats, "calls": calls, "kitty_taken": kitty_taken,
        "buried": buried, "kitty_shown": card_chips(hand.shown_kitty, ctx) if hand.shown_kitty is not None else [],
        "kitty_final": card_chips(hand.kitty, ctx), "kitty_points": hand.kitty_points()
        if ctx is not None else 0, "tricks": tricks, "outcome": hand.outcome,
        "outcome_json": json.dumps(hand.outcome, ensure_ascii=False, indent=1) if hand.outcome else "",
        "result": result, "result_json": json.dumps(result, ensure_ascii=False, indent=1) if result else "",
        "explanation": explanation, "finished": hand.finished,
    }


def demo_hand(variant: str, seed: int) -> Hand:
    """A seeded demo hand (heuristic vs random bots), generated on the fly."""
    from gameplay.simulate import simulate_hand

    name, kw = DEMOS[variant]
    rec = simulate_hand(name, seed, 0, ["heuristic", "random"], keep_log=True, decks=kw.get("decks"),
                        players=kw.get("players"))
    return replay(rec["log"])


def replay_page(request: HttpRequest) -> HttpResponse:

    from config.i18n import core_lang

    lang = core_lang()
    error = ""
    hand: Hand | None = None
    record: dict[str, Any] | None = None
    raw = ""
    variant = request.GET.get("variant") or ""
    seed_text = request.GET.get("seed") or ""
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is not None:
            if upload.size and upload.size > MAX_LOG_BYTES:
                error = "The file is too large." if lang == "en" else "文件太大。"
            else:
                raw = upload.read().decode("utf-8", errors="replace")
        else:
            raw = request.POST.get("log", "")
        if raw.strip() and not error:
            text = raw.strip()
            lines = [line for line in text.splitlines() if line.strip()]
            if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
                text = lines[0]  # JSON lines (``simulate --log``): the first hand
            try:
                if _is_record(text):
                    hand, error = hand_from_record(text, lang)
                    record = json.loads(text) if hand is not None else None
                else:
                    hand = replay(text) if text.startswith("{") else _from_text(text)
            except InvalidLog as exc:
                error = exc.message(lang)
        elif not error:
            error = "Paste or upload a hand log." if lang == "en" else "请粘贴或上传牌局日志。"
    elif variant:
        try:
            seed = int(seed_text or "7")
        except ValueError:
            seed = 7
        if variant not in DEMOS:
            error = f"Unknown variant {variant!r}." if lang == "en" else f"未知玩法 {variant!r}。"
        else:
            hand = demo_hand(variant, seed)
            seed_text = str(seed)
    status = 400 if error and request.method == "POST" else 200
    return render_replay(request, hand=hand, record=record, error=error, lang=lang, status=status,
                         raw=raw, variant=variant, seed=seed_text)


def render_replay(request: HttpRequest, *, hand: Hand | None, record: dict[str, Any] | None, error: str,
                  lang: str, status: int = 200, raw: str = "", variant: str = "", seed: str = "",
                  page: dict[str, Any] | None = None) -> HttpResponse:
    """The replay page for ``hand`` (simulated, pasted, or recorded trick by trick: ``record``).

    ``page``: a hand of a tournament, as plain data from the caller (this layer knows no tournament):
    ``tournament``, ``tournament_url``, ``title``, ``match``, ``round``, ``key``, ``back_url``,
    ``live_url``, ``variant_name``, ``seat_labels`` (each seat with its player) and ``side_labels``
    (the teams, partnership matches only). The page then names the seats by them and leaves out
    the generic parts (the forms to paste or upload a log, the record formats, the JSON)."""
    from django.shortcuts import render

    context: dict[str, Any] = {"error": error, "raw": raw[:20000], "demo_variants": list(DEMOS),
                               "variant": variant, "seed": seed or "7", "page": page}
    if hand is not None:
        labels = page.get("seat_labels") if page else None
        sides = page.get("side_labels") if page else None
        context["hand"] = replay_context(hand, lang, seat_labels=labels, side_labels=sides,
                                         declarations=record_declarations(record))
        context["log_json"] = json.dumps(record, ensure_ascii=False) if record else hand.dumps()
    return render(request, "gameplay/replay.html", context, status=status)


def record_declarations(record: Any) -> list[tuple[int, tuple[int, ...]]]:
    """The declarations (seat, cards) entered with a ``shengji-record/1`` record's facts (none for
    anything else)."""
    from gameplay.record import InvalidFacts, record_from_json

    if not record:
        return []
    try:
        facts, _tricks = record_from_json(record)
    except InvalidFacts:
        return []
    return [(seat, tuple(cards)) for seat, cards in facts.declarations]


def _is_record(text: str) -> bool:
    if not text.startswith("{"):
        return False
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == RECORD_FORMAT


def hand_from_record(data: Any, lang: str) -> tuple[Hand | None, str]:
    """A hand entered trick by trick (a ``shengji-record/1`` record), derived by the engine: the same
    tricks, points and result as a simulated hand (``replay()`` cannot re-deal a recorded hand)."""
    from gameplay.record import InvalidFacts, derive, record_from_json

    try:
        facts, tricks = record_from_json(data)
        rec = derive(facts, tricks)
    except InvalidFacts as exc:
        return None, f"{exc.field}: {exc.message(lang)}"
    if rec.hand is None:
        first = rec.errors[0].message(lang) if rec.errors else ""
        return None, ("The record is not a complete hand. " if lang == "en" else "记录不是完整的一局。") + first
    return rec.hand, ""


def _from_text(text: str) -> Hand:
    from gameplay.notation import log_from_text

    return replay(log_from_text(text))
