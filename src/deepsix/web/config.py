"""The server's settings: pacing, clocks, limits (``deepsix serve`` sets them from its options)."""

from __future__ import annotations

import attrs

__all__ = ["ServerConfig"]


@attrs.frozen
class ServerConfig:
    """How a server runs its tables.  The defaults are a test's: no pauses, small limits."""

    bot_delay: float = 0.0
    """Seconds before each bot move, so that people can follow."""
    hand_pause: float = 0.0
    """Seconds before the next deal when no person at the table is waiting to look at the hand."""
    summary_limit: float = 120.0
    """The longest the next deal waits for the people at the table to dismiss the hand's
    summary (each sends ``ready``)."""
    durable: bool = False
    """fsync every move (SQLite ``synchronous=FULL``)."""
    seeded_tables: bool = False
    """Accept a ``seed`` when a table is made (tests, puzzles); such tables are marked."""
    public_clock: float | None = 90.0
    """The turn clock of a listed table unless its maker chooses (private tables: none)."""
    absent_grace: float = 60.0
    """Seconds a human may be gone (no connection, or no heartbeat) before the table's
    stand-in bot takes her seat."""
    away_after: float = 30.0
    """A connection silent this long (no message, not even a ping) counts as away."""
    idle_close: float = 30 * 60.0
    """A table nobody is connected to for this long is closed (and archived)."""
    keep_finished: float = 10 * 60.0
    """A finished table nobody is connected to is dropped from memory after this long
    (it stays in storage)."""
    bot_workers: int = 8
    """The most bot worker processes."""
    bot_time_limit: float = 10.0
    """Seconds a bot has for a move before a fallback moves instead."""
    secure_cookies: bool = False
    """Mark cookies ``Secure`` (serving over HTTPS behind a proxy)."""
    max_tables: int = 10_000
    """The most live tables."""
    unstarted_close: float = 10 * 60.0
    """A table that never started, nobody connected to it for this long, is closed (unlisted);
    after a restart its idle time counts from when it was made (so restarts never keep it)."""
    keep_finished_most: int = 1000
    """The most finished tables kept in memory (the oldest dropped first; all stay stored)."""

    # -- limits per client address (deepsix.web.limits) ------------------------------------
    requests_per_second: float = 20.0
    """HTTP API requests an address may make a second (ten seconds' worth at once)."""
    tables_per_minute: float = 10.0
    """Tables a network may make a minute (that many at once)."""
    tables_per_address: int = 10
    """Live tables made from one network at a time (IPv4 /24, IPv6 /64:
    :func:`deepsix.web.limits.network_of`); tables a minute count per network too."""
    bot_tables_per_address: int = 3
    """Live tables with a bot seat made from one network at a time."""
    connections_per_address: int = 64
    """Open connections (HTTP and WebSocket) from one address."""
    max_connections: int = 4000
    """Open connections in all (the server lowers it below its open-file limit)."""
    header_timeout: float = 10.0
    """Seconds a connection has to send a request's headers (after it opened, or after the
    previous answer)."""
    socket_idle: float = 120.0
    """A WebSocket that sends nothing, not even a ping, for this long is closed (browsers
    ping every 10 s)."""
    bot_moves_per_second: float = 50.0
    """Bot moves the whole server makes a second at most (every table's bots together): the
    bound on what bots cost the server's loop; the moves are computed in worker processes,
    at a lower priority."""
