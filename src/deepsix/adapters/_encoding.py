"""The encodings the adapters share: integer actions, observation tensors and text.

One owner for every encoding, so that OpenSpiel and PettingZoo agree on what
action 0 is and on what entry 37 of an observation means.  Nothing here
knows a rule of the game: legal actions come from
:func:`deepsix.legal_actions`, transitions from :func:`deepsix.apply`, and
every observation is computed from a :class:`~deepsix.PlayerView` (what
:func:`deepsix.view` lets one seat see), never from the full state.

**Actions.**  One integer per action *kind*, the same for every seat (the
seat is the player to act).  The blocks that do not depend on the rules
come first, so their numbers never move; the bids come last, because how
many there are depends on :class:`~deepsix.Rules`:

=========  =========================  ==========================================
ids        action                     id within the block
=========  =========================  ==========================================
0-27       play a card                the card's index (``int(card)``)
28-55      pass a card to the partner the card's index
56-83      show a card (invitation)   the card's index
84-110     declare a meld             the meld's index in :data:`deepsix.ALL_MELDS`
111        done (invitation, melds)
112-115    name the sunk suit         the suit (clubs, diamonds, hearts, spades)
116        pass in the auction
117-       bid                        position in ``rules.bid_amounts`` (highest first)
=========  =========================  ==========================================

With the standard rules there are 54 bids (120 down to -410), so 171
actions in all.  A card's index is ``7 * suit + rank - 2`` (2♣ is 0, 8♠ is 27).

**Observations.**  :class:`ObservationLayout` writes one flat vector of
named pieces; seats in it are *relative* to the observing player (0 = the
player, 1 = the next seat clockwise, 2 = the partner, 3 = the seat on the
right), teams are (own team, other team).  The pieces and their shapes are
documented on :meth:`ObservationLayout.build`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Any, Final, SupportsIndex

import attrs
import numpy as np
import numpy.typing as npt

from deepsix import format_action
from deepsix.actions import (
    DECLARE,
    DONE,
    GIVE,
    PASS,
    PLAY,
    SHOW,
    SINK,
    Action,
    Bid,
    Pass,
)
from deepsix.cards import CARDS, HAND_SIZE, Card, Seat, Suit
from deepsix.engine import legal_actions
from deepsix.errors import IllegalActionError, Reason, UnknownNameError
from deepsix.melds import ALL_MELDS, Meld
from deepsix.rules import Rules
from deepsix.scoring import TOTAL_CARD_POINTS
from deepsix.state import GameState, Phase
from deepsix.views import PlayerView, public_view

__all__ = [
    "BID_BASE",
    "DONE_ID",
    "GIVE_BASE",
    "MELD_BASE",
    "PASS_ID",
    "PLAY_BASE",
    "SHOW_BASE",
    "SINK_BASE",
    "ActionCodec",
    "Entries",
    "ObservationLayout",
    "Piece",
    "max_decisions_per_hand",
    "max_hand_score",
    "state_text",
    "view_text",
]

PLAY_BASE: Final = 0
GIVE_BASE: Final = 28
SHOW_BASE: Final = 56
MELD_BASE: Final = 84
DONE_ID: Final = MELD_BASE + len(ALL_MELDS)
SINK_BASE: Final = DONE_ID + 1
PASS_ID: Final = SINK_BASE + 4
BID_BASE: Final = PASS_ID + 1

_SEATS: Final = tuple(Seat)
_SUITS: Final = tuple(Suit)
_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(Phase)}
_MELD_INDEX: Final = {meld: i for i, meld in enumerate(ALL_MELDS)}
_NUM_CARDS: Final = len(CARDS)
_NUM_MELDS: Final = len(ALL_MELDS)

_ASCII: Final = tuple(card.ascii for card in CARDS)
_LETTER: Final = tuple(str(seat) for seat in Seat)

Entries = tuple[list[int], dict[int, int]]
"""An encoded observation: the indices equal to 1, and the other non-zero entries."""

_Tally = tuple[tuple[frozenset[Suit], ...], tuple[int, int], tuple[int, int]]
_LAST_TALLY: Final[list[Any]] = []

_RELATIVE: Final = tuple(tuple((seat - me) & 3 for seat in range(4)) for me in range(4))
"""``_RELATIVE[me][seat]``: ``seat``'s position seen from ``me`` (0 = me, 2 = my partner)."""


