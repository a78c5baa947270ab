"""Fuzzing the loaders (issues 6 and 15): hostile input only ever raises the library's own
errors, and every load does bounded work for its size.

Random JSON, random data in a valid envelope, and valid documents with one
or more random mutations (a key deleted, a value replaced or retyped, a
card duplicated or swapped, the text truncated or spliced) go to
:func:`deepsix.from_json`; mutated record files go to
:func:`deepsix.read_record`.  Every outcome must be either a
:class:`~deepsix.DeepSixError` or a value of the requested type that -- for
states -- passes :func:`deepsix.validate`; and every load must stay within
a budget of calls and peak memory proportional to the input's size
(:func:`tests.support.budget.loader_budget`; a bound on work, not on time).
"""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deepsix import (
    Action,
    Card,
    DeepSixError,
    GameRecord,
    GameState,
    Meld,
    PlayerView,
    Seat,
    Suit,
    from_json,
    legal_actions,
    parse_action,
    parse_actions,
    read_record,
    record_of,
    replay,
    to_json,
    validate,
    view,
    write_record,
)
from deepsix.io import codec
from tests.support.budget import bounded_work, loader_budget
from tests.support.games import game_states, one_state_per_phase

PHASES = one_state_per_phase()
TYPES: Final = tuple(codec.TYPES.values())
TYPE_NAMES: Final = tuple(codec.TYPES)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["7S", "N", "S", "DR-S", "play", "E:P", "deepsix/1", "Bid", "type"]),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(["type", "seat", "card", "data", "hands", "N", "rules", "x"])
            | st.text(max_size=6),
            children,
            max_size=5,
        )
    ),
    max_leaves=25,
)


def _documents() -> list[tuple[Any, str]]:
    docs: list[tuple[Any, str]] = []
    for state in PHASES.values():
        docs.append((GameState, to_json(state)))
        docs.append((PlayerView, to_json(view(state, state.to_act or Seat.NORTH))))
        docs.append((PlayerView, to_json(view(state, None))))
        docs.append((type(state.setup), to_json(state.setup)))
        legal = legal_actions(state)
        if legal:
            docs.append((Action, to_json(legal[0])))
            docs.append((type(legal), to_json(legal)))
        if state.tricks:
            docs.append((type(state.tricks[0]), to_json(state.tricks[0])))
        if state.completed_hands:
            docs.append((type(state.completed_hands[0]), to_json(state.completed_hands[0])))
    docs.append((GameRecord, to_json(record_of(PHASES[next(iter(PHASES))]))))
    docs.append((type(game_states()[0].rules), to_json(game_states()[0].rules)))
    return docs


DOCUMENTS: Final = _documents()
RECORD_TEXT: Final = write_record(record_of(list(PHASES.values())[3]))


def check_load(text: str | bytes, cls: Any) -> None:
    """The loader's contract: a typed error, or a valid value of the requested type, within
    the work budget for the text's size."""
    try:
        with bounded_work(loader_budget(text)):
            value = from_json(text, cls)
    except DeepSixError:
        return
    if cls is Action:
        assert type(value).__name__ in codec.ACTION_NAMES
    else:
        assert type(value) is cls
    if isinstance(value, GameState):
        validate(value)


@given(json_values, st.sampled_from(TYPES))
def test_random_json(value: object, cls: Any) -> None:
    check_load(json.dumps(value), cls)


@given(json_values, st.sampled_from(TYPE_NAMES))
def test_random_data_in_a_valid_envelope(data: object, name: str) -> None:
    text = json.dumps({"schema": "deepsix/1", "type": name, "data": data})
    check_load(text, codec.TYPES[name])


@given(st.binary(max_size=200) | st.text(max_size=200), st.sampled_from(TYPES))
def test_random_text(text: str | bytes, cls: Any) -> None:
    check_load(text, cls)


# -- mutations of valid documents --------------------------------------------------------------

Path = tuple[object, ...]


