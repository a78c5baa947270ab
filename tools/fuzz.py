"""Fuzz the trust boundary: the loaders, the text parsers and the command line's prompt.

Every target is given bytes that an attacker or a careless user could send.  The contract is
the one the docs promise: the library answers with a value or a :class:`deepsix.DeepSixError`
-- nothing else escapes -- and a refused action leaves the state as it was.

Two engines:

* ``atheris`` (coverage-guided libFuzzer, used when ``pip install atheris`` works):
  inputs that raise anything but a ``DeepSixError``, or that pass the per-input time or
  memory limit (libFuzzer's ``-timeout`` and ``-rss_limit_mb``), are crashes, saved by
  libFuzzer with the input that caused them;
* ``mutate`` (no dependency): random mutations of a corpus of valid documents, records,
  notations and typed lines, with the same checks and a call-count budget per input.

Usage (``nox -s fuzz`` runs it; not part of the default CI run)::

    python tools/fuzz.py --seconds 600                 # the best engine available
    python tools/fuzz.py --engine mutate --seconds 60 --seed 3
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.support.budget

from tests.support.budget import WorkBudgetExceeded, bounded_work, loader_budget  # noqa: E402

import deepsix  # noqa: E402  (after the path above)
from deepsix import (  # noqa: E402
    Card,
    DeepSixError,
    GameState,
    Meld,
    Seat,
    apply,
    from_json,
    legal_actions,
    parse_action,
    parse_actions,
    read_record,
    record_of,
    replay,
    shuffled_deal,
    to_json,
    view,
    write_record,
)
from deepsix.cli import parse_command  # noqa: E402
from deepsix.io import codec  # noqa: E402

TYPES: Final = list(codec.TYPES.values())


# -- the corpus: real documents from seeded games ------------------------------------------------


def corpus(seed: int = 0) -> dict[str, list[bytes]]:
    """Seed inputs per target family: states, views, records, actions and typed lines."""
    rng = random.Random(seed)
    states: list[GameState] = []
    state = deepsix.new_game()
    while not state.is_over and len(states) < 400:
        action = shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
        state = apply(state, action)
        states.append(state)
    picks = states[:: max(1, len(states) // 40)]
    docs = [to_json(s).encode() for s in picks]
    docs += [to_json(view(s, s.to_act or Seat.NORTH)).encode() for s in picks]
    docs += [to_json(record_of(s)).encode() for s in picks[:5]]
    docs += [to_json(a).encode() for s in picks for a in legal_actions(s)[:2]]
    records = [write_record(record_of(s)).encode() for s in picks[::4]]
    notation = [deepsix.format_action(a).encode() for s in picks for a in legal_actions(s)[:3]]
    lines = [b"pass", b"bid 90", b"sink H", b"give 7S 8S 2C", b"meld best", b"play 7S", b",,,"]
    return {"json": docs, "record": records, "notation": notation, "line": lines}


# -- the targets --------------------------------------------------------------------------------


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


_ENVELOPE_TYPE: Final = re.compile(rb'"type":\s*"(\w+)"')


def _type_for(data: bytes, selector: int) -> Any:
    """Mostly the type the document names (so mutations reach deep), sometimes any type."""
    named = _ENVELOPE_TYPE.search(data)
    if selector % 4 and named is not None:
        return codec.TYPES.get(named.group(1).decode(), TYPES[0])
    return TYPES[selector % len(TYPES)]


def target_json(data: bytes, selector: int) -> None:
    from_json(data, _type_for(data, selector))


def target_json_text(data: bytes, selector: int) -> None:
    from_json(_text(data), _type_for(data, selector))


def target_record(data: bytes, selector: int) -> None:
    record = read_record(_text(data), verify=bool(selector & 1))
    if not selector & 1:
        replay(record)


def target_notation(data: bytes, selector: int) -> None:
    parsers: list[Callable[[str], object]] = [
        parse_action,
        parse_actions,
        Card.parse,
        Meld.parse,
        deepsix.parse_cards,
    ]
    parsers[selector % len(parsers)](_text(data))


_PROMPT_STATES: list[GameState] = []


def target_prompt(data: bytes, selector: int) -> None:
    """A typed line at the prompt, then every action it asks for applied to the state."""
    if not _PROMPT_STATES:
        rng = random.Random(5)
        state = deepsix.new_game()
        while not state.is_over and len(_PROMPT_STATES) < 200:
            state = apply(
                state,
                shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state)),
            )
            if not state.is_chance and not state.is_over:
                _PROMPT_STATES.append(state)
    state = _PROMPT_STATES[selector % len(_PROMPT_STATES)]
    seat = state.to_act
    assert seat is not None
    before = to_json(state)
    parsed = parse_command(_text(data), view(state, seat))
    if isinstance(parsed, list):
        for action in parsed:
            try:
                state = apply(state, action)
            except deepsix.IllegalActionError:
                break
    assert to_json(_PROMPT_STATES[selector % len(_PROMPT_STATES)]) == before


TARGETS: Final[dict[str, tuple[str, Callable[[bytes, int], None]]]] = {
    "json-bytes": ("json", target_json),
    "json-text": ("json", target_json_text),
    "record": ("record", target_record),
    "notation": ("notation", target_notation),
    "prompt": ("line", target_prompt),
}


def run_one(name: str, data: bytes, selector: int, *, budget: bool) -> str:
    """Run one input; the outcome's name.  Anything but a DeepSixError is re-raised."""
    _, target = TARGETS[name]
    try:
        if budget:
            with bounded_work(loader_budget(data)):
                target(data, selector)
        else:
            target(data, selector)
    except DeepSixError:
        return "refused"
    return "accepted"


