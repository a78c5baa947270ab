"""``deepsix play``: a person at one seat against three bots, in the terminal.

The game runs through the library's own loop (:func:`deepsix.play.loop.play_game`);
the person is an agent like the bots (:class:`HumanAgent`) whose ``choose``
reads the terminal, and whose illegal moves the loop refuses and reports
back to it.  :class:`Narrator` tells the person what happens from the
person's own view: nothing another seat may hide is ever printed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Final

from deepsix._version import __version__
from deepsix.actions import (
    Action,
    Bid,
    DeclareMeld,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import Seat
from deepsix.cli.grammar import HELP as PROMPT_HELP
from deepsix.cli.grammar import Command, describe_legal, parse_command
from deepsix.cli.render import (
    SEAT_NAMES,
    calls_text,
    hand_text,
    meld_list,
    score_table,
    suited,
    who,
)
from deepsix.cli.saved import SavedGame, load_game, save_game
from deepsix.cli.shared import CommandFailed, UsageError, bot_help, bot_lineup, output_file
from deepsix.cli.terminal import Terminal
from deepsix.cli.text import Text
from deepsix.engine import new_game
from deepsix.errors import IllegalActionError, ParseError
from deepsix.events import (
    CardsPassed,
    HandDealt,
    HandScored,
    InvitationMade,
    MeldsDeclared,
    SunkSuitNamed,
    TrickWon,
    events,
)
from deepsix.play.bots import BOT_NAMES, Bot, bot_rng, make_bot
from deepsix.play.loop import play_game
from deepsix.state import GameState, Phase
from deepsix.views import PlayerView, view

__all__ = [
    "DESCRIPTION",
    "HELP",
    "HumanAgent",
    "Narrator",
    "Quit",
    "add_arguments",
    "render_table",
    "run",
]

HELP = "play one seat against three bots"
DESCRIPTION = (
    "You play one seat (South by default) against three bots. Before each of your "
    "decisions the table is shown: the score, the auction, the contract and sunk suit, the "
    "invitation, the cards you received, the melds, the last and current trick, and your "
    "hand with the cards you may play now in bold. Type ? at the prompt for what you can "
    "type. With --save the game is saved before each of your moves; --resume continues it."
)

HUMAN: Final = "human"
"""The name a saved game gives the person's seat."""


