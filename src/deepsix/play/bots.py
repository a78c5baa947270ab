"""Bots: programs that play one seat of Deep Six from that seat's view alone.

A bot is anything with a ``choose(view, rng) -> Action`` method (the
:class:`Bot` protocol).  It is handed a :class:`~deepsix.views.PlayerView`
-- built with :func:`deepsix.view` for its own seat -- never the
:class:`~deepsix.GameState`, so it cannot see other players' cards: bots
cannot cheat by construction.  It must return one of
``view.legal_actions``.

This module holds the protocol, the baseline :class:`RandomBot`, and the
registry of bots known by name (:data:`BOT_NAMES`, :func:`make_bot`,
:func:`register_bot`) that the command line, the simulator and the web
server share.  :class:`~deepsix.play.heuristic.HeuristicBot` lives in its
own module; :func:`~deepsix.play.loop.play_game` drives four bots through a
game.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final, Protocol, TypeVar, cast, runtime_checkable

import attrs

from deepsix.actions import Action
from deepsix.cards import Seat
from deepsix.errors import InvalidStateError, ParseError, UnknownNameError, WrongTypeError
from deepsix.views import PlayerView

T = TypeVar("T")

__all__ = [
    "BOT_NAMES",
    "ENTRY_POINT_GROUP",
    "PROGRAMS_ENTRY_POINT_GROUP",
    "Bot",
    "RandomBot",
    "acting_seat",
    "bot_rng",
    "expand_lineup",
    "is_program",
    "make_bot",
    "register_bot",
]


@runtime_checkable
class Bot(Protocol):
    """Anything that can take a seat: it sees a :class:`PlayerView`, returns a legal action.

    ``rng`` is the bot's own random stream (given by the driver so that a
    seeded game is reproducible); a deterministic bot may ignore it.
    """

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        ...


def acting_seat(view: object) -> Seat:
    """The acting seat of ``view``; refuse anything but a view of a seat whose turn it is.

    Every bot starts with this check, so that a bot handed the full state
    (or a view of another seat's turn) fails loudly instead of cheating or
    guessing.
    """
    if not isinstance(view, PlayerView):
        raise WrongTypeError(
            f"a bot plays from a PlayerView (deepsix.view(state, seat)), not {type(view).__name__}"
        )
    seat = view.seat
    if seat is None or not view.is_my_turn or not view.legal_actions:
        raise InvalidStateError(f"it is not {seat}'s turn to act in this view")
    return seat


@attrs.frozen
class RandomBot:
    """Plays a uniformly random legal action.

    The baseline every other bot must beat, and a fuzzer for the engine.
    (Its auction is suicidal: most legal bids are far below zero.)
    """

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A legal action drawn uniformly with ``rng``."""
        acting_seat(view)
        return rng.choice(view.legal_actions)


# -- the registry ---------------------------------------------------------------------

BotFactory = Callable[[], Bot]
"""Something that makes a bot: a bot class with no required arguments, or a function."""


ENTRY_POINT_GROUP: Final = "deepsix.bots"
"""Packages (this one included) name more bots under this entry-point group."""


class _Registry(Mapping[str, BotFactory]):
    """Bot names mapped to factories, imported only when a bot of that name is made.

    Entries are factories or ``"module:attribute"`` strings; a string is
    resolved on first use, so naming a bot does not import its module (the
    search bot's, say) until someone plays it.  Bots of the layers above
    this one, and of other packages, join through the ``deepsix.bots``
    entry-point group, read the first time the registry is consulted.
    """

    def __init__(self, entries: Mapping[str, BotFactory | str]) -> None:
        self._entries: dict[str, BotFactory | str] = dict(entries)
        self._plugins_read = False

    def _read_plugins(self) -> None:
        if self._plugins_read:
            return
        self._plugins_read = True
        for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            self._entries.setdefault(entry_point.name, entry_point.value)

    def __getitem__(self, name: str) -> BotFactory:
        self._read_plugins()
        entry = self._entries.get(name)
        if entry is None:
            raise UnknownNameError(f"unknown bot {name!r}: choose from {', '.join(self)}")
        if isinstance(entry, str):
            entry = _load(name, entry)
            self._entries[name] = entry
        return entry

    def __contains__(self, name: object) -> bool:
        """Whether a bot is known by ``name`` (without importing its module)."""
        self._read_plugins()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        self._read_plugins()
        return iter(list(self._entries))

    def __len__(self) -> int:
        self._read_plugins()
        return len(self._entries)

    def add(self, name: str, factory: BotFactory | str) -> None:
        self._entries[name] = factory


def _load(name: str, entry: str) -> BotFactory:
    """The factory that ``"module:attribute"`` (or ``"module:Class.method"``, as entry
    points allow) names, for the bot called ``name``."""
    module, _, attribute = entry.partition(":")
    try:
        found: object = importlib.import_module(module)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as error:
        raise ParseError(f"the bot {name!r} ({entry}) cannot be loaded: {error}") from None
    if not callable(found):
        raise ParseError(f"the bot {name!r} ({entry}) cannot be loaded: it is not callable")
    return found


BOT_NAMES: Final = _Registry(
    {
        "heuristic": "deepsix.play.heuristic:HeuristicBot",
        "random": RandomBot,
    }
)
"""The bots the command line, the simulator and the web server know by name."""


def register_bot(name: str, factory: BotFactory | str) -> None:
    """Make a bot known by ``name`` everywhere bots are chosen by name.

    ``factory`` makes the bot (a class or function taking no arguments), or
    names it as ``"package.module:attribute"`` to be imported on first use.
    """
    if not isinstance(name, str) or not name.strip() or name != name.strip().lower():
        raise ParseError(f"a bot name is a lower-case word, not {name!r}")
    if not (isinstance(factory, str) and ":" in factory) and not callable(factory):
        raise WrongTypeError(f"{factory!r} is neither a bot factory nor 'module:attribute'")
    BOT_NAMES.add(name, factory)


PROGRAMS_ENTRY_POINT_GROUP: Final = "deepsix.bot_programs"
"""The entry point (``program``) that makes a bot from a program's command line.

The library's own is :meth:`deepsix.arena.external.ExternalBot.from_spec`
(a layer above this one, so it is named here through its entry point)."""


def is_program(spec: str) -> bool:
    """Whether a bot spec names a program rather than a registered bot: a path (it holds a
    ``/``, like ``./mybot``) or ``exec:COMMAND`` (``exec:node bot.js``).

    Such programs speak the external bot protocol (:mod:`deepsix.arena.protocol`).
    """
    text = spec.strip()
    return text.startswith("exec:") or "/" in text or (os.sep != "/" and os.sep in text)


def _program_bot(spec: str) -> Bot:
    """The bot a program spec names, made by the ``program`` entry point."""
    for entry_point in importlib.metadata.entry_points(group=PROGRAMS_ENTRY_POINT_GROUP):
        if entry_point.name == "program":
            factory = cast(Callable[[str], Bot], _load(spec, entry_point.value))
            return factory(spec)
    raise ParseError(
        f"{spec!r} names a program, but no {PROGRAMS_ENTRY_POINT_GROUP} entry point runs "
        "programs: is deepsix installed (pip install -e .)?"
    )


def make_bot(spec: str | Bot) -> Bot:
    """A bot from its name (``"heuristic"``, ``"random"``, ...), a program that speaks the
    external bot protocol (``"./mybot"``, ``"exec:node bot.js"``, see :func:`is_program`),
    or the bot itself."""
    if isinstance(spec, str):
        if is_program(spec):
            return _program_bot(spec)
        name = spec.strip().lower()
        if name not in BOT_NAMES:
            raise ParseError(f"unknown bot {spec!r}: choose from {', '.join(BOT_NAMES)}")
        return BOT_NAMES[name]()
    if not isinstance(spec, Bot):
        raise WrongTypeError(f"{spec!r} is not a bot (it needs a choose(view, rng) method)")
    return spec


def expand_lineup(entries: Sequence[T]) -> tuple[T, T, T, T]:
    """Four entries by seat (N, E, S, W) from one (every seat), two (one per side:
    N and S, then E and W) or four."""
    if isinstance(entries, str):
        raise WrongTypeError("a line-up is a sequence of bots, not a single string")
    items = tuple(entries)
    if len(items) == 1:
        items = items * 4
    elif len(items) == 2:
        items = (items[0], items[1], items[0], items[1])
    if len(items) != 4:
        raise ParseError(
            f"a line-up names 1 bot, 2 (one per side) or 4 (one per seat), not {len(items)}"
        )
    return (items[0], items[1], items[2], items[3])


def bot_rng(seed: int, seat: Seat | int, resumed: int | None = None) -> random.Random:
    """The random stream a seat's bot gets in the game with this seed.

    Kept apart from the deal stream (``random.Random(seed)``), so that the
    deals of a seeded game do not depend on which bots play it.  A game
    resumed after ``resumed`` actions gets fresh streams of its own.
    """
    suffix = "" if resumed is None else f":{resumed}"
    return random.Random(f"deepsix-bot:{seed}:{int(seat)}{suffix}")
