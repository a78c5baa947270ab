"""Game records: a whole game as rules, first dealer and every action, in a readable file.

A :class:`GameRecord` is what a front end saves when a game ends (or at
any moment): enough to rebuild the game exactly, deals included, and easy
to read, diff and mail around.  :func:`replay` rebuilds the state,
checking every action with the engine; :func:`record_of` makes a record
from a state's history.

The text format (written by :func:`write_record`, read by
:func:`read_record`) borrows from chess's PGN: a header of tags in
square brackets, then one action per line in the notation of
:mod:`deepsix.io.notation`.  Everything after ``;`` or ``#`` on a line is a
comment; blank lines are ignored::

    [Format "deepsix/1"]
    [Dealer "N"]
    [Rules "target_score=500 end_at_target=true ... play_over=win-trick"]
    [Event "Friday club"]

    ; hand 1, dealt by N
    DEAL:7D8S6D6C3C4C7H3S6D7H7S8S4D7C.3C7C4D...
    E:P
    S:B120
    ...

``Format``, ``Dealer`` and ``Rules`` are reserved tags (``Rules`` lists
every field of :class:`~deepsix.Rules` as ``name=value``; a field left out
takes its default); any other tag (``[Event "..."]``, ``[North "ann"]``) is
kept in :attr:`GameRecord.tags`, in order.  Tag values are written in
double quotes, with ``\\"`` and ``\\\\`` for a quote and a backslash.

Reading a record verifies it: an unknown tag syntax, an action that does
not parse or an action that is illegal where it stands raises
:class:`RecordError` naming the line.

The seat tags name who held each seat: ``[North "ann"]`` for the whole
game.  When a seat changed hands, one more tag says so at each change:
``[EastHand3 "heuristic"]`` -- the heuristic bot held East from the start
of hand 3 on -- or ``[EastDuringHand3 "heuristic"]`` -- it took East over
during hand 3, so hand 3 was held by both (a second change in the same
hand is ``EastDuringHand3_2``, and so on).
:func:`deepsix.io.seats.holder_tags` writes these tags from who held each
seat for each hand, and :func:`~deepsix.io.seats.seat_holders` reads them
back::

    [North "Ann"]
    [East "Bob"]
    [EastHand3 "heuristic"]
    [South "Cat"]
    [SouthDuringHand2 "random"]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

import attrs

from deepsix.actions import ACTION_TYPES, Action, Deal
from deepsix.cards import Seat
from deepsix.display import plural
from deepsix.engine import new_game
from deepsix.errors import IllegalActionError, ParseError, Reason, SerializationError
from deepsix.events import GameOver, HandScored, events
from deepsix.io.notation import format_action, parse_action
from deepsix.rebuild import first_dealer, walk
from deepsix.rules import PlayOver, Rules
from deepsix.state import GameState, HandRecord, Phase

__all__ = [
    "FORMAT",
    "MAX_ACTIONS",
    "GameRecord",
    "RecordError",
    "iter_states",
    "read_record",
    "record_of",
    "replay",
    "write_record",
]

FORMAT: Final = "deepsix/1"
"""The record format version written in the ``Format`` tag."""

_RESERVED: Final = ("Format", "Dealer", "Rules")
_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
_TAG_LINE: Final = re.compile(r'\[([A-Za-z][A-Za-z0-9_]{0,63})\s+"((?:[^"\\]|\\.)*)"\s*\]')
_MAX_TAG_VALUE: Final = 1000
_MAX_RECORD_CHARS: Final = 4 * 1024 * 1024

MAX_ACTIONS: Final = 50_000
"""The most actions a loaded record or state history may hold (a long game has a few thousand).

