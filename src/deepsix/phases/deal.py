"""The deal (R-DEAL-1, R-DEAL-2): chance hands out the 56 cards, fourteen to a seat.

The deal is the game's one chance step, taken explicitly (as in
OpenSpiel): in the deal phase no seat acts and :func:`legal` is empty;
the caller applies a :class:`~deepsix.actions.Deal`, usually one from
:func:`shuffled_deal`.  Each hand starts here, dealt by the seat on the
previous dealer's left; the first bid comes from the dealer's left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, overload

from deepsix.actions import Action, Deal
from deepsix.cards import DECK, Card
from deepsix.errors import IllegalActionError, Reason, WrongTypeError
from deepsix.hands import pack
from deepsix.handsetup import EMPTY_SETUP
from deepsix.history import History
from deepsix.state import GameState, Phase

__all__ = ["KINDS", "legal", "refusal", "shuffled_deal", "step"]

KINDS: Final[dict[Phase, tuple[type[Action], ...]]] = {Phase.DEAL: (Deal,)}
"""The kind of action the deal takes: chance's :class:`~deepsix.actions.Deal`."""

_SORTED_DECK: Final = list(DECK)
_NO_ACTIONS: Final[tuple[Action, ...]] = ()


def legal(state: GameState) -> Sequence[Action]:
    """Nothing: the deal is chance's step, not a seat's (apply a :func:`shuffled_deal`)."""
    return _NO_ACTIONS


def refusal(state: GameState, action: Action) -> tuple[Reason, str]:
    """Why a :class:`~deepsix.actions.Deal` is refused: it is not the whole deck."""
    assert isinstance(action, Deal)
    return Reason.BAD_DEAL, f"got {len(action.cards)} cards, not the 56-card deck"


def step(state: GameState, action: Action) -> GameState:
    """Deal the cards (raises :class:`~deepsix.errors.IllegalActionError` for a deal that is
    not the whole deck); the auction opens on the dealer's left (R-BID-1)."""
    assert type(action) is Deal
    cards = action.cards
    if len(cards) != 56 or sorted(cards) != _SORTED_DECK:
        raise IllegalActionError(*refusal(state, action), action)
    hands = (pack(cards[0:14]), pack(cards[14:28]), pack(cards[28:42]), pack(cards[42:56]))
    return GameState.__new__(
        GameState, state.rules, state.dealer, Phase.BIDDING, state.dealer.left, state.scores,
        state.completed_hands, EMPTY_SETUP, hands, (), (), History(state.log, action),
    )  # fmt: skip


@overload
def shuffled_deal() -> Deal: ...
@overload
def shuffled_deal(seed: int | random.Random | None) -> Deal: ...
def shuffled_deal(seed: object = None) -> Deal:
    """A uniformly shuffled deal.

    The algorithm, fixed so that a seed always gives the same deal: take the
    sorted deck (:data:`deepsix.cards.DECK`), shuffle it with
    ``random.Random(seed).shuffle`` (or the given ``random.Random``), and
    give seat ``s`` the cards at positions ``14*s`` to ``14*s + 13``.
    ``seed`` is an int, a ``random.Random`` or ``None`` (a fresh, unseeded
    one); anything else raises :class:`~deepsix.errors.WrongTypeError`.
    """
    if isinstance(seed, random.Random):
        rng = seed
    elif seed is None or (type(seed) is int):
        rng = random.Random(seed)
    else:
        raise WrongTypeError(
            f"shuffled_deal() needs an int, a random.Random or None, not {type(seed).__name__}"
        )
    deck = list(DECK)
    if type(rng) is random.Random:
        _shuffle(deck, rng)
    else:
        rng.shuffle(deck)  # a subclass may draw its numbers differently
    return Deal(deck)


def _shuffle(deck: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(deck)`` for a plain ``random.Random``, step for step.

    CPython's ``Random.shuffle`` swaps each position ``i``, from the last
    down to 1, with ``j = rng._randbelow(i + 1)``, and ``_randbelow(n)``
    draws ``getrandbits(n.bit_length())`` until the draw is below ``n``.
    This is the same loop, written out so that the compiled build runs it
    natively; ``tests/core/test_engine.py`` checks that the deals are the
    same as ``random.Random.shuffle``'s.
    """
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
