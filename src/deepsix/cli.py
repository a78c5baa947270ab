"""The ``deepsix`` command line: watch bots, play against them, simulate, replay.

``deepsix watch``
    Four bots play one seeded game; a readable transcript and the final
    score are printed as the game goes.
``deepsix play``
    You play one seat against three bots in the terminal.
``deepsix simulate``
    Many seeded games between two sides of bots, with a progress bar and a
    summary table; per-hand results as CSV or JSON lines; on all local
    cores or on a Dask cluster.
``deepsix replay``
    Print or step through a saved game.

The command line uses rich for its terminal output (``pip install
"deepsix[cli]"``); the library itself never imports it.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import importlib
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, NoReturn

import attrs

try:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table
    from rich.text import Text
except ImportError as _missing:  # pragma: no cover - exercised only without the extra
    raise SystemExit(
        "the deepsix command line needs rich: pip install 'deepsix[cli]'"
    ) from _missing

from deepsix._version import __version__
from deepsix.actions import (
    Action,
    Bid,
    Deal,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.bots import (
    BOT_NAMES,
    Bot,
    HeuristicBot,
    bot_rng,
    make_bot,
    melds_to_complete_best,
)
from deepsix.cards import Card, Seat, Suit
from deepsix.engine import apply, new_game, shuffled_deal
from deepsix.errors import IllegalActionError, ParseError, SerializationError
from deepsix.melds import Meld, MeldKind
from deepsix.notation import parse_action
from deepsix.record import read_record, record_of, replay, write_record
from deepsix.simulate import (
    SideSummary,
    SimulationResult,
    default_workers,
    simulate,
    write_csv,
    write_jsonl,
)
from deepsix.state import GameState, HandRecord, Phase
from deepsix.transcript import TranscriptWriter
from deepsix.tricks import trick_points, trick_winner
from deepsix.views import PlayerView, view

__all__ = [
    "Command",
    "SavedGame",
    "describe_legal",
    "load_game",
    "main",
    "parse_command",
    "run",
    "save_game",
]

_SEAT_NAMES: Final = ("North", "East", "South", "West")
_RED: Final = frozenset((Suit.DIAMONDS, Suit.HEARTS))


# -- saved games -------------------------------------------------------------------

_SEAT_TAGS: Final = ("North", "East", "South", "West")


@attrs.frozen
class SavedGame:
    """A game record plus what the command line needs to continue it.

    Stored as a :mod:`deepsix.record` game record whose tags name the seed
    (``Seed``) and who sits where (``North`` ... ``West``: a bot name or
    ``human``), so any record reader can replay it.
    """

    seed: int | None
    """The game's seed (deals come from ``random.Random(seed)`` in turn), if known."""
    bots: tuple[str, str, str, str]
    """Who sits where, N E S W: a bot name, ``human``, or ``?`` if the record does not say."""
    state: GameState
    """The game so far."""


def save_game(path: str | Path, game: SavedGame) -> None:
    """Write ``game`` as a game record (:func:`deepsix.record.write_record`), atomically."""
    tags = [("Program", f"deepsix {__version__}")]
    if game.seed is not None:
        tags.append(("Seed", str(game.seed)))
    tags.extend(zip(_SEAT_TAGS, game.bots, strict=True))
    text = write_record(record_of(game.state, tags))
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(text, "utf-8")
    os.replace(temporary, target)


def load_game(path: str | Path) -> SavedGame:
    """Read a game record and replay it (every action is checked).

    Raises :class:`~deepsix.SerializationError` (a
    :class:`~deepsix.record.RecordError` for a bad record) if the file
    cannot be read or does not replay.
    """
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SerializationError(f"cannot read {path}: {error}") from error
    try:
        record = read_record(text, verify=False)
        state = replay(record)  # checks every action
    except SerializationError as error:
        raise SerializationError(f"{path}: {error}") from error
    seed_text = record.tag("Seed")
    seed: int | None = None
    if seed_text is not None:
        try:
            seed = int(seed_text)
        except ValueError:
            raise SerializationError(
                f"{path}: the Seed tag {seed_text!r} is not an integer"
            ) from None
    seats = tuple((record.tag(name) or "?").strip().lower() for name in _SEAT_TAGS)
    return SavedGame(seed, (seats[0], seats[1], seats[2], seats[3]), state)


def _deal_stream(seed: int, state: GameState) -> random.Random:
    """The deal stream of a game with ``seed``, advanced past the deals ``state`` already had."""
    deals = random.Random(seed)
    for action in state.history:
        if isinstance(action, Deal):
            shuffled_deal(deals)
    return deals