def max_hand_score(rules: Rules) -> int:
    """The most a team can record for one hand under ``rules``.

    A team that is not bound by a bid records at most its card points
    (melds only lower it); a bidding team that makes its bid records at
    most the bid; one that fails records ``failed_bid_score - bid``, largest
    for the lowest bid.
    """
    return max(TOTAL_CARD_POINTS, rules.failed_bid_score - rules.lowest_bid)


def max_decisions_per_hand(rules: Rules) -> int:
    """An upper bound on the player decisions in one hand (chance steps excluded).

    The auction has at most one call per bid amount plus three passes; the
    invitation shows at most the bidder's whole hand, then Done; each pass
    is ``pass_size`` cards each way; a seat declares each meld at most
    twice (it holds at most two copies of a card), then Done; and there
    are 56 card plays.
    """
    meld_turn = 2 * _NUM_MELDS + 1
    return (
        len(rules.bid_amounts) + 3  # auction
        + 1  # sunk suit
        + HAND_SIZE + 1  # invitation
        + 2 * rules.pass_size  # the two passes
        + 4 * meld_turn  # the bidder's melds, then the other three seats'
        + 4 * HAND_SIZE  # tricks
    )  # fmt: skip


@functools.lru_cache(maxsize=64)
def _codec(rules: Rules) -> ActionCodec:
    return ActionCodec._build(rules)


@attrs.frozen(eq=False, repr=False)
class ActionCodec:
    """The integer encoding of actions under one set of :class:`~deepsix.Rules`.

    >>> codec = ActionCodec.for_rules(Rules())
    >>> codec.num_actions, codec.encode(Bid(Seat.EAST, 90)), codec.decode(0, Seat.NORTH)
    (171, 120, PlayCard(seat=<Seat.NORTH: 0>, card=Card('2C')))
    >>> codec.action_string(120, Seat.EAST)
    'E:B90'
    """

    rules: Rules
    """The rules (the bid block depends on their bid amounts)."""
    bid_amounts: tuple[int, ...]
    """Every legal bid amount, highest first: bid ``k`` is action ``BID_BASE + k``."""
    _by_id: tuple[tuple[Action, ...], ...]
    _to_id: tuple[dict[Action, int], ...]
    _strings: tuple[tuple[str, ...], ...]

    @classmethod
    def for_rules(cls, rules: Rules) -> ActionCodec:
        """The codec for ``rules`` (built once per distinct rules value)."""
        return _codec(rules)

    @classmethod
    def _build(cls, rules: Rules) -> ActionCodec:
        amounts = tuple(rules.bid_amounts)
        by_id = []
        for seat in _SEATS:
            table: list[Action] = [
                *PLAY[seat],
                *GIVE[seat],
                *SHOW[seat],
                *(DECLARE[seat, meld] for meld in ALL_MELDS),
                DONE[seat],
                *SINK[seat],
                PASS[seat],
                *(Bid(seat, amount) for amount in amounts),
            ]
            by_id.append(tuple(table))
        to_id = tuple({action: i for i, action in enumerate(table)} for table in by_id)
        strings = tuple(tuple(format_action(action) for action in table) for table in by_id)
        return cls(rules, amounts, tuple(by_id), to_id, strings)

    @property
    def num_actions(self) -> int:
        """How many action ids exist (the size of the action space)."""
        return BID_BASE + len(self.bid_amounts)

    def encode(self, action: Action) -> int:
        """The id of ``action`` (a player's action; a deal has no id)."""
        seat: Seat | None = getattr(action, "seat", None)
        index = None if seat is None else self._to_id[seat].get(action)
        if index is None:
            raise IllegalActionError(
                Reason.UNKNOWN_ACTION, f"{action!r} has no action id under these rules", action
            )
        return index

    def decode(self, index: SupportsIndex, seat: Seat | int) -> Action:
        """The action ``index`` taken by ``seat``.

        ``index`` is an int or a numpy integer.  Raises
        :class:`~deepsix.IllegalActionError` (reason ``UNKNOWN_ACTION``) for
        anything else, an id outside ``0 .. num_actions - 1`` or a seat
        outside 0..3.
        """
        if type(index) is not int:  # numpy integers too; not bools, strings or floats
            if isinstance(index, bool) or not hasattr(type(index), "__index__"):
                raise IllegalActionError(
                    Reason.UNKNOWN_ACTION, f"{index!r} is not an action id", index
                )
            index = operator.index(index)
        if not 0 <= index < self.num_actions or not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 3
        ):
            raise IllegalActionError(
                Reason.UNKNOWN_ACTION,
                f"action id {index} for seat {seat!r} (ids are 0..{self.num_actions - 1})",
                index,
            )
        return self._by_id[seat][index]

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of the engine's legal actions in ``state``, ascending."""
        seat = state.to_act
        if seat is None:
            return []
        to_id = self._to_id[seat]
        ids = [to_id[action] for action in legal_actions(state)]
        ids.sort()
        return ids

    def action_string(self, index: SupportsIndex, seat: Seat | int) -> str:
        """The action in the library's notation, e.g. ``'E:B90'`` or ``'N:7S'``."""
        self.decode(index, seat)  # checks both
        return self._strings[int(seat)][operator.index(index)]

    def __repr__(self) -> str:
        bids = f"{self.bid_amounts[0]}..{self.bid_amounts[-1]}"
        return f"<ActionCodec: {self.num_actions} actions, bids {bids}>"


