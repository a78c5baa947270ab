"""Hypothesis strategies and game-playing helpers for the verification suite (issue 3).

Everything a property test needs to reach the game's states:

* :func:`cards`, :func:`suits`, :func:`seats`, :func:`hands`, :func:`meld_rich_hands`,
  :func:`hand_and_trick` -- the small values of the game, always respecting
  the deck (at most two copies of a card);
* :data:`RULES_VARIANTS` and :func:`rules_variants` -- every house-rule switch
  combination plus parameter variants, and arbitrary valid :class:`Rules`;
* :class:`GameSpec`, :func:`game_specs`, :func:`reachable_states` -- a
  *reachable* state is produced by playing a random legal prefix of a game
  from a drawn seed (deals included), so every state a test sees is one a
  real game can reach;
* :func:`action_universe`, :func:`illegal_actions` -- candidates for illegal
  actions: every action of every type for every seat (bids on and off the
  ladder, every card, meld and suit) plus a good and a bad deal.

It also holds :func:`is_deep_run` and :data:`deep_only`, the gate that keeps
the expensive exhaustive variants to ``nox -s verify`` (the ``deep``
hypothesis profile).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Final

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st

from deepsix import (
    ALL_MELDS,
    CARDS,
    DECK,
    Action,
    Bid,
    Card,
    Deal,
    DeclareMeld,
    Done,
    GameState,
    NameSunkSuit,
    Pass,
    PassCard,
    Phase,
    PlayCard,
    PlayOver,
    Rules,
    Seat,
    ShowCard,
    Suit,
    legal_actions,
    new_game,
    shuffled_deal,
)

__all__ = [
    "RULES_VARIANTS",
    "RULE_PARAMETER_VARIANTS",
    "RULE_SWITCH_VARIANTS",
    "STYLES",
    "GameSpec",
    "action_universe",
    "cards",
    "choose_action",
    "deep_only",
    "examples",
    "game_specs",
    "hand_and_trick",
    "hands",
    "illegal_actions",
    "is_deep_run",
    "meld_rich_hands",
    "play_random",
    "reachable_states",
    "rules_ids",
    "rules_variants",
    "scaled_examples",
    "seats",
    "suits",
]


# -- the deep gate ------------------------------------------------------------


def is_deep_run() -> bool:
    """Whether this run is the deep verification run (``nox -s verify``).

    True when the ``deep`` hypothesis profile is loaded (``--hypothesis-profile=deep``
    or ``HYPOTHESIS_PROFILE=deep``) or ``DEEPSIX_DEEP=1`` is set.
    """
    return settings.get_current_profile_name() == "deep" or os.environ.get("DEEPSIX_DEEP") == "1"


deep_only: Final = pytest.mark.skipif(
    not is_deep_run(), reason="expensive exhaustive variant: runs under `nox -s verify` (deep)"
)
"""Skip marker for tests that only the deep verification run executes."""


def scaled_examples(divisor: int, *, minimum: int = 2) -> int:
    """The current profile's ``max_examples`` divided by ``divisor`` (at least ``minimum``).

    Tests whose single example plays whole games use this so that the cheap
    ``ci`` profile stays cheap while ``deep`` scales up with it.
    """
    return max(minimum, settings().max_examples // divisor)


def examples(*, ci: int, deep: int) -> int:
    """``max_examples`` for a test whose examples are costly (they play games).

    ``ci`` in the cheap run, ``deep`` under the deep run (``nox -s verify``):
    the budgets keep the deep run of the whole suite within 15 minutes on
    two cores instead of the deep profile's blanket 2,000 examples.
    """
    return deep if is_deep_run() else ci


# -- small values ------------------------------------------------------------


def cards() -> st.SearchStrategy[Card]:
    """Any of the 28 distinct cards."""
    return st.sampled_from(CARDS)


def suits() -> st.SearchStrategy[Suit]:
    """Any suit."""
    return st.sampled_from(tuple(Suit))


def seats() -> st.SearchStrategy[Seat]:
    """Any seat."""
    return st.sampled_from(tuple(Seat))


def _deck_subset(
    pool: tuple[Card, ...], min_size: int, max_size: int
) -> st.SearchStrategy[tuple[Card, ...]]:
    """Sorted sub-multisets of ``pool`` (positions drawn without repetition)."""
    return st.lists(
        st.integers(0, len(pool) - 1), min_size=min_size, max_size=max_size, unique=True
    ).map(lambda positions: tuple(sorted(pool[i] for i in positions)))


def hands(min_size: int = 0, max_size: int = 14) -> st.SearchStrategy[tuple[Card, ...]]:
    """Sorted hands drawn from the deck: at most two copies of any card (R-DECK-1)."""
    return _deck_subset(DECK, min_size, max_size)


MELD_POOL: Final = tuple(card for card in DECK if card.rank >= 4)
"""The 40 card copies that can belong to a meld (ranks 4 to 8)."""

WIDE_POOL: Final = tuple(card for card in DECK if card.rank >= 6)
"""The 24 copies of 6s, 7s and 8s: every echo and wide, and most of every run."""


def meld_rich_hands(min_size: int = 8, max_size: int = 17) -> st.SearchStrategy[tuple[Card, ...]]:
    """Adversarial meld hands: drawn only from meld cards, often only from 6s, 7s and 8s.

    These hands have many overlapping candidate melds, which is where a
    meld optimiser goes wrong.
    """
    return st.one_of(
        _deck_subset(MELD_POOL, min_size, max_size),
        _deck_subset(WIDE_POOL, min_size, min(max_size, len(WIDE_POOL))),
    )


@st.composite
def hand_and_trick(
    draw: st.DrawFn, max_trick: int = 3, max_hand: int = 14
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A partial trick (in play order, 0..``max_trick`` cards) and a hand disjoint from it.

    Both are drawn from distinct deck positions, so together they never
    hold more than two copies of a card.
    """
    positions = draw(
        st.lists(st.integers(0, 55), min_size=1, max_size=max_trick + max_hand, unique=True)
    )
    split = draw(st.integers(0, min(max_trick, len(positions) - 1)))
    trick = tuple(DECK[i] for i in positions[:split])
    hand = tuple(sorted(DECK[i] for i in positions[split:]))
    return hand, trick


