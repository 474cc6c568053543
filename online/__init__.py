"""Online play: rooms, seats, the stored hand logs, clocks and the WebSocket consumers (docs/online.md).

Above :mod:`gameplay` (it runs the engine's hands) and below :mod:`tournaments` (a room knows nothing of
tournaments)."""
