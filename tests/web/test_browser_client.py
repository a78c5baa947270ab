"""Issue 22's leftovers in a real browser: the client speaks protocol 2 only, the prompt keeps
no empty room on a phone in trick play, and the meld choice shows which melds it blocks --
exactly those the engine would refuse."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.web.browser import CHROMIUM

if CHROMIUM is None:  # pragma: no cover - machines without a browser
    pytest.skip(
        "no Chromium on this machine (apt-get install chromium): browser tests skipped",
        allow_module_level=True,
    )

from playwright.sync_api import Browser

from deepsix.cards import CARDS, Suit
from deepsix.melds import Meld, available_melds, meld_blocker
from deepsix.web.sockets import legend
from tests.web.browser import PHONE, Player, no_errors, seat_url
from tests.web.harness import Server

STATIC = Path(__file__).resolve().parents[2] / "src" / "deepsix" / "web" / "static"


def test_the_client_speaks_protocol_2_only(server: Server, browser: Browser) -> None:
    sources = "\n".join(path.read_text("utf-8") for path in (STATIC / "js").glob("*.js"))
    for relic in ("/ws/", "detect()", "protocol() >=", "keepSeat(", "seatFor("):
        assert relic not in sources, relic
    made = server.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S", seed=2)
    player = Player(browser, server.base, seat_url(made))
    player.page.wait_for_selector(".game[data-seat='S']")
    asked = [url for url in player.requests if "/api/schema/protocol" in url or "/ws/" in url]
    assert asked == []
    assert any(url.endswith(f"/api/tables/{made['table']['id']}/socket") for url in player.requests)
    assert no_errors(player) == []
    player.close()


def test_the_prompt_keeps_no_empty_room_on_a_phone_in_trick_play(
    server: Server, browser: Browser
) -> None:
    made = server.create({"N": "heuristic", "E": "heuristic", "W": "heuristic"}, me="S", seed=2)
    player = Player(browser, server.base, seat_url(made), viewport=PHONE, is_mobile=True)
    player.play_until(lambda: player.data()["phase"] == "play", random.Random(2))
    prompt = player.page.locator(".prompt")
    box = prompt.bounding_box()
    assert box is not None
    content = prompt.evaluate(
        "e => Math.max(...[...e.children].map(c => c.getBoundingClientRect().bottom))"
        " - e.getBoundingClientRect().top"
    )
    assert box["height"] <= content + 40, (box, content)  # no more than a line of slack
    assert no_errors(player) == []
    player.close()


def test_the_meld_preview_blocks_exactly_what_the_engine_refuses(
    server: Server, browser: Browser
) -> None:
    player = Player(browser, server.base, "/")
    page = player.page
    page.wait_for_selector("#create")
    codes = legend()
    rng = random.Random(26)
    deck = [card for card in CARDS for _ in range(2)]
    checked = blocked_seen = 0
    for _ in range(300):
        bidder = rng.random() < 0.5
        hand = rng.sample(deck, 17 if bidder else 14)
        counts = [hand.count(card) for card in CARDS]
        sunk = rng.choice(list(Suit))
        sharing = rng.random() < 0.8
        cap = len(hand) - 3 if bidder else None
        options = available_melds(counts, [], sunk, sharing=sharing, max_melded=cap)
        if len(options) < 2:
            continue
        chosen: list[Meld] = []
        for meld in rng.sample(list(options), len(options)):
            if rng.random() < 0.5 and meld_blocker(
                counts, chosen, meld, sunk, sharing=sharing, max_melded=cap
            ) is None:  # fmt: skip
                chosen.append(meld)
        if not chosen:
            continue
        expected = [
            meld.code
            for meld in options
            if meld not in chosen
            and meld_blocker(counts, chosen, meld, sunk, sharing=sharing, max_melded=cap)
            is not None
        ]
        found = page.evaluate(
            "async ([codes, chosen, hand, legend, keep, sharing]) => {"
            " const m = await import('/static/js/prompt.js');"
            " return m.blockedMelds(codes, chosen, [], hand, legend, { keep, sharing }); }",
            [
                [meld.code for meld in options],
                [meld.code for meld in chosen],
                [card.ascii for card in hand],
                codes,
                3 if bidder else None,
                sharing,
            ],
        )
        assert found == expected, (hand, sunk, sharing, bidder, chosen)
        checked += 1
        blocked_seen += bool(expected)
    assert checked >= 100
    assert blocked_seen >= 20  # the cases that matter came up
    assert no_errors(player) == []
    player.close()
