"""Game records (issue 6): record_of, replay, the text format, JSON, and their errors."""

from __future__ import annotations

import random
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    Bid,
    Card,
    GameRecord,
    GameState,
    ParseError,
    Phase,
    PlayCard,
    Reason,
    RecordError,
    Rules,
    Seat,
    SerializationError,
    format_action,
    from_json,
    new_game,
    read_record,
    record_of,
    replay,
    sample_state,
    shuffled_deal,
    to_json,
    view,
    write_record,
)
from deepsix.io.record import FORMAT, MAX_ACTIONS, iter_states
from deepsix.io.seats import holder_tags, seat_holders
from tests.support.games import game_states, one_state_per_phase
from tests.support.strategies import GameSpec, examples, game_specs, rules_variants, scaled_examples

PHASES = one_state_per_phase()

tag_values = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=30)


@given(game_specs(rules=rules_variants(), max_steps=700))
@settings(max_examples=scaled_examples(2))
def test_record_of_then_replay_gives_the_state(spec: GameSpec) -> None:
    state = spec.final()
    record = record_of(state)
    assert replay(record) == state
    assert read_record(write_record(record)) == record
    assert from_json(to_json(record), GameRecord) == record


@given(
    st.lists(
        st.tuples(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True), tag_values),
        max_size=4,
        unique_by=lambda t: t[0],
    )
)
@settings(max_examples=examples(ci=60, deep=500))
def test_tags_round_trip_through_text_and_json(tags: list[tuple[str, str]]) -> None:
    tags = [(name, value) for name, value in tags if name not in ("Format", "Dealer", "Rules")]
    record = record_of(PHASES[Phase.BIDDING], tags)
    assert read_record(write_record(record)) == record
    assert from_json(to_json(record), GameRecord) == record
    for name, value in tags:
        assert record.tag(name) == value
    assert record.tag("Nothing") is None


def test_the_text_format() -> None:
    record = record_of(game_states()[-1], [("Event", 'The "Friday" club \\ 2026')])
    text = write_record(record)
    lines = text.splitlines()
    assert lines[0] == f'[Format "{FORMAT}"]'
    assert lines[1] == f'[Dealer "{record.dealer}"]'
    assert lines[2].startswith('[Rules "target_score=500 end_at_target=true ')
    assert lines[3] == r'[Event "The \"Friday\" club \\ 2026"]'
    assert lines[4] == ""
    assert lines[5] == f"; hand 1, dealt by {record.dealer}"
    assert lines[6].startswith("DEAL:")
    assert any(line.startswith("; hand 1: ") and "totals" in line for line in lines)
    assert lines[-1].startswith("; game over: ")
    assert len([line for line in lines if not line.startswith((";", "[")) and line]) == len(
        record.actions
    )
    assert write_record(record, comments=False).count(";") == 0


def test_comments_blank_lines_and_several_actions_per_line() -> None:
    record = record_of(PHASES[Phase.SUNK_SUIT])
    deal, *calls = record.actions
    text = "\n".join(
        [
            "# a comment line",
            f'[Dealer "{record.dealer}"]',
            "",
            format_action(deal) + "   # the deal",
            "  ".join(format_action(call) for call in calls) + "  ; the auction",
            "",
        ]
    )
    assert read_record(text) == record


def test_a_missing_header_takes_the_defaults() -> None:
    deal = shuffled_deal(1)
    record = read_record(
        write_record(GameRecord(actions=(deal,)), comments=False).split("\n\n", 1)[1]
    )
    assert record == GameRecord(Rules(), Seat.NORTH, (deal,))


def test_rules_are_written_in_full_and_read_back() -> None:
    rules = Rules(target_score=300, pass_size=1, meld_sharing=False, lowest_bid=-100)
    record = GameRecord(rules, Seat.WEST)
    assert read_record(write_record(record)).rules == rules


def test_iter_states_walks_the_game() -> None:
    record = record_of(PHASES[Phase.MELDING])
    states = list(iter_states(record))
    assert len(states) == len(record.actions) + 1
    assert states[0] == new_game(record.rules, record.dealer)
    assert states[-1] == PHASES[Phase.MELDING]


# -- errors ------------------------------------------------------------------------------------


