"""The adapters' observation contract: where each fact a seat sees goes in a flat vector.

OpenSpiel's information-state and observation tensors, PettingZoo's
``observation`` and the batched environment's observations are this
layout.  :class:`ObservationLayout` writes one flat vector of named
:class:`Piece` s; seats in it are *relative* to the observing player (0 =
the player, 1 = the next seat clockwise, 2 = the partner, 3 = the seat on
the right), teams are (own team, other team).  The pieces and their
shapes are documented on :meth:`ObservationLayout.build`.

Every entry is computed from what :func:`deepsix.view` lets the seat see,
never from hidden cards.  The layout owns its encoder and the encoder's
cache: what one state has encoded (the completed tricks, the auction, the
melds, the tallies) is reused by the next instead of being encoded again.

>>> from deepsix import Rules, new_game, shuffled_deal, view
>>> layout = ObservationLayout.build(Rules())
>>> layout.size, [piece.name for piece in layout.pieces][:5]
(2233, ['player', 'phase', 'dealer', 'to_act', 'hand'])
>>> state = new_game().apply(shuffled_deal(1))
>>> vector = layout.dense(view(state, 2), 2)
>>> vector[layout.piece("player").offset + 2], sum(vector[22:50])
(1.0, 14.0)
"""

from __future__ import annotations

import functools
from typing import Final, cast

import attrs

from deepsix.errors import ParseError, UnknownNameError, missing_extra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as _missing:
    raise missing_extra("deepsix.adapters.observations", "openspiel", _missing) from None

from deepsix.cards import HAND_SIZE, Seat
from deepsix.melds import ALL_MELDS
from deepsix.rules import Rules
from deepsix.scoring import TOTAL_CARD_POINTS
from deepsix.state import GameState, Phase
from deepsix.views import PlayerView

from ._encoder import Encoder, Entries
from ._stepwise import Changes, StepWriter
from ._written import Vector, Written
from .config import GameConfig, max_hand_score

__all__ = ["OBSERVATION_NAMES", "Entries", "ObservationLayout", "Piece", "Tracked"]

OBSERVATION_NAMES: Final = ("information_state", "observation")
"""The environments' ``observation`` options: the tricks in order, or summarised."""

_NUM_CARDS: Final = 28
_NUM_MELDS: Final = len(ALL_MELDS)


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

    Build one with :meth:`build`.  From a view: :meth:`entries` (compact),
    :meth:`features`, :meth:`dense` (a list) and :meth:`write` (a numpy
    vector).  From a state, for a seat, without building its view:
    :meth:`state_entries`.  :meth:`fill` and :meth:`to_list` turn entries
    into a vector.
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
    _encoder: Encoder
    _writer: StepWriter

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
        offsets = {piece.name: piece.offset for piece in pieces}
        encoder = Encoder(
            offsets,
            bid_amounts=tuple(rules.bid_amounts),
            pass_size=rules.pass_size,
            perfect_recall=perfect_recall,
            private=private,
            public=public,
            size=offset,
        )
        writer = StepWriter(encoder)
        return cls(rules, perfect_recall, private, public, tuple(pieces), offset, encoder, writer)

    @classmethod
    def named(cls, observation: str, config: GameConfig) -> ObservationLayout:
        """The layout an environment's ``observation`` option names for ``config``:
        ``"information_state"`` (the tricks in order) or ``"observation"`` (summarised);
        anything else raises :class:`~deepsix.ParseError`."""
        if observation not in OBSERVATION_NAMES:
            raise ParseError(f"observation={observation!r} is not one of {OBSERVATION_NAMES}")
        return _layout(config.rules, observation == "information_state", True, True, config.hands)

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

    def entries(self, view: PlayerView, me: Seat | int) -> Entries:
        """The encoding of ``view`` in compact form: the indices of the entries equal to 1,
        and the other non-zero entries with their values (see :meth:`fill`).

        ``view`` is ``deepsix.view(state, me)`` (or the public view, for a
        layout without private pieces); ``me`` fixes the relative seats.
        """
        return self._encoder.from_view(view, int(me))

    def state_entries(self, state: GameState, me: Seat | int) -> Entries:
        """The same as ``entries(view(state, me), me)`` (the public view's, for a layout
        without private pieces), read from ``state`` without building the view."""
        return self._encoder.from_state(state, int(me))

    def tensor(self, source: GameState | PlayerView, me: Seat | int) -> list[float]:
        """The encoding of ``source`` seen by ``me`` as a new list: ``source`` is a state
        (as :meth:`state_entries`) or ``me``'s view (as :meth:`entries`).

        Step by step: a list vector per thread and seat is brought from the
        last state it encoded to ``source`` by clearing and setting only the
        entries that differ (:class:`Tracked` says how), then copied out.
        """
        return self._writer.tensor(source, int(me))

    @property
    def writer(self) -> StepWriter:
        """The layout's step-by-step writer (shared by every vector of the layout)."""
        return self._writer

    def tracked(self, me: Seat | int, vector: npt.NDArray[np.float32] | None = None) -> Tracked:
        """A :class:`Tracked` vector for ``me``: ``vector`` (zeroed), or a new one."""
        return Tracked(self, int(me), vector)

    def features(self, view: PlayerView, me: Seat | int) -> tuple[list[int], list[float]]:
        """The non-zero entries for ``view`` seen by ``me``: (indices, values), indices distinct."""
        ones, counted = self.entries(view, me)
        return [*ones, *counted], [*([1.0] * len(ones)), *map(float, counted.values())]

    def write(self, out: npt.NDArray[np.float32], view: PlayerView, me: Seat | int) -> None:
        """Fill ``out`` (a float vector of length :attr:`size`) with the encoding of ``view``."""
        self.fill(out, self.entries(view, me))

    @staticmethod
    def fill(out: npt.NDArray[np.float32], entries: Entries) -> None:
        """Write ``entries`` (from :meth:`entries`) into ``out``, zeroing the rest."""
        ones, counted = entries
        out.fill(0.0)
        out[ones] = 1.0
        if counted:
            out[list(counted)] = list(counted.values())

    def to_list(self, entries: Entries) -> list[float]:
        """``entries`` as a list of :attr:`size` floats."""
        return self._encoder.dense(entries, self.size)

    def dense(self, view: PlayerView, me: Seat | int) -> list[float]:
        """The encoding of ``view`` as a plain list."""
        return self.to_list(self.entries(view, me))

    def __deepcopy__(self, memo: dict[int, object]) -> ObservationLayout:
        return self  # immutable; its encoder's cache is shared on purpose

    def __repr__(self) -> str:
        kind = "information state" if self.perfect_recall else "observation"
        return f"<ObservationLayout ({kind}): {self.size} entries, {len(self.pieces)} pieces>"