# -- the mutation engine -------------------------------------------------------------------------

_TOKENS: Final = [
    b'"', b"{", b"}", b"[", b"]", b",", b":", b"\\", b"\x00", b"\xff", b"\xc3\x28", b"-", b"e9",
    b"99999999999999999999999999999999999999999", b"-1", b"null", b"true", b"1.5", b"7S",
    b"N:", b"B-999990", b"DEAL:", b"lowest_bid=-999990", b"\n", b";", b"[Rules \"",
    "\u2660".encode(),  # the spade symbol's UTF-8 bytes
]  # fmt: skip


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random edits: byte flips, token splices, cuts, repeats, number swaps."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        at = rng.randint(0, len(out))
        if kind == 0 and out:
            out[min(at, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif kind == 1:
            out[at:at] = rng.choice(_TOKENS)
        elif kind == 2:
            del out[at : at + rng.randint(1, 40)]
        elif kind == 3 and out:
            chunk = out[at : at + rng.randint(1, 30)]
            out[at:at] = chunk * rng.randint(1, 50)
        elif kind == 4:
            text = out.decode("utf-8", "replace")
            digits = [i for i, ch in enumerate(text) if ch.isdigit()]
            if digits:
                i = rng.choice(digits)
                text = (
                    text[:i]
                    + str(rng.choice([-(10**30), -999990, 10**18, 251, -411]))
                    + text[i + 1 :]
                )
                out = bytearray(text.encode())
        else:
            out = bytearray(out[: at // 2] + out[at:])
    return bytes(out)


def fuzz_mutate(seconds: float, seed: int) -> int:
    """The dependency-free engine: run until the time is up; return the number of failures."""
    rng = random.Random(seed)
    seeds = corpus(seed)
    runs: Counter[str] = Counter()
    outcomes: Counter[tuple[str, str]] = Counter()
    failures: list[tuple[str, bytes, str]] = []
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        name = rng.choice(list(TARGETS))
        family, _ = TARGETS[name]
        data = mutate(rng.choice(seeds[family]), rng)
        runs[name] += 1
        try:
            outcome = run_one(name, data, rng.randrange(1 << 16), budget=True)
        except WorkBudgetExceeded as error:
            outcome = "over budget"
            failures.append((name, data, str(error)))
        except Exception as error:  # the contract: nothing else may escape
            outcome = f"escaped {type(error).__name__}"
            failures.append((name, data, repr(error)))
        outcomes[name, outcome] += 1
    elapsed = time.monotonic() - started
    total = sum(runs.values())
    print(
        f"mutate engine: {total} inputs in {elapsed:.0f} s ({total / elapsed:.0f}/s), seed {seed}"
    )
    for name in TARGETS:
        parts = ", ".join(f"{o} {n}" for (t, o), n in sorted(outcomes.items()) if t == name)
        print(f"  {name:10} {runs[name]:7}  {parts}")
    print(f"failures: {len(failures)}")
    crash_dir = ROOT / "fuzz-crashes"
    for index, (name, data, why) in enumerate(failures[:20]):
        crash_dir.mkdir(exist_ok=True)
        (crash_dir / f"{name}-{index}.bin").write_bytes(data)
        print(f"  {name}: {why[:200]}")
    return len(failures)


# -- the atheris engine --------------------------------------------------------------------------


def fuzz_atheris(seconds: float, seed: int) -> int:
    """Coverage-guided fuzzing of every target (libFuzzer picks the inputs)."""
    import atheris

    names = list(TARGETS)
    seeds = corpus(seed)
    corpus_dir = ROOT / "fuzz-corpus"
    corpus_dir.mkdir(exist_ok=True)
    for index, name in enumerate(names):
        family, _ = TARGETS[name]
        for number, data in enumerate(seeds[family][:30]):
            (corpus_dir / f"{index:02x}-{number}").write_bytes(bytes([index, 0, 0]) + data)

    def one_input(raw: bytes) -> None:
        if len(raw) < 3:
            return
        name = names[raw[0] % len(names)]
        run_one(name, raw[3:], raw[1] << 8 | raw[2], budget=False)

    atheris.instrument_all()
    argv = [
        sys.argv[0],
        f"-max_total_time={int(seconds)}",
        "-timeout=20",
        "-rss_limit_mb=2048",
        f"-seed={seed or 1}",
        "-print_final_stats=1",
        f"-artifact_prefix={ROOT / 'fuzz-crashes'}/",
        str(corpus_dir),
    ]
    (ROOT / "fuzz-crashes").mkdir(exist_ok=True)
    atheris.Setup(argv, one_input)
    atheris.Fuzz()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("auto", "atheris", "mutate"), default="auto")
    args = parser.parse_args(argv)
    engine = args.engine
    if engine == "auto":
        try:
            import atheris  # noqa: F401
        except ImportError:
            engine = "mutate"
        else:
            engine = "atheris"
    print(f"fuzzing for {args.seconds:.0f} s with the {engine} engine")
    if engine == "atheris":
        return fuzz_atheris(args.seconds, args.seed)
    return 1 if fuzz_mutate(args.seconds, args.seed) else 0


if __name__ == "__main__":
    sys.exit(main())
