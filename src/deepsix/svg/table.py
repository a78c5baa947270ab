"""The whole table: four seats, the cards on the felt, the auction, the melds and the scores.

Drawn from a :class:`~deepsix.GameState` (every hand open) or a
:class:`~deepsix.PlayerView` (that seat's own cards; every other hand as
card backs).  Both go through one :class:`~deepsix.svg._scene.Scene`, built
from the view's fields alone, so a picture of a view cannot show a card the
view does not hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deepsix.actions import Bid, Pass
from deepsix.cards import Card, Seat
from deepsix.display import plural
from deepsix.melds import Meld
from deepsix.scoring import card_points
from deepsix.state import Phase
from deepsix.svg._canvas import Canvas, Svg, text_width
from deepsix.svg._cards import (
    CARD_RATIO,
    Mark,
    draw_back,
    draw_card,
    draw_pip,
    draw_suit_badge,
    mark_cards,
    suit_name,
)
from deepsix.svg._describe import PHASE_NAMES, describe, describe_scene, title
from deepsix.svg._scene import Position, Scene, scene_of
from deepsix.svg.pictures import SEAT_NAMES, TEAM_NAMES, check_seat, meld_label
from deepsix.svg.theme import Theme, theme_named
from deepsix.tricks import trick_points, winning_position

__all__ = ["describe", "table"]

WIDTH: Final = 1000.0
HEIGHT: Final = 760.0
FELT: Final = (338.0, 226.0, 324.0, 334.0)
"""The felt in the middle: x, y, width, height."""
PANELS: Final = (
    (170.0, 574.0, 660.0, 178.0),  # the bottom seat (the viewer's)
    (10.0, 226.0, 318.0, 334.0),  # on its left
    (170.0, 60.0, 660.0, 158.0),  # across
    (672.0, 226.0, 318.0, 334.0),  # on its right
)
"""Each seat's panel by its place relative to the bottom seat: x, y, width, height."""
CARD_WIDTHS: Final = (56.0, 48.0, 48.0, 48.0)
SLOT_CARD: Final = 54.0

_BEFORE_PLAY: Final = (Phase.INVITATION, Phase.PARTNER_PASS, Phase.BIDDER_MELD)
_AFTER_PASSES: Final = (Phase.BIDDER_MELD, Phase.BIDDER_PASS, Phase.MELDING)


def _slot(place: int) -> tuple[float, float]:
    """The top-left corner of the card (or call) of the seat at ``place`` on the felt."""
    fx, fy, fw, fh = FELT
    height = SLOT_CARD * CARD_RATIO
    centre_x = fx + fw / 2 - SLOT_CARD / 2
    middle_y = fy + fh / 2 - height / 2
    return (
        (centre_x, fy + fh - 14 - height),
        (fx + 14, middle_y),
        (centre_x, fy + 14),
        (fx + fw - 14 - SLOT_CARD, middle_y),
    )[place]


