"""Analysis at the web table: a finished table's record analyses on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.web.harness import Client, Server


def finished_table(server: Server) -> str:
    """Four bots play a table to its end: its id."""
    made = server.create(dict.fromkeys("NESW", "heuristic"), me=None, seed=3)
    table = str(made["table"]["id"])
    watcher = Client(server, table, None)
    watcher.until(
        lambda frame: frame["op"] == "update" and frame["table"]["status"] == "finished", 240
    )
    watcher.close()
    return table


def test_the_record_of_a_web_table_analyses_on_the_command_line(
    server: Server, tmp_path: Path
) -> None:
    table = finished_table(server)
    status, text, _ = server.request("GET", f"/api/tables/{table}/record")
    assert status == 200
    saved = tmp_path / "web.txt"
    saved.write_text(text)
    out_json = tmp_path / "analysis.json"
    command = [sys.executable, "-m", "deepsix", "--no-color", "analyze", str(saved),
               "--hand", "1", "--budget", "quick", "--json", str(out_json)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "Hand 1: " in done.stdout
    data = json.loads(out_json.read_text())
    (hand,) = data["hands"]
    assert hand["number"] == 1
    assert hand["decisions"]
    assert hand["scores"] == list(server.states(table)[-1].completed_hands[0].scores)
