"""Per-seat views: what one player (or a spectator) may know about a game.

A :class:`PlayerView` is built from a :class:`~deepsix.GameState` and a
seat, and contains everything that seat may legitimately know and nothing
more: its own cards, the auction, the sunk suit, the invitation, the cards
it passed and received, every declared meld, the tricks, the scores, and
-- when it is that seat's turn -- its legal actions.  Other players' cards
appear only as counts.  Hand them to bots and remote clients instead of
the state, and nothing hidden can leak.

A spectator's view (``seat=None``) shows no private cards at all.

What a seat may know, precisely:

* its own hand, and every seat's number of cards;
* the auction, the sunk suit, the invitation (the cards the bidder showed);
* the cards *it* passed (as it passes them) and the cards *it* received
  (once all of them have arrived) -- never the cards passed between the
  other two players, and never its partner's cards in flight: of the
  passes it did not take part in it sees only how many cards went each way
  (:attr:`PlayerView.pass_counts`);
* every declared meld, the current trick and the completed tricks of this
  hand, the scores and the score sheet of finished hands;
* whose turn it is, and its own legal actions when it is its turn.

Two states that differ only in what a seat may not see give that seat
equal views (the test suite checks this), so a view can be sent to a
remote client as it is.  :func:`deepsix.sample_state` goes the other way:
it builds a full state consistent with a view.

>>> from deepsix import new_game, shuffled_deal, Seat
>>> state = new_game().apply(shuffled_deal(5))
>>> mine = view(state, Seat.EAST)
>>> len(mine.hand), mine.hand_sizes, mine.is_my_turn
(14, (14, 14, 14, 14), True)
>>> public_view(state).hand
()
"""

from __future__ import annotations

import attrs

from deepsix import visibility
from deepsix.actions import Bid, LegalActions, Pass
from deepsix.cards import Card, Seat, Suit, Team, seat_of
from deepsix.display import html_of, svg_of, text_of
from deepsix.engine import legal_actions
from deepsix.errors import WrongTypeError
from deepsix.hands import size, unpack
from deepsix.rules import Rules
from deepsix.scoring import card_points
from deepsix.state import GameState, HandRecord, Phase, SeatMelds
from deepsix.table import plays_by_trick, team_meld, tricks_taken, voids
from deepsix.tricks import Trick

__all__ = ["PlayerView", "public_view", "view"]