# -- rendering helpers ---------------------------------------------------------------


def _card_text(card: Card, *, style: str = "") -> Text:
    """One card as bold text, red for diamonds and hearts (the terminal's colour otherwise)."""
    colour = "red" if card.suit in _RED else ""
    return Text(str(card), style=" ".join(part for part in ("bold", colour, style) if part))


def _suited(line: str) -> Text:
    """A plain line with its suit symbols coloured."""
    text = Text(line)
    for index, char in enumerate(line):
        if char in "♦♥":
            text.stylize("bold red", index - 1 if index else index, index + 1)
        elif char in "♣♠":
            text.stylize("bold", index - 1 if index else index, index + 1)
    return text


def _who(seat: Seat, human: Seat | None) -> str:
    """How the narrator names a seat: 'You' for the human."""
    return "You" if seat == human else _SEAT_NAMES[seat]


def _hand_text(cards: Sequence[Card], legal: set[Card], sunk: Suit | None) -> Text:
    """A hand grouped by suit; cards that are legal now bold, the others dimmed."""
    text = Text()
    for suit in Suit:
        cards_in = [card for card in cards if card.suit == suit]
        if not cards_in:
            continue
        if len(text):
            text.append("   ")
        label = f"{suit.symbol}{' (sunk)' if suit == sunk else ''}:"
        text.append(label, style="red" if suit in _RED else "")
        for card in cards_in:
            text.append(" ")
            style = "" if not legal or card in legal else "dim"
            text.append_text(_card_text(card, style=style))
    return text


def _calls(calls: Sequence[Bid | Pass]) -> str:
    """The auction so far, compactly: 'E 120 · S pass · W 110'."""
    return " · ".join(
        f"{c.seat} {c.amount}" if isinstance(c, Bid) else f"{c.seat} pass" for c in calls
    )


def _meld_list(melds: Sequence[Meld]) -> str:
    """Melds with their values, for the table display."""
    return ", ".join(f"{meld} {meld.value}" for meld in melds)


def _score_table(records: Sequence[HandRecord], title: str = "Score sheet") -> Table:
    """One row per finished hand: the contract, each team's points + meld -> score, totals."""
    table = Table(title=title, title_justify="left")
    table.add_column("hand", justify="right")
    table.add_column("contract")
    table.add_column("NS: points meld -> score", justify="right")
    table.add_column("EW: points meld -> score", justify="right")
    table.add_column("totals NS-EW", justify="right")
    for r in records:
        verdict = "made" if r.made else "failed"
        teams = [f"{r.card_points[t]} {r.meld[t]} -> {r.scores[t]}" for t in (0, 1)]
        table.add_row(
            str(r.number),
            Text.assemble(f"{r.bidder} {r.bid} ", _suit_text(r.sunk_suit), f" {verdict}"),
            teams[0],
            teams[1],
            f"{r.totals[0]}-{r.totals[1]}",
        )
    return table


def _suit_text(suit: Suit) -> Text:
    """A suit symbol in its colour."""
    return Text(suit.symbol, style="bold red" if suit in _RED else "bold")


# -- parsing the human's commands ------------------------------------------------------


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
    if not body.isascii() or not body.isdigit() or len(body) > 6:
        raise ParseError(f"{word!r} is not a bid: write a whole number such as 90 or -40")
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
    verb, rest = words[0], words[1:]
    phase = player.phase
    if phase is Phase.BIDDING:
        if verb in ("pass", "p") and not rest:
            return [Pass(seat)]
        if verb in ("bid", "b") and len(rest) == 1:
            return [Bid(seat, _parse_amount(rest[0]))]
        if not rest and verb.lstrip("-+\N{MINUS SIGN}").isdigit():
            return [Bid(seat, _parse_amount(verb))]
        raise ParseError(f"{line!r}: in the auction type 'pass' or 'bid 90' (or just 90)")
    if phase is Phase.SUNK_SUIT:
        name = rest[0] if verb == "sink" and len(rest) == 1 else (verb if not rest else "")
        if not name:
            raise ParseError("name the suit to sink, e.g. 'sink H' or '♥'")
        return [NameSunkSuit(seat, Suit.parse(name))]
    if verb in ("done", "d") and not rest:
        return [Done(seat)]
    if phase is Phase.INVITATION:
        cards = _parse_cards_in(rest if verb == "show" else words)
        if not cards:
            raise ParseError("show a card with e.g. '7S' or 'show 7S 8S', or type 'done'")
        return [ShowCard(seat, card) for card in cards]
    if phase in (Phase.PARTNER_PASS, Phase.BIDDER_PASS):
        cards = _parse_cards_in(rest if verb in ("give", "pass") else words)
        if not cards:
            raise ParseError("give a card to your partner with e.g. '7S' or 'give 7S 8S 2C'")
        return [PassCard(seat, card) for card in cards]
    if phase in (Phase.BIDDER_MELD, Phase.MELDING):
        codes = rest if verb == "meld" else words
        if not codes:
            raise ParseError("declare with e.g. 'meld DR-S', 'meld best', or type 'done'")
        if codes == ["best"]:
            return _best_melds(player)
        return [DeclareMeld(seat, Meld.parse(code)) for code in codes]
    if phase is Phase.PLAY:
        cards = _parse_cards_in(rest if verb == "play" else words)
        if len(cards) != 1:
            raise ParseError("play one card, e.g. '7S' or 'play 7♠'")
        return [PlayCard(seat, cards[0])]
    raise ParseError(f"nothing to do in the {phase.value} phase")


