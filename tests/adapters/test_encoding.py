"""The shared encodings: action ids, observation tensors and texts (issue 12)."""

from __future__ import annotations

import itertools
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    ALL_MELDS,
    CARDS,
    Bid,
    DeclareMeld,
    Done,
    GameState,
    IllegalActionError,
    NameSunkSuit,
    Pass,
    PassCard,
    Phase,
    PlayCard,
    Rules,
    Seat,
    ShowCard,
    Suit,
    format_action,
    legal_actions,
    new_game,
    sample_state,
    shuffled_deal,
    view,
)
from deepsix.errors import UnknownNameError
from tests.core.test_views import hidden_swaps
from tests.support.games import game_states, one_state_per_phase
from tests.support.strategies import RULES_VARIANTS, examples, reachable_states, rules_ids

from .frameworks import require

require("numpy", "openspiel")

import numpy as np  # noqa: E402  (after the framework check)
import numpy.typing as npt  # noqa: E402

from deepsix.adapters.actions import (  # noqa: E402
    BID_BASE,
    DONE_ID,
    GIVE_BASE,
    MELD_BASE,
    PASS_ID,
    PLAY_BASE,
    SHOW_BASE,
    SINK_BASE,
    ActionCodec,
)
from deepsix.adapters.config import max_decisions_per_hand, max_hand_score  # noqa: E402
from deepsix.adapters.observations import ObservationLayout  # noqa: E402
from deepsix.adapters.text import state_text, view_text  # noqa: E402

VIEWERS = tuple(Seat)
LAYOUTS = {
    "information state": {"perfect_recall": True},
    "observation": {"perfect_recall": False},
    "public information state": {"perfect_recall": True, "private": False},
    "private only": {"private": True, "public": False},
}


def random_states(rules: Rules, seed: int, count: int) -> list[GameState]:
    """``count`` states of random games under ``rules``, deals included."""
    rng = random.Random(seed)
    states: list[GameState] = []
    state = new_game(rules, Seat(seed % 4))
    while len(states) < count:
        if state.is_over:
            state = new_game(rules, Seat(rng.randrange(4)))
        action = shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
        state = state.apply(action)
        states.append(state)
    return states


# -- actions ---------------------------------------------------------------------------------------


def test_the_blocks_sit_where_the_documentation_says() -> None:
    assert (PLAY_BASE, GIVE_BASE, SHOW_BASE, MELD_BASE, DONE_ID, SINK_BASE, PASS_ID, BID_BASE) == (
        0, 28, 56, 84, 111, 112, 116, 117,
    )  # fmt: skip
    codec = ActionCodec.for_rules(Rules())
    assert codec.num_actions == 171
    assert codec.bid_amounts == tuple(range(120, -411, -10))
    east = Seat.EAST
    card = CARDS[26]  # 7S: 7 * 3 + 7 - 2
    assert str(card) == "7♠"
    assert codec.encode(PlayCard(east, card)) == 26
    assert codec.encode(PassCard(east, card)) == 28 + 26
    assert codec.encode(ShowCard(east, card)) == 56 + 26
    assert codec.encode(DeclareMeld(east, ALL_MELDS[5])) == 84 + 5
    assert codec.encode(Done(east)) == 111
    assert codec.encode(NameSunkSuit(east, Suit.HEARTS)) == 114
    assert codec.encode(Pass(east)) == 116
    assert codec.encode(Bid(east, 120)) == 117
    assert codec.encode(Bid(east, -410)) == 170


@pytest.mark.parametrize("rules", RULES_VARIANTS, ids=rules_ids)
def test_every_id_decodes_and_encodes_back_for_every_seat(rules: Rules) -> None:
    codec = ActionCodec.for_rules(rules)
    assert codec.num_actions == BID_BASE + len(rules.bid_amounts)
    for seat in Seat:
        actions = [codec.decode(index, seat) for index in range(codec.num_actions)]
        assert len(set(actions)) == codec.num_actions
        assert all(action.seat == seat for action in actions)
        assert [codec.encode(action) for action in actions] == list(range(codec.num_actions))
        strings = [codec.action_string(index, seat) for index in range(codec.num_actions)]
        assert strings == [format_action(action) for action in actions]
        assert len(set(strings)) == codec.num_actions