def paths(node: object, prefix: Path = ()) -> list[Path]:
    """Every path to a value inside a parsed JSON document."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(paths(value, (*prefix, index)))
    return found


def get(node: Any, path: Path) -> Any:
    for step in path:
        node = node[step]
    return node


RETYPED: Final = [None, 0, -1, 1.5, True, "", "7S", "N", [], {}, ["7S"], {"type": "Bid"}, 10**30]
HOSTILE_NUMBERS: Final = st.integers(-(10**40), 10**40) | st.sampled_from(
    [-(10**8), -(10**12), -(10**18), -999_990, -411, -410, 250, 251, 10_001, 2**63, -(2**63)]
)
"""Numbers aimed at the bounds: huge, just outside, just inside."""


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Any, str]:
    cls, text = draw(st.sampled_from(DOCUMENTS))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(
                ["delete", "replace", "retype", "duplicate", "swap", "truncate", "splice"]
            )
        )
        if kind == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
            continue
        if kind == "splice":
            at = draw(st.integers(0, len(text)))
            text = (
                text[:at]
                + draw(st.sampled_from(['"', "{", "]", ",", ":", "\\", "7S", "\x00", "[["]))
                + text[at:]
            )
            continue
        try:
            document = json.loads(text)
        except ValueError:
            continue
        targets = paths(document)[1:]
        if not targets:
            continue
        path = draw(st.sampled_from(targets))
        parent = get(document, path[:-1])
        key = path[-1]
        if kind == "delete":
            if isinstance(parent, dict):
                del parent[key]
            else:
                parent.pop(key)
        elif kind == "replace":
            parent[key] = draw(json_values)
        elif kind == "retype":
            parent[key] = draw(st.sampled_from(RETYPED) | HOSTILE_NUMBERS)
        elif kind == "duplicate" and isinstance(parent, list) and isinstance(key, int):
            parent.insert(key, parent[key])
        elif kind == "swap":
            cards = [
                p
                for p in targets
                if isinstance(get(document, p), str) and len(get(document, p)) == 2
            ]
            if len(cards) >= 2:
                a, b = draw(st.sampled_from(cards)), draw(st.sampled_from(cards))
                pa, pb = get(document, a[:-1]), get(document, b[:-1])
                pa[a[-1]], pb[b[-1]] = pb[b[-1]], pa[a[-1]]
        text = json.dumps(document)
    return cls, text


@given(mutated())
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_mutated_documents(case: tuple[Any, str]) -> None:
    cls, text = case
    check_load(text, cls)


@given(mutated(), st.sampled_from(TYPES))
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_mutated_documents_read_as_another_type(case: tuple[Any, str], cls: Any) -> None:
    check_load(case[1], cls)


# -- records -----------------------------------------------------------------------------------

LINES: Final = RECORD_TEXT.splitlines()


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "edit"]))
        if not lines:
            break
        index = draw(st.integers(0, len(lines) - 1))
        if kind == "delete":
            del lines[index]
        elif kind == "duplicate":
            lines.insert(index, lines[index])
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif kind == "replace":
            lines[index] = draw(
                st.sampled_from(
                    ["[", '[Rules "pass_size=9"]', "N:B-999999", "E:P E:P", "DEAL:", "W:SHOW:2S"]
                )
                | st.text(max_size=20)
            )
        else:
            line = lines[index]
            at = draw(st.integers(0, len(line)))
            lines[index] = line[:at] + draw(st.text(max_size=3)) + line[at + 1 :]
    return "\n".join(lines)


@given(mutated_records())
def test_mutated_records(text: str) -> None:
    try:
        with bounded_work(loader_budget(text)):
            record = read_record(text)
    except DeepSixError:
        return
    assert isinstance(record, GameRecord)


@given(st.text(max_size=300))
def test_random_record_text(text: str) -> None:
    try:
        with bounded_work(loader_budget(text)):
            read_record(text)
    except DeepSixError:
        return


# -- the rules inside documents: every number aimed at its bounds --------------------------------

RULE_NUMBERS: Final = ("target_score", "bid_step", "opening_bid_limit", "forced_bid",
                       "lowest_bid", "failed_bid_score", "pass_size")  # fmt: skip


@given(st.sampled_from(DOCUMENTS), st.sampled_from(RULE_NUMBERS), HOSTILE_NUMBERS)
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_hostile_rules_in_documents(case: tuple[Any, str], name: str, number: int) -> None:
    """Every document that carries rules, with one rule set to a hostile number."""
    cls, text = case
    document = json.loads(text)
    rules = _find_rules(document)
    if rules is None:
        return
    rules[name] = number
    check_load(json.dumps(document), cls)


def _find_rules(node: Any) -> dict[str, Any] | None:
    if isinstance(node, dict):
        if "lowest_bid" in node:
            return node
        for value in node.values():
            found = _find_rules(value)
            if found is not None:
                return found
    elif isinstance(node, list):
        for value in node:
            found = _find_rules(value)
            if found is not None:
                return found
    return None


@given(st.sampled_from(RULE_NUMBERS), HOSTILE_NUMBERS, st.integers(0, 200))
@settings(deadline=None)
def test_hostile_rules_in_records(name: str, number: int, calls: int) -> None:
    """A record whose Rules tag sets a hostile number, followed by many bids."""
    deal = write_record(record_of(game_states()[1])).splitlines()[-1]
    bids = " ".join(f"{'ESWN'[i % 4]}:B{-10 * (i + 1)}" for i in range(calls))
    text = f'[Rules "{name}={number}"]\n{deal}\n{bids}\n'
    try:
        with bounded_work(loader_budget(text)):
            read_record(text)
    except DeepSixError:
        return


# -- the small parsers ------------------------------------------------------------------------

SMALL_PARSERS: Final = (parse_action, parse_actions, Card.parse, Meld.parse, Suit.parse, Seat.parse)


@given(
    st.sampled_from(SMALL_PARSERS),
    st.text(max_size=400)
    | st.sampled_from(["E:B" + "9" * 41, "DEAL:" + "7S" * 5000, "N:" * 1000, "7S " * 2000])
    | st.integers()
    | st.none()
    | st.binary(max_size=20),
)
def test_small_parsers(parse: Any, text: Any) -> None:
    """The text parsers: a typed error or a value, within the budget for the text's size."""
    size = len(text) if isinstance(text, str | bytes) else 8
    try:
        with bounded_work(loader_budget("x" * size)):
            parse(text)
    except DeepSixError:
        return


@given(mutated_records())
@settings(deadline=None)
def test_replay_of_hostile_actions(text: str) -> None:
    """``replay`` of a record read without verification: each action checked, work bounded."""
    try:
        record = read_record(text, verify=False)
    except DeepSixError:
        return
    try:
        with bounded_work(loader_budget(text)):
            replay(record)
    except DeepSixError:
        return
