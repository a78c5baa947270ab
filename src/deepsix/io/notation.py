"""A compact text notation for cards and actions: for logs, tests, URLs and people.

Every token is plain ASCII and uses only characters that need no escaping
in a URL path or query (letters, digits, ``:``, ``-`` and ``.``).

Cards
    A rank digit ``2``-``8`` then a suit letter ``C D H S``: ``7S`` is the
    seven of spades.  Lists of cards are written back to back with no
    separator (``7S8H2C``), which keeps a whole deal on one short line.

Seats
    ``N E S W`` (seats 0 to 3, clockwise).

Actions
    ``<seat>:<move>``, except the deal, which belongs to no seat:

    ==================  ===============================  =============================
    notation            action                           meaning
    ==================  ===============================  =============================
    ``DEAL:<cards>``    :class:`~deepsix.Deal`           56 cards, four groups of 14
                                                         (North's first) joined by ``.``
    ``E:B90``           :class:`~deepsix.Bid`            East bids 90 (``E:B-40``: -40)
    ``E:P``             :class:`~deepsix.Pass`           East passes
    ``N:SINK:S``        :class:`~deepsix.NameSunkSuit`   North sinks spades
    ``N:SHOW:7S``       :class:`~deepsix.ShowCard`       North shows 7♠ (invitation)
    ``S:GIVE:7S``       :class:`~deepsix.PassCard`       South passes 7♠ to her partner
    ``N:MELD:DR-S``     :class:`~deepsix.DeclareMeld`    North melds a deep run in ♠
                                                         (``8W``: eights wide)
    ``N:DONE``          :class:`~deepsix.Done`           North ends her invitation or melds
    ``N:7S``            :class:`~deepsix.PlayCard`       North plays 7♠
    ==================  ===============================  =============================

:func:`format_action` always writes the canonical form above (upper case,
no spaces).  :func:`parse_action` also accepts lower case, surrounding
spaces, suit symbols (``7♠``) and deals written without the dots; anything
else raises :class:`~deepsix.ParseError` with a message that says what was
expected.  ``parse_action(format_action(a)) == a`` for every action and
``format_action(parse_action(t)) == t`` for every canonical token.

>>> from deepsix import Bid, Seat
>>> format_action(Bid(Seat.EAST, -40))
'E:B-40'
>>> str(parse_action("n:meld:dr-s"))
'N melds deep run ♠'

"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

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
from deepsix.cards import CARDS, Card, Seat, Suit
from deepsix.errors import ParseError
from deepsix.melds import ALL_MELDS, Meld

__all__ = [
    "ACTION_PATTERN",
    "CARD_PATTERN",
    "format_action",
    "format_actions",
    "format_card",
    "format_cards_compact",
    "parse_action",
    "parse_actions",
    "parse_card",
    "parse_cards_compact",
]

CARD_PATTERN: Final = "[2-8][CDHS]"
"""A regular expression for one card in canonical notation."""

_MELD_PATTERN: Final = "(?:(?:GR|DR|SR|DE|SE|MT)-[CDHS]|[876]W)"
_DEAL_GROUP: Final = f"(?:{CARD_PATTERN}){{14}}"

ACTION_PATTERN: Final = (
    rf"^(?:DEAL:{_DEAL_GROUP}(?:\.{_DEAL_GROUP}){{3}}"
    rf"|[NESW]:(?:P|DONE|B-?(?:0|[1-9][0-9]{{0,5}})|SINK:[CDHS]"
    rf"|(?:SHOW:|GIVE:)?{CARD_PATTERN}|MELD:{_MELD_PATTERN}))$"
)
"""A regular expression matching exactly the canonical notation of an action
(the JSON Schema uses it for histories and records)."""

MAX_TOKEN_LENGTH: Final = 200
"""Longer text is refused before it is looked at (a deal is 120 characters)."""

_MAX_BID_DIGITS: Final = 6
_SEAT_LETTERS: Final = "NESW"
_SEATS: Final = tuple(Seat)
_SUIT_LETTERS: Final = "CDHS"
_CARD_TEXT: Final = tuple(card.ascii for card in CARDS)
_MELD_TEXT: Final = {meld: meld.code for meld in ALL_MELDS}
_SYMBOLS: Final = str.maketrans("♣♦♥♠♧♢♡♤", "CDHSCDHS")
_CARD_RE: Final = re.compile(CARD_PATTERN)
_VERBS: Final = "P, B<amount>, SINK:<suit>, SHOW:<card>, GIVE:<card>, MELD:<meld>, DONE or a card"


def format_card(card: Card) -> str:
    """A card's notation, e.g. ``'7S'``."""
    return _CARD_TEXT[card]