@pytest.mark.parametrize("rules", RULES_VARIANTS, ids=rules_ids)
def test_legal_ids_are_the_engines_legal_actions_sorted(rules: Rules) -> None:
    codec = ActionCodec.for_rules(rules)
    seen_phases = set()
    for state in random_states(rules, 11, 600):
        ids = codec.legal_ids(state)
        assert ids == sorted(set(ids))
        seat = state.to_act
        expected = [] if seat is None else sorted(codec.encode(a) for a in legal_actions(state))
        assert ids == expected
        assert [codec.decode(index, seat) for index in ids if seat is not None] == sorted(
            legal_actions(state), key=codec.encode
        )
        # The masks (PettingZoo's, as bytes) set exactly these ids.
        mask = codec.legal_mask(state)
        assert type(mask) is bytearray
        assert [index for index, flag in enumerate(mask) if flag] == ids
        flags = codec.legal_flags(state)
        assert type(flags) is bytes
        assert [index for index, flag in enumerate(flags) if flag] == ids
        assert set(flags) <= {0, 1}
        seen_phases.add(state.phase)
    assert Phase.PLAY in seen_phases
    assert Phase.BIDDING in seen_phases


@pytest.mark.parametrize("index", [-1, 171, 10**9, "3", 2.5, None, True])
def test_bad_ids_raise_a_typed_error(index: object) -> None:
    codec = ActionCodec.for_rules(Rules())
    with pytest.raises(IllegalActionError):
        codec.decode(index, Seat.NORTH)  # type: ignore[arg-type]  # the point is the bad id


def test_bad_seats_and_deals_raise_a_typed_error() -> None:
    codec = ActionCodec.for_rules(Rules())
    for seat in (4, -1, None, True):
        with pytest.raises(IllegalActionError):
            codec.decode(0, seat)  # type: ignore[arg-type]  # the point is the bad seat
    with pytest.raises(IllegalActionError):
        codec.encode(shuffled_deal(1))
    with pytest.raises(IllegalActionError):
        ActionCodec.for_rules(Rules(lowest_bid=-100)).encode(Bid(Seat.NORTH, -200))


def test_numpy_integers_are_ids() -> None:
    codec = ActionCodec.for_rules(Rules())
    assert codec.decode(np.int64(116), Seat.WEST) == Pass(Seat.WEST)


# -- bounds ----------------------------------------------------------------------------------------


def test_the_bounds_hold_in_real_games() -> None:
    for rules in RULES_VARIANTS:
        top = max_hand_score(rules)
        longest = max_decisions_per_hand(rules)
        for state in game_states(5, rules):
            for record in state.completed_hands:
                assert max(record.scores) <= top
            assert max(state.scores) <= rules.target_score + top
        hand = game_states(5, rules)[-1].history
        deals = [i for i, action in enumerate(hand) if action.seat is None]
        for start, end in zip(deals, [*deals[1:], len(hand)], strict=True):
            assert end - start - 1 <= longest


# -- observations ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", LAYOUTS)
def test_pieces_tile_the_vector(kind: str) -> None:
    layout = ObservationLayout.build(Rules(), **LAYOUTS[kind])
    offset = 0
    for piece in layout.pieces:
        assert piece.offset == offset
        offset += piece.size
        assert layout.piece(piece.name) is piece
    assert offset == layout.size == layout.high.shape[0]
    with pytest.raises(KeyError):
        layout.piece("nothing")
    with pytest.raises(UnknownNameError, match="no observation piece called 'nothing'"):
        layout.piece("nothing")


@pytest.mark.parametrize("rules", RULES_VARIANTS[::3], ids=rules_ids)
@pytest.mark.parametrize("kind", LAYOUTS)
def test_every_entry_is_within_its_bounds(rules: Rules, kind: str) -> None:
    layout = ObservationLayout.build(rules, max_hands=100, **LAYOUTS[kind])
    high = layout.high
    out = np.zeros(layout.size, np.float32)
    for state in game_states(3, rules)[::2]:
        for seat in VIEWERS:
            indices, values = layout.features(view(state, seat if layout.private else None), seat)
            assert len(indices) == len(set(indices))
            assert all(0 < x <= high[i] for i, x in zip(indices, values, strict=True))
            layout.write(out, view(state, seat if layout.private else None), seat)
            dense = layout.dense(view(state, seat if layout.private else None), seat)
            assert out.tolist() == dense