class _Table:
    """One table picture being drawn."""

    def __init__(self, scene: Scene, bottom: Seat, canvas: Canvas) -> None:
        self.scene = scene
        self.bottom = bottom
        self.canvas = canvas
        self.theme = canvas.theme

    def place(self, seat: Seat) -> int:
        return (seat - self.bottom) % 4

    # -- the header ---------------------------------------------------------------------
    def header(self) -> None:
        scene, canvas, theme = self.scene, self.canvas, self.theme
        head = f"Hand {scene.hand_number} · {PHASE_NAMES[scene.phase]}"
        if scene.phase is Phase.PLAY:
            head += f" · trick {min(len(scene.tricks) + 1, 14)}"
        if scene.phase is Phase.GAME_OVER:
            head = f"Game over after {plural(len(scene.completed_hands), 'hand')}"
            if scene.winner is not None:
                head += f" · {TEAM_NAMES[scene.winner]} win {scene.scores[0]}–{scene.scores[1]}"
        canvas.text(16, 28, head, size=19, bold=True)
        right = WIDTH - 16
        for team in (1, 0):
            text = f"{TEAM_NAMES[team]} {scene.scores[team]}"
            width = text_width(text, 15, bold=True) + 16
            canvas.rect(
                right - width, 10, width, 26, fill=theme.panel, stroke=theme.line, radius=13
            )
            canvas.text(right - width / 2, 28, text, size=15, bold=True, anchor="middle")
            right -= width + 8
        x = 16.0
        y = 50.0
        if scene.sunk_suit is not None:
            canvas.text(x, y, "Sunk:", size=14, fill=theme.muted)
            x += 46
            draw_suit_badge(canvas, x, y - 13, 15, scene.sunk_suit)
            x += 23
            canvas.text(x, y, suit_name(scene.sunk_suit), size=14, bold=True)
            x += text_width(suit_name(scene.sunk_suit), 14, bold=True) + 14
        parts = []
        if scene.bidder is not None and scene.bid is not None:
            word = "contract" if scene.phase not in (Phase.BIDDING,) else "high bid"
            parts.append(f"{word}: {SEAT_NAMES[scene.bidder]} {scene.bid}")
        parts.append(f"dealer: {SEAT_NAMES[scene.dealer]}")
        canvas.text(x, y, " · ".join(parts), size=14, fill=theme.muted)
        if scene.phase is Phase.PLAY or (scene.phase is Phase.GAME_OVER and scene.tricks):
            taken = [0, 0]
            for done in scene.tricks:
                taken[done.winner.team] += 1
            points = card_points(scene.tricks)  # the last trick's bonus too, as the record
            canvas.text(
                WIDTH - 16,
                y,
                f"tricks {taken[0]}–{taken[1]} · card points {points[0]}–{points[1]}",
                size=14,
                fill=theme.muted,
                anchor="end",
            )

    # -- the seats ------------------------------------------------------------------------
    def seat_panel(self, seat: Seat) -> None:
        scene, canvas, theme = self.scene, self.canvas, self.theme
        place = self.place(seat)
        px, py, pw, ph = PANELS[place]
        acting = scene.to_act == seat
        canvas.rect(
            px,
            py,
            pw,
            ph,
            fill=theme.panel,
            stroke=theme.accent if acting else theme.line,
            stroke_width=3 if acting else 1,
            radius=10,
        )
        name = SEAT_NAMES[seat] + (" (you)" if scene.viewer == seat else "")
        canvas.text(px + 12, py + 22, name, size=17, bold=True)
        over = scene.phase is Phase.GAME_OVER
        info = (
            [TEAM_NAMES[seat.team]]
            if over
            else [TEAM_NAMES[seat.team], f"{scene.hand_sizes[seat]} cards"]
        )
        if scene.melds[seat] and not over:
            value = sum(m.value for m in scene.melds[seat])
            info.append(f"meld {value}".replace("-", "−"))
        canvas.text(px + 12, py + 41, " · ".join(info), size=13, fill=theme.muted)
        badges = []
        if acting:
            badges.append(("to act", theme.accent))
        if seat == scene.dealer:
            badges.append(("dealer", theme.muted))
        if seat == scene.bidder and scene.phase is not Phase.BIDDING and scene.bid is not None:
            badges.append((f"bid {scene.bid}", theme.ink))
        right = px + pw - 10
        for text, colour in badges:
            width = text_width(text, 13, bold=True) + 14
            canvas.rect(right - width, py + 7, width, 22, fill="none", stroke=colour, radius=11)
            canvas.text(
                right - width / 2, py + 22, text, size=13, bold=True, fill=colour, anchor="middle"
            )
            right -= width + 6
        width = CARD_WIDTHS[place]
        top = py + 58
        if over:
            return
        self.hand_row(seat, px + 12, top, pw - 24, width)
        chips_y = top + width * CARD_RATIO + 10
        self.meld_chips(scene.melds[seat], px + 12, chips_y, pw - 24)

    def hand_row(self, seat: Seat, x: float, y: float, room: float, width: float) -> None:
        scene, canvas = self.scene, self.canvas
        cards = scene.hands[seat]
        count = scene.hand_sizes[seat] if cards is None else len(cards)
        if count == 0:
            return
        step = width + 4 if count == 1 else min(width + 4, (room - width) / (count - 1))
        if cards is None:
            for i in range(count):
                draw_back(
                    canvas,
                    x + i * step,
                    y,
                    width,
                    title=f"{SEAT_NAMES[seat]}'s card, hidden" if i == 0 else "",
                )
            return
        legal: list[Card] = []
        if scene.to_act == seat:
            legal = list(scene.legal_cards())
            if set(legal) >= set(cards):
                legal = []  # every card may go: nothing to set apart
        shown = (
            list(scene.invitation) if seat == scene.bidder and scene.phase in _BEFORE_PLAY else []
        )
        received = list(scene.received[seat]) if scene.phase in _AFTER_PASSES else []
        marks = mark_cards(cards, legal=legal, shown=shown, received=received)
        for i, (face, (mark, note)) in enumerate(zip(cards, marks, strict=True)):
            draw_card(canvas, x + i * step, y, width, face, mark=mark, note=note)

    def meld_chips(self, melds: Sequence[Meld], x: float, y: float, room: float) -> None:
        canvas, theme = self.canvas, self.theme
        left = x
        for item in melds:
            text = f"{item.kind.label} {item.value}".replace("-", "−")
            width = text_width(text, 12) + (30 if item.suit is not None else 14)
            if left + width > x + room and left > x:
                left, y = x, y + 26
            canvas.open_group(meld_label(item))
            canvas.rect(left, y, width, 22, fill=theme.card_face, stroke=theme.accent, radius=6)
            tx = left + 7
            if item.suit is not None:
                draw_pip(canvas, tx, y + 4, 14, item.suit, theme.suit(item.suit))
                tx += 17
            canvas.text(tx, y + 15.5, text, size=12, fill=theme.face_ink)
            canvas.close_group()
            left += width + 6

    # -- the felt --------------------------------------------------------------------------
    def felt(self) -> None:
        scene, canvas, theme = self.scene, self.canvas, self.theme
        fx, fy, fw, fh = FELT
        canvas.rect(fx, fy, fw, fh, fill=theme.felt, radius=18)
        phase = scene.phase
        if phase is Phase.BIDDING:
            self.auction()
        elif phase is Phase.PLAY:
            self.play()
        elif phase in (Phase.PARTNER_PASS, Phase.BIDDER_PASS):
            self.passes()
        elif phase in (Phase.INVITATION, Phase.BIDDER_MELD):
            self.invitation()
        elif phase is Phase.GAME_OVER and scene.tricks:
            self.play()  # the last trick; the header says who won, the pills the score
        elif phase is Phase.GAME_OVER:
            winner = scene.winner
            self.centre_lines(
                [
                    f"{TEAM_NAMES[winner]} win" if winner is not None else "Game over",
                    f"{scene.scores[0]} to {scene.scores[1]}",
                ],
                big=True,
            )
            if scene.completed_hands:
                last = scene.completed_hands[-1]
                verdict = "made it" if last.made else "failed"
                self.centre_lines(
                    [
                        f"Last hand: {SEAT_NAMES[last.bidder]} bid {last.bid}",
                        f"and {verdict};",
                        f"scored {last.scores[0]} to {last.scores[1]}",
                    ],
                    y=FELT[1] + FELT[3] - 80,
                )
        elif phase is Phase.DEAL:
            self.centre_lines([f"Hand {scene.hand_number}", "the cards are dealt"])
        elif phase is Phase.SUNK_SUIT and scene.bidder is not None:
            self.centre_lines(
                [
                    f"{SEAT_NAMES[scene.bidder]} won",
                    f"the auction at {scene.bid}",
                    "and names the sunk suit",
                ],
            )
        elif phase is Phase.MELDING and scene.to_act is not None:
            self.centre_lines(["Melding", f"{SEAT_NAMES[scene.to_act]} declares"])

    def centre_lines(
        self, lines: Sequence[str], *, big: bool = False, y: float | None = None
    ) -> None:
        fx, fy, fw, fh = FELT
        size = 22.0 if big else 16.0
        top = (fy + fh / 2 - (len(lines) - 1) * size * 0.7) if y is None else y
        for i, line in enumerate(lines):
            self.canvas.text(
                fx + fw / 2,
                top + i * size * 1.4 + size / 3,
                line,
                size=size,
                bold=big or i == 0,
                anchor="middle",
                fill=self.theme.felt_ink,
            )

    def auction(self) -> None:
        scene, canvas, theme = self.scene, self.canvas, self.theme
        last: dict[Seat, Bid | Pass] = {}
        for made in scene.bids:
            last[made.seat] = made
        for seat in Seat:
            call = last.get(seat)
            waiting = seat == scene.to_act
            if call is None and not waiting:
                continue
            x, y = _slot(self.place(seat))
            cx = x + SLOT_CARD / 2
            cy = y + SLOT_CARD * CARD_RATIO / 2
            if waiting:
                fill, stroke, ink, text = theme.felt, theme.accent, theme.felt_ink, "…"
            elif isinstance(call, Bid):
                fill, stroke, ink, text = (
                    theme.card_face,
                    theme.felt_ink,
                    theme.ink,
                    str(call.amount),
                )
            else:
                fill, stroke, ink, text = theme.felt, theme.felt_ink, theme.felt_ink, "pass"
            label = f"{SEAT_NAMES[seat]}: " + ("to call" if waiting else text)
            canvas.open_group(label)
            canvas.rect(
                cx - 33,
                cy - 18,
                66,
                36,
                fill=fill,
                stroke=stroke,
                radius=18,
                stroke_width=2.5 if waiting else 1.5,
            )
            canvas.text(cx, cy + 6, text, size=17, bold=True, anchor="middle", fill=ink)
            canvas.close_group()
        lines = ["Auction"]
        if scene.bidder is not None and scene.bid is not None:
            lines.append(f"high bid: {SEAT_NAMES[scene.bidder]} {scene.bid}")
        else:
            lines.append("no bid yet")
        if scene.to_act is not None:
            lines.append(f"{SEAT_NAMES[scene.to_act]} to call")
        self.centre_lines(lines)

    def play(self) -> None:
        scene, canvas, theme = self.scene, self.canvas, self.theme
        plays = scene.trick
        faded = False
        if not plays and scene.tricks:
            plays = scene.tricks[-1].plays
            faded = True
        if not plays:
            leader = scene.to_act
            self.centre_lines(["First trick", f"{SEAT_NAMES[leader]} leads" if leader else ""])
            return
        position = winning_position([c for _, c in plays], scene.sunk_suit)
        winner = plays[position][0]
        complete = len(plays) == 4
        for order, (seat, face) in enumerate(plays):
            x, y = _slot(self.place(seat))
            mark: Mark | None
            if faded:
                mark = Mark.FADED
                note = "last trick" + (", took it" if seat == winner else "")
            else:
                mark = Mark.WINNER if seat == winner else None
                note = ("takes the trick" if complete else "winning so far") if mark else ""
            draw_card(
                canvas,
                x,
                y,
                SLOT_CARD,
                face,
                mark=mark,
                note=f"{SEAT_NAMES[seat]}, "
                f"{'led' if order == 0 else 'played ' + str(order + 1) + _th(order + 1)}"
                + (f", {note}" if note else ""),
            )
            bx, by = x + SLOT_CARD - 2, y + 2
            canvas.rect(bx - 9, by - 9, 18, 18, fill=theme.felt_ink, radius=9)
            canvas.text(
                bx, by + 4.5, str(order + 1), size=12, bold=True, anchor="middle", fill=theme.felt
            )
        points = trick_points([c for _, c in plays])
        if faded:
            lines = [f"Last trick: {SEAT_NAMES[winner]}", f"took {points} points"]
            if scene.to_act is not None:
                lines.append(f"{SEAT_NAMES[scene.to_act]} leads")
        elif complete:
            lines = [f"{SEAT_NAMES[winner]} takes it", f"{points} points"]
        else:
            lines = [f"{SEAT_NAMES[winner]} winning", f"{points} points so far"]
        self.centre_lines(lines)

    def passes(self) -> None:
        scene = self.scene
        bidder = scene.bidder
        if bidder is None:
            return
        first = scene.phase is Phase.PARTNER_PASS
        giver, taker = (bidder.partner, bidder) if first else (bidder, bidder.partner)
        cards = scene.partner_pass if first else scene.bidder_pass
        count = scene.pass_counts[0 if first else 1]
        fy, fh = FELT[1], FELT[3]
        if first and scene.invitation:
            self.centre_lines([f"{SEAT_NAMES[bidder]}'s invitation"], y=fy + 34)
            self.card_row(list(scene.invitation), "shown in the invitation", fy + 50, 34.0)
        self.centre_lines(
            [
                f"{SEAT_NAMES[giver]} passes to {SEAT_NAMES[taker]}",
                f"{count} of {scene.rules.pass_size}, face down",
            ],
            y=fy + fh / 2 + 24,
        )
        faces = list(cards) if cards is not None else [None] * count
        self.card_row(faces, "passed, face down", fy + fh / 2 + 64, 46.0)

    def invitation(self) -> None:
        scene = self.scene
        bidder = scene.bidder
        if bidder is None:
            return
        fy = FELT[1]
        if scene.phase is Phase.BIDDER_MELD:
            lines = [f"{SEAT_NAMES[bidder]} melds from", f"{scene.hand_sizes[bidder]} cards"]
        else:
            lines = [f"{SEAT_NAMES[bidder]}'s invitation"]
            if not scene.invitation:
                lines.append("nothing shown yet")
        self.centre_lines(lines, y=fy + 60)
        self.card_row(list(scene.invitation), "shown in the invitation", fy + 130, 46.0)

    def card_row(self, cards: Sequence[Card | None], note: str, y: float, width: float) -> None:
        """A row of cards centred on the felt, their tops at ``y``."""
        if not cards:
            return
        fx, _, fw, _ = FELT
        step = min(width + 6, (fw - 32 - width) / max(1, len(cards) - 1))
        total = (len(cards) - 1) * step + width
        x = fx + fw / 2 - total / 2
        for i, face in enumerate(cards):
            if face is None:
                draw_back(self.canvas, x + i * step, y, width, title=f"a card {note}")
            else:
                draw_card(self.canvas, x + i * step, y, width, face, note=note)


