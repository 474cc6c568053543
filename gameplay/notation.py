"""A hand log's forms and its replay: the ``shengji-hand/1`` JSON log (:meth:`gameplay.hand.Hand.to_json`),
its text notation (one event per line, used by the golden files) and :func:`replay`, which rebuilds the
hand from a log and refuses a tampered one with :class:`InvalidLog` naming the event and the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from gameplay.cards import format_cards
from gameplay.config import HandConfig
from gameplay.errors import GameplayError
from gameplay.events import (
    Bid,
    Bury,
    Deal,
    Declare,
    Event,
    Insure,
    NameTrump,
    Overturn,
    Pass,
    Play,
    Redeal,
    Shuffle,
    event_from_json,
)
from gameplay.hand import LOG_FORMAT, Hand


class InvalidLog(GameplayError):
    """A hand log that does not replay: ``.index`` is the event, the message says why."""

    code = "invalid_log"

    def __init__(self, index: int | None, en: str, zh: str | None = None) -> None:
        super().__init__(en, zh)
        self.index = index



def apply_event(hand: Hand, ev: Event) -> Event:
    """Apply a logged action event to ``hand`` (as :func:`replay` does): the hand checks it as a play."""
    if isinstance(ev, Deal):
        return hand.deal()
    seat = ev.seat
    if seat is None:
        raise GameplayError(f"a {ev.kind} event needs a seat", f"{ev.kind} 事件须有座位")
    with_cards = {Declare: hand.declare, Bury: hand.bury, Insure: hand.insure, Overturn: hand.overturn,
                  Play: hand.play}.get(type(ev))
    if with_cards is not None:
        return with_cards(seat, ev.cards)
    if isinstance(ev, Pass):
        return hand.pass_(seat)
    if isinstance(ev, Bid):
        if ev.amount is None:
            raise GameplayError("a bid needs an amount", "叫分须有分数")
        return hand.bid(seat, ev.amount)
    if isinstance(ev, NameTrump):
        return hand.name_trump(seat, str(ev.suit))
    raise GameplayError(f"unknown action {ev.kind!r}", f"未知动作 {ev.kind!r}")

def replay(data: Mapping[str, Any] | str) -> Hand:
    """Rebuild a hand from its JSON log (a dict or a JSON string), checking every event.

    Raises :class:`InvalidLog` at the first event that is malformed, refused by the rules, or
    different from what the replayed hand produces."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise InvalidLog(None, f"The log is not JSON: {e}.", f"日志不是 JSON：{e}。") from e
    if not isinstance(data, Mapping) or data.get("format") != LOG_FORMAT or not isinstance(data.get("events"), list):
        raise InvalidLog(None, f"Not a hand log: expected an object with \"format\": \"{LOG_FORMAT}\", "
                         "\"config\" and \"events\".", "不是牌局日志：须为含 format、config、events 的对象。")
    raw = data["events"]
    try:
        events = [event_from_json(e) for e in raw]
    except (GameplayError, KeyError, TypeError, ValueError) as e:
        bad = next((i for i, r in enumerate(raw) if not _parses(r)), None)
        raise InvalidLog(bad, f"Event {bad} cannot be read: {e}.", f"第 {bad} 个事件无法读取：{e}。") from e
    if not events or not isinstance(events[0], Shuffle):
        raise InvalidLog(0, "Event 0 must be the shuffle (the deck in dealing order).", "第 0 个事件必须是洗牌（发牌顺序）。")
    decks = iter([list(e.cards) for e in events if isinstance(e, Redeal)])

    def next_deck() -> list[int]:
        d = next(decks, None)
        if d is None:
            raise InvalidLog(None, "The log redeals more often than it records.", "日志中的重新发牌次数不符。")
        return d

    try:
        config = HandConfig.from_json(data["config"])
        hand = Hand(config, deck=list(events[0].cards), deck_source=next_deck)
    except (GameplayError, KeyError, TypeError, ValueError) as e:
        raise InvalidLog(0, f"The config or the deck is invalid: {e}.", f"配置或牌序无效：{e}。") from e
    i = 1
    while i < len(events):
        ev = events[i]
        if not ev.is_action:
            raise InvalidLog(i, f"Event {i} ({ev}) is not an action and does not follow from the previous one.",
                             f"第 {i} 个事件（{ev}）不是动作，也不由前一个动作产生。")
        start = len(hand.log)
        if start != i:
            raise InvalidLog(i, f"Event {i} ({ev}): the hand expected event {start} here.", f"第 {i} 个事件位置不符。")
        try:
            apply_event(hand, ev)
        except InvalidLog:
            raise
        except GameplayError as e:
            raise InvalidLog(i, f"Event {i} ({ev}) is refused: {e.message('en')}",
                             f"第 {i} 个事件（{ev}）不合规则：{e.message('zh-hans')}") from e
        for j in range(start, len(hand.log)):
            if j >= len(events):
                raise InvalidLog(j, f"The log ends early: event {j} should be {hand.log[j]}.",
                                 f"日志提前结束：第 {j} 个事件应为 {hand.log[j]}。")
            if hand.log[j] != events[j]:
                raise InvalidLog(j, f"Event {j} differs: the log says {events[j]}, the replay gives {hand.log[j]}.",
                                 f"第 {j} 个事件不符：日志为 {events[j]}，重放得到 {hand.log[j]}。")
        i = len(hand.log)
    if not hand.finished:
        raise InvalidLog(len(events), f"The log stops before the hand ends (phase {hand.phase}).",
                         f"日志在牌局结束前中断（{hand.phase} 阶段）。")
    return hand