def parse_card(text: str) -> Card:
    """Read one card (``7S``, ``7s`` or ``7♠``)."""
    if not isinstance(text, str):
        raise ParseError(f"a card must be given as text, not {type(text).__name__}")
    return Card.parse(text)


def format_cards_compact(cards: Iterable[Card]) -> str:
    """Cards written back to back in the given order, e.g. ``'7S8H2C'``."""
    return "".join(_CARD_TEXT[card] for card in cards)


def parse_cards_compact(text: str) -> tuple[Card, ...]:
    """Read cards written back to back (``7S8H2C``), in order.

    Spaces, commas and dots between cards are allowed and ignored.
    """
    if not isinstance(text, str):
        raise ParseError(f"cards must be given as text, not {type(text).__name__}")
    key = text.translate(_SYMBOLS).upper()
    for separator in " ,.\t":
        key = key.replace(separator, "")
    if len(key) % 2:
        raise ParseError(
            f"{_shorten(text)!r} is not a list of cards: each card is two characters "
            "(a rank 2-8 then a suit letter C, D, H or S)"
        )
    cards: list[Card] = []
    for i in range(0, len(key), 2):
        pair = key[i : i + 2]
        if not _CARD_RE.fullmatch(pair):
            raise ParseError(
                f"{pair!r} (card {i // 2 + 1} of {_shorten(text)!r}) is not a card: "
                "write a rank 2-8 then a suit letter, e.g. 7S"
            )
        cards.append(Card.parse(pair))
    return tuple(cards)


def format_action(action: Action) -> str:
    """The canonical notation of an action (see the module documentation)."""
    match action:  # the commonest first
        case PlayCard(card=card):
            move = _CARD_TEXT[card]
        case Deal(cards=cards):
            groups = (format_cards_compact(cards[i : i + 14]) for i in range(0, len(cards), 14))
            return "DEAL:" + ".".join(groups)
        case Bid(amount=amount):
            move = f"B{amount}"
        case Pass():
            move = "P"
        case NameSunkSuit(suit=suit):
            move = f"SINK:{_SUIT_LETTERS[suit]}"
        case ShowCard(card=card):
            move = f"SHOW:{_CARD_TEXT[card]}"
        case PassCard(card=card):
            move = f"GIVE:{_CARD_TEXT[card]}"
        case DeclareMeld(meld=meld):
            move = f"MELD:{_MELD_TEXT[meld]}"
        case Done():
            move = "DONE"
        case _:
            raise ParseError(f"{action!r} is not a deepsix action")
    return f"{_SEAT_LETTERS[action.seat]}:{move}"


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def parse_action(text: str) -> Action:
    """Read one action in notation (see the module documentation).

    Raises :class:`~deepsix.ParseError` naming what is wrong and what was expected.

    >>> parse_action("E:P")
    Pass(seat=<Seat.EAST: 1>)
    >>> try:
    ...     parse_action("E:B95x")
    ... except ParseError as error:
    ...     print(error)
    'E:B95x' is not an action: 'B95X' is not a bid (write B then a whole number, e.g. B90 or B-40)
    """
    if not isinstance(text, str):
        raise ParseError(f"an action must be given as text, not {type(text).__name__}")
    if len(text) > MAX_TOKEN_LENGTH:
        raise ParseError(
            f"{_shorten(text)!r} is not an action: {len(text)} characters is too long "
            f"(at most {MAX_TOKEN_LENGTH})"
        )
    token = text.strip().translate(_SYMBOLS).upper()
    head, colon, rest = token.partition(":")
    if not colon:
        raise ParseError(
            f"{_shorten(text)!r} is not an action: write <seat>:<move> (e.g. N:7S, E:P, "
            "S:B90) or DEAL:<56 cards>"
        )
    if head == "DEAL":
        cards = parse_cards_compact(rest)
        if len(cards) != 56:
            raise ParseError(
                f"{_shorten(text)!r} is not a deal: it lists {len(cards)} cards, not 56"
            )
        return Deal(cards)
    if len(head) != 1 or head not in _SEAT_LETTERS:
        raise ParseError(
            f"{_shorten(text)!r} is not an action: {head!r} is not a seat (use N, E, S or W, "
            "or DEAL)"
        )
    seat = _SEATS[_SEAT_LETTERS.index(head)]
    verb, colon, argument = rest.partition(":")
    if colon:
        return _parse_with_argument(text, seat, verb, argument)
    if verb == "P":
        return Pass(seat)
    if verb == "DONE":
        return Done(seat)
    if verb.startswith("B"):
        return Bid(seat, _parse_amount(text, verb))
    if _CARD_RE.fullmatch(verb):
        return PlayCard(seat, Card.parse(verb))
    raise ParseError(
        f"{_shorten(text)!r} is not an action: {verb!r} is not a move (expected {_VERBS})"
    )