def test_an_illegal_action_names_its_line_and_index() -> None:
    record = record_of(PHASES[Phase.BIDDING])
    text = write_record(record) + "N:7S\n"
    line = len(text.splitlines())
    with pytest.raises(
        RecordError, match=rf"line {line}, action {len(record.actions) + 1} \(N:7S\)"
    ) as caught:
        read_record(text)
    assert caught.value.line == line
    assert caught.value.index == len(record.actions) + 1
    assert caught.value.action == PlayCard(Seat.NORTH, caught.value.action.card)  # type: ignore[union-attr]  # the refused action is a card here
    assert caught.value.reason is Reason.WRONG_PHASE
    assert isinstance(caught.value, SerializationError)


def test_replay_names_the_index() -> None:
    record = record_of(PHASES[Phase.BIDDING])
    bad = attrs.evolve(record, actions=(*record.actions, Bid(Seat.NORTH, 125)))
    with pytest.raises(RecordError, match=rf"action {len(bad.actions)} \(N:B125\)") as caught:
        replay(bad)
    assert caught.value.line is None


def test_verification_can_be_skipped() -> None:
    text = write_record(GameRecord()) + "N:7S\n"
    assert read_record(text, verify=False).actions == (PlayCard(Seat.NORTH, Card("7S")),)
    with pytest.raises(RecordError):
        read_record(text)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[Format "deepsix/9"]', "unknown record format"),
        ('[Dealer "Q"]', "is not a seat"),
        ('[Dealer "N"]\n[Dealer "E"]', "appears twice"),
        ('[Rules "pass_size"]', "is not a rule setting"),
        ('[Rules "colour=red"]', "is not a rule setting"),
        ('[Rules "pass_size=0"]', "inconsistent"),
        ('[Rules "meld_sharing=yes"]', "true or false"),
        ('[Rules "play_over=never"]', "must be one of"),
        ('[Rules "bid_step=ten"]', "whole number"),
        ('[Rules "bid_step=10 bid_step=20"]', "set twice"),
        ("[Event unquoted]", "is not a tag"),
        ('[Event "x"', "is not a tag"),
        ("N:FOO", "line 1: 'N:FOO' is not an action"),
        ('E:P\n[Event "late"]', "before the first action"),
        ("E:P", "R-DEAL-1"),
    ],
)
def test_malformed_records(text: str, fragment: str) -> None:
    with pytest.raises(RecordError, match=re.escape(fragment)):
        read_record(text)


def test_records_refuse_non_text_and_huge_text() -> None:
    with pytest.raises(RecordError):
        read_record(b"E:P")  # type: ignore[arg-type]  # the point is the wrong type
    with pytest.raises(RecordError, match="limit"):
        read_record(";" * (5 * 1024 * 1024))


@pytest.mark.parametrize(
    "tags",
    [
        [("Format", "x")],
        [("9lives", "x")],
        [("Event", "a\nb")],
        [("Event", "a"), ("Event", "b")],
        [("Event", "x" * 2000)],
    ],
)
def test_bad_tags(tags: list[tuple[str, str]]) -> None:
    with pytest.raises(ParseError):
        GameRecord(tags=tags)


def test_bad_fields() -> None:
    with pytest.raises(ParseError):
        GameRecord(rules="default")
    with pytest.raises(ParseError):
        GameRecord(dealer=7)
    with pytest.raises(ParseError):
        GameRecord(actions="E:P")
    with pytest.raises(ParseError):
        GameRecord(actions=["E:P"])  # type: ignore[list-item]  # the point is the wrong type


def test_record_of_needs_the_whole_history() -> None:
    later = PHASES[Phase.PLAY]
    tail = sample_state(view(later, Seat.NORTH), 1)
    with pytest.raises(RecordError, match="needs the whole game"):
        record_of(tail)
    with pytest.raises(RecordError):
        record_of("state")  # type: ignore[arg-type]  # the point is the wrong type


def test_record_json_errors_name_the_action() -> None:
    record = record_of(PHASES[Phase.BIDDING])
    text = to_json(
        attrs.evolve(record, actions=(*record.actions, PlayCard(Seat.NORTH, Card("7S"))))
    )
    with pytest.raises(RecordError, match=rf"action {len(record.actions) + 1}"):
        from_json(text, GameRecord)


def test_a_new_game_has_an_empty_record() -> None:
    state: GameState = new_game(Rules(target_score=100), Seat.EAST)
    record = record_of(state)
    assert record == GameRecord(Rules(target_score=100), Seat.EAST, ())
    assert replay(record) == state