_LINE = re.compile(r"^(?P<kind>[a-z_]+)(?: (?P<seat>\d+))?(?:: (?P<cards>[^\[\]>!]*?))?(?: \[(?P<value>.*)\])?"
                   r"(?: -> (?P<forced>[^!]*?))?(?: !(?P<penalty>\d+))?$")


def event_text(ev: Event) -> str:
    """One event in text notation: ``kind[ seat][: cards][ [value]][ -> forced][ !penalty]``.

    >>> event_text(Play(2, (51, 50, 50), (51,)))
    'play 2: SA SK SK -> SA'
    >>> event_from_text("bid 1 [120]")
    Bid(seat=1, cards=(), amount=120)
    """
    out = ev.kind
    if ev.seat is not None:
        out += f" {ev.seat}"
    if ev.cards:
        out += f": {format_cards(ev.cards)}"
    if ev.value is not None:
        out += f" [{json.dumps(ev.value, ensure_ascii=False)}]"
    if isinstance(ev, Play):
        if ev.forced is not None:
            out += f" -> {format_cards(ev.forced)}"
        if ev.penalty:
            out += f" !{ev.penalty}"
    return out


def event_from_text(line: str) -> Event:
    m = _LINE.match(line.strip())
    if m is None:
        raise InvalidLog(None, f"Not an event line: {line!r}.", f"不是事件行：{line!r}。")
    g = m.groupdict()
    data: dict[str, Any] = {"kind": g["kind"]}
    if g["seat"] is not None:
        data["seat"] = int(g["seat"])
    if g["cards"]:
        data["cards"] = g["cards"]
    if g["value"] is not None:
        data["value"] = json.loads(g["value"])
    if g["forced"] is not None:
        data["forced"] = g["forced"]
    if g["penalty"]:
        data["penalty"] = int(g["penalty"])
    try:
        return event_from_json(data)
    except (GameplayError, KeyError, TypeError, ValueError) as e:
        raise InvalidLog(None, f"Not an event line: {line!r} ({e}).", f"不是事件行：{line!r}（{e}）。") from e


def log_text(data: Mapping[str, Any]) -> str:
    """A JSON hand log as text: ``# config: {...}`` then one event per line (golden files)."""
    lines = [f"# {data.get('format', LOG_FORMAT)}", "# config: " + json.dumps(data["config"], sort_keys=True,
                                                                             ensure_ascii=False)]
    lines += [event_text(event_from_json(e)) for e in data["events"]]
    return "\n".join(lines) + "\n"


def log_from_text(text: str) -> dict[str, Any]:
    """The JSON hand log of a text log (see :func:`log_text`); replay it with :func:`replay`."""
    config: Any = None
    events = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("# config:"):
            config = json.loads(line[len("# config:"):])
        elif not line.startswith("#"):
            events.append(event_from_text(line).to_json())
    if config is None:
        raise InvalidLog(None, "The text log has no “# config:” line.", "文本日志缺少“# config:”行。")
    return {"format": LOG_FORMAT, "config": config, "events": events}


def _parses(raw: Any) -> bool:
    try:
        event_from_json(raw)
    except (GameplayError, KeyError, TypeError, ValueError):
        return False
    return True