def _best_melds(player: PlayerView) -> list[Action]:
    """The DeclareMeld actions that complete the best declaration ('meld best')."""
    seat = player.seat
    assert seat is not None
    return [DeclareMeld(seat, meld) for meld in melds_to_complete_best(player)]


def describe_legal(player: PlayerView) -> str:
    """The legal moves of ``player`` in the words the prompt accepts."""
    legal = player.legal_actions
    phase = player.phase
    if phase is Phase.BIDDING:
        amounts = [a.amount for a in legal if isinstance(a, Bid)]
        if not any(isinstance(a, Pass) for a in legal):
            return f"you must bid {amounts[0]} (the dealer's forced bid): type 'bid {amounts[0]}'"
        if not amounts:
            return "pass"
        return (
            f"'pass', or 'bid N' with N from {amounts[0]} down to {amounts[-1]} "
            f"in steps of {player.rules.bid_step}"
        )
    if phase is Phase.SUNK_SUIT:
        return "sink one suit: 'sink C', 'sink D', 'sink H' or 'sink S' (or ♣ ♦ ♥ ♠)"
    cards = " ".join(str(a.card) for a in legal if isinstance(a, ShowCard | PassCard | PlayCard))
    if phase is Phase.INVITATION:
        return f"show a card ({cards or 'none can be shown'}), or 'done' to end the invitation"
    if phase in (Phase.PARTNER_PASS, Phase.BIDDER_PASS):
        return f"give your partner one of: {cards}"
    if phase in (Phase.BIDDER_MELD, Phase.MELDING):
        melds = [a.meld for a in legal if isinstance(a, DeclareMeld)]
        listed = ", ".join(f"{m.code} ({m} {m.value})" for m in melds)
        if not melds:
            return "no meld is available: type 'done'"
        return f"'meld CODE' for one of: {listed}; 'meld best' declares your best; then 'done'"
    if phase is Phase.PLAY:
        return f"play one of: {cards}"
    return "nothing"


_HELP: Final = (
    "Commands: ? or help (legal moves), hint (what the heuristic bot would do), "
    "table (show the table again), score (score sheet), quit.\n"
    "Moves: pass | bid 90 | sink H | 7S or show 7S | done | give 7S | meld DR-S | meld best | "
    "play 7♠ (cards as 7S or 7♠; several cards on one line are taken in turn)."
)


# -- watch -------------------------------------------------------------------------------


def _lineup(names: Sequence[str] | None, default: str = "heuristic") -> list[str]:
    """Bot names by seat from 1 (every seat), 2 (per side) or 4 (per seat) names."""
    if not names:
        return [default] * 4
    if len(names) == 1:
        return [names[0]] * 4
    if len(names) == 2:
        return [names[0], names[1], names[0], names[1]]
    if len(names) == 4:
        return list(names)
    raise ParseError(f"give 1, 2 (one per side) or 4 (one per seat) bot names, not {len(names)}")