# -- rules variants -----------------------------------------------------------

RULE_SWITCH_VARIANTS: Final[tuple[Rules, ...]] = tuple(
    Rules(meld_sharing=sharing, play_over=play_over, end_at_target=end_at_target)
    for sharing in (True, False)
    for play_over in PlayOver
    for end_at_target in (True, False)
)
"""All eight combinations of the three house-rule switches, other parameters default."""

RULE_PARAMETER_VARIANTS: Final[tuple[Rules, ...]] = (
    Rules(target_score=150),
    Rules(pass_size=1, meld_sharing=False),
    Rules(pass_size=7, play_over=PlayOver.BEAT_LED_SUIT),
    Rules(bid_step=20, lowest_bid=-400, opening_bid_limit=100, forced_bid=80),
    Rules(bid_step=5, lowest_bid=-50, failed_bid_score=300, end_at_target=False),
    Rules(opening_bid_limit=60, forced_bid=0, lowest_bid=-60, target_score=300),
)
"""Non-default numbers: short games, other pass sizes, bid ladders and penalties."""

RULES_VARIANTS: Final[tuple[Rules, ...]] = RULE_SWITCH_VARIANTS + RULE_PARAMETER_VARIANTS
"""The variants the stateful machine and the whole-game tests are run for."""


def rules_ids(rules: Rules) -> str:
    """A short, readable pytest id for a rules variant (only the non-default fields)."""
    default = Rules()
    parts = []
    for field in attrs.fields(Rules):
        value = getattr(rules, field.name)
        if value != getattr(default, field.name):
            parts.append(f"{field.name}={value.value if isinstance(value, PlayOver) else value}")
    return ",".join(parts) or "default"


