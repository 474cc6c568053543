"""Every write of online play (docs/online.md). Keyword-only, typed; the page (``online/pages.py``) and
the consumer (``online/consumers.py``) call these and nothing else writes rooms.

Signatures (stable: the pages are built against them)::

    room_create(*, variant: str, options: Mapping[str, Any] | None = None, decks: int | None = None,
                players: int | None = None, clock: int | None = None, seating: str | None = None,
                hands: int | None = None, name: str = "", seat: int | None = None,
                user: Any = None) -> Created
        # Created(room: Room, host_token: str, seat: Seat | None, seat_token: str | None):
        # with ``name`` the creator also takes a seat (``seat`` or a random one).
    room_join(*, code: str, name: str, seat: int | None = None, user: Any = None) -> Joined
        # Joined(room: Room, seat: Seat, token: str); raises OnlineError seat_taken/room_full/bad_name.
    seat_ready(*, code: str, token: str, action_id: str, version: int) -> Answer
    seat_bot(*, code: str, host_token: str, seat: int, bot: str | None, action_id: str, version: int) -> Answer
    room_act(*, code: str, token: str, action: str, action_id: str, version: int,
             cards: str | None = None, amount: int | None = None, suit: str | None = None) -> Answer
        # action: "declare", "pass", "bid", "name_trump", "insure", "bury", "overturn", "play".
    room_rematch(*, code: str, token: str, action_id: str, version: int) -> Answer
    room_tick(*, room_id: int, version: int) -> bool     # clocks, bot seats, dealing: scheduling calls it
    room_connect(*, code: str, token: str, channel: str, host_token: str = "") -> Connected
        # Connected(room: Room, seat: int | None, host: bool, replaced: str): "" token → spectator.
    room_disconnect(*, code: str, seat: int | None, channel: str) -> None
    room_state(*, code: str, seat: int | None, host: bool = False) -> dict  # the ``state`` message

Refusals raise :class:`OnlineError` (``.code`` as docs/online.md's error table, ``.message`` bilingual,
``.field``); nothing is changed then. ``Answer(version: int, repeated: bool)``: the room's version after
the action (``repeated``: the action id had been answered; nothing changed).
"""