def _cmd_watch(args: argparse.Namespace, console: Console) -> int:
    """``deepsix watch``: four bots play one game, printed as it goes."""
    names = _lineup(args.bots)
    bots = [make_bot(name) for name in names]
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    console.print(
        Text(
            f"deepsix {__version__} - seed {seed} - "
            + ", ".join(f"{seat}: {name}" for seat, name in zip(Seat, names, strict=True))
        ),
        style="bold",
    )
    writer = TranscriptWriter(show_hands=not args.hide_hands)
    deals = random.Random(seed)
    streams = [bot_rng(seed, seat) for seat in Seat]
    state = new_game()
    while not state.is_over:
        if state.is_chance:
            if len(state.completed_hands) >= args.max_hands:
                console.print(f"Stopped after {args.max_hands} hands without a winner.")
                break
            action: Action = shuffled_deal(deals)
        else:
            seat = state.to_act
            assert seat is not None
            action = bots[seat].choose(view(state, seat), streams[seat])
        following = apply(state, action)
        for line in writer.step(state, action, following):
            console.print(_suited(line))
        state = following
    if state.completed_hands:
        console.print(_score_table(state.completed_hands))
    if args.save:
        save_game(args.save, SavedGame(seed, (names[0], names[1], names[2], names[3]), state))
        console.print(f"Game saved to {args.save}")
    return 0


# -- play ----------------------------------------------------------------------------------


