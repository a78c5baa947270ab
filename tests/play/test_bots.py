"""Bots: they play legal actions from a PlayerView only, and the heuristic plays sensibly."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from deepsix import (
    ALL_MELDS,
    DECK,
    Action,
    Bid,
    Card,
    Deal,
    DeclareMeld,
    Done,
    GameState,
    InvalidStateError,
    Meld,
    NameSunkSuit,
    ParseError,
    Pass,
    PassCard,
    Phase,
    PlayCard,
    PlayerView,
    PlayOver,
    Rules,
    Seat,
    ShowCard,
    Suit,
    apply,
    best_meld,
    legal_actions,
    new_game,
    parse_cards,
    shuffled_deal,
    view,
)
from deepsix.io.transcript import format_transcript
from deepsix.melds import MeldFamily
from deepsix.play.bots import Bot, RandomBot, bot_rng, make_bot
from deepsix.play.heuristic import HeuristicBot, _invitation
from deepsix.play.loop import play_game
from tests.support.scenarios import FORTRESS, auction_won_by_north, deal_of, play_script

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
HEURISTIC = HeuristicBot()


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def choose(state: GameState, bot: Bot = HEURISTIC) -> Action:
    seat = state.to_act
    assert seat is not None
    return bot.choose(view(state, seat), random.Random(0))


def ready_to_play(north: str, east: str, south: str, west: str, sunk: Suit) -> GameState:
    """The deal, North winning the auction at 120 and sinking ``sunk``; no invitation, no melds.

    South passes North three cards and North passes the same three back, so
    the hands at the first trick are exactly the dealt ones.
    """
    state = apply(new_game(dealer=W), deal_of(north, east, south, west))
    give = list(state.hand(S)[:3])
    return play_script(
        state,
        actions(
            [Bid(N, 120), Pass(E), Pass(S), Pass(W), NameSunkSuit(N, sunk), Done(N)],
            [PassCard(S, card) for card in give],
            [Done(N)],
            [PassCard(N, card) for card in give],
            [Done(E), Done(S), Done(W)],
        ),
    )


def actions(*groups: Iterable[Action]) -> list[Action]:
    """The actions of several groups, in order."""
    return [action for group in groups for action in group]


def plays(state: GameState, text: str) -> GameState:
    for card in cards(text):
        seat = state.to_act
        assert seat is not None
        state = apply(state, PlayCard(seat, card))
    return state


# A deal in which North leads spades at the first trick; hearts are sunk.
SHED_DEAL = (
    "3S 8S 8S 2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5H",
    "3S 4S 4S 2C 3C 4C 5C 6C 7C 8C 5D 6D 7D 4H",
    "5S 5S 2D 3D 4D 5D 6D 7D 8D 8D 2H 3H 4H 5H",
    "2S 2S 6S 6S 7S 7S 2H 3H 6H 6H 7H 7H 8H 8H",
)


# -- every bot plays only legal actions, and only from a view ---------------------------


class SpyBot:
    """Wraps a bot, checking what it is given and what it returns."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.calls = 0

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert type(view) is PlayerView
        assert view.is_my_turn
        action = self.inner.choose(view, rng)
        assert action in view.legal_actions
        self.calls += 1
        return action


@pytest.mark.parametrize(
    "lineup",
    [
        ("heuristic", "heuristic", "heuristic", "heuristic"),
        ("heuristic", "random", "heuristic", "random"),
        ("random", "random", "random", "random"),
    ],
)
def test_bots_play_whole_games_with_legal_actions_from_views(lineup: tuple[str, ...]) -> None:
    spies = [SpyBot(make_bot(name)) for name in lineup]
    state = play_game(spies, seed=11)
    assert state.is_over
    assert state.winner is not None
    assert sum(spy.calls for spy in spies) == len(state.history) - len(state.completed_hands)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(meld_sharing=False, play_over=PlayOver.BEAT_LED_SUIT, target_score=150),
        Rules(pass_size=1, end_at_target=False, target_score=150),
        Rules(pass_size=5, target_score=150),
    ],
    ids=["strict-melds-beat-led-suit", "pass-one", "pass-five"],
)
def test_heuristic_bot_plays_rules_variants(rules: Rules) -> None:
    spies = [SpyBot(HeuristicBot()) for _ in Seat]
    state = play_game(spies, seed=8, rules=rules)
    assert state.is_over
    assert state.rules == rules


