"""What the browser client asks of the server besides the game: the rules text."""

from __future__ import annotations

from deepsix.rulebook import RULEBOOK
from tests.web.harness import Server


def test_the_rules_panel_reads_the_library_rulebook(server: Server) -> None:
    status, body = server.call("GET", "/api/rules")
    assert status == 200
    assert body == {"rules": dict(RULEBOOK)}
    assert "R-PLAY-3" in body["rules"]
