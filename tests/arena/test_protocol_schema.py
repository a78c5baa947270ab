"""``deepsix-bot/1`` is declared once, as classes: its shipped JSON Schema is what the classes
give, and what the referee and real bots say on the pipes is valid under it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from deepsix import play_game
from deepsix.arena import ExternalBot, program_command
from deepsix.arena.protocol import (
    PROTOCOL,
    Answer,
    Decide,
    Ready,
    bot_protocol_schema,
    decode,
    encode,
    read,
    shipped_schema,
)
from deepsix.errors import SerializationError
from tests.arena.programs import EXAMPLES, faulty, python_bot, serve

TEE = Path(__file__).resolve().parent / "bots" / "tee.py"
SCHEMA = bot_protocol_schema()


def validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator of one of the schema's messages (``RefereeMessage``, ``BotMessage``...)."""
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": SCHEMA["$defs"]})


REFEREE = validator("RefereeMessage")
BOT = validator("BotMessage")


def test_the_shipped_schema_is_the_declarations() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert json.loads(shipped_schema()) == SCHEMA


def test_deepsix_bot_prints_the_schema() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deepsix", "bot", "--schema"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout) == SCHEMA


def traffic(tmp_path: Path, spec: str, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """Every line of one whole game between the referee and the bot ``spec`` at North."""
    log = tmp_path / f"traffic-{seed}.log"
    command = [sys.executable, str(TEE), str(log), *program_command(spec)]
    bot = ExternalBot(command, time_limit=2.0, tries=2)
    bots: list[object] = [bot, "heuristic", "heuristic", "heuristic"]
    try:
        assert play_game(bots, seed).is_over  # type: ignore[arg-type]  # bots and names
    finally:
        bot.close()
    return [(line[:1], json.loads(line[2:])) for line in log.read_text().splitlines()]


@pytest.mark.parametrize(
    "spec",
    [python_bot(EXAMPLES / "minimal.py"), serve("heuristic")],
    ids=["docs-minimal", "deepsix-bot"],
)
def test_real_traffic_is_valid_under_the_schema(tmp_path: Path, spec: str) -> None:
    lines = traffic(tmp_path, spec, seed=3)
    said = {(side, message["type"]) for side, message in lines}
    assert {(">", "hello"), (">", "decide"), (">", "quit"), ("<", "ready"), ("<", "action")} <= said
    for side, message in lines:
        (REFEREE if side == ">" else BOT).validate(message)


def test_the_referee_s_refusals_and_fallbacks_are_valid_under_the_schema(tmp_path: Path) -> None:
    lines = traffic(
        tmp_path, faulty("--illegal", "2", "--late", "5", "--sleep", "2.5", "--seat", "N"), seed=5
    )
    sent = [message for side, message in lines if side == ">"]
    assert {"refused", "fallback"} <= {message["type"] for message in sent}
    for message in sent:
        REFEREE.validate(message)


def test_the_schema_refuses_what_the_protocol_does_not_allow() -> None:
    """The checks above can fail: messages a referee or a bot must not send are invalid."""
    bad_referee = [
        {"type": "decide", "id": 1, "seat": "S", "time_limit": 5.0, "view": {}},  # no legal
        {"type": "fallback", "id": 1, "reason": "bored", "action": {"type": "Pass", "seat": "S"}},
        {"type": "hello", "protocol": PROTOCOL},  # the referee always sends every key
        {"type": "nudge"},
    ]
    for message in bad_referee:
        assert not REFEREE.is_valid(message), message
    bad_bot = [
        {"type": "action", "id": "1", "action": "S:7S"},
        {"type": "action", "id": 1},
        {"type": "action", "id": 1, "action": {"type": "Shout"}},
        {"type": "ready"},
    ]
    for message in bad_bot:
        assert not BOT.is_valid(message), message
    assert BOT.is_valid({"type": "action", "id": 1, "action": "S:7S", "depth": 3})


def test_messages_are_read_as_their_classes() -> None:
    assert read(decode(b'{"type":"ready","protocol":"deepsix-bot/1"}'), Ready) == Ready(PROTOCOL)
    line = encode(Answer(4, "S:7S"))
    assert line == b'{"type":"action","id":4,"action":"S:7S"}\n'
    assert read(decode(line), Answer) == Answer(4, "S:7S")
    minimal = decode(b'{"type":"decide","id":2,"view":{},"legal":[]}')
    assert read(minimal, Decide) == Decide(2, {}, ())
    for text, why in [
        (b'{"type":"action","id":true,"action":"S:P"}', "action.id must be an integer"),
        (b'{"type":"action","id":1}', "an action message needs action"),
        (b'{"type":"ready","protocol":7}', "ready.protocol must be text"),
        (b'{"type":"decide","id":1,"view":{},"legal":{}}', "decide.legal must be a list"),
        (b'{"type":"quit"}', "expected \"action\", not 'quit'"),
    ]:
        with pytest.raises(SerializationError, match=why):
            read(decode(text), Answer if b'"action"' in text or b"quit" in text else Ready
                 if b"ready" in text else Decide)  # fmt: skip


def test_the_referee_writes_ascii() -> None:
    from deepsix.arena.protocol import Refused

    line = encode(Refused(3, "S plays 2\N{BLACK CLUB SUIT} is illegal", 2))
    assert line.isascii()
    assert json.loads(line)["reason"].endswith("2\N{BLACK CLUB SUIT} is illegal")


def test_the_tee_sees_both_sides(tmp_path: Path) -> None:
    """The recorder is faithful: it passes every line through unchanged."""
    log = tmp_path / "t.log"
    done = subprocess.run(
        [sys.executable, str(TEE), str(log), sys.executable, "-c",
         "import sys; print(sys.stdin.readline().upper(), end='')"],
        input="abc\n", capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout == "ABC\n"
    assert log.read_text().splitlines() == ["> abc", "< ABC"]