Loading replays every action, so the cap bounds the work a hostile document can cause.
"""


class RecordError(SerializationError):
    """A record is malformed or does not replay.

    ``index`` is the 1-based position of the offending action (``None`` for
    a header problem), ``line`` the line of the text it is on (when read
    from text), ``action`` the action, and ``reason`` the
    :class:`~deepsix.Reason` an illegal action broke.
    """

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        line: int | None = None,
        action: Action | None = None,
        reason: Reason | None = None,
    ) -> None:
        self.index = index
        self.line = line
        self.action = action
        self.reason = reason
        super().__init__(message)


def _to_actions(value: Iterable[Action] | str) -> tuple[Action, ...]:
    if isinstance(value, (str, bytes)):
        raise ParseError("a record's actions must be actions, not text (use read_record)")
    actions = tuple(value)
    for action in actions:
        if type(action) not in ACTION_TYPES:
            raise ParseError(f"a record holds actions only, not {action!r}")
    return actions


def _to_tags(value: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    tags = tuple((name, text) for name, text in value)
    seen: set[str] = set()
    for name, text in tags:
        if type(name) is not str or not _TAG_NAME.fullmatch(name):
            raise ParseError(f"{name!r} is not a tag name (a letter, then letters, digits or _)")
        if name in _RESERVED:
            raise ParseError(f"{name!r} is a reserved tag; it is a field of the record")
        if name in seen:
            raise ParseError(f"tag {name!r} appears twice")
        seen.add(name)
        if type(text) is not str or len(text) > _MAX_TAG_VALUE:
            raise ParseError(f"tag {name!r} needs a string of at most {_MAX_TAG_VALUE} characters")
        if any(ord(ch) < 32 for ch in text):
            raise ParseError(
                f"tag {name!r} holds a control character (line breaks are not allowed)"
            )
    return tags


def _to_rules(value: object) -> Rules:
    if not isinstance(value, Rules):
        raise ParseError(f"a record's rules must be a Rules, not {value!r}")
    return value


def _to_seat(value: object) -> Seat:
    if type(value) is Seat:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return Seat(value)
    raise ParseError(f"a record's dealer must be a Seat, not {value!r}")


@attrs.frozen
class GameRecord:
    """A game from its start: rules, first dealer, every action (deals included), and tags.

    >>> from deepsix import new_game, shuffled_deal, Pass, Seat
    >>> state = new_game().apply(shuffled_deal(4)).apply(Pass(Seat.EAST))
    >>> record = record_of(state)
    >>> len(record.actions), replay(record) == state
    (2, True)
    """

    rules: Rules = attrs.field(factory=Rules, converter=_to_rules)
    """The rules of the game."""
    dealer: Seat = attrs.field(default=Seat.NORTH, converter=_to_seat)
    """The dealer of the first hand."""
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_to_actions)
    """Every action from the first deal on."""
    tags: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_to_tags)
    """Free-form ``(name, value)`` pairs, e.g. ``("Event", "Friday club")``, in order."""

    def tag(self, name: str) -> str | None:
        """The value of a tag, or ``None``."""
        for key, value in self.tags:
            if key == name:
                return value
        return None

    def __repr__(self) -> str:
        deals = sum(1 for action in self.actions if type(action) is Deal)
        tags = ", ".join(f"{name}={value!r}" for name, value in self.tags[:3])
        more = ", ..." if len(self.tags) > 3 else ""
        return (
            f"<GameRecord dealer {self.dealer}, {plural(len(self.actions), 'action')} in "
            f"{plural(deals, 'deal')}" + (f", tags {tags}{more}" if tags else "") + ">"
        )

    def _title(self) -> str:
        names = [self.tag(seat) for seat in ("North", "East", "South", "West")]
        players = " · ".join(name for name in names if name)
        event = self.tag("Event") or "A game of Deep Six"
        return f"{event} ({players})" if players else event

    def _repr_svg_(self) -> str:
        """The game's score sheet as an SVG picture (what a notebook shows)."""
        from deepsix.svg.notebook import record_svg

        return record_svg(replay(self), self._title())

    def _repr_html_(self) -> str:
        """The game's last table and its score sheet, in HTML (what a notebook shows)."""
        from deepsix.svg.notebook import record_html

        return record_html(replay(self), self._title())


# -- replaying ---------------------------------------------------------------------------