def test_overlong_records_are_refused() -> None:
    with pytest.raises(RecordError, match="more than"):
        read_record("E:P\n" * (MAX_ACTIONS + 1))


# -- who held each seat (issue 39 item 12) ---------------------------------------------------


def _hands(count: int, seed: int = 3) -> GameState:
    """A game of ``count`` whole hands, random moves, far from its target."""
    rng = random.Random(seed)
    state = new_game(Rules(target_score=10_000))
    while len(state.completed_hands) < count:
        if state.is_chance:
            state = state.apply(shuffled_deal(rng.randrange(10**6)))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_who_held_each_seat_round_trips_through_the_text() -> None:
    """Bob's, Cat's and Dan's seats went to bots: between hands 2 and 3 (East, South) and
    during hand 3 (West): the record names the people for the hands they held."""
    people = ("Ann", "Bob", "Cat", "Dan")
    holders = [
        tuple((name,) for name in people),
        tuple((name,) for name in people),
        (("Ann",), ("heuristic",), ("heuristic",), ("Dan", "random")),
    ]
    tags = holder_tags(holders)
    assert tags == [
        ("North", "Ann"),
        ("East", "Bob"),
        ("EastHand3", "heuristic"),
        ("South", "Cat"),
        ("SouthHand3", "heuristic"),
        ("West", "Dan"),
        ("WestDuringHand3", "random"),
    ]
    record = record_of(_hands(3), [("Event", "club"), *tags])
    text = write_record(record)
    assert '[East "Bob"]\n[EastHand3 "heuristic"]\n' in text
    again = read_record(text)
    assert again == record
    assert seat_holders(again) == tuple(holders)
    assert again.tag("East") == "Bob"  # the first holder, where the seat tags always were


def test_a_seat_that_changed_hands_twice_in_a_hand_and_back_again() -> None:
    holders = [
        (("Ann",), ("heuristic",), ("Cat",), ("Dan",)),
        (("Ann",), ("heuristic", "random", "heuristic"), ("Cat",), ("Dan",)),
        (("Ann",), ("heuristic",), ("Cat",), ("random",)),
    ]
    tags = holder_tags(holders)
    assert ("EastDuringHand2", "random") in tags
    assert ("EastDuringHand2_2", "heuristic") in tags
    assert ("WestHand3", "random") in tags
    record = read_record(write_record(record_of(_hands(3), tags)))
    assert seat_holders(record) == tuple(holders)


def test_records_without_holder_tags_name_their_seats_for_every_hand() -> None:
    """The command line's records (``[North "heuristic"]``) and records that name no seat."""
    state = _hands(2)
    tags = [("North", "heuristic"), ("South", "human")]
    assert seat_holders(record_of(state, tags)) == ((("heuristic",), (), ("human",), ()),) * 2
    assert seat_holders(record_of(state)) == (((), (), (), ()),) * 2
    assert seat_holders(GameRecord()) == ()


@pytest.mark.parametrize(
    ("tags", "fragment"),
    [
        ([("North", "Ann"), ("NorthHand3", "Bob")], "names hand 3; the record has 2 hands"),
        ([("NorthDuringHand9", "Bob")], "names hand 9"),
        ([("NorthHand1", "Bob")], "the first holder is the North tag's"),
        ([("NorthHand2_2", "Bob")], "a hand has one start"),
        ([("NorthDuringHand2_2", "Bob")], "skip a number"),
        ([("NorthDuringHand2_1", "Bob")], "a second change is _2"),
    ],
)
def test_holder_tags_that_cannot_be_read_are_refused(
    tags: list[tuple[str, str]], fragment: str
) -> None:
    record = record_of(_hands(2), tags)
    with pytest.raises(RecordError, match=re.escape(fragment)):
        seat_holders(record)


def test_holder_tags_need_four_seats_a_hand() -> None:
    with pytest.raises(RecordError, match="four seats"):
        holder_tags([(("Ann",), ("Bob",))])
    with pytest.raises(RecordError, match="four seats"):
        holder_tags([("Ann", "Bob", "Cat", "Dan")])  # names, not lists of names
    with pytest.raises(RecordError, match="expected a GameRecord"):
        seat_holders('[North "Ann"]')  # type: ignore[arg-type]  # the error under test
