"""What the human types at the ``deepsix play`` prompt, and what it may type now.

:func:`parse_command` turns one line into actions (several for ``give 7S
8S 2C`` or ``meld best``) or a :class:`Command`; :func:`describe_legal`
lists the legal moves in the same words.  Whether an action is *legal* is
for the engine to say; this module only understands the words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import attrs

from deepsix.actions import (
    Action,
    Bid,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import Card, Seat, Suit
from deepsix.errors import ParseError
from deepsix.io.notation import parse_action
from deepsix.melds import Meld
from deepsix.play.melding import melds_to_complete_best
from deepsix.state import Phase
from deepsix.views import PlayerView

__all__ = ["HELP", "Command", "describe_legal", "parse_command"]

_SEAT_NAMES: Final = ("North", "East", "South", "West")
_MAX_BID_DIGITS: Final = 6
_MAX_LINE: Final = 1000
"""Longer typed lines are refused unread (a whole hand of cards is under 60 characters)."""


@attrs.frozen
class Command:
    """A request that is not a move: help, quit, hint, score, show the table."""

    name: str
    """``help``, ``quit``, ``hint``, ``score`` or ``table``."""


_COMMANDS: Final = {
    "?": "help", "help": "help", "h": "help", "moves": "help",
    "quit": "quit", "exit": "quit", "q": "quit",
    "hint": "hint", "score": "score", "scores": "score",
    "table": "table", "look": "table", "l": "table",
}  # fmt: skip


def _parse_cards_in(words: Sequence[str]) -> list[Card]:
    """Cards typed as separate words (each 7S, 7s or 7♠)."""
    cards: list[Card] = []
    for word in words:
        cards.append(Card.parse(word))
    return cards


def _parse_amount(word: str) -> int:
    """A typed bid amount; accepts a leading minus sign (ASCII or typographic)."""
    cleaned = word.replace("\N{MINUS SIGN}", "-")
    body = cleaned[1:] if cleaned.startswith(("-", "+")) else cleaned
    if not body.isascii() or not body.isdigit():
        raise ParseError(f"{word[:40]!r} is not a bid: write a whole number such as 90 or -40")
    if len(body) > _MAX_BID_DIGITS:
        raise ParseError(f"a bid has at most {_MAX_BID_DIGITS} digits, not {len(body)}")
    return int(cleaned)


def parse_command(text: str, player: PlayerView) -> list[Action] | Command:
    """Read one line typed by the human playing ``player.seat``.

    Returns the actions it asks for (several for ``give 7S 8S 2C`` or
    ``meld best``) or a :class:`Command`.  Raises :class:`~deepsix.ParseError`
    with a helpful message when the line cannot be understood in this phase;
    whether the actions are *legal* is for the engine to say.
    """
    seat = player.seat
    if seat is None:
        raise ParseError("a spectator cannot act")
    if len(text) > _MAX_LINE:
        raise ParseError(f"that line is {len(text)} characters long; moves fit in {_MAX_LINE}")
    line = text.strip()
    if not line:
        raise ParseError("type a move, or ? for the list of legal moves")
    lowered = line.lower()
    if lowered in _COMMANDS:
        return Command(_COMMANDS[lowered])
    if ":" in line:
        action = parse_action(line)
        if action.seat != seat:
            raise ParseError(f"you play {_SEAT_NAMES[seat]} ({seat}), not {action.seat}")
        return [action]
    words = lowered.replace(",", " ").split()
    if not words:
        raise ParseError(f"{line!r} holds no move: type a move, or ? for the list of legal moves")
    if words[0] in ("done", "d") and len(words) == 1 and player.phase in _DONE_PHASES:
        return [Done(seat)]
    parse = _PHASE_GRAMMAR.get(player.phase)
    if parse is None:
        raise ParseError(f"nothing to do in the {player.phase.value} phase")
    return parse(_Line(line, words, seat, player))


@attrs.frozen
class _Line:
    """A typed line split into words, with who typed it."""

    text: str
    words: list[str]
    seat: Seat
    player: PlayerView

    @property
    def verb(self) -> str:
        return self.words[0]

    @property
    def rest(self) -> list[str]:
        return self.words[1:]

    def after(self, *verbs: str) -> list[str]:
        """The words after the verb if it is one of ``verbs``, else all the words."""
        return self.rest if self.verb in verbs else self.words


def _parse_call(line: _Line) -> list[Action]:
    verb, rest, seat = line.verb, line.rest, line.seat
    if verb in ("pass", "p") and not rest:
        return [Pass(seat)]
    if verb in ("bid", "b") and len(rest) == 1:
        return [Bid(seat, _parse_amount(rest[0]))]
    if not rest and verb.lstrip("-+\N{MINUS SIGN}").isdigit():
        return [Bid(seat, _parse_amount(verb))]
    raise ParseError(f"{line.text!r}: in the auction type 'pass' or 'bid 90' (or just 90)")


def _parse_sink(line: _Line) -> list[Action]:
    verb, rest = line.verb, line.rest
    name = rest[0] if verb == "sink" and len(rest) == 1 else (verb if not rest else "")
    if not name:
        raise ParseError("name the suit to sink, e.g. 'sink H' or '♥'")
    return [NameSunkSuit(line.seat, Suit.parse(name))]


def _parse_show(line: _Line) -> list[Action]:
    cards = _parse_cards_in(line.after("show"))
    if not cards:
        raise ParseError("show a card with e.g. '7S' or 'show 7S 8S', or type 'done'")
    return [ShowCard(line.seat, card) for card in cards]


def _parse_give(line: _Line) -> list[Action]:
    cards = _parse_cards_in(line.after("give", "pass"))
    if not cards:
        raise ParseError("give a card to your partner with e.g. '7S' or 'give 7S 8S 2C'")
    return [PassCard(line.seat, card) for card in cards]


def _parse_meld(line: _Line) -> list[Action]:
    codes = line.after("meld")
    if not codes:
        raise ParseError("declare with e.g. 'meld DR-S', 'meld best', or type 'done'")
    if codes == ["best"]:
        return _best_melds(line.player)
    return [DeclareMeld(line.seat, Meld.parse(code)) for code in codes]


def _parse_play(line: _Line) -> list[Action]:
    cards = _parse_cards_in(line.after("play"))
    if len(cards) != 1:
        raise ParseError("play one card, e.g. '7S' or 'play 7♠'")
    return [PlayCard(line.seat, cards[0])]


_PHASE_GRAMMAR: Final[dict[Phase, Callable[[_Line], list[Action]]]] = {
    Phase.BIDDING: _parse_call,
    Phase.SUNK_SUIT: _parse_sink,
    Phase.INVITATION: _parse_show,
    Phase.PARTNER_PASS: _parse_give,
    Phase.BIDDER_PASS: _parse_give,
    Phase.BIDDER_MELD: _parse_meld,
    Phase.MELDING: _parse_meld,
    Phase.PLAY: _parse_play,
}
"""How a line is read in each phase where the person acts."""
_DONE_PHASES: Final = frozenset((Phase.INVITATION, Phase.BIDDER_MELD, Phase.MELDING))
"""The phases that ``done`` ends (elsewhere it is not a move)."""


def _best_melds(player: PlayerView) -> list[Action]:
    """The DeclareMeld actions that complete the best declaration ('meld best')."""
    seat = player.seat
    assert seat is not None
    return [DeclareMeld(seat, meld) for meld in melds_to_complete_best(player)]


def describe_legal(player: PlayerView) -> str:
    """The legal moves of ``player`` in the words the prompt accepts."""
    legal = player.legal_actions
    phase = player.phase
    cards = " ".join(str(a.card) for a in legal if isinstance(a, ShowCard | PassCard | PlayCard))
    if phase is Phase.BIDDING:
        return _describe_calls(player)
    if phase in (Phase.BIDDER_MELD, Phase.MELDING):
        return _describe_melds(player)
    phrases = {
        Phase.SUNK_SUIT: "sink one suit: 'sink C', 'sink D', 'sink H' or 'sink S' (or ♣ ♦ ♥ ♠)",
        Phase.INVITATION: f"show a card ({cards or 'none can be shown'}), or 'done' to end the "
        "invitation",
        Phase.PARTNER_PASS: f"give your partner one of: {cards}",
        Phase.BIDDER_PASS: f"give your partner one of: {cards}",
        Phase.PLAY: f"play one of: {cards}",
    }
    return phrases.get(phase, "nothing")


def _describe_calls(player: PlayerView) -> str:
    legal = player.legal_actions
    amounts = [a.amount for a in legal if isinstance(a, Bid)]
    if not any(isinstance(a, Pass) for a in legal):
        return f"you must bid {amounts[0]} (the dealer's forced bid): type 'bid {amounts[0]}'"
    if not amounts:
        return "pass"
    return (
        f"'pass', or 'bid N' with N from {amounts[0]} down to {amounts[-1]} "
        f"in steps of {player.rules.bid_step}"
    )


def _describe_melds(player: PlayerView) -> str:
    melds = [a.meld for a in player.legal_actions if isinstance(a, DeclareMeld)]
    if not melds:
        return "no meld is available: type 'done'"
    listed = ", ".join(f"{m.code} ({m} {m.value})" for m in melds)
    return f"'meld CODE' for one of: {listed}; 'meld best' declares your best; then 'done'"


HELP: Final = (
    "Commands: ? or help (legal moves), hint (what the hint bot would do; --hint-bot), "
    "table (show the table again), score (score sheet), quit.\n"
    "Moves: pass | bid 90 | sink H | 7S or show 7S | done | give 7S | meld DR-S | meld best | "
    "play 7♠ (cards as 7S or 7♠; several cards on one line are taken in turn)."
)
