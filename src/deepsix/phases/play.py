"""The play (R-PLAY-1 to R-PLAY-6) and the end of the hand (R-SCORE-*, R-END-*).

Fourteen tricks; the bidder leads the first, the winner of each trick
leads the next.  A player follows the suit led if she can and then plays
over the trick if she can (:func:`~deepsix.tricks.play_window`); who takes
a trick is :func:`~deepsix.tricks.winning_position`.  The fourteenth trick
ends the hand: it is scored (:func:`~deepsix.scoring.score_hand`), and
the game either ends (:func:`~deepsix.scoring.game_winner`) or the next
hand is dealt by the seat on the dealer's left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deepsix.actions import Action, PlayCard
from deepsix.cards import HAND_SIZE, Seat
from deepsix.errors import Reason
from deepsix.hands import BIT, count, seat_hand, suit_block, without
from deepsix.handsetup import EMPTY_SETUP
from deepsix.history import History
from deepsix.legal import PLAYS
from deepsix.melds import meld_value
from deepsix.scoring import card_points, game_winner, score_hand
from deepsix.state import GameState, HandRecord, Phase
from deepsix.tricks import Trick, play_window, winning_position

__all__ = ["KINDS", "legal", "refusal", "step"]

KINDS: Final[dict[Phase, tuple[type[Action], ...]]] = {Phase.PLAY: (PlayCard,)}
"""The kind of action the play takes: a card to the trick."""

# Module constants: the compiled build reads these without a lookup by name.
_PLAY_CARD: Final = PlayCard
_P_PLAY: Final = Phase.PLAY
_LEFT: Final = tuple(seat.left for seat in Seat)
_NO_HANDS: Final = (0, 0, 0, 0)


def legal(state: GameState) -> Sequence[Action]:
    """Every card the seat may play: any to lead; else within the trick's play window."""
    seat: Seat = state.to_act  # type: ignore[assignment]  # always a seat during play
    packed = seat_hand(state.packed_hands, seat)
    trick = state.trick
    if not trick:
        return PLAYS[seat].all(packed)
    window = play_window(
        packed, [card for _, card in trick], state.setup.sunk_suit, state.rules.play_over
    )
    if window is None:
        return PLAYS[seat].all(packed)
    suit, lowest = window
    return PLAYS[seat].suit_from(packed, suit, lowest)


def refusal(state: GameState, action: Action) -> tuple[Reason, str]:
    """Why the seat may not play this card: not held, not following suit, or not over."""
    assert isinstance(action, PlayCard)
    seat, card = action.seat, action.card
    packed = state.packed_hands[seat]
    if not count(packed, card):
        return Reason.CARD_NOT_IN_HAND, f"{seat} has no (more) {card}"
    led = state.trick[0][1].suit
    if card.suit != led and suit_block(packed, led):
        return Reason.MUST_FOLLOW_SUIT, f"{seat} holds {led.symbol} cards"
    return Reason.MUST_PLAY_OVER, f"{seat} can play over the trick"


def step(state: GameState, action: Action) -> GameState:
    """Play a card; the fourth takes the trick, and the fourteenth trick ends the hand."""
    assert type(action) is _PLAY_CARD
    seat = action.seat
    card = action.card
    hands = without(state.packed_hands, seat, BIT[card])
    trick = state.trick + ((seat, card),)  # noqa: RUF005  # concatenation compiles to less work
    tricks = state.tricks
    if len(trick) < 4:
        to_act: Seat | None = _LEFT[seat]
    else:
        position = winning_position([c for _, c in trick], state.setup.sunk_suit)
        winner = trick[position][0]
        tricks = tricks + (Trick.__new__(Trick, trick, winner),)  # noqa: RUF005  # as above
        trick = ()
        to_act = winner
        if len(tricks) == HAND_SIZE:
            return _finish_hand(state, action, tricks)
    return GameState.__new__(
        GameState, state.rules, state.dealer, _P_PLAY, to_act, state.scores,
        state.completed_hands, state.setup, hands, trick, tricks, History(state.log, action),
    )  # fmt: skip


def _finish_hand(state: GameState, action: Action, tricks: tuple[Trick, ...]) -> GameState:
    """Score the hand (R-SCORE-*), then deal again or end the game (R-END-*)."""
    rules = state.rules
    setup = state.setup
    bidder, bid, sunk = setup.bidder, setup.bid, setup.sunk_suit
    assert bidder is not None
    assert bid is not None
    assert sunk is not None
    points = card_points(tricks)
    meld_values = [meld_value(melds) for melds in setup.melds]
    meld = (meld_values[0] + meld_values[2], meld_values[1] + meld_values[3])
    outcome = score_hand(bidder.team, bid, points, meld, rules)
    totals = (state.scores[0] + outcome.scores[0], state.scores[1] + outcome.scores[1])
    record = HandRecord(
        number=len(state.completed_hands) + 1,
        dealer=state.dealer,
        bidder=bidder,
        bid=bid,
        sunk_suit=sunk,
        card_points=points,
        meld=meld,
        net=outcome.net,
        scores=outcome.scores,
        made=outcome.made,
        totals=totals,
    )
    log = History(state.log, action)
    completed = (*state.completed_hands, record)
    if game_winner(totals, rules) is not None:
        return GameState.__new__(
            GameState, rules, state.dealer, Phase.GAME_OVER, None, totals, completed, setup,
            _NO_HANDS, (), tricks, log,
        )  # fmt: skip
    return GameState.__new__(
        GameState, rules, state.dealer.left, Phase.DEAL, None, totals, completed, EMPTY_SETUP,
        _NO_HANDS, (), (), log,
    )  # fmt: skip
