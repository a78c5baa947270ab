"""JSON serialization (issue 6): exact round trips for every type, schemas, save/load play."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import (
    ALL_MELDS,
    CARDS,
    Action,
    Bid,
    Card,
    DeepSixError,
    GameRecord,
    GameState,
    HandRecord,
    HandSetup,
    InvalidStateError,
    LegalActions,
    Meld,
    MeldKind,
    MissingDependencyError,
    Pass,
    Phase,
    PlayerView,
    PlayOver,
    Rank,
    Rules,
    Seat,
    SerializationError,
    Suit,
    Team,
    Trick,
    from_json,
    json_schema,
    legal_actions,
    new_game,
    record_of,
    score_hand,
    to_json,
    view,
)
from deepsix.io import codec
from deepsix.io.record import MAX_ACTIONS
from deepsix.io.schema import SCHEMA_KINDS, load_schema, schema_text
from deepsix.io.schemas.__main__ import main as schemas_main
from tests.support.games import game_states, one_state_per_phase
from tests.support.strategies import (
    GameSpec,
    action_universe,
    choose_action,
    examples,
    game_specs,
    rules_variants,
)

PHASES = one_state_per_phase()
SRC_SCHEMAS = Path(__file__).resolve().parents[2] / "src" / "deepsix" / "io" / "schemas"


def round_trip(value: object) -> object:
    text = to_json(value)
    back = from_json(text, type(value))
    assert back == value
    assert type(back) is type(value)
    assert to_json(back) == text  # deterministic
    return back


# -- every type ---------------------------------------------------------------------------------

SMALL_VALUES: list[object] = [
    *CARDS,
    *Suit,
    *Rank,
    *Seat,
    *Team,
    *Phase,
    *PlayOver,
    *MeldKind,
    *ALL_MELDS,
    Rules(),
    HandSetup(),
    score_hand(Team.EAST_WEST, 40, (30, 220), (-45, -20)),
]


@pytest.mark.parametrize("value", SMALL_VALUES, ids=repr)
def test_small_values_round_trip(value: object) -> None:
    round_trip(value)


@given(rules_variants())
def test_rules_round_trip(rules: Rules) -> None:
    round_trip(rules)


@given(st.sampled_from(action_universe(new_game())[2:]))
def test_actions_round_trip(action: Action) -> None:
    round_trip(action)
    assert from_json(to_json(action), Action) == action


@given(game_specs(max_steps=700))
@settings(max_examples=examples(ci=30, deep=500))
def test_states_and_their_parts_round_trip(spec: GameSpec) -> None:
    state = spec.final()
    round_trip(state)
    round_trip(state.setup)
    round_trip(legal_actions(state))
    for record in state.completed_hands:
        round_trip(record)
    for trick in state.tricks:
        round_trip(trick)
    if state.log is not None and state.history:
        first = state.history[0]
        round_trip(first)
    round_trip(record_of(state))
    for seat in (None, *Seat):
        round_trip(view(state, seat))


def test_every_public_type_is_covered() -> None:
    covered = {type(value) for value in SMALL_VALUES}
    covered |= {type(a) for a in action_universe(new_game())}
    covered |= {GameState, PlayerView, GameRecord, HandRecord, Trick, LegalActions}
    assert set(codec.TYPES.values()) <= covered


def test_a_state_stores_readable_hands_and_history() -> None:
    state = PHASES[Phase.PLAY]
    data = json.loads(to_json(state))["data"]
    assert data["hands"]["N"] == [card.ascii for card in state.hand(Seat.NORTH)]
    assert data["history"][0].startswith("DEAL:")
    assert "E:P" in data["history"] or any(":B" in text for text in data["history"])
    assert "packed_hands" not in data


def test_json_of_an_action() -> None:
    assert json.loads(to_json(Bid(Seat.EAST, 90))) == {
        "schema": "deepsix/1",
        "type": "Bid",
        "data": {"type": "Bid", "seat": "E", "amount": 90},
    }


def test_indent_is_only_layout() -> None:
    state = PHASES[Phase.MELDING]
    assert json.loads(to_json(state, indent=2)) == json.loads(to_json(state))
    assert from_json(to_json(state, indent=2), GameState) == state


def test_bytes_are_accepted() -> None:
    assert from_json(to_json(Card("7S")).encode(), Card) == Card("7S")


# -- the trust boundary ---------------------------------------------------------------------------


def envelope(kind: str, data: object, schema: object = "deepsix/1") -> str:
    return json.dumps({"schema": schema, "type": kind, "data": data})


@pytest.mark.parametrize(
    ("text", "cls", "fragment"),
    [
        (envelope("Card", "7S", "deepsix/2"), Card, "unknown schema version"),
        (envelope("Card", "7S", None), Card, "unknown schema version"),
        (envelope("Suit", "S"), Card, "expected Card"),
        (envelope("Card", "9S"), Card, "a card such as 7S"),
        (envelope("Card", 7), Card, "a card such as 7S"),
        (envelope("Seat", 0), Seat, "a seat"),
        (envelope("Bid", {"type": "Bid", "seat": "N", "amount": "90"}), Bid, "an integer"),
        (envelope("Bid", {"type": "Bid", "seat": "N", "amount": 90.0}), Bid, "an integer"),
        (envelope("Bid", {"type": "Bid", "seat": "N", "amount": True}), Bid, "an integer"),
        (envelope("Bid", {"seat": "N", "amount": 90}), Bid, "tagged"),
        (envelope("Bid", {"type": "Pass", "seat": "N"}), Bid, "tagged"),
        (envelope("Bid", {"type": "Bid", "seat": "N"}), Bid, "required"),
        (envelope("Bid", {"type": "Bid", "seat": "N", "amount": 9, "x": 1}), Bid, "extra"),
        (envelope("Rules", {"pass_size": 0}), Rules, "pass_size"),
        (envelope("Rules", {"meld_sharing": 1}), Rules, "true or false"),
        (envelope("Meld", "DR-X"), Meld, "meld code"),
        (envelope("Deal", {"type": "Deal", "cards": ["7S"] * 56}), Action, "56-card deck"),
        (envelope("Trick", {"plays": [["N", "7S"]], "winner": "N"}), Trick, "four plays"),
        (envelope("HandSetup", {"invitation": "7S8S"}), HandSetup, "expected a list"),
        ('{"schema": "deepsix/1", "type": "Card"}', Card, "exactly the keys"),
        (
            '{"schema": "deepsix/1", "type": "Card", "data": "7S", "data": "8S"}',
            Card,
            "duplicate key",
        ),
        ("[1, 2]", Card, "expected a deepsix document"),
        ('{"schema": NaN}', Card, "NaN is not allowed"),
        ("{", Card, "not valid JSON"),
        ("", Card, "not valid JSON"),
        ("[" * 100_000, Card, "nested more than"),
        ('"' + "x" * (5 * 1024 * 1024) + '"', Card, "over the limit"),
        (b"\xff\xfe", Card, "not UTF-8"),
        (envelope("Card", "7S"), dict, "cannot read a dict"),
    ],
)
def test_malformed_documents(text: str | bytes, cls: Any, fragment: str) -> None:
    with pytest.raises(SerializationError, match=fragment):
        from_json(text, cls)


def test_state_documents_are_checked_for_meaning() -> None:
    state = PHASES[Phase.PLAY]
    document = json.loads(to_json(state))
    hands = document["data"]["hands"]

    def load(doc: object) -> None:
        from_json(json.dumps(doc), GameState)

    # Three copies of a card in one hand.
    bad = json.loads(json.dumps(document))
    bad["data"]["hands"]["N"] = [hands["N"][0]] * 3 + hands["N"][3:]
    with pytest.raises(SerializationError, match="appears 3 times"):
        load(bad)
    # A card moved between hands: the cards are all there, but the sizes are wrong.
    bad = json.loads(json.dumps(document))
    bad["data"]["hands"]["E"].append(bad["data"]["hands"]["N"].pop())
    with pytest.raises(InvalidStateError, match="hand-sizes"):
        load(bad)
    # A phase that does not match the cards.
    bad = json.loads(json.dumps(document))
    bad["data"]["phase"] = "bidding"
    with pytest.raises(InvalidStateError):
        load(bad)
    # A history that does not lead to the state.
    bad = json.loads(json.dumps(document))
    bad["data"]["history"] = bad["data"]["history"][:-1]
    with pytest.raises(InvalidStateError, match="history"):
        load(bad)
    # An illegal action in the history.
    bad = json.loads(json.dumps(document))
    bad["data"]["history"][1] = "N:7S"
    with pytest.raises(InvalidStateError, match="history"):
        load(bad)
    # A history entry that is not notation.
    bad = json.loads(json.dumps(document))
    bad["data"]["history"][1] = "bid ninety"
    with pytest.raises(SerializationError, match=r"history\[1\]"):
        load(bad)


def test_a_state_without_history_loads() -> None:
    state = attrs.evolve(PHASES[Phase.PLAY], log=None)
    assert round_trip(state) == state


def test_view_documents_are_checked_for_meaning() -> None:
    mine = view(PHASES[Phase.PLAY], Seat.NORTH)
    document = json.loads(to_json(mine))
    document["data"]["hand_sizes"][1] += 1
    with pytest.raises(DeepSixError):
        from_json(json.dumps(document), PlayerView)


def test_errors_name_the_path() -> None:
    document = json.loads(to_json(PHASES[Phase.PLAY]))
    document["data"]["setup"]["bids"][1]["seat"] = "Q"
    with pytest.raises(SerializationError, match=r"\$\.data\.setup\.bids\[1\]\.seat"):
        from_json(json.dumps(document), GameState)


# -- cattrs is optional ------------------------------------------------------------------------


def test_import_needs_only_attrs() -> None:
    code = (
        "import sys; sys.modules['cattrs'] = None\n"
        "import deepsix\n"
        "assert 'cattrs' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "try:\n"
        "    deepsix.to_json(deepsix.Card('7S'))\n"
        "except deepsix.MissingDependencyError as error:\n"
        "    assert 'pip install \"deepsix[json]\"' in str(error)\n"
        "    assert isinstance(error, deepsix.DeepSixError)\n"
        "else:\n"
        "    raise AssertionError('no error')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_missing_cattrs_is_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codec, "_CONVERTERS", [])  # forget the built converter
    monkeypatch.setitem(sys.modules, "cattrs", None)
    with pytest.raises(MissingDependencyError, match=r"deepsix\[json\]"):
        to_json(Card("7S"))


# -- JSON Schema -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_shipped_schemas_are_up_to_date(kind: str) -> None:
    assert (SRC_SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8") == schema_text(kind)
    assert load_schema(kind) == json.loads(schema_text(kind))
    jsonschema.Draft202012Validator.check_schema(load_schema(kind))


def test_schema_command_checks_the_files(tmp_path: Path) -> None:
    assert schemas_main(["--schema", str(SRC_SCHEMAS), "--check"]) == 0
    assert schemas_main(["--schema", str(tmp_path), "--check"]) == 1
    assert schemas_main(["--schema", str(tmp_path)]) == 0
    assert schemas_main(["--schema", str(tmp_path), "--check"]) == 0


@given(game_specs(max_steps=700))
@settings(max_examples=examples(ci=20, deep=300))
def test_dumps_validate_against_the_schemas(spec: GameSpec) -> None:
    state = spec.final()
    validators = {kind: jsonschema.Draft202012Validator(load_schema(kind)) for kind in SCHEMA_KINDS}
    validators["state"].validate(json.loads(to_json(state)))
    validators["record"].validate(json.loads(to_json(record_of(state))))
    for seat in (None, *Seat):
        validators["view"].validate(json.loads(to_json(view(state, seat))))


@pytest.mark.parametrize(
    "value", [*SMALL_VALUES[::5], Pass(Seat.EAST), Bid(Seat.NORTH, -40)], ids=repr
)
def test_every_type_has_a_schema(value: object) -> None:
    document = json.loads(to_json(value))
    schema = json_schema(document["type"])
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(document, schema)


def test_schemas_reject_what_the_loader_rejects() -> None:
    validator = jsonschema.Draft202012Validator(load_schema("state"))
    document = json.loads(to_json(PHASES[Phase.PLAY]))
    document["data"]["hands"]["N"].append("9S")
    assert not validator.is_valid(document)
    document = json.loads(to_json(PHASES[Phase.PLAY]))
    document["schema"] = "deepsix/2"
    assert not validator.is_valid(document)


# -- saving and loading at every step ----------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(), Rules(pass_size=1, play_over=PlayOver.BEAT_LED_SUIT)])
def test_a_game_saved_and_loaded_at_every_step_ends_identical(rules: Rules) -> None:
    straight = game_states(77, rules)
    rng = random.Random(77)
    state = new_game(rules, Seat(77 % 4))
    steps = 0
    while not state.is_over:
        state = from_json(to_json(state), GameState)
        assert state == straight[steps]
        state = state.apply(choose_action(rng, state, "cautious"))
        steps += 1
    state = from_json(to_json(state), GameState)
    assert steps == len(straight) - 1
    assert state == straight[-1]
    assert state.history == straight[-1].history
    assert state.winner == straight[-1].winner


def test_views_saved_and_loaded_through_a_game() -> None:
    for state in game_states()[::11]:
        for seat in (None, *Seat):
            mine = view(state, seat)
            assert from_json(to_json(mine), PlayerView) == mine


def test_overlong_histories_are_refused_unread() -> None:
    document = json.loads(to_json(PHASES[Phase.BIDDING]))
    document["data"]["history"] = ["E:P"] * (MAX_ACTIONS + 1)
    with pytest.raises(SerializationError, match="more than"):
        from_json(json.dumps(document), GameState)
    record = json.loads(to_json(record_of(PHASES[Phase.BIDDING])))
    record["data"]["actions"] = ["E:P"] * (MAX_ACTIONS + 1)
    with pytest.raises(SerializationError, match="more than"):
        from_json(json.dumps(record), GameRecord)
