"""The docs' match report (heuristic vs random, 200 duplicate deals) is what ``deepsix match``
makes of the games kept beside it, and those games are what the command plays today."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deepsix.arena.match import GameOutcome, MatchConfig, play_deal
from deepsix.cli import main
from tests.arena.programs import ROOT

MATCH = ROOT / "docs" / "matches" / "heuristic-vs-random"
COMMAND = ["match", "heuristic", "random", "--deals", "200", "--seed", "2026"]
REGENERATE = (
    "regenerate it: cd docs/matches && rm -rf heuristic-vs-random && "
    "nice deepsix " + " ".join(COMMAND) + " --out heuristic-vs-random"
)


def test_the_report_is_the_commands_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("match.json", "games.jsonl"):
        shutil.copy(MATCH / name, tmp_path / name)
    assert main([*COMMAND, "--out", str(tmp_path), "--no-progress", "--workers", "1"]) == 0
    assert (tmp_path / "report.md").read_text() == (MATCH / "report.md").read_text(), REGENERATE
    assert "Produced by `deepsix " + " ".join(COMMAND) + "`." in (MATCH / "report.md").read_text()


def test_its_first_deals_replay_to_the_same_games() -> None:
    config = MatchConfig(("heuristic", "random"), deals=200, seed=2026)
    kept = [
        GameOutcome.from_json(json.loads(line))
        for line in (MATCH / "games.jsonl").read_text().splitlines()
    ]
    for deal in (0, 1):
        played = [outcome for outcome, _ in play_deal(config, deal)]
        saved = [o for o in kept if o.deal == deal]
        assert [(o.swapped, o.seed, o.scores, o.winner, o.hands) for o in played] == [
            (o.swapped, o.seed, o.scores, o.winner, o.hands) for o in saved
        ], "the bots play differently than when the docs' report was made: " + REGENERATE
