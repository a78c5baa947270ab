"""What the browser client asks of the server besides the game: rules text, records, replays."""

from __future__ import annotations

import urllib.request

from deepsix import read_record, replay
from deepsix.io.wire import to_wire
from deepsix.rulebook import RULEBOOK
from tests.web.harness import Server


def test_the_rules_panel_reads_the_library_rulebook(server: Server) -> None:
    status, body = server.call("GET", "/api/rules")
    assert status == 200
    assert body == {"rules": dict(RULEBOOK)}
    assert "R-PLAY-3" in body["rules"]


def test_a_finished_game_has_a_record_steps_and_pictures(server: Server) -> None:
    from tests.web.test_browser_after import finished_table  # the four-bot table

    table = finished_table(server)
    final = server.states(table)[-1]
    status, _ = server.call("GET", f"/api/tables/{table}/replay")
    assert status == 200
    request = urllib.request.Request(f"{server.base}/api/tables/{table}/record")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert "attachment" in response.headers["Content-Disposition"]
        text = response.read().decode()
    assert replay(read_record(text)) == final
    status, body = server.call("GET", f"/api/tables/{table}/replay")
    assert [step["seq"] for step in body["steps"]] == list(range(1, len(final.history) + 1))
    assert body["hands"] == [to_wire(record) for record in final.completed_hands]
    won = [e for step in body["steps"] for e in step["events"] if e["type"] == "TrickWon"]
    assert len(won) == 14 * len(final.completed_hands)
    for query, hidden in (("", False), ("?seat=E", True)):
        url = f"{server.base}/api/tables/{table}/replay/1.svg{query}"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.headers["Content-Type"].startswith("image/svg+xml")
            picture = response.read().decode()
        assert picture.startswith("<svg")
        assert ("hidden" in picture) == hidden  # as East saw it: the other hands are backs
    status, body = server.call("GET", f"/api/tables/{table}/replay/99999.svg")
    assert status == 404
    assert body["error"]["code"] == "bad-step"