@attrs.frozen
class Piece:
    """One named block of an observation vector."""

    name: str
    """The piece's name (a key of the OpenSpiel observer's ``dict``)."""
    shape: tuple[int, ...]
    """Its shape; the vector holds it flattened, row-major."""
    offset: int
    """Where it starts in the flat vector."""
    high: float
    """The largest value any entry can take (every entry is at least 0)."""

    @property
    def size(self) -> int:
        """How many entries it has."""
        return int(np.prod(self.shape))


@attrs.frozen(eq=False, repr=False)
class ObservationLayout:
    """Where each fact of a :class:`~deepsix.PlayerView` goes in a flat observation vector.

    Build one with :meth:`build`; :meth:`features` lists the non-zero
    entries for a view, :meth:`write` fills a numpy vector, :meth:`dense`
    returns a plain list.

    >>> layout = ObservationLayout.build(Rules())
    >>> layout.size, [piece.name for piece in layout.pieces][:5]
    (2233, ['player', 'phase', 'dealer', 'to_act', 'hand'])
    """

    rules: Rules
    """The rules (the auction pieces have one column per bid amount)."""
    perfect_recall: bool
    """Whether the tricks are kept in order (the information state) or summarised."""
    private: bool
    """Whether the observing seat's own cards are included."""
    public: bool
    """Whether the public facts are included."""
    pieces: tuple[Piece, ...]
    """The pieces in order."""
    size: int
    """The vector's length."""
    _offsets: dict[str, int]
    _bid_index: dict[int, int]
    _memo: dict[int, tuple[object, Any]] = attrs.field(factory=dict, init=False)

    @classmethod
    def build(
        cls,
        rules: Rules,
        *,
        perfect_recall: bool = True,
        private: bool = True,
        public: bool = True,
        max_hands: int = 1,
    ) -> ObservationLayout:
        """The layout for these rules and this kind of observation (built once per distinct call).

        Pieces, in order (seats relative to the observer, teams as
        (own, other); "count" entries are 0, 1 or 2 copies):

        * always: ``player`` (4) the observer's absolute seat, one-hot;
          ``phase`` (10) one-hot in :class:`~deepsix.Phase` order;
          ``dealer`` (4); ``to_act`` (4), all zero at a deal and at the end;
        * private (the observer's own cards): ``hand`` (28) counts;
          ``passed`` (28) counts of the cards it passed this hand;
          ``received`` (28) counts of the cards it received;
        * public: ``hand_sizes`` (4) cards held; ``auction_bids``
          (4, bids) 1 where that seat bid that amount; ``auction_passed`` (4);
          ``bidder`` (4); ``contract`` (bids) the standing bid, one-hot;
          ``sunk_suit`` (4); ``invitation`` (28) counts;
          ``pass_counts`` (2) cards gone from partner to bidder, and back;
          ``melds`` (4, 27) how many times each seat declared each meld;
          then, with perfect recall, ``tricks`` (14, 4, 28) the card each
          seat played to each trick of the hand (completed ones, then the
          current one), ``trick_leaders`` (14, 4) and ``trick_winners``
          (14, 4); without it, ``trick`` (4, 28) the current trick,
          ``trick_leader`` (4) and ``played`` (4, 28) counts of the cards
          each seat played to completed tricks; then ``voids`` (4, 4) the
          suits each seat has shown it lacks; ``tricks_taken`` (2);
          ``points_taken`` (2) card points taken this hand; ``scores`` (2)
          running totals; ``hand_number`` (1).

        ``max_hands`` bounds ``hand_number`` (for :attr:`high`).
        """
        return _layout(rules, perfect_recall, private, public, max_hands)

    @classmethod
    def _build(
        cls, rules: Rules, perfect_recall: bool, private: bool, public: bool, max_hands: int
    ) -> ObservationLayout:
        n_bids = len(rules.bid_amounts)
        top_score = float(rules.target_score + max_hand_score(rules))
        most_cards = float(HAND_SIZE + rules.pass_size)
        specs: list[tuple[str, tuple[int, ...], float]] = [
            ("player", (4,), 1.0),
            ("phase", (len(Phase),), 1.0),
            ("dealer", (4,), 1.0),
            ("to_act", (4,), 1.0),
        ]
        if private:
            specs += [
                ("hand", (_NUM_CARDS,), 2.0),
                ("passed", (_NUM_CARDS,), 2.0),
                ("received", (_NUM_CARDS,), 2.0),
            ]
        if public:
            specs += [
                ("hand_sizes", (4,), most_cards),
                ("auction_bids", (4, n_bids), 1.0),
                ("auction_passed", (4,), 1.0),
                ("bidder", (4,), 1.0),
                ("contract", (n_bids,), 1.0),
                ("sunk_suit", (4,), 1.0),
                ("invitation", (_NUM_CARDS,), 2.0),
                ("pass_counts", (2,), float(rules.pass_size)),
                ("melds", (4, _NUM_MELDS), 2.0),
            ]
            if perfect_recall:
                specs += [
                    ("tricks", (HAND_SIZE, 4, _NUM_CARDS), 1.0),
                    ("trick_leaders", (HAND_SIZE, 4), 1.0),
                    ("trick_winners", (HAND_SIZE, 4), 1.0),
                ]
            else:
                specs += [
                    ("trick", (4, _NUM_CARDS), 1.0),
                    ("trick_leader", (4,), 1.0),
                    ("played", (4, _NUM_CARDS), 2.0),
                ]
            specs += [
                ("voids", (4, 4), 1.0),
                ("tricks_taken", (2,), float(HAND_SIZE)),
                ("points_taken", (2,), float(TOTAL_CARD_POINTS)),
                ("scores", (2,), top_score),
                ("hand_number", (1,), float(max_hands + 1)),
            ]
        pieces = []
        offset = 0
        for name, shape, high in specs:
            piece = Piece(name, shape, offset, high)
            pieces.append(piece)
            offset += piece.size
        return cls(
            rules,
            perfect_recall,
            private,
            public,
            tuple(pieces),
            offset,
            {piece.name: piece.offset for piece in pieces},
            {amount: i for i, amount in enumerate(rules.bid_amounts)},
        )

    def piece(self, name: str) -> Piece:
        """The piece called ``name``."""
        for piece in self.pieces:
            if piece.name == name:
                return piece
        known = ", ".join(piece.name for piece in self.pieces)
        raise UnknownNameError(f"no observation piece called {name!r}: the pieces are {known}")

    @property
    def high(self) -> npt.NDArray[np.float32]:
        """The largest value of each entry (for a ``gymnasium`` ``Box``)."""
        high = np.zeros(self.size, dtype=np.float32)
        for piece in self.pieces:
            high[piece.offset : piece.offset + piece.size] = piece.high
        return high

    def features(self, view: PlayerView, me: Seat | int) -> tuple[list[int], list[float]]:
        """The non-zero entries for ``view`` seen by ``me``: (indices, values), indices distinct.

        ``view`` is ``deepsix.view(state, me)`` (or the public view, for a
        layout without private pieces); ``me`` fixes the relative seats.
        """
        ones, counted = self._entries(view, int(me))
        return [*ones, *counted], [*([1.0] * len(ones)), *map(float, counted.values())]

    def write(self, out: npt.NDArray[np.float32], view: PlayerView, me: Seat | int) -> None:
        """Fill ``out`` (a float vector of length :attr:`size`) with the encoding of ``view``."""
        self.fill(out, self.entries(view, me))

    def entries(self, view: PlayerView, me: Seat | int) -> Entries:
        """The encoding of ``view`` in compact form: the indices of the entries equal to 1,
        and the other non-zero entries with their values (see :meth:`fill`)."""
        return self._entries(view, int(me))

    @staticmethod
    def fill(out: npt.NDArray[np.float32], entries: Entries) -> None:
        """Write ``entries`` (from :meth:`entries`) into ``out``, zeroing the rest."""
        ones, counted = entries
        out.fill(0.0)
        out[ones] = 1.0
        if counted:
            out[list(counted)] = list(counted.values())

    def _entries(self, view: PlayerView, me: int) -> Entries:
        """The entries equal to 1 (distinct), and the others with their values."""
        o = self._offsets
        rel = _RELATIVE[me]
        ones = [
            o["player"] + me,
            o["phase"] + _PHASE_INDEX[view.phase],
            o["dealer"] + rel[view.dealer],
        ]
        if view.to_act is not None:
            ones.append(o["to_act"] + rel[view.to_act])
        counted: dict[int, int] = {}
        if self.private:
            for name, cards in (
                ("hand", view.hand),
                ("passed", view.passed),
                ("received", view.received),
            ):
                _add_cards(counted, o[name], cards)
        if self.public:
            self._auction(view, rel, ones)
            self._table(view, rel, counted)
            if self.perfect_recall:
                ones += self._completed_tricks(view, me)
                self._current_trick(view, rel, ones, len(view.tricks))
            else:
                self._current_trick(view, rel, ones, None)
                counted.update(self._completed_tricks_played(view, me))
            self._tallies(view, me, ones, counted)
        return ones, counted

    def _auction(self, view: PlayerView, rel: tuple[int, ...], ones: list[int]) -> None:
        """``auction_bids``, ``auction_passed``, ``bidder`` and ``contract``."""
        o = self._offsets
        n_bids = len(self._bid_index)
        for call in view.bids:
            if type(call) is Pass:
                ones.append(o["auction_passed"] + rel[call.seat])
            else:
                assert type(call) is Bid
                ones.append(
                    o["auction_bids"] + rel[call.seat] * n_bids + self._bid_index[call.amount]
                )
        if view.bidder is not None and view.bid is not None:
            ones.append(o["bidder"] + rel[view.bidder])
            ones.append(o["contract"] + self._bid_index[view.bid])
        if view.sunk_suit is not None:
            ones.append(o["sunk_suit"] + view.sunk_suit)

    def _table(self, view: PlayerView, rel: tuple[int, ...], counted: dict[int, int]) -> None:
        """``hand_sizes``, ``invitation``, ``pass_counts`` and ``melds``."""
        o = self._offsets
        base = o["hand_sizes"]
        for seat, n in enumerate(view.hand_sizes):
            if n:
                counted[base + rel[seat]] = n
        _add_cards(counted, o["invitation"], view.invitation)
        base = o["pass_counts"]
        for i, n in enumerate(view.pass_counts):
            if n:
                counted[base + i] = n
        base = o["melds"]
        for seat, melds in enumerate(view.melds):
            row = base + rel[seat] * _NUM_MELDS
            for meld in melds:
                key = row + _MELD_INDEX[meld]
                counted[key] = counted.get(key, 0) + 1

    def _current_trick(
        self, view: PlayerView, rel: tuple[int, ...], ones: list[int], index: int | None
    ) -> None:
        """The trick on the table: as trick ``index`` of ``tricks`` (perfect recall), or in
        ``trick`` and ``trick_leader`` (``index`` None)."""
        if not view.trick:
            return
        o = self._offsets
        if index is None:
            row, leader = o["trick"], o["trick_leader"]
        else:
            row = o["tricks"] + index * 4 * _NUM_CARDS
            leader = o["trick_leaders"] + index * 4
        for seat, card in view.trick:
            ones.append(row + rel[seat] * _NUM_CARDS + card)
        ones.append(leader + rel[view.trick[0][0]])

    def _tallies(self, view: PlayerView, me: int, ones: list[int], counted: dict[int, int]) -> None:
        """``voids``, ``tricks_taken``, ``points_taken``, ``scores`` and ``hand_number``."""
        o = self._offsets
        rel = _RELATIVE[me]
        voids, taken, points = self._tally(view)
        base = o["voids"]
        for seat, suits in enumerate(voids):
            for suit in suits:
                ones.append(base + rel[seat] * 4 + suit)
        team = me & 1
        for name, pair in (
            ("tricks_taken", taken),
            ("points_taken", points),
            ("scores", view.scores),
        ):
            if pair[team]:
                counted[o[name]] = pair[team]
            if pair[1 - team]:
                counted[o[name] + 1] = pair[1 - team]
        counted[o["hand_number"]] = view.hand_number

    def _completed_tricks(self, view: PlayerView, me: int) -> list[int]:
        """The ``tricks``, ``trick_leaders`` and ``trick_winners`` entries of the completed
        tricks.  The engine keeps one tuple of completed tricks until the next trick is
        complete, so the last result per seat is kept, keyed on that tuple's identity."""
        tricks = view.tricks
        memo = self._memo.get(me)
        if memo is not None and memo[0] is tricks:
            found: list[int] = memo[1]
            return found
        o = self._offsets
        rel = _RELATIVE[me]
        ones: list[int] = []
        for k, trick in enumerate(tricks):
            row = o["tricks"] + k * 4 * _NUM_CARDS
            plays = trick.plays
            for seat, card in plays:
                ones.append(row + rel[seat] * _NUM_CARDS + card)
            ones.append(o["trick_leaders"] + k * 4 + rel[plays[0][0]])
            ones.append(o["trick_winners"] + k * 4 + rel[trick.winner])
        self._memo[me] = (tricks, ones)
        return ones

    def _completed_tricks_played(self, view: PlayerView, me: int) -> dict[int, int]:
        """The ``played`` entries (see :meth:`_completed_tricks` for the memo)."""
        tricks = view.tricks
        memo = self._memo.get(me)
        if memo is not None and memo[0] is tricks:
            found: dict[int, int] = memo[1]
            return found
        base = self._offsets["played"]
        rel = _RELATIVE[me]
        played: dict[int, int] = {}
        for trick in tricks:
            for seat, card in trick.plays:
                key = base + rel[seat] * _NUM_CARDS + card
                played[key] = played.get(key, 0) + 1
        self._memo[me] = (tricks, played)
        return played

    @staticmethod
    def _tally(view: PlayerView) -> _Tally:
        """The view's voids, tricks taken and card points: the same for every seat, so the
        last ones computed are kept (keyed on the identity of the view's immutable tricks)."""
        last = _LAST_TALLY
        if last and last[0] is view.tricks and last[1] is view.trick:
            tally: _Tally = last[2]
            return tally
        tally = (view.voids, view.tricks_taken, view.card_points)
        last[:] = [view.tricks, view.trick, tally]
        return tally

    def dense(self, view: PlayerView, me: Seat | int) -> list[float]:
        """The encoding of ``view`` as a plain list."""
        out = [0.0] * self.size
        for i, x in zip(*self.features(view, me), strict=True):
            out[i] = x
        return out

    def __repr__(self) -> str:
        kind = "information state" if self.perfect_recall else "observation"
        return f"<ObservationLayout ({kind}): {self.size} entries, {len(self.pieces)} pieces>"