@functools.lru_cache(maxsize=64)
def _layout(
    rules: Rules, perfect_recall: bool, private: bool, public: bool, max_hands: int
) -> ObservationLayout:
    return ObservationLayout._build(rules, perfect_recall, private, public, max_hands)


class Tracked:
    """One seat's observation vector, brought up to date step by step.

    :meth:`update` writes the encoding of a new state (or of the seat's
    view) into :attr:`vector` by clearing and setting only the entries that
    differ from the facts it holds -- per group of entries (the auction
    and melds, the completed tricks, the current trick, the hand...) --
    instead of encoding it anew: a card played changes a handful of
    entries out of 2,233.  :meth:`changes` gives the same changes for a
    vector kept elsewhere (a row of a batch).  After any sequence of updates,
    even between unrelated states, :attr:`vector` equals the layout's
    one-pass encoding of the last one (the tests check it).
    """

    __slots__ = ("_entries", "_writer", "_written", "layout", "vector")

    def __init__(
        self, layout: ObservationLayout, me: int, vector: npt.NDArray[np.float32] | None = None
    ) -> None:
        self.layout = layout
        """The layout."""
        if vector is None:
            vector = np.zeros(layout.size, dtype=np.float32)
        elif (
            vector.shape != (layout.size,)
            or vector.dtype != np.float32
            or not vector.flags.writeable
        ):
            raise ParseError(
                f"a tracked vector must be a writable float32 array of shape ({layout.size},)"
            )
        else:
            vector.fill(0.0)
        self.vector: npt.NDArray[np.float32] = vector
        """The encoding of the last state given to :meth:`update` (zeroed at first; may be
        a view into a larger array, e.g. a row of a batch)."""
        # The writer sets entries one at a time: through a memoryview of the same memory,
        # several times cheaper per entry than numpy's indexing.
        self._entries = cast("Vector", vector.data)  # a float32 memoryview: it takes floats
        self._written = Written(me)
        self._writer = layout._writer

    @property
    def me(self) -> int:
        """The observing seat."""
        return self._written.me

    def changes(self, source: GameState | PlayerView) -> Changes:
        """The entries to clear, then to set (with their values), that bring a vector
        holding the last state's encoding to ``source``'s; afterwards this object
        holds ``source``'s facts (apply the changes, or :meth:`forget`)."""
        try:
            return self._writer.changes(self._written, source)
        except BaseException:  # the written facts are forgotten: so must the vector be
            self.vector.fill(0.0)
            raise

    def update(self, source: GameState | PlayerView) -> npt.NDArray[np.float32]:
        """Bring :attr:`vector` to ``source``'s encoding; returns :attr:`vector` itself."""
        try:
            self._writer.write(self._written, source, self._entries)
        except BaseException:  # half-written: start again from zeros next time
            self.forget()
            raise
        return self.vector

    def forget(self) -> None:
        """Start again from an all-zero vector."""
        self._written.forget()
        self.vector.fill(0.0)
