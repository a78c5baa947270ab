"""What a match is and what each of its games gave: the configuration, the outcomes.

Every name here is public as ``deepsix.arena.match.NAME`` (documented there).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from deepsix.arena.external import DEFAULT_FALLBACK, program_command
from deepsix.arena.protocol import PROTOCOL
from deepsix.cards import Team
from deepsix.errors import DeepSixError, ParseError, WrongTypeError
from deepsix.play.bots import is_program, make_bot
from deepsix.play.simulate import game_seed
from deepsix.rules import Rules

if TYPE_CHECKING:
    pass

__all__ = ["FORMAT", "GameOutcome", "MatchConfig", "MatchError", "SeatLog"]

FORMAT: Final = "deepsix-match/1"
"""The format of ``match.json`` and ``games.jsonl``."""


class MatchError(DeepSixError):
    """A match cannot run or resume (a directory holding another match, a bad setting)."""


def _positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ParseError(f"{attribute.name} must be positive, not {value!r}")


def _sides(value: object) -> tuple[str, str]:
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2:
        raise ParseError(f"a match is between two sides (two bots), not {value!r}")
    names = tuple(value)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise WrongTypeError(f"a side is a bot's name or program, not {name!r}")
    if names[0].strip() == names[1].strip():
        raise ParseError(f"the two sides are the same bot ({names[0]!r}): name two bots")
    return (names[0].strip(), names[1].strip())


def _seeds(value: object) -> tuple[int, ...]:
    seeds = tuple(value) if isinstance(value, Sequence) and not isinstance(value, str) else None
    if seeds is None or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        raise WrongTypeError(f"seeds are a sequence of ints, not {value!r}")
    return seeds


@attrs.frozen
class MatchConfig:
    """What defines a match: the sides, the deals, the rules, the limits.

    A match directory remembers its configuration (``match.json``); running
    again with the same configuration resumes it, with another one is refused.
    """

    sides: tuple[str, str] = attrs.field(converter=_sides)
    """Side A and side B: a registered bot's name or a program (``./mybot``); each side's
    bot plays both seats of its partnership."""
    deals: int = attrs.field(validator=_positive)
    """How many duplicate deals (each played twice: ``2 * deals`` games)."""
    seed: int = 0
    """The master seed: deal ``i`` is played with ``game_seed(seed, i)``."""
    seeds: tuple[int, ...] = attrs.field(default=(), converter=_seeds)
    """Seeds registered in advance, one per deal, used instead of the master seed's."""
    rules: Rules = attrs.field(factory=Rules)
    """The rules of every game."""
    time_limit: float = attrs.field(default=5.0, validator=_positive)
    """Seconds a program bot has for each decision."""
    fallback: str = DEFAULT_FALLBACK
    """The bot that decides when a program bot cannot, and plays on for a dead one."""
    max_hands: int = attrs.field(default=1000, validator=_positive)
    """Hands after which a game stops unfinished (only if both teams keep scoring zero)."""

    def __attrs_post_init__(self) -> None:
        if self.seeds and len(self.seeds) < self.deals:
            raise ParseError(f"{len(self.seeds)} seeds registered for {self.deals} deals")
        for side in self.sides:
            if is_program(side):
                program_command(side)
            else:
                make_bot(side)
        make_bot(self.fallback)

    def seed_of(self, deal: int) -> int:
        """The seed of deal ``deal`` (0-based)."""
        return self.seeds[deal] if self.seeds else game_seed(self.seed, deal)

    def to_json(self) -> dict[str, Any]:
        """The configuration as ``match.json`` holds it."""
        from deepsix.io.wire import to_wire

        return {
            "format": FORMAT,
            "sides": list(self.sides),
            "deals": self.deals,
            "seed": self.seed,
            "seeds": list(self.seeds),
            "rules": to_wire(self.rules),
            "time_limit": self.time_limit,
            "fallback": self.fallback,
            "max_hands": self.max_hands,
            "protocol": PROTOCOL,
        }


@attrs.frozen
class SeatLog:
    """How one seat's bot did in one game: its decisions, their time, its faults."""

    decisions: int = 0
    """Decisions it made (the fallback's included)."""
    seconds: float = 0.0
    """Seconds its decisions took in all."""
    slowest: float = 0.0
    """Seconds its slowest decision took."""
    faults: tuple[str, ...] = ()
    """What a program bot did wrong, in order (:class:`~deepsix.arena.protocol.Fault`)."""
    fallback: int = 0
    """Decisions the fallback bot made for it."""
    dead: bool = False
    """Whether its program died and the fallback played on."""


@attrs.frozen
class GameOutcome:
    """One game of a match."""

    deal: int
    """The duplicate deal (0-based)."""
    swapped: bool
    """``False``: side A sat North-South; ``True``: side A sat East-West."""
    seed: int
    """The game's seed (the deal's)."""
    scores: tuple[int, int]
    """Final totals, North-South and East-West."""
    winner: Team | None
    """The winning team (``None``: stopped unfinished)."""
    hands: tuple[tuple[int, int], ...]
    """Each hand's recorded score, North-South and East-West."""
    seats: tuple[SeatLog, SeatLog, SeatLog, SeatLog]
    """Each seat's log, N E S W."""
    record: str = ""
    """The game record's file, relative to the match directory ("" if not written)."""

    def team_of(self, side: int) -> Team:
        """The team side ``side`` (0 for A, 1 for B) played as."""
        return Team(side ^ int(self.swapped))

    @property
    def winning_side(self) -> int | None:
        """0 if side A won, 1 if side B did, ``None`` if unfinished."""
        return None if self.winner is None else int(self.winner) ^ int(self.swapped)

    def to_json(self) -> dict[str, Any]:
        """The line ``games.jsonl`` holds for this game."""
        return {
            "deal": self.deal,
            "swapped": self.swapped,
            "seed": self.seed,
            "scores": list(self.scores),
            "winner": None if self.winner is None else str(self.winner),
            "hands": [list(hand) for hand in self.hands],
            "seats": [attrs.asdict(log) for log in self.seats],
            "record": self.record,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameOutcome:
        """Read a line of ``games.jsonl`` (:class:`MatchError` if it is not one)."""
        try:
            winner = data["winner"]
            return cls(
                deal=int(data["deal"]),
                swapped=bool(data["swapped"]),
                seed=int(data["seed"]),
                scores=(int(data["scores"][0]), int(data["scores"][1])),
                winner=None if winner is None else Team(0 if winner == "NS" else 1),
                hands=tuple((int(a), int(b)) for a, b in data["hands"]),
                seats=tuple(  # type: ignore[arg-type]  # four, checked below
                    SeatLog(**{**log, "faults": tuple(log["faults"])}) for log in data["seats"]
                ),
                record=str(data.get("record", "")),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise MatchError(f"not a game of a match: {error!r}") from None