def iter_states(record: GameRecord, *, lines: tuple[int, ...] | None = None) -> Iterator[GameState]:
    """The states of the game, from the fresh game to the last action, checking every action.

    Raises :class:`RecordError` at the first illegal action.
    """
    if not isinstance(record, GameRecord):
        raise RecordError(f"expected a GameRecord, not {type(record).__name__}")
    state = new_game(record.rules, record.dealer)
    yield state
    done = 0
    try:
        for step in walk(state, record.actions):
            done += 1
            yield step.after
    except IllegalActionError as error:
        index = done + 1
        line = None if lines is None else lines[index - 1]
        where = f"line {line}, action {index}" if line is not None else f"action {index}"
        action = record.actions[index - 1]
        raise RecordError(
            f"{where} ({format_action(action)}) is illegal: {error}",
            index=index,
            line=line,
            action=action,
            reason=error.reason,
        ) from error


def replay(record: GameRecord) -> GameState:
    """The state at the end of the record, every action checked on the way.

    Raises :class:`RecordError` naming the first illegal action.
    """
    last: GameState | None = None
    for last in iter_states(record):  # noqa: B007  (the loop is the replay; keep the last state)
        pass
    assert last is not None
    return last


def record_of(state: GameState, tags: Iterable[tuple[str, str]] = ()) -> GameRecord:
    """The record of the game that led to ``state`` (from its history).

    The state must carry its whole history (states from :func:`deepsix.apply`
    do; a sampled state whose history starts at a later deal does not).
    """
    if not isinstance(state, GameState):
        raise RecordError(f"record_of() needs a GameState, not {type(state).__name__}")
    actions = state.history
    deals = sum(1 for action in actions if type(action) is Deal)
    dealt = len(state.completed_hands) + (state.phase not in (Phase.DEAL, Phase.GAME_OVER))
    if deals != dealt:
        raise RecordError(
            f"the state's history holds {deals} of the {dealt} deals of the game; a record "
            "needs the whole game"
        )
    return GameRecord(state.rules, first_dealer(state), actions, tuple(tags))


# -- the text format -------------------------------------------------------------------------


def _rule_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, PlayOver):
        return value.value
    return str(value)


def _rules_tag(rules: Rules) -> str:
    return " ".join(
        f"{field.name}={_rule_text(getattr(rules, field.name))}" for field in attrs.fields(Rules)
    )


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _summary(record: HandRecord) -> str:
    outcome = "made" if record.made else "set"
    return (
        f"; hand {record.number}: {record.bidder} bid {record.bid} "
        f"(sunk {record.sunk_suit.letter}), {outcome}; card points {record.card_points[0]}-"
        f"{record.card_points[1]}, meld {record.meld[0]}/{record.meld[1]}, scores "
        f"{record.scores[0]}-{record.scores[1]}, totals {record.totals[0]}-{record.totals[1]}"
    )


def write_record(record: GameRecord, *, comments: bool = True) -> str:
    """The record as text (see the module documentation).

    With ``comments`` (the default) each hand starts with a comment naming
    its number and dealer, and ends with one summarising its score; they
    are ignored when the text is read back.
    """
    if not isinstance(record, GameRecord):
        raise RecordError(f"expected a GameRecord, not {type(record).__name__}")
    lines = [
        f"[Format {_quote(FORMAT)}]",
        f'[Dealer "{record.dealer}"]',
        f"[Rules {_quote(_rules_tag(record.rules))}]",
    ]
    lines.extend(f"[{name} {_quote(value)}]" for name, value in record.tags)
    lines.append("")
    state: GameState | None = new_game(record.rules, record.dealer) if comments else None
    steps = walk(state, record.actions) if state is not None else None
    for action in record.actions:
        if state is not None and type(action) is Deal:
            lines.append(f"; hand {state.hand_number}, dealt by {state.dealer}")
        lines.append(format_action(action))
        if steps is None or state is None:
            continue
        try:
            step = next(steps)
        except IllegalActionError:  # an unverified record: no comments past the illegal action
            state = None
            continue
        for event in events(*step):
            if isinstance(event, HandScored):
                lines.append(_summary(event.record))
            elif isinstance(event, GameOver):
                lines.append(f"; game over: {event.winner} wins")
        state = step.after
    return "\n".join(lines) + "\n"


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _parse_rules(text: str, line: int) -> Rules:
    fields = {field.name: field for field in attrs.fields(Rules)}
    values: dict[str, object] = {}
    for part in text.split():
        name, equals, raw = part.partition("=")
        if not equals or name not in fields:
            raise RecordError(
                f"line {line}: {part!r} is not a rule setting (use name=value with one of "
                f"{', '.join(fields)})",
                line=line,
            )
        if name in values:
            raise RecordError(f"line {line}: rule {name!r} is set twice", line=line)
        default = getattr(Rules(), name)
        value: object
        if isinstance(default, bool):
            if raw not in ("true", "false"):
                raise RecordError(f"line {line}: {name} must be true or false", line=line)
            value = raw == "true"
        elif isinstance(default, PlayOver):
            options = {rule.value: rule for rule in PlayOver}
            if raw not in options:
                raise RecordError(
                    f"line {line}: {name} must be one of {', '.join(options)}", line=line
                )
            value = options[raw]
        else:
            if not re.fullmatch(r"-?[0-9]{1,6}", raw):
                raise RecordError(f"line {line}: {name} must be a whole number", line=line)
            value = int(raw)
        values[name] = value
    try:
        return Rules(**values)  # type: ignore[arg-type]  # values are checked per field above
    except (ValueError, TypeError) as error:
        raise RecordError(f"line {line}: the rules are inconsistent: {error}", line=line) from None


