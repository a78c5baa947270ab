"""The public API (the names ``deepsix`` exports and their signatures) is the one recorded.

``tests/api_snapshot.txt`` is the record; after an intended change -- with its CHANGELOG
entry -- refresh it with ``python tools/api_snapshot.py``.  An unintended change fails here,
in review, before users meet it.
"""

from __future__ import annotations

import attrs
import pytest
from tools import api_snapshot

import deepsix
import deepsix.compiled


@pytest.mark.skipif(
    deepsix.compiled.COMPILED,
    reason="signatures are recorded from the pure build (the same sources); the pure run checks",
)
def test_the_public_api_is_the_recorded_one() -> None:
    recorded = api_snapshot.SNAPSHOT.read_text(encoding="utf-8")
    now = api_snapshot.snapshot()
    if now != recorded:
        old, new = set(recorded.splitlines()), set(now.splitlines())
        changes = [f"- {line}" for line in sorted(old - new)]
        changes += [f"+ {line}" for line in sorted(new - old)]
        pytest.fail(
            "the public API changed (refresh with python tools/api_snapshot.py and add a "
            "CHANGELOG entry):\n" + "\n".join(changes)
        )


def test_the_snapshot_sees_a_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed signature and a new name both change the snapshot."""
    before = api_snapshot.snapshot()

    def new_game(rules: object = None, dealer: object = None, *, extra: int = 0) -> None: ...

    monkeypatch.setattr(deepsix, "new_game", new_game)
    assert api_snapshot.snapshot() != before
    monkeypatch.undo()
    monkeypatch.setattr(deepsix, "__all__", [*deepsix.__all__, "compiled"])
    assert "compiled: module" in api_snapshot.snapshot()


def test_the_snapshot_is_the_same_after_types_are_resolved() -> None:
    """Field types read as the source spells them, whatever resolved them first.

    cattrs resolves an attrs class's field types in place when it first converts one, so a
    snapshot read from ``attrs.fields`` changed with the tests that ran before it.
    """
    before = api_snapshot.snapshot()
    for name in deepsix.__all__:
        value = getattr(deepsix, name)
        if isinstance(value, type) and attrs.has(value):
            attrs.resolve_types(value)
    assert api_snapshot.snapshot() == before