class Quit(Exception):
    """The person asked to stop (quit, end of input, Ctrl-C)."""

    def __init__(self, reason: str, code: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class Narrator:
    """Tells the person what happens, from what the person's seat may know."""

    def __init__(self, terminal: Terminal, human: Seat) -> None:
        self.terminal = terminal
        self.human = human

    def say(self, text: str | Text) -> None:
        """Print a line, suit symbols coloured."""
        self.terminal.print(suited(text) if isinstance(text, str) else text)

    def step(self, before: GameState, action: Action, after: GameState) -> None:
        """Narrate one step of the game (the ``on_action`` callback of the game loop)."""
        human = self.human
        seat = action.seat
        name = "" if seat is None else who(seat, human)
        mine = seat == human
        if isinstance(action, Bid):
            self.say(f"{name} {'bid' if mine else 'bids'} {action.amount}")
        elif isinstance(action, Pass):
            self.say(f"{name} {'pass' if mine else 'passes'}")
        elif isinstance(action, DeclareMeld):
            self.say(f"{name} {'meld' if mine else 'melds'} {action.meld} ({action.meld.value})")
        elif isinstance(action, PlayCard):
            self.say(f"{name} {'play' if mine else 'plays'} {action.card}")
        elif isinstance(action, PassCard) and mine:
            self.say(f"You give {action.card} to {SEAT_NAMES[action.seat.partner]}")
        for event in events(before, action, after):
            self._event(event, after)

    def _event(self, event: object, after: GameState) -> None:
        human = self.human
        if isinstance(event, HandDealt):
            self.terminal.rule(
                f"Hand {event.number} - {SEAT_NAMES[event.dealer]} deals - "
                f"score NS {after.scores[0]}, EW {after.scores[1]}"
            )
        elif isinstance(event, SunkSuitNamed):
            self.say(f"{who(event.bidder, human)} won the auction at {after.bid} "
                     f"and sank {event.suit}")  # fmt: skip
        elif isinstance(event, InvitationMade):
            shown = " ".join(map(str, event.cards)) or "nothing"
            verb = "invite" if event.bidder == human else "invites"
            self.say(f"{who(event.bidder, human)} {verb} with: {shown}")
        elif isinstance(event, CardsPassed):
            if event.receiver == human:
                cards = view(after, human).received
                self.say(f"{SEAT_NAMES[event.giver]} gives you: {' '.join(map(str, cards))}")
            elif event.giver != human:
                self.say(
                    f"{SEAT_NAMES[event.giver]} passes {event.count} cards to "
                    f"{SEAT_NAMES[event.receiver]}"
                )
        elif isinstance(event, MeldsDeclared) and not event.melds:
            verb = "meld" if event.seat == human else "melds"
            self.say(f"{who(event.seat, human)} {verb} nothing")
        elif isinstance(event, TrickWon):
            winner = event.winner
            taker = "You take" if winner == human else f"{SEAT_NAMES[winner]} takes"
            self.say(Text(f"  -> {taker} the trick ({event.points} points)", style="cyan"))
        elif isinstance(event, HandScored):
            record = event.record
            self.terminal.print(score_table(after.completed_hands))
            made = "made" if record.made else "FAILED"
            self.say(f"{SEAT_NAMES[record.bidder]} bid {record.bid}: {made}.")


def render_table(terminal: Terminal, player: PlayerView) -> None:
    """Everything the person may see, before a decision."""
    seat = player.seat
    assert seat is not None
    lines: list[Text] = [
        Text(
            f"Hand {player.hand_number} · {player.phase.value} · you are {SEAT_NAMES[seat]} "
            f"(partner {SEAT_NAMES[seat.partner]}, team {seat.team}) · "
            f"score NS {player.scores[0]} - EW {player.scores[1]}",
            style="bold",
        )
    ]
    if player.bids:
        lines.append(suited(f"Auction:    {calls_text(player.bids)}"))
    if player.sunk_suit is not None and player.bidder is not None:
        lines.append(
            suited(f"Contract:   {player.bidder} bid {player.bid}, sunk suit {player.sunk_suit}")
        )
    if player.invitation:
        lines.append(suited(f"Invitation: {' '.join(map(str, player.invitation))}"))
    if player.received:
        lines.append(suited(f"Received:   {' '.join(map(str, player.received))}"))
    for other in Seat:
        if player.melds[other]:
            lines.append(suited(f"Melds {other}:    {meld_list(player.melds[other])}"))
    if player.phase is Phase.PLAY:
        if player.tricks:
            last = player.tricks[-1]
            plays = "  ".join(f"{s} {c}" for s, c in last.plays)
            lines.append(suited(f"Last trick: {plays} -> {last.winner}"))
        current = "  ".join(f"{s} {c}" for s, c in player.trick) or "(you lead)"
        lines.append(suited(f"Trick {len(player.tricks) + 1:>2}:   {current}"))
        taken = player.card_points
        lines.append(Text(f"Points so far: NS {taken[0]}, EW {taken[1]}"))
    legal_cards = {
        a.card for a in player.legal_actions if isinstance(a, ShowCard | PassCard | PlayCard)
    }
    hand = Text("Your hand:  ", style="bold")
    hand.append_text(hand_text(player.hand, legal_cards, player.sunk_suit))
    lines.append(hand)
    for line in lines:
        terminal.print(line)


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


class HumanAgent:
    """The person at the terminal, as an agent of the game loop.

    ``choose`` shows the table, reads lines until one asks for moves, and
    returns them one at a time (``give 7S 8S 2C`` is three); ``refused``
    reports an illegal move and drops the rest of that line.  ``observe``
    (fed every step) drops the rest of a line once the turn has passed.
    ``checkpoint`` runs before each prompt (the command saves the game).
    """

    def __init__(
        self,
        terminal: Terminal,
        *,
        echo: bool,
        hint: tuple[str, Bot],
        checkpoint: Callable[[], None],
    ) -> None:
        self.terminal = terminal
        self.echo = echo
        self.hint = hint
        self.checkpoint = checkpoint
        self.pending: list[Action] = []
        self._refused = False

    def observe(self, before: GameState, action: Action, after: GameState) -> None:
        """Forget the rest of a typed line when the turn passes to another seat."""
        if self.pending and after.to_act != self.pending[0].seat:
            self.pending.clear()

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The next move: the rest of the last line typed, or a new line."""
        if self.pending:
            return self.pending.pop(0)
        if self._refused:  # asked again after an illegal move: the table is on screen
            self._refused = False
        else:
            self.checkpoint()
            render_table(self.terminal, view)
        while True:
            line = self._ask(_PROMPTS.get(view.phase, "Your move"))
            try:
                parsed = parse_command(line, view)
            except ParseError as error:
                self.terminal.print(Text(f"Not understood: {error}", style="yellow"))
                self.terminal.print(Text(f"Legal now: {describe_legal(view)}", style="dim"))
                continue
            if isinstance(parsed, Command):
                self._command(parsed, view)
                continue
            if not parsed:
                self.terminal.print(Text("No (more) melds to declare: type 'done'."))
                continue
            self.pending = parsed[1:]
            return parsed[0]

    def refused(self, view: PlayerView, action: Action, error: IllegalActionError) -> None:
        """Say why ``action`` is illegal; the rest of the line is dropped."""
        self.pending.clear()
        self._refused = True
        self.terminal.print(Text(f"Illegal: {action}: {error}", style="yellow"))
        self.terminal.print(suited(f"Legal now: {describe_legal(view)}"))

    def _command(self, command: Command, view: PlayerView) -> None:
        if command.name == "quit":
            raise Quit("quit")
        if command.name == "help":
            self.terminal.print(Text(PROMPT_HELP))
            self.terminal.print(suited(f"Legal now: {describe_legal(view)}"))
        elif command.name == "hint":
            name, bot = self.hint
            suggestion = bot.choose(view, random.Random(0))
            self.terminal.print(suited(f"The {name} bot would: {suggestion}"))
        elif command.name == "score":
            self.terminal.print(score_table(view.completed_hands))
        else:
            render_table(self.terminal, view)

    def _ask(self, prompt: str) -> str:
        """Prompt and read one line; end of input and Ctrl-C become a clean stop."""
        self.terminal.print(Text(f"{prompt} (? for help) > ", style="bold green"), end="")
        try:
            line = self.terminal.read()
        except EOFError:
            self.terminal.print()
            raise Quit("end of input") from None
        except KeyboardInterrupt:
            self.terminal.print()
            raise Quit("interrupted", 130) from None
        if self.echo:
            self.terminal.print(Text(line, style="green"))
        return line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` subcommand's options."""
    parser.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    parser.add_argument("--seat", help="your seat: N, E, S or W (default S)")
    parser.add_argument(
        "--bots", nargs="+", metavar="BOT",
        help=bot_help() + "; the entry for your seat is ignored (default: heuristic)",
    )  # fmt: skip
    parser.add_argument(
        "--hint-bot", default="heuristic", metavar="BOT",
        help="the bot the 'hint' command asks (default heuristic)",
    )  # fmt: skip
    parser.add_argument(
        "--save", metavar="FILE", help="save the game to FILE before each of your moves"
    )
    parser.add_argument(
        "--resume", metavar="FILE",
        help="continue the game saved in FILE, and keep saving to it (its seed, seats and "
        "bots come from the file: not with --seed, --seat or --bots)",
    )  # fmt: skip


def _start(args: argparse.Namespace) -> tuple[Seat, list[str], int, GameState, str]:
    """Who plays where, the seed and the start of the game (new, or resumed from a file);
    every option is checked here, before the game starts."""
    if args.resume:
        given = [f"--{name}" for name in ("seed", "seat", "bots") if getattr(args, name)]
        if given:
            raise UsageError(
                f"--resume continues a saved game with its own seed, seats and bots: "
                f"not with {', '.join(given)}"
            )
    save_to = output_file("--save", args.save or args.resume)
    bot_lineup("--hint-bot", [args.hint_bot])
    if args.resume:
        saved = load_game(args.resume)
        if HUMAN not in saved.bots or saved.seed is None:
            raise CommandFailed(
                f"{args.resume} was not saved by 'deepsix play' (it needs a Seed tag and a "
                "human seat); use 'deepsix replay' to view it"
            )
        human = Seat(saved.bots.index(HUMAN))
        names = [
            name if name in BOT_NAMES or seat == human else "heuristic"
            for seat, name in zip(Seat, saved.bots, strict=True)
        ]
        return human, names, saved.seed, saved.state, str(save_to)
    try:
        human = Seat.parse(args.seat or "S")
    except ParseError as error:
        raise UsageError(f"--seat: {error}") from None
    names = list(bot_lineup("--bots", args.bots or ["heuristic"]))
    names[human] = HUMAN
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    return human, names, seed, new_game(), "" if save_to is None else str(save_to)


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """The person at one seat, bots at the others, through the library's game loop."""
    human, names, seed, start, save_path = _start(args)
    if args.resume:
        terminal.print(
            f"Resuming {args.resume}: {len(start.history)} actions replayed, "
            f"hand {start.hand_number}."
        )
    lineup = (names[0], names[1], names[2], names[3])
    current = [start]

    def save() -> None:
        if save_path:
            save_game(save_path, SavedGame(seed, lineup, current[0]))

    agent = HumanAgent(
        terminal,
        echo=not sys.stdin.isatty(),
        hint=(args.hint_bot, make_bot(args.hint_bot)),
        checkpoint=save,
    )
    seats: list[Bot | str] = [agent if name == HUMAN else name for name in names]
    narrator = Narrator(terminal, human)

    def on_action(before: GameState, action: Action, after: GameState) -> None:
        current[0] = after
        agent.observe(before, action, after)
        narrator.step(before, action, after)

    terminal.print(
        Text(
            f"deepsix {__version__} - seed {seed} - you are {SEAT_NAMES[human]}; "
            + ", ".join(f"{s}: {names[s]}" for s in Seat if s != human)
            + ". Lowest total wins; a team at 500 or more ends the game.",
        )
    )
    resumed = len(start.history)
    streams = [bot_rng(seed, seat, resumed) for seat in Seat]
    try:
        state = play_game(seats, seed, on_action=on_action, start=start, streams=streams)
    except Quit as stop:
        save()
        where = f"; saved to {save_path} (resume with --resume {save_path})" if save_path else ""
        terminal.print(f"Game stopped ({stop.reason}){where}.")
        return stop.code
    save()
    winner = state.winner
    assert winner is not None
    verdict = "You win!" if winner == human.team else "You lose."
    terminal.print(
        Text(f"Game over: NS {state.scores[0]}, EW {state.scores[1]}. {winner} wins. {verdict}",
             style="bold")
    )  # fmt: skip
    return 0