def test_the_observation_says_what_the_view_says() -> None:
    layout = ObservationLayout.build(Rules(), perfect_recall=False)
    state = one_state_per_phase()[Phase.PLAY]
    for seat in Seat:
        mine = view(state, seat)
        dense = np.array(layout.dense(mine, seat))

        def piece(name: str, dense: npt.NDArray[np.float64] = dense) -> npt.NDArray[np.float64]:
            p = layout.piece(name)
            return dense[p.offset : p.offset + p.size].reshape(p.shape)

        assert piece("player").tolist() == [float(s == seat) for s in Seat]
        assert piece("hand").sum() == len(mine.hand)
        for card in mine.hand:
            assert piece("hand")[card] == mine.hand.count(card)
        relative = [(s - seat) % 4 for s in Seat]
        assert [piece("hand_sizes")[relative[s]] for s in Seat] == list(mine.hand_sizes)
        assert state.to_act is not None
        assert piece("to_act")[relative[state.to_act]] == 1
        assert piece("trick").sum() == len(state.trick)
        assert piece("played").sum() == 4 * len(state.tricks)
        team = seat.team
        assert piece("points_taken").tolist() == [
            mine.card_points[team],
            mine.card_points[1 - team],
        ]
        assert state.sunk_suit is not None
        assert piece("sunk_suit")[state.sunk_suit] == 1


def test_the_information_state_keeps_the_tricks_in_order() -> None:
    layout = ObservationLayout.build(Rules())
    state = one_state_per_phase()[Phase.PLAY]
    seat = Seat.SOUTH
    dense = np.array(layout.dense(view(state, seat), seat))
    tricks = layout.piece("tricks")
    grid = dense[tricks.offset : tricks.offset + tricks.size].reshape(tricks.shape)
    for k, trick in enumerate(state.tricks):
        for who, card in trick.plays:
            assert grid[k, (who - seat) % 4, card] == 1
    assert grid[len(state.tricks)].sum() == len(state.trick)
    assert grid[len(state.tricks) + 1 :].sum() == 0


# -- nothing hidden leaks --------------------------------------------------------------------------


def encodings(state: GameState, seat: Seat) -> tuple[object, ...]:
    """Everything the encodings give ``seat`` about ``state``."""
    results: list[object] = [view_text(view(state, seat)), view_text(view(state, None))]
    for options in LAYOUTS.values():
        layout = ObservationLayout.build(state.rules, **options)
        results.append(layout.features(view(state, seat if layout.private else None), seat))
    return tuple(results)


@given(reachable_states(max_steps=400), st.sampled_from(VIEWERS), st.randoms(use_true_random=False))
@settings(max_examples=examples(ci=30, deep=500))
def test_no_leak_under_swaps_of_hidden_cards(
    state: GameState, seat: Seat, rng: random.Random
) -> None:
    base = attrs.evolve(state, log=None)
    mine = encodings(base, seat)
    for twin in hidden_swaps(state, seat, rng):
        assert encodings(twin, seat) == mine
        # A seat whose own cards changed sees the difference: the test can fail.
        changed = [s for s in Seat if twin.hand(s) != base.hand(s)]
        assert changed
        assert all(encodings(twin, s) != encodings(base, s) for s in changed)


@given(reachable_states(max_steps=400), st.sampled_from(VIEWERS), st.randoms(use_true_random=False))
@settings(max_examples=examples(ci=20, deep=300))
def test_no_leak_across_every_hidden_difference(
    state: GameState, seat: Seat, rng: random.Random
) -> None:
    other = sample_state(view(state, seat), rng)
    assert encodings(other, seat) == encodings(state, seat)


def test_texts_are_deterministic_and_show_only_the_seats_cards() -> None:
    state = one_state_per_phase()[Phase.MELDING]
    for seat in Seat:
        text = view_text(view(state, seat))
        assert text == view_text(view(state, seat))
        cards_line = next(line for line in text.splitlines() if line.startswith("cards "))
        assert cards_line == "cards " + " ".join(card.ascii for card in state.hand(seat))
        for other in Seat:
            if other not in (seat, state.bidder):
                hidden = " ".join(card.ascii for card in state.hand(other))
                assert hidden not in text
    full = state_text(state)
    for seat in Seat:
        assert f"{seat}: " + " ".join(card.ascii for card in state.hand(seat)) in full


def test_texts_of_the_same_view_differ_when_the_history_does() -> None:
    states = [s for s in game_states() if not s.is_chance]
    for seat in Seat:
        texts = [view_text(view(s, seat)) for s in states]
        # Every action changes something the seat sees (its turn, the table or the tally).
        assert all(a != b for a, b in itertools.pairwise(texts))