def _parse_amount(text: str, verb: str) -> int:
    digits = verb[1:]
    body = digits[1:] if digits.startswith("-") else digits
    if not body.isascii() or not body.isdigit():
        raise ParseError(
            f"{_shorten(text)!r} is not an action: {_shorten(verb)!r} is not a bid (write B "
            "then a whole number, e.g. B90 or B-40)"
        )
    if len(body) > _MAX_BID_DIGITS:
        raise ParseError(
            f"{_shorten(text)!r} is not an action: a bid has at most {_MAX_BID_DIGITS} digits, "
            f"not {len(body)}"
        )
    return int(digits)


def _parse_with_argument(text: str, seat: Seat, verb: str, argument: str) -> Action:
    if verb == "SINK":
        if len(argument) != 1 or argument not in _SUIT_LETTERS:
            raise ParseError(
                f"{_shorten(text)!r} is not an action: {argument!r} is not a suit "
                "(use C, D, H or S)"
            )
        return NameSunkSuit(seat, Suit(_SUIT_LETTERS.index(argument)))
    if verb in ("SHOW", "GIVE"):
        if not _CARD_RE.fullmatch(argument):
            raise ParseError(
                f"{_shorten(text)!r} is not an action: {argument!r} is not a card "
                "(a rank 2-8 then a suit letter, e.g. 7S)"
            )
        card = Card.parse(argument)
        return ShowCard(seat, card) if verb == "SHOW" else PassCard(seat, card)
    if verb == "MELD":
        return DeclareMeld(seat, _parse_meld(text, argument))
    raise ParseError(
        f"{_shorten(text)!r} is not an action: {verb!r} is not a move (expected {_VERBS})"
    )


def _parse_meld(text: str, argument: str) -> Meld:
    try:
        return Meld.parse(argument)
    except ParseError as error:
        raise ParseError(f"{_shorten(text)!r} is not an action: {error}") from None


def format_actions(actions: Iterable[Action], separator: str = " ") -> str:
    """Several actions in notation, joined by ``separator``."""
    return separator.join(format_action(action) for action in actions)


def parse_actions(text: str) -> tuple[Action, ...]:
    """Read actions separated by spaces, commas or line breaks.

    >>> [str(a) for a in parse_actions("E:P, S:B120 W:P")]
    ['E passes', 'S bids 120', 'W passes']
    """
    if not isinstance(text, str):
        raise ParseError(f"actions must be given as text, not {type(text).__name__}")
    tokens = text.replace(",", " ").split()
    actions: list[Action] = []
    for index, token in enumerate(tokens, start=1):
        try:
            actions.append(parse_action(token))
        except ParseError as error:
            raise ParseError(f"action {index}: {error}") from None
    return tuple(actions)