def test_heuristic_bot_is_legal_in_random_reachable_states() -> None:
    """From states reached by random play, in every phase, the heuristic picks a legal action."""
    rng = random.Random(5)
    phases: set[Phase] = set()
    for game in range(6):
        state = new_game(dealer=Seat(game % 4))
        while not state.is_over and len(state.completed_hands) < 2:
            if state.is_chance:
                state = apply(state, shuffled_deal(rng))
                continue
            phases.add(state.phase)
            assert choose(state) in legal_actions(state)
            state = apply(state, rng.choice(legal_actions(state)))
    assert phases >= {Phase.BIDDING, Phase.SUNK_SUIT, Phase.PARTNER_PASS, Phase.PLAY}


def test_bots_refuse_a_game_state() -> None:
    state = apply(new_game(), shuffled_deal(3))
    for bot in (HeuristicBot(), RandomBot()):
        with pytest.raises(TypeError, match="PlayerView"):
            bot.choose(state, random.Random(0))  # type: ignore[arg-type]  # the point of the test


def test_bots_refuse_a_view_when_it_is_not_their_turn() -> None:
    state = apply(new_game(), shuffled_deal(3))
    assert state.to_act is E
    for bot in (HeuristicBot(), RandomBot()):
        with pytest.raises(InvalidStateError, match="turn"):
            bot.choose(view(state, N), random.Random(0))
        with pytest.raises(InvalidStateError):
            bot.choose(view(state, None), random.Random(0))


def test_bots_cannot_see_hidden_cards() -> None:
    """Two states that differ only in cards North cannot see give North the same view and move."""
    base = ready_to_play(*SHED_DEAL, Suit.HEARTS)
    swapped_deal = deal_of(
        SHED_DEAL[0],
        # East and South swap two cards North cannot see.
        SHED_DEAL[1].replace("5D", "8D"),
        SHED_DEAL[2].replace("8D 8D", "8D 5D"),
        SHED_DEAL[3],
    )
    other = apply(new_game(dealer=W), swapped_deal)
    other = play_script(other, list(base.history[1:]))
    assert other.hand(E) != base.hand(E)
    assert view(other, N) == view(base, N)
    assert choose(other) == choose(base)