class _Quit(Exception):
    """The human asked to stop (quit, end of input, Ctrl-C)."""

    def __init__(self, reason: str, code: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class _Narrator:
    """Tells the human what happens, showing only what the human's seat may know."""

    def __init__(self, console: Console, human: Seat) -> None:
        self.console = console
        self.human = human
        self._shown: list[Card] = []

    def say(self, text: str | Text) -> None:
        """Print a line, suit symbols coloured."""
        self.console.print(_suited(text) if isinstance(text, str) else text)

    def step(self, before: GameState, action: Action, after: GameState) -> None:
        human = self.human
        if isinstance(action, Deal):
            self.console.rule(
                f"Hand {after.hand_number} - {_SEAT_NAMES[after.dealer]} deals - "
                f"score NS {after.scores[0]}, EW {after.scores[1]}"
            )
            return
        seat = action.seat
        assert seat is not None
        who = _who(seat, human)
        if isinstance(action, Bid):
            self.say(f"{who} {'bid' if seat == human else 'bids'} {action.amount}")
        elif isinstance(action, Pass):
            self.say(f"{who} {'pass' if seat == human else 'passes'}")
        elif isinstance(action, NameSunkSuit):
            self.say(f"{who} won the auction at {after.bid} and sank {action.suit}")
        elif isinstance(action, ShowCard):
            self._shown.append(action.card)
        elif isinstance(action, PassCard):
            self._passing(before, action, after)
        elif isinstance(action, DeclareMeld):
            self.say(
                f"{who} {'meld' if seat == human else 'melds'} {action.meld} ({action.meld.value})"
            )
        elif isinstance(action, Done):
            if before.phase is Phase.INVITATION:
                shown = " ".join(map(str, self._shown)) or "nothing"
                self.say(f"{who} {'invite' if seat == human else 'invites'} with: {shown}")
                self._shown = []
            elif not after.melds[seat]:
                self.say(f"{who} {'meld' if seat == human else 'melds'} nothing")
        elif isinstance(action, PlayCard):
            self.say(f"{who} {'play' if seat == human else 'plays'} {action.card}")
            plays = (*before.trick, (seat, action.card))
            if len(plays) == 4:
                winner = trick_winner(plays, before.sunk_suit)
                points = trick_points([card for _, card in plays])
                if len(before.tricks) == 13:
                    points += 10
                taker = "You take" if winner == human else f"{_SEAT_NAMES[winner]} takes"
                self.say(Text(f"  -> {taker} the trick ({points} points)", style="cyan"))
        if len(after.completed_hands) > len(before.completed_hands):
            record = after.completed_hands[-1]
            self.console.print(_score_table(after.completed_hands))
            made = "made" if record.made else "FAILED"
            self.say(f"{_SEAT_NAMES[record.bidder]} bid {record.bid}: {made}.")

    def _passing(self, before: GameState, action: PassCard, after: GameState) -> None:
        """Narrate a passed card: the human sees its own passes and what it receives."""
        seat = action.seat
        human = self.human
        if seat == human:
            self.say(f"You give {action.card} to {_SEAT_NAMES[seat.partner]}")
        if after.phase is before.phase:
            return
        if seat.partner == human:
            setup = after.setup
            cards = setup.partner_pass if before.phase is Phase.PARTNER_PASS else setup.bidder_pass
            self.say(f"{_SEAT_NAMES[seat]} gives you: {' '.join(map(str, cards))}")
        elif seat != human:
            self.say(f"{_SEAT_NAMES[seat]} passes 3 cards to {_SEAT_NAMES[seat.partner]}")


def _render_table(console: Console, player: PlayerView) -> None:
    """Everything the human may see, before a decision."""
    seat = player.seat
    assert seat is not None
    team = seat.team
    lines: list[Text] = []
    lines.append(
        Text(
            f"Hand {player.hand_number} · {player.phase.value} · you are {_SEAT_NAMES[seat]} "
            f"(partner {_SEAT_NAMES[seat.partner]}, team {team}) · "
            f"score NS {player.scores[0]} - EW {player.scores[1]}",
            style="bold",
        )
    )
    if player.bids:
        lines.append(_suited(f"Auction:    {_calls(player.bids)}"))
    if player.sunk_suit is not None and player.bidder is not None:
        lines.append(
            _suited(f"Contract:   {player.bidder} bid {player.bid}, sunk suit {player.sunk_suit}")
        )
    if player.invitation:
        lines.append(_suited(f"Invitation: {' '.join(map(str, player.invitation))}"))
    if player.received:
        lines.append(_suited(f"Received:   {' '.join(map(str, player.received))}"))
    for other in Seat:
        if player.melds[other]:
            lines.append(_suited(f"Melds {other}:    {_meld_list(player.melds[other])}"))
    if player.phase is Phase.PLAY:
        if player.tricks:
            last = player.tricks[-1]
            plays = "  ".join(f"{s} {c}" for s, c in last.plays)
            lines.append(_suited(f"Last trick: {plays} -> {last.winner}"))
        current = "  ".join(f"{s} {c}" for s, c in player.trick) or "(you lead)"
        lines.append(_suited(f"Trick {len(player.tricks) + 1:>2}:   {current}"))
        taken = player.card_points
        lines.append(Text(f"Points so far: NS {taken[0]}, EW {taken[1]}"))
    legal_cards = {
        a.card for a in player.legal_actions if isinstance(a, ShowCard | PassCard | PlayCard)
    }
    hand = Text("Your hand:  ", style="bold")
    hand.append_text(_hand_text(player.hand, legal_cards, player.sunk_suit))
    lines.append(hand)
    for line in lines:
        console.print(line)


_PROMPTS: Final = {
    Phase.BIDDING: "Your call (pass / bid N)",
    Phase.SUNK_SUIT: "Sink which suit",
    Phase.INVITATION: "Show a card, or done",
    Phase.PARTNER_PASS: "Give a card to your partner",
    Phase.BIDDER_MELD: "Declare a meld, or done",
    Phase.BIDDER_PASS: "Give a card back to your partner",
    Phase.MELDING: "Declare a meld, or done",
    Phase.PLAY: "Play a card",
}


def _ask(console: Console, prompt: str, read: Callable[[], str], echo: bool) -> str:
    """Prompt and read one line; end of input and Ctrl-C become a clean stop."""
    console.print(Text(f"{prompt} (? for help) > ", style="bold green"), end="")
    try:
        line = read()
    except EOFError:
        console.print()
        raise _Quit("end of input") from None
    except KeyboardInterrupt:
        console.print()
        raise _Quit("interrupted", 130) from None
    if echo:
        console.print(Text(line, style="green"))
    return line


def _human_turn(
    console: Console,
    state: GameState,
    seat: Seat,
    *,
    read: Callable[[], str],
    echo: bool,
    narrator: _Narrator,
    checkpoint: Callable[[GameState], None],
) -> GameState:
    """Ask until the human makes a legal move; return the state after it.

    ``checkpoint(state)`` runs first (it saves the game while the human thinks).
    """
    checkpoint(state)
    player = view(state, seat)
    _render_table(console, player)
    while True:
        line = _ask(console, _PROMPTS.get(player.phase, "Your move"), read, echo)
        try:
            parsed = parse_command(line, player)
        except ParseError as error:
            console.print(Text(f"Not understood: {error}", style="yellow"))
            console.print(Text(f"Legal now: {describe_legal(player)}", style="dim"))
            continue
        if isinstance(parsed, Command):
            if parsed.name == "quit":
                raise _Quit("quit")
            if parsed.name == "help":
                console.print(Text(_HELP))
                console.print(_suited(f"Legal now: {describe_legal(player)}"))
            elif parsed.name == "hint":
                suggestion = HeuristicBot().choose(player, random.Random(0))
                console.print(_suited(f"The heuristic bot would: {suggestion}"))
            elif parsed.name == "score":
                console.print(_score_table(player.completed_hands))
            else:
                _render_table(console, player)
            continue
        if not parsed:
            console.print(Text("No (more) melds to declare: type 'done'."))
            continue
        moved = False
        for action in parsed:
            try:
                following = apply(state, action)
            except IllegalActionError as error:
                console.print(Text(f"Illegal: {action}: {error}", style="yellow"))
                console.print(_suited(f"Legal now: {describe_legal(view(state, seat))}"))
                break
            narrator.step(state, action, following)
            state = following
            moved = True
            if state.to_act != seat:
                break
        if moved:
            return state
        player = view(state, seat)


def _cmd_play(args: argparse.Namespace, console: Console, read: Callable[[], str]) -> int:
    """``deepsix play``: the human at one seat, bots at the others; save and resume."""
    if args.resume:
        saved = load_game(args.resume)
        if "human" not in saved.bots or saved.seed is None:
            console.print(
                f"{args.resume} was not saved by 'deepsix play' (it needs a Seed tag and a "
                "human seat); use 'deepsix replay' to view it."
            )
            return 1
        human = Seat(saved.bots.index("human"))
        names = list(saved.bots)
        for seat in Seat:
            if seat != human and names[seat] not in BOT_NAMES:
                names[seat] = "heuristic"
        seed = saved.seed
        state = saved.state
        resumed = len(state.history)
        console.print(
            f"Resuming {args.resume}: {resumed} actions replayed, hand {state.hand_number}."
        )
    else:
        human = Seat.parse(args.seat)
        names = _lineup(args.bots)
        names[human] = "human"
        seed = args.seed if args.seed is not None else random.randrange(1_000_000)
        state = new_game()
        resumed = 0
    save_path = args.save or args.resume
    bots: dict[Seat, Bot] = {seat: make_bot(names[seat]) for seat in Seat if names[seat] != "human"}
    streams = {seat: random.Random(f"deepsix-bot:{seed}:{int(seat)}:{resumed}") for seat in bots}
    deals = _deal_stream(seed, state)
    console.print(
        Text(
            f"deepsix {__version__} - seed {seed} - you are {_SEAT_NAMES[human]}; "
            + ", ".join(f"{s}: {names[s]}" for s in Seat if s != human)
            + ". Lowest total wins; a team at 500 or more ends the game.",
        )
    )
    lineup = (names[0], names[1], names[2], names[3])

    def save(current: GameState) -> None:
        if save_path:
            save_game(save_path, SavedGame(seed, lineup, current))

    narrator = _Narrator(console, human)
    echo = not sys.stdin.isatty()
    try:
        while not state.is_over:
            if state.is_chance:
                action: Action = shuffled_deal(deals)
            elif state.to_act == human:
                state = _human_turn(
                    console, state, human, read=read, echo=echo, narrator=narrator, checkpoint=save
                )
                continue
            else:
                actor = state.to_act
                assert actor is not None
                action = bots[actor].choose(view(state, actor), streams[actor])
            following = apply(state, action)
            narrator.step(state, action, following)
            state = following
        save(state)
    except _Quit as stop:
        save(state)
        where = f"; saved to {save_path} (resume with --resume {save_path})" if save_path else ""
        console.print(f"Game stopped ({stop.reason}){where}.")
        return stop.code
    winner = state.winner
    assert winner is not None
    verdict = "You win!" if winner == human.team else "You lose."
    console.print(
        Text(f"Game over: NS {state.scores[0]}, EW {state.scores[1]}. {winner} wins. {verdict}",
             style="bold")
    )  # fmt: skip
    return 0


# -- simulate ------------------------------------------------------------------------------


def _cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    """``deepsix simulate``: many games with a progress bar, then the summary."""
    names = _lineup(args.bots, default="heuristic")
    if args.bots is None:
        names = ["heuristic", "random", "heuristic", "random"]
    for name in names:
        make_bot(name)
    workers: int | None = args.workers
    with contextlib.ExitStack() as stack:
        executor: concurrent.futures.Executor | None = None
        where = f"{workers or 'all local'} worker process(es)"
        if args.scheduler:
            executor, where = _dask_executor(stack, args.scheduler, workers)
        progress = Progress(
            TextColumn("simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=args.no_progress,
        )
        with progress:
            task = progress.add_task("games", total=args.games)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done)

            result: SimulationResult = simulate(
                args.games,
                names,
                args.seed,
                executor=executor,
                workers=workers,
                alternate=not args.fixed_seats,
                progress=advance,
            )
    _print_summary(console, result, where)
    if args.csv:
        rows = write_csv(result, args.csv)
        console.print(f"Wrote {rows} hands to {args.csv}")
    if args.jsonl:
        rows = write_jsonl(result, args.jsonl)
        console.print(f"Wrote {rows} hands to {args.jsonl}")
    return 0


def _dask_executor(
    stack: contextlib.ExitStack, address: str, workers: int | None
) -> tuple[concurrent.futures.Executor, str]:
    """A Dask client's executor: on the scheduler at ``address``, or on a new local cluster."""
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise _UsageError("--scheduler needs Dask: pip install 'deepsix[distributed]'") from None
    if address == "local":
        count = workers or default_workers()
        cluster = stack.enter_context(
            distributed.LocalCluster(
                n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None
            )
        )
        client = stack.enter_context(distributed.Client(cluster))
        where = f"a local Dask cluster of {count} workers"
    else:
        client = stack.enter_context(distributed.Client(address, timeout=10))
        where = f"the Dask scheduler at {address}"
    executor: concurrent.futures.Executor = client.get_executor()
    return executor, where


def _print_summary(console: Console, result: SimulationResult, where: str) -> None:
    """The simulation's summary: a table per side, game length, meld frequency."""
    summary = result.summary()
    seats = "alternated" if result.alternate else "fixed"
    console.print(
        Text(
            f"{summary.games} games, seed {result.seed}, seats {seats}, on {where}: "
            f"{result.elapsed:.1f} s ({summary.games_per_second:.1f} games/s)",
            style="bold",
        )
    )
    table = Table(title="Results by side", title_justify="left")
    table.add_column("")
    for side in summary.sides:
        table.add_column(side.label, justify="right")
    rows: list[tuple[str, Callable[[SideSummary], str]]] = [
        ("games won", lambda side: str(side.wins)),
        ("win rate", lambda side: f"{side.win_rate:.1%}"),
        ("95% interval", lambda side: f"{side.win_interval[0]:.1%} - {side.win_interval[1]:.1%}"),
        ("avg hand score", lambda side: f"{side.mean_hand_score:.1f}"),
        ("avg meld per hand", lambda side: f"{side.mean_meld:.1f}"),
        ("auctions won", lambda side: str(side.bids_won)),
        ("avg contract", lambda side: f"{side.mean_bid:.1f}" if side.bids_won else "-"),
        ("bids made", lambda side: f"{side.made_rate:.1%}" if side.bids_won else "-"),
        ("bids failed", lambda side: f"{side.failed_rate:.1%}" if side.bids_won else "-"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(side) for side in summary.sides))
    console.print(table)
    console.print(
        f"Average game: {summary.mean_hands:.2f} hands, {summary.mean_actions:.0f} actions"
        + (f"; {summary.unfinished} unfinished" if summary.unfinished else "")
    )
    melds = Table(title="Meld frequency (declared per 100 hands, all seats)", title_justify="left")
    melds.add_column("meld")
    melds.add_column("per 100 hands", justify="right")
    for kind in MeldKind:
        melds.add_row(
            f"{kind.label} ({kind.code}, {kind.points})", f"{100 * summary.meld_rate(kind):.1f}"
        )
    console.print(melds)


# -- replay ----------------------------------------------------------------------------------


def _replay_lines(state: GameState, show_hands: bool) -> Iterator[list[str]]:
    """The transcript of a saved game, one chunk (a phase line or a trick) at a time."""
    first_dealer = state.completed_hands[0].dealer if state.completed_hands else state.dealer
    current = new_game(state.rules, first_dealer)
    writer = TranscriptWriter(show_hands=show_hands)
    for action in state.history:
        following = apply(current, action)
        lines = writer.step(current, action, following)
        if lines:
            yield lines
        current = following


def _cmd_replay(args: argparse.Namespace, console: Console, read: Callable[[], str]) -> int:
    """``deepsix replay``: print a saved game, or step through it."""
    saved = load_game(args.record)
    state = saved.state
    console.print(
        Text(
            f"{args.record}: seed {saved.seed if saved.seed is not None else 'unknown'}, "
            + ", ".join(f"{s}: {saved.bots[s]}" for s in Seat)
            + f", {len(state.history)} actions",
            style="bold",
        )
    )
    stepping = args.step
    for lines in _replay_lines(state, not args.hide_hands):
        for line in lines:
            console.print(_suited(line))
        if stepping:
            console.print(
                Text("[Enter: next, q: print the rest, Ctrl-D: stop] ", style="dim"), end=""
            )
            try:
                answer = read()
            except (EOFError, KeyboardInterrupt):
                console.print()
                return 0
            if not sys.stdin.isatty():
                console.print()
            if answer.strip().lower() in ("q", "quit"):
                stepping = False
    if not state.is_over:
        console.print(f"(the game is unfinished: hand {state.hand_number}, {state.phase.value})")
    return 0


# -- entry point ------------------------------------------------------------------------------


class _UsageError(Exception):
    """A problem with the command line's arguments (exit status 2)."""


def _parser() -> argparse.ArgumentParser:
    """The argument parser of the four subcommands."""
    parser = argparse.ArgumentParser(
        prog="deepsix",
        description="Deep Six: watch bots play, play against them, simulate, replay.",
    )
    parser.add_argument("--version", action="version", version=f"deepsix {__version__}")
    parser.add_argument(
        "--no-color", action="store_true", help="plain output without colours (or set NO_COLOR)"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bot_help = (
        f"bots: 1 name (all seats), 2 (one per side) or 4 (N E S W) of: {', '.join(BOT_NAMES)}"
    )

    watch = commands.add_parser("watch", help="four bots play one game; print the transcript")
    watch.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    watch.add_argument("--bots", nargs="+", metavar="BOT", help=bot_help)
    watch.add_argument("--hide-hands", action="store_true", help="do not list the dealt hands")
    watch.add_argument("--save", metavar="FILE", help="save the game record to FILE")
    watch.add_argument("--max-hands", type=int, default=1000, help=argparse.SUPPRESS)

    play = commands.add_parser("play", help="play one seat against three bots")
    play.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    play.add_argument("--seat", default="S", help="your seat: N, E, S or W (default S)")
    play.add_argument("--bots", nargs="+", metavar="BOT", help=bot_help + " (yours is ignored)")
    play.add_argument("--save", metavar="FILE", help="save the game to FILE after every move")
    play.add_argument("--resume", metavar="FILE", help="resume the game saved in FILE")

    sim = commands.add_parser("simulate", help="play many seeded games between bots")
    sim.add_argument("-n", "--games", type=int, default=1000, help="games to play (default 1000)")
    sim.add_argument(
        "--bots", nargs="+", metavar="BOT",
        help=bot_help + " (default: heuristic vs random)",
    )  # fmt: skip
    sim.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    sim.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    sim.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler address, or 'local' for a local cluster",
    )  # fmt: skip
    output = sim.add_mutually_exclusive_group()
    output.add_argument("--csv", metavar="FILE", help="write one row per hand as CSV")
    output.add_argument("--jsonl", metavar="FILE", help="write one JSON object per hand")
    sim.add_argument(
        "--fixed-seats", action="store_true",
        help="do not alternate the sides' seats between paired games",
    )  # fmt: skip
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")

    replay = commands.add_parser("replay", help="print or step through a saved game")
    replay.add_argument("record", metavar="RECORD", help="a game saved with --save")
    replay.add_argument("--step", action="store_true", help="pause after every trick and phase")
    replay.add_argument("--hide-hands", action="store_true", help="do not list the dealt hands")
    return parser


def _fail(console: Console, message: str, code: int) -> int:
    """Report an error on the console; return the exit status."""
    console.print(Text(f"deepsix: error: {message}", style="bold red"))
    return code


def main(argv: Sequence[str] | None = None, *, read: Callable[[], str] = input) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    ``read`` reads one line of the human's input (``input`` by default; it
    raises ``EOFError`` at the end of input).
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return _exit_code(exit_)
    no_color = args.no_color or bool(os.environ.get("NO_COLOR"))
    console = Console(highlight=False, no_color=no_color, soft_wrap=True)
    try:
        if args.command == "watch":
            return _cmd_watch(args, console)
        if args.command == "play":
            return _cmd_play(args, console, read)
        if args.command == "simulate":
            if args.games < 0:
                raise _UsageError("-n must be at least 0")
            if args.workers is not None and args.workers < 1:
                raise _UsageError("--workers must be at least 1")
            return _cmd_simulate(args, console)
        return _cmd_replay(args, console, read)
    except _UsageError as error:
        return _fail(console, str(error), 2)
    except ParseError as error:
        return _fail(console, str(error), 2)
    except SerializationError as error:
        return _fail(console, str(error), 1)
    except OSError as error:
        return _fail(console, str(error), 1)
    except KeyboardInterrupt:
        return _fail(console, "interrupted", 130)


def _exit_code(exit_: SystemExit) -> int:
    """The exit status argparse asked for (``--help``, ``--version``, usage errors)."""
    code = exit_.code
    if code is None:
        return 0
    return code if isinstance(code, int) else 2


def run() -> NoReturn:
    """``python -m deepsix``."""
    sys.exit(main())
