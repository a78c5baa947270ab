"""Trick play: following suit, playing over, and who wins (R-PLAY-*)."""

from __future__ import annotations

import pytest

from deepsix import (
    Card,
    GameState,
    IllegalActionError,
    Phase,
    PlayCard,
    PlayOver,
    Reason,
    Rules,
    Seat,
    Suit,
    apply,
    legal_actions,
    legal_plays,
    parse_cards,
    trick_winner,
)
from deepsix.errors import InvalidStateError
from deepsix.hands import pack
from deepsix.tricks import Trick, winning_position

N, E, S, W = Seat


def cards(text: str) -> list[Card]:
    return [Card(part) for part in text.split()]


def plays(text: str) -> list[tuple[Seat, Card]]:
    return list(zip(Seat, cards(text), strict=False))


@pytest.mark.parametrize(
    ("trick", "sunk", "winner"),
    [
        ("6S 8S 2S 5D", Suit.HEARTS, W),  # diamonds introduced last (R-PLAY-4)
        ("6S 8S 2S 5H", Suit.HEARTS, E),  # a sunk card never wins (R-PLAY-5)
        ("6S 6S 7H 3H", Suit.HEARTS, E),  # second identical 6♠ is higher (R-PLAY-6)
        ("5H 2H 3S 8H", Suit.HEARTS, S),  # sunk led: the first off-suit card takes over
        ("5C 8D 8C 2C", Suit.HEARTS, E),  # clubs led, diamonds introduced: 8♦ wins
        ("5C 8D 7D 8D", Suit.HEARTS, W),  # ... and the later identical 8♦ beats it
        ("4C 2D 3S 8C", Suit.HEARTS, S),  # last suit introduced is spades
        ("8S 8S 8S 8S", None, W),  # no sunk suit: later identical cards keep winning
    ],
)
def test_trick_winner(trick: str, sunk: Suit | None, winner: Seat) -> None:
    """R-PLAY-4 to R-PLAY-6: the high card of the last suit introduced wins."""
    assert trick_winner(plays(trick), sunk) == winner


def test_partial_trick_winner_and_empty_trick() -> None:
    """trick_winner works on partial tricks; an empty trick has no winner."""
    assert trick_winner(plays("6S 8S"), Suit.HEARTS) == E
    assert winning_position(cards("6S"), Suit.HEARTS) == 0
    with pytest.raises(InvalidStateError):
        trick_winner([], Suit.HEARTS)


def test_must_follow_suit() -> None:
    """R-PLAY-2: a player with the led suit must follow; without it, anything goes."""
    hand = pack(parse_cards("2S 3S 5H 8D"))
    assert legal_plays(hand, cards("4S"), Suit.HEARTS) == (Card("2S"), Card("3S"))
    void = pack(parse_cards("5H 8D 2C"))
    assert legal_plays(void, cards("4S"), Suit.HEARTS) == parse_cards("2C 8D 5H")


def test_must_play_over_when_following() -> None:
    """R-PLAY-3: following, a player must play a card that wins the trick if able."""
    hand = pack(parse_cards("2S 3S 6S 8S 4S"))  # the rules text's Player 2
    assert legal_plays(hand, cards("6S"), Suit.HEARTS) == (Card("6S"), Card("8S"))
    player3 = pack(parse_cards("2S 7S 7H 3S 4S"))  # cannot beat 8♠: any spade
    assert legal_plays(player3, cards("6S 8S"), Suit.HEARTS) == parse_cards("2S 3S 4S 7S")


def test_play_over_ignores_beaten_led_suit() -> None:
    """R-PLAY-3: once another suit took over, no led-suit card can win: any may be played."""
    hand = pack(parse_cards("2S 8S"))
    assert legal_plays(hand, cards("6S 5D"), Suit.HEARTS) == (Card("2S"), Card("8S"))


def test_play_over_variant_beats_led_suit() -> None:
    """R-PLAY-3 (variant): BEAT_LED_SUIT asks to beat the highest led-suit card regardless."""
    hand = pack(parse_cards("2S 8S"))
    variant = PlayOver.BEAT_LED_SUIT
    assert legal_plays(hand, cards("6S 5D"), Suit.HEARTS, variant) == (Card("8S"),)
    assert legal_plays(hand, cards("6S 5D"), Suit.HEARTS) == (Card("2S"), Card("8S"))


def test_sunk_suit_led_play_over() -> None:
    """R-PLAY-3, R-PLAY-5: over a sunk-suit lead, following means beating it while it leads."""
    hand = pack(parse_cards("2H 7H"))
    assert legal_plays(hand, cards("5H"), Suit.HEARTS) == (Card("7H"),)
    assert legal_plays(hand, cards("5H 3C"), Suit.HEARTS) == (Card("2H"), Card("7H"))


def test_trick_record() -> None:
    """A completed trick knows its leader, cards, points and winner."""
    trick = Trick(tuple(plays("6S 8S 2S 3D")), W)
    assert trick.leader == N
    assert trick.cards == tuple(cards("6S 8S 2S 3D"))
    assert trick.points == 30
    assert "-> W" in str(trick)


def play_until(state: GameState, phase: Phase) -> GameState:
    """Follow the first legal action until ``phase``."""
    while state.phase is not phase:
        state = apply(state, legal_actions(state)[0])
    return state


def test_engine_enforces_play_rules() -> None:
    """R-PLAY-1, R-PLAY-2, R-PLAY-3: the engine refuses off-suit and under-plays with reasons."""
    from deepsix import new_game, shuffled_deal

    for seed in range(40):
        state = play_until(apply(new_game(Rules()), shuffled_deal(seed)), Phase.PLAY)
        assert state.to_act == state.bidder  # R-PLAY-1
        state = apply(state, legal_actions(state)[-1])
        seat = state.to_act
        assert seat is not None
        legal = {a.card for a in legal_actions(state) if isinstance(a, PlayCard)}
        for card in set(state.hand(seat)) - legal:
            with pytest.raises(IllegalActionError) as info:
                apply(state, PlayCard(seat, card))
            led = state.trick[0][1].suit
            expected = Reason.MUST_FOLLOW_SUIT if card.suit != led else Reason.MUST_PLAY_OVER
            assert info.value.reason is expected
            assert info.value.rule in {"R-PLAY-2", "R-PLAY-3"}