def _add_cards(counted: dict[int, int], base: int, cards: Sequence[Card]) -> None:
    """Count each card's copies into ``counted`` at ``base + card``."""
    for card in cards:
        counted[base + card] = counted.get(base + card, 0) + 1


@functools.lru_cache(maxsize=64)
def _layout(
    rules: Rules, perfect_recall: bool, private: bool, public: bool, max_hands: int
) -> ObservationLayout:
    return ObservationLayout._build(rules, perfect_recall, private, public, max_hands)


# -- text ------------------------------------------------------------------------------------


def _cards(cards: Sequence[Card]) -> str:
    """Cards in sorted order, ASCII, or ``-`` for none."""
    return " ".join([_ASCII[card] for card in sorted(cards)]) if cards else "-"


def _meld_codes(melds: Sequence[Meld]) -> str:
    return " ".join(meld.code for meld in melds) if melds else "-"


def view_text(view: PlayerView) -> str:
    """A readable, deterministic text of everything in ``view`` (absolute seats, ASCII cards).

    Two views give the same text exactly when they hold the same facts that
    matter to the seat: its cards, the auction in order, the invitation, its
    passes, every meld in order, every trick in order, the scores.
    """
    who = "spectator" if view.seat is None else "seat " + _LETTER[view.seat]
    to_act = "-" if view.to_act is None else _LETTER[view.to_act]
    lines = [
        f"{who} | hand {view.hand_number} | dealer {_LETTER[view.dealer]}"
        f" | scores NS {view.scores[0]} EW {view.scores[1]}",
        f"phase {view.phase.value} | to act {to_act}",
    ]
    for record in view.completed_hands:
        lines.append(
            f"hand {record.number}: {record.bidder} bid {record.bid} sunk {record.sunk_suit.letter}"
            f" {'made' if record.made else 'set'} | points {record.card_points[0]}/"
            f"{record.card_points[1]} meld {record.meld[0]}/{record.meld[1]} | scored "
            f"{record.scores[0]}/{record.scores[1]} | totals {record.totals[0]}/{record.totals[1]}"
        )
    if view.seat is not None:
        lines.append(f"cards {_cards(view.hand)}")
    lines.append("held " + " ".join([_LETTER[s] + str(n) for s, n in enumerate(view.hand_sizes)]))
    if view.bids:
        lines.append("auction " + " ".join(format_action(call) for call in view.bids))
    if view.sunk_suit is not None:
        lines.append(f"contract {view.bidder} {view.bid} | sunk {view.sunk_suit.letter}")
    if view.invitation:
        lines.append("invitation " + " ".join([_ASCII[card] for card in view.invitation]))
    if any(view.pass_counts):
        mine = ""
        if view.passed or view.received:
            passed = " ".join([_ASCII[card] for card in view.passed]) or "-"
            mine = f" | gave {passed} | got {_cards(view.received)}"
        lines.append(f"passes {view.pass_counts[0]}/{view.pass_counts[1]}{mine}")
    if any(view.melds):
        lines.append(
            "melds "
            + " | ".join([f"{_LETTER[s]}: {_meld_codes(m)}" for s, m in enumerate(view.melds)])
        )
    for k, trick in enumerate(view.tricks, 1):
        plays = " ".join([_LETTER[seat] + ":" + _ASCII[card] for seat, card in trick.plays])
        lines.append(f"trick {k} {plays} > {_LETTER[trick.winner]}")
    if view.trick:
        plays = " ".join([_LETTER[seat] + ":" + _ASCII[card] for seat, card in view.trick])
        lines.append(f"trick {len(view.tricks) + 1} {plays}")
    if view.winner is not None:
        lines.append(f"winner {view.winner}")
    return "\n".join(lines)


def state_text(state: GameState, dealt: Sequence[Card] = ()) -> str:
    """The whole state, hidden cards included: every hand, the passes in flight, the table.

    ``dealt`` is the part of a deal dealt so far (the adapters deal one
    card at a time); seat ``s`` receives cards ``14 * s`` to ``14 * s + 13``.
    """
    lines = []
    if dealt:
        lines.append(
            "dealing "
            + " / ".join(
                _cards(dealt[HAND_SIZE * s : HAND_SIZE * s + HAND_SIZE])
                for s in range(4)
                if dealt[HAND_SIZE * s : HAND_SIZE * s + HAND_SIZE]
            )
        )
    for seat in _SEATS:
        lines.append(f"{seat}: {_cards(state.hand(seat))}")
    setup = state.setup
    if setup.partner_pass or setup.bidder_pass:
        lines.append(
            f"passing {_cards(setup.partner_pass)} to the bidder, {_cards(setup.bidder_pass)} back"
        )
    lines.append(view_text(public_view(state)))
    return "\n".join(lines)