def _th(number: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(number, "th")


def table(
    position: Position,
    *,
    seat: Seat | str | int | None = None,
    size: int | None = None,
    theme: Theme | str = "light",
) -> Svg:
    """The table of ``position``: a :class:`~deepsix.GameState` or a :class:`~deepsix.PlayerView`.

    A state shows every hand; a view shows its own seat's cards and the
    other hands as card backs (a spectator's view shows only backs), so a
    picture of a view never shows what that seat may not see.  ``seat`` is
    the seat drawn at the bottom (default: the view's seat, else South).
    ``size`` is the width in pixels (the height follows); ``theme`` is
    ``"light"``, ``"dark"`` or a :class:`~deepsix.svg.theme.Theme`.  The picture
    is titled for what it shows, and its description lists every card in
    words, for screen readers.
    """
    look = theme_named(theme)
    scene = scene_of(position)
    if seat is None:
        bottom = scene.viewer if scene.viewer is not None else Seat.SOUTH
    else:
        bottom = check_seat(seat)
    canvas = Canvas(
        WIDTH,
        HEIGHT,
        look,
        title=title(scene),
        description=describe_scene(scene),
        size=size,
        kind="table",
    )
    drawing = _Table(scene, bottom, canvas)
    drawing.header()
    drawing.felt()
    for each in Seat:
        drawing.seat_panel(each)
    return canvas.render()