@attrs.define
class _Header:
    """The tags read so far: the reserved ones as values, the others in order."""

    rules: Rules = attrs.field(factory=Rules)
    dealer: Seat = Seat.NORTH
    tags: list[tuple[str, str]] = attrs.field(factory=list)
    seen: set[str] = attrs.field(factory=set)

    def read(self, number: int, content: str) -> None:
        """Take one tag line, ``[Name "value"]``."""
        match = _TAG_LINE.fullmatch(content)
        if match is None:
            raise RecordError(
                f'line {number}: {content[:40]!r} is not a tag (write [Name "value"])',
                line=number,
            )
        name, value = match.group(1), _unquote(match.group(2))
        if name in self.seen:
            raise RecordError(f"line {number}: tag {name!r} appears twice", line=number)
        self.seen.add(name)
        if name == "Format" and value != FORMAT:
            raise RecordError(
                f"line {number}: unknown record format {value!r} (this version reads {FORMAT!r})",
                line=number,
            )
        if name == "Dealer":
            try:
                self.dealer = Seat.parse(value)
            except ParseError as error:
                raise RecordError(f"line {number}: {error}", line=number) from None
        elif name == "Rules":
            self.rules = _parse_rules(value, number)
        elif name != "Format":
            self.tags.append((name, value))


def read_record(text: str, *, verify: bool = True) -> GameRecord:
    """Read a record written by :func:`write_record` (or by hand).

    With ``verify`` (the default) the record is replayed and an illegal
    action raises :class:`RecordError` naming its line; without it only the
    syntax is checked.
    """
    if not isinstance(text, str):
        raise RecordError(f"a record must be text, not {type(text).__name__}")
    if len(text) > _MAX_RECORD_CHARS:
        raise RecordError(
            f"the record has {len(text)} characters; the limit is {_MAX_RECORD_CHARS}"
        )
    header = _Header()
    actions: list[Action] = []
    lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        content = raw.strip()
        if content.startswith("["):
            if actions:
                raise RecordError(
                    f"line {number}: tags belong before the first action", line=number
                )
            header.read(number, content)
            continue
        for marker in (";", "#"):
            content = content.split(marker, 1)[0]
        for token in content.split():
            if len(actions) >= MAX_ACTIONS:
                raise RecordError(
                    f"line {number}: more than {MAX_ACTIONS} actions; refused", line=number
                )
            try:
                actions.append(parse_action(token))
            except ParseError as error:
                raise RecordError(
                    f"line {number}: {error}", index=len(actions) + 1, line=number
                ) from None
            lines.append(number)
    rules, dealer, tags = header.rules, header.dealer, header.tags
    try:
        record = GameRecord(rules, dealer, tuple(actions), tuple(tags))
    except ParseError as error:
        raise RecordError(f"the record's tags are invalid: {error}") from None
    if verify:
        for _ in iter_states(record, lines=tuple(lines)):
            pass
    return record


# -- who held each seat ----------------------------------------------------------------------
