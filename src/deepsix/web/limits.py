"""Limits per client address: what one address may ask of a server that faces the internet.

A server open to anyone must stay responsive for the people at its tables
while someone else floods it.  :class:`Guard` keeps, per client address
(the peer of the TCP connection):

* a rate of HTTP API requests (``requests_per_second``, with a burst of
  ten seconds' worth) -- refused with ``429 rate-limited``;
* a rate of tables made (``tables_per_minute``) and a cap on the live
  tables it made (``tables_per_address``), and on those with bots
  (``bot_tables_per_address``) -- refused with ``429 too-many-tables``.
  These count per *network* (:func:`network_of`: an IPv4 /24, an IPv6
  /64), since whoever holds one address of a network usually holds them
  all (the lobby makes room at its table cap too: :meth:`deepsix.web.lobby.Lobby.create`);
* a cap on its open TCP connections, HTTP and WebSocket alike
  (``connections_per_address``), and on all connections of the process
  (``max_connections``, below the process's open-file limit) -- a connection
  over a cap is closed as soon as it is accepted
  (:mod:`deepsix.web.transport`).

:class:`Bucket` is the token bucket every rate here (and the sockets' and
the chat's) is counted with.  Behind a reverse proxy every client has the
proxy's address: set the limits at the proxy, or raise them here.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable
from typing import Final, Protocol

from deepsix.web.config import ServerConfig
from deepsix.web.protocol import WebError

__all__ = ["Bucket", "Guard", "Made", "network_of"]

FORGET_AFTER: Final = 4096
"""Addresses remembered before those with a full allowance are forgotten."""


class Bucket:
    """A token bucket: ``rate`` tokens a second on average, ``burst`` at once."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.last = time.monotonic()

    def _fill(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        return self.tokens

    def take(self) -> bool:
        """Take a token if there is one; whether there was."""
        if self._fill() >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until a token is there (0 if one is); takes none."""
        missing = 1 - self._fill()
        return 0.0 if missing <= 0 or self.rate <= 0 else missing / self.rate

    @property
    def full(self) -> bool:
        """Whether the bucket has its whole burst again (nothing to remember)."""
        return self._fill() >= self.burst


def network_of(address: str) -> str:
    """The network the table limits count ``address`` in: its IPv4 /24 (an IPv4-mapped IPv6
    address is its IPv4 one), its IPv6 /64; a network already, or anything else (a Unix
    socket's name), as it is.

    >>> from deepsix.web.limits import network_of
    >>> network_of("192.0.2.17"), network_of("2001:db8::1"), network_of("::ffff:192.0.2.17")
    ('192.0.2.0/24', '2001:db8::/64', '192.0.2.0/24')
    """
    if "/" in address:
        return address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class Made(Protocol):
    """A live table as the guard counts it."""

    maker: str | None
    """The network (:func:`network_of`) of the address that made it (``None``: made before a
    restart, or in-process)."""

    @property
    def has_bots(self) -> bool:
        """Whether a bot plays one of its seats."""


def _buckets(buckets: dict[str, Bucket], address: str, rate: float, burst: float) -> Bucket:
    bucket = buckets.get(address)
    if bucket is None:
        if len(buckets) >= FORGET_AFTER:  # forget the addresses that asked nothing lately
            for known in [key for key, kept in buckets.items() if kept.full]:
                del buckets[known]
        bucket = buckets[address] = Bucket(rate, burst)
    return bucket


class Guard:
    """One process's per-address allowances (see the module's description)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self._requests: dict[str, Bucket] = {}
        self._tables: dict[str, Bucket] = {}
        self.connections: dict[str, int] = {}
        """Open connections per address."""
        self.open = 0
        """Open connections in all."""
        self.refused = 0
        """Connections closed at once for being over a cap."""

    # -- connections ----------------------------------------------------------------------

    def admissible(self, address: str | None) -> bool:
        """Whether ``address`` is under its own cap of connections (the process's aside)."""
        return self.connections.get(address or "?", 0) < self.config.connections_per_address

    def admit(self, address: str | None) -> bool:
        """Count a new connection from ``address``; ``False`` (not counted) if over a cap."""
        config = self.config
        key = address or "?"
        held = self.connections.get(key, 0)
        if held >= config.connections_per_address or self.open >= config.max_connections:
            self.refused += 1
            return False
        self.connections[key] = held + 1
        self.open += 1
        return True

    def release(self, address: str | None) -> None:
        """A counted connection from ``address`` closed."""
        key = address or "?"
        held = self.connections.get(key, 0)
        if held <= 1:
            self.connections.pop(key, None)
        else:
            self.connections[key] = held - 1
        self.open = max(0, self.open - 1)

    # -- requests and tables --------------------------------------------------------------

    def request(self, address: str | None) -> None:
        """An HTTP API request from ``address``: ``WebError`` 429 over its rate."""
        if address is None:
            return
        rate = self.config.requests_per_second
        if not _buckets(self._requests, address, rate, 10 * rate).take():
            raise WebError("rate-limited", f"more than {rate:g} requests a second: slow down", 429)

    def make_table(self, address: str | None, tables: Iterable[Made], *, bots: bool) -> None:
        """``address`` makes a table (with bots, or not): ``WebError`` 429 if it made too
        many lately, or holds too many live ones (``tables``: every live table)."""
        if address is None:
            return
        config = self.config
        network = network_of(address)
        mine = [table for table in tables if table.maker == network]
        if len(mine) >= config.tables_per_address:
            raise WebError(
                "too-many-tables",
                f"at most {config.tables_per_address} live tables made from one network"
                f" ({network}): finish or abandon one first",
                429,
            )
        if bots:
            self.bot_table(network, mine)
        per_minute = config.tables_per_minute
        if not _buckets(self._tables, network, per_minute / 60, per_minute).take():
            raise WebError(
                "too-many-tables",
                f"at most {per_minute:g} tables a minute from one network ({network}):"
                " wait a little",
                429,
            )

    def bot_table(self, address: str | None, mine: Iterable[Made]) -> None:
        """A table made from ``address`` (or its network) gets bots: ``WebError`` 429 if that
        network holds too many such."""
        if address is None:
            return
        most = self.config.bot_tables_per_address
        network = network_of(address)
        if sum(1 for table in mine if table.maker == network and table.has_bots) >= most:
            raise WebError(
                "too-many-tables",
                f"at most {most} live tables with bots made from one network ({network}):"
                " finish or abandon one first",
                429,
            )