@attrs.frozen
class PlayerView:
    """Everything one seat may know about the game at one moment."""

    seat: Seat | None
    """Whose view this is; ``None`` for a spectator."""
    rules: Rules
    """The rules of the game."""
    dealer: Seat
    """Who dealt this hand."""
    phase: Phase
    """The current phase."""
    to_act: Seat | None
    """The seat to act (``None`` at a chance step or after the game)."""
    hand_number: int
    """The number of the current hand."""
    scores: tuple[int, int]
    """Running totals per team."""
    completed_hands: tuple[HandRecord, ...]
    """The score sheet of finished hands."""
    hand: tuple[Card, ...]
    """This seat's own cards, sorted (empty for a spectator)."""
    hand_sizes: tuple[int, int, int, int]
    """How many cards each seat holds."""
    bids: tuple[Bid | Pass, ...]
    """The auction so far."""
    bidder: Seat | None
    """The high bidder (the bid winner once the auction is over)."""
    bid: int | None
    """The standing bid (the contract once the auction is over)."""
    sunk_suit: Suit | None
    """The sunk suit, once named."""
    invitation: tuple[Card, ...]
    """The cards the bidder showed face up."""
    passed: tuple[Card, ...]
    """The cards this seat passed to its partner this hand (if any)."""
    received: tuple[Card, ...]
    """The cards this seat received from its partner this hand (once all arrived)."""
    pass_counts: tuple[int, int]
    """How many cards went from partner to bidder, and back, this hand (public)."""
    melds: SeatMelds
    """Every seat's declared melds (public)."""
    trick: tuple[tuple[Seat, Card], ...]
    """The trick in progress."""
    tricks: tuple[Trick, ...]
    """The completed tricks of this hand."""
    legal_actions: LegalActions
    """This seat's legal actions (empty when it is not this seat's turn)."""
    winner: Team | None
    """The winning team, once the game is over."""

    # -- what a view and a GameState answer alike (tools/value_methods.py) --
    # <generated: shared properties>
    @property
    def is_chance(self) -> bool:
        """Whether the next step is chance's (a deal)."""
        return self.phase is Phase.DEAL

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    @property
    def tricks_taken(self) -> tuple[int, int]:
        """How many tricks each team has taken this hand."""
        return tricks_taken(self.tricks)

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points each team has taken this hand (the last-trick bonus included at the end)."""
        return card_points(self.tricks)

    @property
    def team_meld(self) -> tuple[int, int]:
        """Each team's declared meld total this hand."""
        return team_meld(self.melds)

    # </generated>

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is the one to act."""
        return self.seat is not None and self.seat == self.to_act

    @property
    def is_spectator(self) -> bool:
        """Whether this is the public view (no seat, no private cards)."""
        return self.seat is None

    @property
    def team(self) -> Team | None:
        """This seat's partnership (``None`` for a spectator)."""
        return None if self.seat is None else self.seat.team

    @property
    def partner(self) -> Seat | None:
        """This seat's partner (``None`` for a spectator)."""
        return None if self.seat is None else self.seat.partner

    @property
    def bidding_team(self) -> Team | None:
        """The high bidder's team, once someone has bid."""
        return None if self.bidder is None else self.bidder.team

    @property
    def voids(self) -> tuple[frozenset[Suit], ...]:
        """The suits each seat has shown it no longer holds, this hand.

        A seat that did not follow the suit led holds no card of that suit
        from then on (R-PLAY-2): everyone at the table can infer this.
        """
        return voids(plays_by_trick(self.tricks, self.trick))

    def __str__(self) -> str:
        """What this seat sees, as text (ASCII; :meth:`unicode` for suit symbols)."""
        return text_of(self, False) or repr(self)

    def unicode(self) -> str:
        """What this seat sees, as text with suit symbols (``7♠``)."""
        return text_of(self, True) or repr(self)

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        act = "nobody" if self.to_act is None else str(self.to_act)
        return (
            f"<PlayerView {who}: hand {self.hand_number} {self.phase.value}, to act: {act}, "
            f"{len(self.hand)} cards, scores {self.scores[0]}-{self.scores[1]}>"
        )

    def _repr_svg_(self) -> str | None:
        """The table as this seat sees it, as an SVG picture (what a notebook shows)."""
        return svg_of(self)

    def _repr_html_(self) -> str | None:
        """The table as this seat sees it, in HTML (what a notebook shows)."""
        return html_of(self)


_NO_ACTIONS = LegalActions()


def view(state: GameState, seat: Seat | int | str | None) -> PlayerView:
    """The view of ``state`` that ``seat`` may see; ``seat=None`` gives the spectator's view.

    ``seat`` may be a :class:`~deepsix.Seat`, its number 0..3 or its letter (``"S"``).
    """
    if not isinstance(state, GameState):
        raise WrongTypeError(f"view() needs a GameState, not {type(state).__name__}")
    if seat is not None:
        seat = seat_of(seat)
    setup = state.setup
    bidder = setup.bidder
    passed: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()
    if seat is not None:
        passed, received = visibility.passes_seen(setup, seat, state.rules.pass_size)
    own = seat is not None and seat == state.to_act
    return PlayerView(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        phase=state.phase,
        to_act=state.to_act,
        hand_number=state.hand_number,
        scores=state.scores,
        completed_hands=state.completed_hands,
        hand=() if seat is None else unpack(state.packed_hands[seat]),
        hand_sizes=(
            size(state.packed_hands[0]),
            size(state.packed_hands[1]),
            size(state.packed_hands[2]),
            size(state.packed_hands[3]),
        ),
        bids=setup.bids,
        bidder=bidder,
        bid=setup.bid,
        sunk_suit=setup.sunk_suit,
        invitation=setup.invitation,
        passed=passed,
        received=received,
        pass_counts=(len(setup.partner_pass), len(setup.bidder_pass)),
        melds=setup.melds,
        trick=state.trick,
        tricks=state.tricks,
        legal_actions=legal_actions(state) if own else _NO_ACTIONS,
        winner=state.winner,
    )


def public_view(state: GameState) -> PlayerView:
    """The spectator's view: no private cards at all."""
    return view(state, None)
