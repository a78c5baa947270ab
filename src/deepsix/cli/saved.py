"""Saved games for the command line: a game record plus the seed and who sits where.

``deepsix play --save`` and ``--resume`` and ``deepsix watch --save`` use
these; the files are ordinary game records (:mod:`deepsix.io.record`), so
any record reader can replay them.
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from deepsix._version import __version__
from deepsix.errors import SerializationError
from deepsix.io.record import read_record, record_of, replay, write_record
from deepsix.io.seats import SEAT_TAGS
from deepsix.state import GameState

__all__ = ["SavedGame", "load_game", "save_game"]


@attrs.frozen
class SavedGame:
    """A game record plus what the command line needs to continue it.

    Stored as a :mod:`deepsix.io.record` game record whose tags name the seed
    (``Seed``) and who sits where (``North`` ... ``West``: a bot name or
    ``human``), so any record reader can replay it.
    """

    seed: int | None
    """The game's seed (deals come from ``random.Random(seed)`` in turn), if known."""
    bots: tuple[str, str, str, str]
    """Who sits where, N E S W: a bot name, ``human``, or ``?`` if the record does not say."""
    state: GameState
    """The game so far."""


def save_game(path: str | Path, game: SavedGame) -> None:
    """Write ``game`` as a game record (:func:`deepsix.io.record.write_record`), atomically.

    Raises :class:`~deepsix.SerializationError` naming ``path`` if it cannot be written.
    """
    tags = [("Program", f"deepsix {__version__}")]
    if game.seed is not None:
        tags.append(("Seed", str(game.seed)))
    tags.extend(zip(SEAT_TAGS, game.bots, strict=True))
    text = write_record(record_of(game.state, tags))
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    try:
        temporary.write_text(text, "utf-8")
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise SerializationError(f"cannot save the game to {path}: {error.strerror}") from None


def load_game(path: str | Path) -> SavedGame:
    """Read a game record and replay it (every action is checked).

    Raises :class:`~deepsix.SerializationError` (a
    :class:`~deepsix.io.record.RecordError` for a bad record) if the file
    cannot be read or does not replay.
    """
    try:
        text = Path(path).read_text("utf-8")
    except OSError as error:
        raise SerializationError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise SerializationError(f"cannot read {path}: it is not UTF-8 text") from None
    try:
        record = read_record(text, verify=False)
        state = replay(record)  # checks every action
    except SerializationError as error:
        raise SerializationError(f"{path}: {error}") from error
    seed_text = record.tag("Seed")
    seed: int | None = None
    if seed_text is not None:
        try:
            seed = int(seed_text)
        except ValueError:
            raise SerializationError(
                f"{path}: the Seed tag {seed_text!r} is not an integer"
            ) from None
    seats = tuple((record.tag(name) or "?").strip().lower() for name in SEAT_TAGS)
    return SavedGame(seed, (seats[0], seats[1], seats[2], seats[3]), state)
