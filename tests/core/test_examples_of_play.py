"""The rules text's EXAMPLES OF PLAY, trick by trick (sunk suit: hearts).

Each test builds the exact partial trick and hand the text describes and
checks that ``legal_plays`` allows what the text says and ``trick_winner``
gives the trick to whom the text says, under the default play-over rule
(and, where the text's reasoning holds for it too, the variant).

One transcription problem in the text: in the "rewind" example Player 3
holds "3♡ 7♡ 3♠ 4♠ 8♠" yet "can't follow suit" to a spade lead, and the
text then reasons about Player 4 playing "a higher diamond (which will beat
the 3)".  Holding spades, Player 3 could follow; the cards must be
diamonds (3♦ 4♦ 8♦), which is how the example is encoded here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from deepsix import DECK, Card, PlayOver, Seat, Suit, legal_plays, parse_cards, trick_winner
from deepsix.hands import pack

SUNK = Suit.HEARTS
P1, P2, P3, P4 = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def cards(text: str) -> tuple[Card, ...]:
    """Cards from text, in the order written (not sorted)."""
    return tuple(Card.parse(part) for part in text.split())


def plays(text: str) -> list[tuple[Seat, Card]]:
    """A trick led by Player 1, from its cards in play order."""
    return [(Seat(i), card) for i, card in enumerate(cards(text))]


def allowed(hand: str, trick: str, play_over: PlayOver = PlayOver.WIN_TRICK) -> set[Card]:
    """The cards the holder of ``hand`` may play to the partial ``trick``."""
    return set(legal_plays(pack(parse_cards(hand)), cards(trick), SUNK, play_over))


def winner(trick: Sequence[tuple[Seat, Card]]) -> Seat:
    """Who takes the (partial) trick, hearts sunk."""
    return trick_winner(trick, SUNK)


@pytest.mark.parametrize("play_over", list(PlayOver))
def test_player_2_must_follow_and_play_over(play_over: PlayOver) -> None:
    """R-PLAY-2, R-PLAY-3, R-PLAY-6: Player 1 leads 6♠; Player 2 holds 2♠ 3♠ 6♠ 8♠ 4♠.

    "They must play a spade (Rule 1), and must play the 6 or 8, since those
    cards will beat the card already played (Rules 2 and 5)."
    """
    assert allowed("2S 3S 6S 8S 4S", "6S", play_over) == set(parse_cards("6S 8S"))
    assert winner(plays("6S 8S")) is P2
    assert winner(plays("6S 6S")) is P2, "Rule 5: the second of two identical cards is higher"


@pytest.mark.parametrize("play_over", list(PlayOver))
def test_player_3_cannot_win_so_plays_any_spade(play_over: PlayOver) -> None:
    """R-PLAY-2, R-PLAY-3: after 6♠ 8♠, Player 3 holds 2♠ 7♠ 7♥ 3♠ 4♠.

    "They must play a spade (Rule 1), but can play either the 7 or the 2,
    since neither will take the trick (Rule 2)" -- indeed any spade, since
    none beats the 8♠; never the 7♥.  Had Player 2 played the 6♠, Player 3
    "would have been forced to play the 7 (Rule 2)".
    """
    hand = "2S 7S 7H 3S 4S"
    assert allowed(hand, "6S 8S", play_over) == set(parse_cards("2S 3S 4S 7S"))
    assert Card.parse("7H") not in allowed(hand, "6S 8S", play_over)
    assert allowed(hand, "6S 6S", play_over) == {Card.parse("7S")}
    assert winner(plays("6S 6S 7S")) is P3


def test_player_4_void_in_spades_chooses_who_takes_the_trick() -> None:
    """R-PLAY-2, R-PLAY-4, R-PLAY-5: after 6♠ 8♠ 2♠, Player 4 holds 5♥ 5♥ 3♣ 2♦ 5♦ and no spades.

    "If they play a club or diamond, they will take the trick, since that
    suit would become the last suit introduced (Rule 3). However, if they
    play 5♥, then Player 2 will take the trick [...] (Rule 4)."  Player 4
    plays the 5♦ and takes the trick.
    """
    hand = "5H 5H 3C 2D 5D"
    assert allowed(hand, "6S 8S 2S") == set(parse_cards(hand))
    assert winner(plays("6S 8S 2S 3C")) is P4
    assert winner(plays("6S 8S 2S 2D")) is P4
    assert winner(plays("6S 8S 2S 5D")) is P4
    assert winner(plays("6S 8S 2S 5H")) is P2
    assert winner(plays("6S 8S 2S")) is P2


def test_rewind_player_3_void_in_the_led_suit() -> None:
    """R-PLAY-2, R-PLAY-4, R-PLAY-5, R-PLAY-6: Player 1 leads 6♠, Player 2 plays the second 6♠;
    Player 3 holds 3♥ 7♥ 3♦ 4♦ 8♦ (see the module docstring) and can't follow suit.

    "Option one, play the 8. Player 3's now probably going to take the
    trick."  "Option two, play the 3 [...] Player 4 will have to play a
    higher diamond (which will beat the 3) or play a club. That would make
    clubs the last suit introduced, and no matter which club it is, Player 4
    will have to take the trick."  "Player 3's best option, however, is to
    play 3♥. Hearts are sunk; they all rank below spades.  They could also
    play 7♥."
    """
    hand = "3H 7H 3D 4D 8D"
    assert allowed(hand, "6S 6S") == set(parse_cards(hand)), "void: any card may be played"
    assert winner(plays("6S 6S 8D")) is P3
    assert winner(plays("6S 6S 3D")) is P3
    for club in parse_cards("2C 3C 4C 5C 6C 7C 8C"):
        assert winner([*plays("6S 6S 3D"), (P4, club)]) is P4
    for diamond in parse_cards("4D 5D 6D 7D 8D"):
        assert winner([*plays("6S 6S 3D"), (P4, diamond)]) is P4
    assert winner([*plays("6S 6S 3D"), (P4, Card.parse("2D"))]) is P3
    assert winner([*plays("6S 6S 3D"), (P4, Card.parse("8H"))]) is P3
    assert winner(plays("6S 6S 3H")) is P2
    assert winner(plays("6S 6S 7H")) is P2
    assert winner([*plays("6S 6S 3H"), (P4, Card.parse("8H"))]) is P2, "hearts rank below spades"
    assert winner([*plays("6S 6S 3H"), (P4, Card.parse("2C"))]) is P4


def test_rewind_3_diamond_leaves_player_4_free() -> None:
    """R-PLAY-2, R-PLAY-3, R-PLAY-4: after 6♠ 6♠ 3♦, Player 4 cannot follow suit and so may play
    any card.  Without spades or hearts (the text's premise), a club or a diamond above the 3
    takes the trick for him -- but the 2♦ leaves it with Player 3, 20 points heavier."""
    hand = "5C 2D 4D 7D"  # no spades, no hearts: any card may be played
    assert allowed(hand, "6S 6S 3D") == set(parse_cards(hand))
    for card in DECK:
        if card.suit in (Suit.SPADES, SUNK):
            continue
        expected = P3 if card == Card.parse("2D") else P4
        assert winner([*plays("6S 6S 3D"), (P4, card)]) is expected, card


def test_rewind_3_heart_always_goes_to_an_opponent() -> None:
    """R-PLAY-4, R-PLAY-5, R-PLAY-6: after 6♠ 6♠ 3♥ nothing Player 4 plays gives the trick to
    Player 3: it goes to Player 2 or to Player 4 himself, both opponents of Player 3."""
    takers = {winner([*plays("6S 6S 3H"), (P4, card)]) for card in DECK}
    assert takers == {P2, P4}
