"""Draw the docs' diagrams as SVG: the phase state machine and a trick resolution.

Run from the repository root::

    python docs/_scripts/make_diagrams.py          # rewrite docs/_static/*.svg
    python docs/_scripts/make_diagrams.py --check  # fail if they are out of date

The SVGs are committed, so building the docs needs no graphviz.  The output
is deterministic (fixed layout, fixed number formatting), and
``tests/test_docs.py`` checks that the committed files match this script.
The phase graph's edges are data (:data:`EDGES`): the same test plays real
games and checks that every transition they make is drawn, and vice versa.
The trick picture asks the library who wins each trick it shows, and its cards are
drawn by the library's own pictures (:mod:`deepsix.svg`).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from html import escape
from pathlib import Path
from types import ModuleType
from typing import Final, NamedTuple

import attrs

from deepsix import Card, Phase, Seat, Suit, trick_winner
from deepsix import svg as pictures

STATIC: Final = Path(__file__).resolve().parents[1] / "_static"

# -- the phase state machine ------------------------------------------------------


class Box(NamedTuple):
    """One phase, drawn as a box."""

    phase: Phase
    col: int
    row: int
    who: str
    actions: str
    rules: str


class Edge(NamedTuple):
    """A transition between phases, taken by one kind of action."""

    source: Phase
    target: Phase
    action: str


BOXES: Final = (
    Box(Phase.DEAL, 0, 0, "chance", "Deal (shuffled_deal)", "R-DEAL-1, R-DEAL-2"),
    Box(Phase.BIDDING, 1, 0, "from the dealer's left", "Bid · Pass", "R-BID-1 … R-BID-8"),
    Box(Phase.SUNK_SUIT, 2, 0, "bid winner", "NameSunkSuit", "R-SUNK-1"),
    Box(Phase.INVITATION, 3, 0, "bidder", "ShowCard · Done", "R-INVITE-1, R-INVITE-2"),
    Box(Phase.PARTNER_PASS, 4, 0, "bidder's partner", "PassCard × 3", "R-PASS-1"),
    Box(Phase.BIDDER_MELD, 4, 1, "bidder (17 cards)", "DeclareMeld · Done", "R-MELD-1 … R-MELD-4"),
    Box(Phase.BIDDER_PASS, 3, 1, "bidder", "PassCard × 3", "R-PASS-2"),
    Box(Phase.MELDING, 2, 1, "other three, clockwise", "DeclareMeld · Done", "R-MELD-5"),
    Box(Phase.PLAY, 1, 1, "trick leader, clockwise", "PlayCard × 56", "R-PLAY-1 … R-PLAY-6"),
    Box(Phase.GAME_OVER, 0, 1, "nobody", "(none)", "R-END-1, R-END-2"),
)  # fmt: skip

EDGES: Final = (
    Edge(Phase.DEAL, Phase.BIDDING, "Deal"),
    Edge(Phase.BIDDING, Phase.BIDDING, "Bid"),
    Edge(Phase.BIDDING, Phase.BIDDING, "Pass"),
    Edge(Phase.BIDDING, Phase.SUNK_SUIT, "Bid"),
    Edge(Phase.BIDDING, Phase.SUNK_SUIT, "Pass"),
    Edge(Phase.SUNK_SUIT, Phase.INVITATION, "NameSunkSuit"),
    Edge(Phase.INVITATION, Phase.INVITATION, "ShowCard"),
    Edge(Phase.INVITATION, Phase.PARTNER_PASS, "Done"),
    Edge(Phase.PARTNER_PASS, Phase.PARTNER_PASS, "PassCard"),
    Edge(Phase.PARTNER_PASS, Phase.BIDDER_MELD, "PassCard"),
    Edge(Phase.BIDDER_MELD, Phase.BIDDER_MELD, "DeclareMeld"),
    Edge(Phase.BIDDER_MELD, Phase.BIDDER_PASS, "Done"),
    Edge(Phase.BIDDER_PASS, Phase.BIDDER_PASS, "PassCard"),
    Edge(Phase.BIDDER_PASS, Phase.MELDING, "PassCard"),
    Edge(Phase.MELDING, Phase.MELDING, "DeclareMeld"),
    Edge(Phase.MELDING, Phase.MELDING, "Done"),
    Edge(Phase.MELDING, Phase.PLAY, "Done"),
    Edge(Phase.PLAY, Phase.PLAY, "PlayCard"),
    Edge(Phase.PLAY, Phase.DEAL, "PlayCard"),
    Edge(Phase.PLAY, Phase.GAME_OVER, "PlayCard"),
)
"""Every transition of the engine: (phase before, phase after, action class name)."""

# Labels for the drawn arrows, one per (source, target) pair.
LABELS: Final = {
    (Phase.DEAL, Phase.BIDDING): ("Deal",),
    (Phase.BIDDING, Phase.BIDDING): ("Bid / Pass",),
    (Phase.BIDDING, Phase.SUNK_SUIT): ("auction", "over"),
    (Phase.SUNK_SUIT, Phase.INVITATION): ("suit", "named"),
    (Phase.INVITATION, Phase.INVITATION): ("ShowCard",),
    (Phase.INVITATION, Phase.PARTNER_PASS): ("Done",),
    (Phase.PARTNER_PASS, Phase.PARTNER_PASS): ("1st, 2nd PassCard",),
    (Phase.PARTNER_PASS, Phase.BIDDER_MELD): ("3rd PassCard:", "cards arrive"),
    (Phase.BIDDER_MELD, Phase.BIDDER_MELD): ("DeclareMeld",),
    (Phase.BIDDER_MELD, Phase.BIDDER_PASS): ("Done",),
    (Phase.BIDDER_PASS, Phase.BIDDER_PASS): ("1st, 2nd PassCard",),
    (Phase.BIDDER_PASS, Phase.MELDING): ("3rd", "PassCard"),
    (Phase.MELDING, Phase.MELDING): ("DeclareMeld; Done → next seat",),
    (Phase.MELDING, Phase.PLAY): ("3rd", "Done"),
    (Phase.PLAY, Phase.PLAY): ("PlayCard (trick winner leads)",),
    (Phase.PLAY, Phase.DEAL): ("hand scored, no winner:", "dealer moves left"),
    (Phase.PLAY, Phase.GAME_OVER): ("a team", "wins"),
}

BOX_W: Final = 184
BOX_H: Final = 92
GAP_X: Final = 58
MARGIN_X: Final = 24
ROW_Y: Final = (92, 330)
WIDTH: Final = 2 * MARGIN_X + 5 * BOX_W + 4 * GAP_X
HEIGHT: Final = 500

FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
INK: Final = "#1f2933"
MUTED: Final = "#52606d"
ACCENT: Final = "#0b6e99"
CHANCE: Final = "#8a5a00"


def _n(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _text(x: float, y: float, text: str, *, size: float = 12, weight: str = "normal",
          fill: str = INK, anchor: str = "middle", italic: bool = False) -> str:  # fmt: skip
    style = ' font-style="italic"' if italic else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="{anchor}"{style}>{escape(text)}</text>'
    )


def _box_xy(box: Box) -> tuple[float, float]:
    return MARGIN_X + box.col * (BOX_W + GAP_X), ROW_Y[box.row]


def _draw_box(box: Box) -> list[str]:
    x, y = _box_xy(box)
    cx = x + BOX_W / 2
    chance = box.phase is Phase.DEAL
    final = box.phase is Phase.GAME_OVER
    stroke = CHANCE if chance else (MUTED if final else ACCENT)
    fill = "#fff7e6" if chance else ("#f0f2f4" if final else "#eef7fb")
    dash = ' stroke-dasharray="6 4"' if chance else ""
    return [
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{BOX_W}" height="{BOX_H}" rx="10" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2"{dash}/>',
        _text(cx, y + 22, box.phase.name, size=14, weight="bold", fill=stroke),
        _text(cx, y + 41, box.who, size=11.5, fill=MUTED, italic=True),
        _text(cx, y + 61, box.actions, size=12.5),
        _text(cx, y + 80, box.rules, size=10.5, fill=MUTED),
    ]


def _arrow(points: Sequence[tuple[float, float]], color: str = INK) -> str:
    path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    return (
        f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="1.8" '
        f'marker-end="url(#arrow)"/>'
    )


def _labels(x: float, y: float, lines: Sequence[str], anchor: str = "middle") -> list[str]:
    return [
        _text(x, y + 13 * i, line, size=11.5, fill=MUTED, anchor=anchor)
        for i, line in enumerate(lines)
    ]


def phase_diagram() -> str:
    """The SVG of the phase state machine of one hand and the game."""
    boxes = {box.phase: box for box in BOXES}
    drawn = {(edge.source, edge.target) for edge in EDGES}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" font-family="{FONT}" role="img" '
        'aria-labelledby="phases-title">',
        '<title id="phases-title">The phases of a hand of Deep Six and the actions '
        "that move between them</title>",
        "<defs>",
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/>'
        "</marker>",
        "</defs>",
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="14" fill="#ffffff" '
        'stroke="#d5dbe1"/>',
        _text(MARGIN_X, 30, "One hand of Deep Six, phase by phase", size=16, weight="bold",
              anchor="start"),
        _text(MARGIN_X, 50, "Boxes are values of deepsix.Phase; arrows are the actions that "
              "leave a phase. Loops stay in the phase.", size=12, fill=MUTED, anchor="start"),
    ]  # fmt: skip
    for source, target in sorted(drawn, key=lambda pair: (pair[0].name, pair[1].name)):
        a, b = boxes[source], boxes[target]
        ax, ay = _box_xy(a)
        bx, by = _box_xy(b)
        label = LABELS[source, target]
        if source is target:
            # A loop above the box in the top row, below it in the bottom row.
            cx = ax + BOX_W / 2
            if a.row == 0:
                top = ay
                out.append(
                    f'<path d="M{_n(cx - 26)},{_n(top)} C{_n(cx - 30)},{_n(top - 30)} '
                    f'{_n(cx + 30)},{_n(top - 30)} {_n(cx + 26)},{_n(top - 2)}" fill="none" '
                    f'stroke="{INK}" stroke-width="1.6" marker-end="url(#arrow)"/>'
                )
                if a.col == 4:  # the rightmost box: keep the label inside the picture
                    out += _labels(cx - 34, top - 20, label, anchor="end")
                else:
                    out += _labels(cx + 34, top - 20, label, anchor="start")
            else:
                bottom = ay + BOX_H
                out.append(
                    f'<path d="M{_n(cx - 26)},{_n(bottom)} C{_n(cx - 30)},{_n(bottom + 30)} '
                    f'{_n(cx + 30)},{_n(bottom + 30)} {_n(cx + 26)},{_n(bottom + 2)}" '
                    f'fill="none" stroke="{INK}" stroke-width="1.6" marker-end="url(#arrow)"/>'
                )
                out += _labels(cx, bottom + 42, label)
        elif a.row == b.row:
            y = ay + BOX_H / 2
            if b.col > a.col:
                start, end = ax + BOX_W, bx
            else:
                start, end = ax, bx + BOX_W
            out.append(_arrow([(start, y), (end, y)]))
            mid = (start + end) / 2
            out += _labels(mid, y - 10 - 13 * (len(label) - 1), label)
        elif a.col == b.col:
            x = ax + BOX_W / 2
            out.append(_arrow([(x, ay + BOX_H), (x, by)]))
            out += _labels(x + 10, (ay + BOX_H + by) / 2 - 4, label, anchor="start")
        else:
            # PLAY back up to DEAL: a diagonal from the top of PLAY.
            leaving = (ax + 30, ay)
            arriving = (bx + BOX_W - 30, by + BOX_H)
            out.append(_arrow([leaving, arriving], color=CHANCE))
            mx, my = (leaving[0] + arriving[0]) / 2, (leaving[1] + arriving[1]) / 2
            out += _labels(mx + 14, my - 6, label, anchor="start")
    for box in BOXES:
        out += _draw_box(box)
    out.append(
        _text(MARGIN_X, HEIGHT - 16, "The dashed box is a chance step: state.is_chance is "
              "true and legal_actions() is empty; apply shuffled_deal(seed).",
              size=11.5, fill=MUTED, anchor="start")
    )  # fmt: skip
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- a trick resolution ---------------------------------------------------------------

SUNK: Final = Suit.HEARTS
LEAD: Final = ("6S", "8S", "2S")
ENDINGS: Final = ("5D", "5H")
GOLD: Final = "#d4a017"
CARD_W: Final = 84
CARD_H: Final = 84 * pictures.CARD_RATIO
PANEL_W: Final = 560
TRICK_W: Final = 2 * PANEL_W + 3 * 20
TRICK_H: Final = 440


def introduction_order(cards: Sequence[Card], sunk: Suit) -> list[Suit]:
    """Suits in the order they count as introduced: the sunk suit first, then by first play."""
    order = [sunk]
    for card in cards:
        if card.suit not in order:
            order.append(card.suit)
    return order


_CARD_LOOK: Final = attrs.evolve(pictures.LIGHT, background="#f8fafc")
"""The library's light theme, on the panels' background."""


def _card(x: float, y: float, card: Card, *, winner: bool) -> list[str]:
    """The card as :func:`deepsix.svg.card` draws it, nested at ``(x, y)``, ``CARD_W`` wide."""
    mark = pictures.Mark.WINNER if winner else None
    parts = [_nested(pictures.card(card, mark=mark, theme=_CARD_LOOK), x, y, CARD_W)]
    if winner:
        parts.append(
            _text(x + CARD_W / 2, y + CARD_H + 22, "takes the trick", size=12, weight="bold",
                  fill="#8a6d00")
        )  # fmt: skip
    return parts


def _nested(svg: str, x: float, y: float, width: float) -> str:
    """A picture of :mod:`deepsix.svg` placed inside another SVG: its card ``width`` wide at
    ``(x, y)`` (the picture's own margin, 6 of its 112 units, lies outside that box)."""
    head, _, body = svg.partition("\n")
    box = [float(part) for part in head.split('viewBox="')[1].split('"')[0].split()]
    scale = width / (box[2] - 12)
    root = (
        f'<svg x="{_n(x - 6 * scale)}" y="{_n(y - 6 * scale)}" width="{_n(box[2] * scale)}" '
        f'height="{_n(box[3] * scale)}" viewBox="0 0 {_n(box[2])} {_n(box[3])}" role="img">'
    )
    return root + "\n" + body.rstrip("\n")


def _panel(x0: float, y0: float, last: str) -> list[str]:
    cards = [Card.parse(text) for text in (*LEAD, last)]
    plays = list(zip(Seat, cards, strict=True))
    winner = trick_winner(plays, SUNK)
    order = introduction_order(cards, SUNK)
    out = [
        f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{PANEL_W}" height="{TRICK_H - y0 - 20}" '
        'rx="12" fill="#f8fafc" stroke="#d5dbe1"/>',
        _text(x0 + 20, y0 + 30, f"Player 4 plays {cards[3]}", size=15, weight="bold",
              anchor="start"),
    ]  # fmt: skip
    step = (PANEL_W - 40 - CARD_W) / 3
    for i, (seat, card) in enumerate(plays):
        cx = x0 + 20 + i * step
        role = "leads" if i == 0 else f"plays {('2nd', '3rd', '4th')[i - 1]}"
        out.append(_text(cx + CARD_W / 2, y0 + 60, f"Player {i + 1} {role}", size=11.5,
                         fill=MUTED))  # fmt: skip
        out += _card(cx, y0 + 70, card, winner=seat == winner)
    # The suit ladder: introduction order, later suits outrank earlier ones.
    ly = y0 + 248
    out.append(_text(x0 + 20, ly, "Suits in order of introduction (later beats earlier):",
                     size=12, fill=MUTED, anchor="start"))  # fmt: skip
    chip_w = 156
    for i, suit in enumerate(order):
        cx = x0 + 20 + i * (chip_w + 20)
        last_suit = i == len(order) - 1
        color = pictures.LIGHT.suit(suit)  # the four-colour deck of the library's pictures
        if suit is SUNK:
            note = "sunk: counts as first"
        elif suit == cards[0].suit:
            note = "led"
        else:
            note = "Player 4 introduced it"
        fill, stroke, width = ("#fff8db", GOLD, 2.5) if last_suit else ("#ffffff", "#9aa5b1", 1.2)
        out.append(
            f'<rect x="{_n(cx)}" y="{_n(ly + 12)}" width="{chip_w}" height="46" rx="8" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
        )
        out.append(_text(cx + 18, ly + 42, suit.symbol, size=22, fill=color))
        out.append(_text(cx + 36, ly + 32, suit.name.lower(), size=12.5, weight="bold",
                         anchor="start"))  # fmt: skip
        out.append(_text(cx + 36, ly + 49, note, size=10.5, fill=MUTED, anchor="start"))
        if i:
            out.append(_arrow([(cx - 18, ly + 35), (cx - 3, ly + 35)]))
    best = cards[[seat for seat, _ in plays].index(winner)]
    out.append(
        _text(x0 + 20, ly + 86, f"Last suit introduced: {order[-1].name.lower()}.", size=12.5,
              weight="bold", anchor="start")
    )  # fmt: skip
    out.append(
        _text(x0 + 20, ly + 104, f"Its highest card, {best}, wins: Player {int(winner) + 1} "
              "takes the trick.", size=12.5, weight="bold", anchor="start")
    )  # fmt: skip
    return out


def trick_diagram() -> str:
    """The SVG of the rules text's first example of play, with both endings."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {TRICK_W} {TRICK_H}" '
        f'width="{TRICK_W}" height="{TRICK_H}" font-family="{FONT}" role="img" '
        'aria-labelledby="trick-title">',
        '<title id="trick-title">Resolving a trick with hearts sunk: the same first three '
        "cards, two different fourth cards</title>",
        "<defs>",
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker>',
        "</defs>",
        f'<rect x="1" y="1" width="{TRICK_W - 2}" height="{TRICK_H - 2}" rx="14" '
        'fill="#ffffff" stroke="#d5dbe1"/>',
        _text(20, 32, f"Hearts are sunk. Player 1 leads {Card.parse(LEAD[0])}, Player 2 plays "
              f"{Card.parse(LEAD[1])}, Player 3 plays {Card.parse(LEAD[2])}.", size=16,
              weight="bold", anchor="start"),
    ]  # fmt: skip
    for i, last in enumerate(ENDINGS):
        out += _panel(20 + i * (PANEL_W + 20), 50, last)
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the package's layers ------------------------------------------------------------------


def _layers_spec() -> ModuleType:
    """``tests/support/layers.py``: the layers the import test enforces."""
    path = Path(__file__).resolve().parents[2] / "tests" / "support" / "layers.py"
    spec = importlib.util.spec_from_file_location("deepsix_layers", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NamedTuple needs its module to be importable by name
    spec.loader.exec_module(module)
    return module


LAYER_W: Final = 1040
CHIP_H: Final = 26
CHIPS_PER_ROW: Final = 8


def _core_chips(order: Sequence[str | tuple[str, ...]]) -> list[tuple[str, int, int, int]]:
    """``(label, row, column, span)`` of each chip: one per rank of the core's order, a rank
    of side-by-side modules (the phases) one wide chip naming them all."""
    chips = []
    row = col = 0
    for rank, entry in enumerate(order, start=1):
        if isinstance(entry, str):
            label, span = f"{rank}. {entry.removeprefix('deepsix.')}", 1
        else:
            package = entry[0].removeprefix("deepsix.").rpartition(".")[0]
            names = ", ".join(name.rpartition(".")[2] for name in entry)
            label, span = f"{rank}. {package}.{{{names}}}", min(len(entry), CHIPS_PER_ROW)
        if col + span > CHIPS_PER_ROW:
            row, col = row + 1, 0
        chips.append((label, row, col, span))
        col += span
        if col == CHIPS_PER_ROW:
            row, col = row + 1, 0
    return chips


def layers_diagram() -> str:
    """The layers, top to bottom, with the core's modules in their import order."""
    spec = _layers_spec()
    layers = spec.LAYERS
    core = _core_chips(spec.CORE_ORDER)
    core_rows = core[-1][1] + 1
    upper_h = 84
    core_h = 56 + core_rows * (CHIP_H + 10)
    height = 70 + (len(layers) - 1) * (upper_h + 22) + core_h + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {LAYER_W} {height}" '
        f'width="{LAYER_W}" height="{height}" font-family="{FONT}" role="img" '
        'aria-labelledby="layers-title">',
        '<title id="layers-title">The layers of the deepsix package: each imports only the '
        "layers below it; the core's modules import only those before them</title>",
        "<defs>",
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker>',
        "</defs>",
        f'<rect x="1" y="1" width="{LAYER_W - 2}" height="{height - 2}" rx="14" '
        'fill="#ffffff" stroke="#d5dbe1"/>',
        _text(24, 34, "deepsix: who may import whom", size=17, weight="bold", anchor="start"),
        _text(LAYER_W - 24, 34, "an arrow points to what a layer may import", size=12,
              fill=MUTED, anchor="end"),
    ]  # fmt: skip
    y = 54.0
    x0, width = 70.0, LAYER_W - 94.0
    for index, layer in enumerate(layers):
        last = index == len(layers) - 1
        h = core_h if last else upper_h
        out.append(
            f'<rect x="{_n(x0)}" y="{_n(y)}" width="{_n(width)}" height="{_n(h)}" rx="10" '
            f'fill="{"#eef6fa" if last else "#f7f9fb"}" stroke="{ACCENT}" stroke-width="1.5"/>'
        )
        out.append(_text(x0 + 14, y + 22, layer.name, size=14, weight="bold", anchor="start"))
        out.append(_text(x0 + 14, y + 40, layer.purpose, size=11.5, fill=MUTED, anchor="start"))
        if not last:
            n = len(layer.packages)
            box_w = (width - 28 - 12 * (n - 1)) / n
            for i, package in enumerate(layer.packages):
                bx = x0 + 14 + i * (box_w + 12)
                out.append(
                    f'<rect x="{_n(bx)}" y="{_n(y + 50)}" width="{_n(box_w)}" height="24" '
                    f'rx="6" fill="#ffffff" stroke="{MUTED}"/>'
                )
                out.append(_text(bx + box_w / 2, y + 67, package, size=12.5, weight="bold"))
        else:
            chip_w = (width - 28 - 8 * (CHIPS_PER_ROW - 1)) / CHIPS_PER_ROW
            for label, row, col, span in core:
                cx = x0 + 14 + col * (chip_w + 8)
                cy = y + 52 + row * (CHIP_H + 10)
                out.append(
                    f'<rect x="{_n(cx)}" y="{_n(cy)}" width="{_n(span * chip_w + (span - 1) * 8)}" '
                    f'height="{CHIP_H}" rx="6" fill="#ffffff" stroke="{MUTED}"/>'
                )
                middle = cx + (span * chip_w + (span - 1) * 8) / 2
                out.append(_text(middle, cy + 17.5, label, size=11.5))
        if not last:
            out.append(_arrow([(40, y + h / 2), (40, y + h + 22 + 18)]))
        y += h + 22
    out.append(_text(24, height - 8, "Within the core, a module imports only modules with a "
                     "lower number (the phases share one); packages on one row never import "
                     "each other.", size=11.5,
                     fill=MUTED, anchor="start"))  # fmt: skip
    out.append("</svg>")
    return "\n".join(out) + "\n"


DIAGRAMS: Final = {
    "phases.svg": phase_diagram,
    "trick.svg": trick_diagram,
    "layers.svg": layers_diagram,
}
"""Each committed file and the function that draws it."""


def main(argv: Sequence[str]) -> int:
    """Write the SVGs, or with ``--check`` report any that differ from the committed ones."""
    check = "--check" in argv
    stale = []
    for name, draw in DIAGRAMS.items():
        path = STATIC / name
        svg = draw()
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                stale.append(name)
        else:
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"out of date: {', '.join(stale)} (run python docs/_scripts/make_diagrams.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