def test_random_bot_is_reproducible_and_uses_its_stream() -> None:
    state = apply(new_game(), shuffled_deal(8))
    player = view(state, E)
    first = [RandomBot().choose(player, random.Random(1)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    picks = {RandomBot().choose(player, random.Random(seed)) for seed in range(30)}
    assert len(picks) > 5


def test_play_game_is_reproducible_and_deals_do_not_depend_on_the_bots() -> None:
    one = play_game(["heuristic", "random", "heuristic", "random"], seed=21)
    two = play_game(["heuristic", "random", "heuristic", "random"], seed=21)
    assert one == two
    other = play_game(["random"] * 4, seed=21)
    assert one.history[0] == other.history[0] == shuffled_deal(random.Random(21))
    assert bot_rng(21, N).random() == bot_rng(21, N).random()
    assert bot_rng(21, N).random() != bot_rng(21, E).random()


def test_play_game_reports_every_step_and_checks_its_arguments() -> None:
    steps: list[tuple[GameState, Action, GameState]] = []
    final = play_game(["random"] * 4, seed=4, on_action=lambda b, a, n: steps.append((b, a, n)))
    assert [action for _, action, _ in steps] == list(final.history)
    assert all(apply(before, action) == after for before, action, after in steps[:50])
    with pytest.raises(ValueError, match="four bots"):
        play_game(["random"] * 3, seed=1)
    with pytest.raises(ParseError, match="unknown bot"):
        play_game(["random", "random", "random", "clever"], seed=1)
    with pytest.raises(TypeError):
        make_bot(42)  # type: ignore[arg-type]  # a wrong type on purpose
    unfinished = play_game(["random"] * 4, seed=4, max_hands=0)
    assert not unfinished.is_over
    assert unfinished.history == ()


def test_transcript_describes_the_game() -> None:
    state = play_game(["heuristic"] * 4, seed=2026)
    text = format_transcript(state)
    assert text.startswith("Hand 1 - dealer N")
    assert text.count("Trick 14:") == len(state.completed_hands)
    assert "wins the auction at" in text
    assert f"NS {state.scores[0]}, EW {state.scores[1]}. {state.winner} wins" in text
    hidden = format_transcript(state, show_hands=False)
    deal = state.history[0]
    assert isinstance(deal, Deal)
    first_hand = " ".join(str(card) for card in deal.hand(N))
    assert first_hand in text
    assert first_hand not in hidden


# -- the heuristic's choices in constructed situations ----------------------------------------


def test_sheds_a_two_on_a_trick_the_opponents_win() -> None:
    """West, last to a spade trick North leads with the 8, cannot win it: she sheds her 2♠."""
    state = plays(ready_to_play(*SHED_DEAL, Suit.HEARTS), "8S 4S 5S")
    assert choose(state) == PlayCard(W, Card("2S"))


def test_sheds_a_sunk_two_when_void_rather_than_take_the_trick() -> None:
    """West is void in diamonds: any spade would win the trick; the sunk 2♥ goes to South."""
    state = plays(ready_to_play(*SHED_DEAL, Suit.HEARTS), "4D 5D 8D")
    assert choose(state) == PlayCard(W, Card("2H"))


def test_does_not_win_a_trick_with_points_when_it_can_avoid_it() -> None:
    """North leads the 2♣ (20 points) and East covers it with the 8♣.

    South holds no clubs: a diamond would introduce a suit and take the trick
    with its 20 points.  A sunk heart never wins, and the 3♥ adds 10 points to
    the opponents' trick.
    """
    deal = (
        "2C 8S 8S 3S 3S 4S 4S 5S 5S 6S 6S 7S 7S 2S",
        "4C 4C 5C 5C 6C 6C 7C 7C 8C 8C 2D 2D 3D 3D",
        "6H 7H 8D 8D 7D 7D 6D 6D 5D 5D 4D 4D 3H 3H",
        "2C 3C 3C 2H 2H 4H 4H 5H 5H 6H 7H 8H 8H 2S",
    )
    state = ready_to_play(*deal, Suit.HEARTS)
    state = plays(state, "2C 8C")
    assert choose(state) == PlayCard(S, Card("3H"))


def test_takes_an_unavoidable_trick_with_its_highest_card() -> None:
    """West must play over the 5♠ with the 6♠ or the 8♠; she wins either way: she sheds the 8."""
    deal = (
        "3S 3S 2S 2S 6S 7S 7S 8S 6H 6H 7H 7H 8H 8H",
        "4S 4S 2C 2C 3C 3C 4C 4C 5C 5C 6C 6C 7C 7C",
        "5S 5S 8C 8C 2D 2D 3D 3D 4D 4D 5D 5D 6D 6D",
        "6S 8S 7D 7D 8D 8D 2H 2H 3H 3H 4H 4H 5H 5H",
    )
    state = plays(ready_to_play(*deal, Suit.HEARTS), "3S 4S 5S")
    assert choose(state) == PlayCard(W, Card("8S"))


def test_leads_high_to_force_the_next_player_over() -> None:
    """East has melded 8♠ 8♠ 7♠ 6♠; North leads the 7♠, which East must beat with an 8."""
    deal = deal_of(
        "4S 5S 7S 2H 2H 3H 3H 4H 4H 5H 5H 6H 6H 7H",
        "6S 7S 8S 8S 7H 8H 8H 2C 3C 4C 5C 6C 7C 8C",
        "2S 3S 4S 5S 6S 2C 3C 4C 5C 6C 7C 8C 2D 3D",
        "2S 3S 2D 3D 4D 4D 5D 5D 6D 6D 7D 7D 8D 8D",
    )
    give = cards("2D 3D 2C")
    state = play_script(
        apply(new_game(dealer=W), deal),
        actions(
            [Bid(N, 120), Pass(E), Pass(S), Pass(W), NameSunkSuit(N, Suit.HEARTS), Done(N)],
            [PassCard(S, card) for card in give],
            [Done(N)],
            [PassCard(N, card) for card in give],
            [DeclareMeld(E, Meld.parse("DR-S")), DeclareMeld(E, Meld.parse("DE-S"))],
            [Done(E), Done(S), Done(W)],
        ),
    )
    assert state.phase is Phase.PLAY
    assert state.to_act is N
    assert choose(state) == PlayCard(N, Card("7S"))


def drive(state: GameState, until: Iterable[Phase]) -> tuple[GameState, dict[Phase, GameState]]:
    """Let the heuristic play every seat until a phase in ``until``; remember each phase's start."""
    stop = set(until)
    starts: dict[Phase, GameState] = {}
    while state.phase not in stop:
        starts.setdefault(state.phase, state)
        state = apply(state, choose(state))
    return state, starts


def test_declares_its_best_meld() -> None:
    state, starts = drive(auction_won_by_north(), [Phase.PLAY])
    sunk = state.sunk_suit
    bidder_turn = starts[Phase.BIDDER_MELD]
    assert state.melds[N] == best_meld(bidder_turn.hand(N), sunk, max_melded=14)
    for seat in (E, S, W):
        assert state.melds[seat] == best_meld(state.hand(seat), sunk)
    assert sum(m.value for m in state.melds[N]) < -100  # the spade fortress melds big


def test_names_a_sunk_suit_that_keeps_its_runs() -> None:
    state = auction_won_by_north()
    action = choose(state)
    assert isinstance(action, NameSunkSuit)
    assert action.suit is not Suit.SPADES  # sinking spades would cost the grand run


def test_invitation_shows_cards_of_incomplete_melds() -> None:
    hand = parse_cards("8S 7S 8C 8D 8H 2C 3C 4C 2D 3D 5H 5H 2S 3S")
    shown = HEURISTIC.invitation(hand, Suit.HEARTS)
    assert {Card("8S"), Card("7S")} <= set(shown)  # a deep run ♠ short of the 6♠
    assert {Card("8C"), Card("8D"), Card("8H")} <= set(shown)  # eights wide short of the 8♠
    for card in shown:  # each shown card sits in a meld the hand is one or two cards short of
        assert any(
            card in meld.cards
            and not (meld.family is MeldFamily.RUN and meld.suit is Suit.HEARTS)
            and 1 <= _missing(hand, meld) <= 2
            for meld in ALL_MELDS
        )


def test_the_invitation_depends_on_the_cards_and_sunk_suit_only_and_is_a_fresh_list() -> None:
    # The invitation is cached by the sorted hand and the sunk suit: any order of the same
    # cards gives the same cards, each sunk suit its own answer (the one computed afresh),
    # and a caller who changes the list it got changes no later answer.
    rng = random.Random(4)
    differs = 0
    for _ in range(300):
        hand = rng.sample(DECK, 14)
        key = tuple(sorted(hand))
        fresh = {suit: list(_invitation.__wrapped__(key, suit)) for suit in Suit}
        differs += len({tuple(cards) for cards in fresh.values()}) > 1
        suits = list(Suit)
        rng.shuffle(suits)
        for suit in suits:
            shuffled = list(hand)
            rng.shuffle(shuffled)
            got = HEURISTIC.invitation(shuffled, suit)
            assert got == fresh[suit]
            got.clear()
            assert HEURISTIC.invitation(hand, suit) == fresh[suit]
    assert differs > 10  # the sunk suit matters to many hands: a key without it would fail


def _missing(hand: Iterable[Card], meld: Meld) -> int:
    held = list(hand)
    missing = 0
    for card in meld.cards:
        if card in held:
            held.remove(card)
        else:
            missing += 1
    return missing


def test_partner_passes_the_cards_that_complete_shown_melds() -> None:
    """North shows 8♠ 7♠; South holds 6♠ 5♠ 4♠ and passes all three: a grand run."""
    deal = deal_of(
        "8S 7S 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H",
        "8S 7S 6S 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H",
        "6S 5S 4S 2S 3S 6C 7C 8C 6D 7D 5H 6H 6H 7H",
    )
    state = play_script(
        apply(new_game(dealer=W), deal),
        [
            Bid(N, 120),
            Pass(E),
            Pass(S),
            Pass(W),
            NameSunkSuit(N, Suit.HEARTS),
            ShowCard(N, Card("8S")),
            ShowCard(N, Card("7S")),
            Done(N),
        ],
    )
    assert state.phase is Phase.PARTNER_PASS
    assert state.to_act is S
    after, _ = drive(state, [Phase.BIDDER_MELD])
    assert sorted(after.setup.partner_pass) == cards("4S 5S 6S")
    assert Meld.parse("GR-S") in best_meld(after.hand(N), Suit.HEARTS, max_melded=14)
    # South keeps its own deep run in clubs (8♣ 7♣ 6♣) intact.
    assert {Card("6C"), Card("7C"), Card("8C")} <= set(after.hand(S))


def test_partner_passes_the_missing_cards_of_two_shown_melds() -> None:
    """North shows 8♣ 8♦ 8♥: South completes the eights wide (8♠) and a deep run ♦ (7♦ 6♦).

    South's 6♥ 7♥ would complete a deep run ♥ as well, but they are South's
    own echoes, so the diamonds go.
    """
    deal = deal_of(
        "8C 8D 8H 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H",
        "8C 8D 8H 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H",
        "8S 5S 4S 2S 3S 6C 7C 6D 7D 7H 5H 6H 6H 7H",
    )
    state = play_script(
        apply(new_game(dealer=W), deal),
        actions(
            [Bid(N, 120), Pass(E), Pass(S), Pass(W), NameSunkSuit(N, Suit.CLUBS)],
            [ShowCard(N, Card(c)) for c in ("8C", "8D", "8H")],
            [Done(N)],
        ),
    )
    after, _ = drive(state, [Phase.BIDDER_MELD])
    assert sorted(after.setup.partner_pass) == cards("6D 7D 8S")
    melds = best_meld(after.hand(N), Suit.CLUBS, max_melded=14)
    assert {Meld.parse("8W"), Meld.parse("GR-D")} <= set(melds)  # North held 4♦ 5♦ too


def test_bidder_passes_back_unmelded_cards_but_not_its_twos() -> None:
    state, starts = drive(auction_won_by_north(), [Phase.MELDING])
    bidder_pass = starts[Phase.BIDDER_PASS]
    given = state.setup.bidder_pass
    assert len(given) == 3
    melded = [card for meld in bidder_pass.melds[N] for card in meld.cards]
    assert not set(given) & set(melded)
    unmelded = [card for card in bidder_pass.hand(N) if card not in melded]
    assert any(card.points == 20 for card in unmelded)  # North had a 2 it could have passed
    assert all(card.points < 20 for card in given)


def test_auction_opens_high_passes_behind_partner_and_makes_the_forced_bid() -> None:
    state = apply(new_game(dealer=W), FORTRESS)
    assert choose(state) == Bid(N, 120)  # a 120 bid costs nothing even if it fails
    state = play_script(state, [Bid(N, 120)])
    assert choose(state) in (Pass(E), Bid(E, 110))
    state = play_script(state, [Pass(E)])
    assert choose(state) == Pass(S)  # never outbid the partner
    forced = play_script(apply(new_game(dealer=W), FORTRESS), [Pass(N), Pass(E), Pass(S)])
    assert choose(forced) == Bid(W, 120)


def test_auction_refuses_a_suicidal_contract() -> None:
    state = play_script(apply(new_game(dealer=W), FORTRESS), [Bid(N, -200)])
    assert choose(state) == Pass(E)


def test_estimate_prefers_a_meld_rich_hand() -> None:
    rules = new_game().rules
    rich = HEURISTIC.estimate(parse_cards("8S 8S 7S 7S 6S 6S 5S 4S 8H 8D 8C 7H 2C 3C"), rules)
    poor = HEURISTIC.estimate(parse_cards("2S 2S 3S 3S 2H 2H 3H 3H 4H 4H 5H 5H 2C 3C"), rules)
    assert rich.meld < -100
    assert poor.meld == 0
    assert rich.net < poor.net
    assert rich.sunk_suit is not Suit.SPADES


def test_the_bot_registry_looks_names_up_without_importing_and_fails_typed() -> None:
    """Asking whether a name is known imports nothing; an unknown name is an
    UnknownNameError (a KeyError); an entry that cannot be loaded
    is a ParseError that says why."""
    from deepsix.errors import UnknownNameError
    from deepsix.play.bots import BOT_NAMES, register_bot

    register_bot("unloadable", "deepsix_no_such_module:Bot")
    register_bot("not-callable", "deepsix.play.bots:ENTRY_POINT_GROUP")
    try:
        assert "unloadable" in BOT_NAMES  # the module is never imported for this
        assert "nothing" not in BOT_NAMES
        with pytest.raises(UnknownNameError, match="unknown bot 'nothing'") as raised:
            BOT_NAMES["nothing"]
        assert isinstance(raised.value, KeyError)
        with pytest.raises(ParseError, match="cannot be loaded: No module named"):
            make_bot("unloadable")
        with pytest.raises(ParseError, match="not callable"):
            make_bot("not-callable")
    finally:
        del BOT_NAMES._entries["unloadable"]  # the registry has no public removal
        del BOT_NAMES._entries["not-callable"]