@st.composite
def _arbitrary_rules(draw: st.DrawFn) -> Rules:
    """Any valid :class:`Rules`, the numbers drawn across their whole bounds (``Rules.bounds``)."""
    step = draw(st.sampled_from((5, 10, 15, 20, 30, 50)))
    opening = step * draw(st.integers(-(410 // step), 250 // step))
    forced = step * draw(st.integers(-(410 // step), opening // step))
    lowest = step * draw(st.integers(-(410 // step), forced // step))
    return Rules(
        target_score=draw(st.integers(50, 700)),
        end_at_target=draw(st.booleans()),
        bid_step=step,
        opening_bid_limit=opening,
        forced_bid=forced,
        lowest_bid=lowest,
        failed_bid_score=draw(st.integers(opening, opening + 300)),
        pass_size=draw(st.integers(1, 7)),
        meld_sharing=draw(st.booleans()),
        play_over=draw(st.sampled_from(tuple(PlayOver))),
    )


def rules_variants() -> st.SearchStrategy[Rules]:
    """The named variants, or any valid :class:`Rules` (every field drawn)."""
    return st.one_of(st.sampled_from(RULES_VARIANTS), _arbitrary_rules())


# -- playing games ------------------------------------------------------------

STYLES: Final = ("uniform", "cautious")
"""Random policies.  ``uniform`` picks any legal action; ``cautious`` passes
three times in four during the auction, which keeps bids near 120 and makes
games last several hands (uniform bidding sinks to hopeless negative bids,
so most uniform games end after one failed hand)."""


def choose_action(rng: random.Random, state: GameState, style: str) -> Action:
    """A random legal action of ``state`` (a deal at a chance step) under a policy."""
    if state.is_chance:
        return shuffled_deal(rng)
    legal = legal_actions(state)
    if style == "cautious" and state.phase is Phase.BIDDING and type(legal[0]) is Pass:
        if rng.random() < 0.75:
            return legal[0]
        # Bid near the top of the ladder, like a real table.
        return legal[rng.randrange(1, min(len(legal), 6))] if len(legal) > 1 else legal[0]
    return legal[rng.randrange(len(legal))]


def play_random(
    state: GameState, rng: random.Random, steps: int, style: str = "cautious"
) -> Iterator[tuple[Action, GameState]]:
    """Play up to ``steps`` random legal actions (deals included); yield ``(action, after)``."""
    for _ in range(steps):
        if state.is_over:
            return
        action = choose_action(rng, state, style)
        state = state.apply(action)
        yield action, state


@attrs.frozen
class GameSpec:
    """How to reach a state: rules, first dealer, seed, policy and number of actions.

    A spec is a compact, reproducible description of a random legal game
    prefix: :meth:`states` replays it.
    """

    rules: Rules
    dealer: Seat
    seed: int
    style: str
    steps: int

    def states(self) -> list[GameState]:
        """Every state of the prefix, the fresh game first."""
        state = new_game(self.rules, self.dealer)
        states = [state]
        rng = random.Random(self.seed)
        states.extend(after for _, after in play_random(state, rng, self.steps, self.style))
        return states

    def final(self) -> GameState:
        """The state the prefix ends in."""
        return self.states()[-1]


def game_specs(
    rules: st.SearchStrategy[Rules] | None = None, max_steps: int = 600
) -> st.SearchStrategy[GameSpec]:
    """Random legal game prefixes from a drawn seed (``max_steps`` actions at most).

    Step counts are drawn across the whole range so that every phase of the
    first few hands is reached; ``max_steps`` large enough plays whole games.
    """
    return st.builds(
        GameSpec,
        rules=rules if rules is not None else rules_variants(),
        dealer=seats(),
        seed=st.integers(0, 2**32 - 1),
        style=st.sampled_from(STYLES),
        steps=st.integers(0, max_steps),
    )


def reachable_states(
    rules: st.SearchStrategy[Rules] | None = None, max_steps: int = 600
) -> st.SearchStrategy[GameState]:
    """States reached by a random legal prefix of a game (see :func:`game_specs`)."""
    return game_specs(rules, max_steps).map(GameSpec.final)


# -- illegal-action candidates -----------------------------------------------

_BAD_DEAL: Final = Deal(DECK[:-1] + DECK[:1])
"""A deal of 56 cards that is not the deck (three copies of one card)."""
_GOOD_DEAL: Final = shuffled_deal(0)


def action_universe(state: GameState) -> tuple[Action, ...]:
    """Every action of every type for every seat that a front end might send.

    Bids cover the rules' ladder and beyond it on both sides, including
    amounts that are not multiples of the step; cards, suits and melds are
    all of them.  The legal actions of ``state`` are always a subset
    (except at a chance step, where the good deal is the one legal move).
    """
    rules = state.rules
    low = rules.lowest_bid - 3 * rules.bid_step
    high = rules.opening_bid_limit + 3 * rules.bid_step
    amounts = sorted(
        {*range(low, high + 1, rules.bid_step), *range(low + 1, high, max(rules.bid_step // 2, 3))}
    )
    actions: list[Action] = [_GOOD_DEAL, _BAD_DEAL]
    for seat in Seat:
        actions.append(Pass(seat))
        actions.append(Done(seat))
        actions.extend(Bid(seat, amount) for amount in amounts)
        actions.extend(NameSunkSuit(seat, suit) for suit in Suit)
        for card in CARDS:
            actions.extend((ShowCard(seat, card), PassCard(seat, card), PlayCard(seat, card)))
        actions.extend(DeclareMeld(seat, meld) for meld in ALL_MELDS)
    return tuple(actions)


def illegal_actions(state: GameState) -> st.SearchStrategy[Action]:
    """Actions that are not legal in ``state``, drawn from :func:`action_universe`."""
    legal = set(legal_actions(state))
    if state.is_chance:
        legal.add(_GOOD_DEAL)
    return st.sampled_from([a for a in action_universe(state) if a not in legal])
