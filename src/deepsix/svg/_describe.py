"""The table picture in words: its title and the sentences of its description.

What a screen reader reads of :func:`deepsix.svg.table.table`'s picture
(its ``<title>`` and ``<desc>``), built from the same
:class:`~deepsix.svg._scene.Scene` as the drawing, so the words and the
picture cannot disagree.  :func:`describe` is public as
``deepsix.svg.table.describe``.
"""

from __future__ import annotations

from typing import Final

from deepsix.actions import Pass
from deepsix.cards import Seat
from deepsix.state import Phase
from deepsix.svg._cards import card_name, suit_name
from deepsix.svg._scene import Position, Scene, scene_of
from deepsix.svg.pictures import SEAT_NAMES, TEAM_NAMES, meld_label
from deepsix.tricks import winning_position

__all__ = ["PHASE_NAMES", "describe", "describe_scene", "title"]

PHASE_NAMES: Final = {
    Phase.DEAL: "the deal",
    Phase.BIDDING: "the auction",
    Phase.SUNK_SUIT: "naming the sunk suit",
    Phase.INVITATION: "the invitation",
    Phase.PARTNER_PASS: "the partner's pass",
    Phase.BIDDER_MELD: "the bidder's meld",
    Phase.BIDDER_PASS: "the bidder's pass",
    Phase.MELDING: "melding",
    Phase.PLAY: "play",
    Phase.GAME_OVER: "game over",
}


def describe(position: Position) -> list[str]:
    """The picture in words: the sentences of its ``<desc>`` (what a screen reader reads)."""
    return describe_scene(scene_of(position))


def describe_scene(scene: Scene) -> list[str]:  # noqa: PLR0912  # one sentence per part of the table
    lines = []
    perspective = (
        "every hand open"
        if scene.is_state
        else (
            "a spectator's view" if scene.viewer is None else f"{SEAT_NAMES[scene.viewer]}'s view"
        )
    )
    lines.append(f"Hand {scene.hand_number}, {PHASE_NAMES[scene.phase]}, {perspective}.")
    lines.append(f"Scores: {TEAM_NAMES[0]} {scene.scores[0]}, {TEAM_NAMES[1]} {scene.scores[1]}.")
    if scene.bids:
        calls = ", ".join(
            f"{SEAT_NAMES[c.seat]} {'passed' if isinstance(c, Pass) else f'bid {c.amount}'}"
            for c in scene.bids
        )
        lines.append(f"Auction: {calls}.")
    if scene.sunk_suit is not None:
        lines.append(f"Sunk suit: {suit_name(scene.sunk_suit)}.")
    if scene.invitation and scene.bidder is not None:
        shown = ", ".join(card_name(c) for c in scene.invitation)
        lines.append(f"{SEAT_NAMES[scene.bidder]} showed {shown}.")
    for seat in Seat:
        cards = scene.hands[seat]
        who = SEAT_NAMES[seat] + (" (you)" if scene.viewer == seat else "")
        if cards is None:
            lines.append(f"{who} holds {scene.hand_sizes[seat]} hidden cards.")
        elif cards:
            lines.append(f"{who} holds {', '.join(card_name(c) for c in cards)}.")
        else:
            lines.append(f"{who} holds no cards.")
        if scene.melds[seat]:
            declared = "; ".join(meld_label(m) for m in scene.melds[seat])
            lines.append(f"{SEAT_NAMES[seat]} declared {declared}.")
    if scene.bidder is not None and scene.phase in (Phase.PARTNER_PASS, Phase.BIDDER_PASS):
        first = scene.phase is Phase.PARTNER_PASS
        cards = scene.partner_pass if first else scene.bidder_pass
        giver = scene.bidder.partner if first else scene.bidder
        count = scene.pass_counts[0 if first else 1]
        what = f": {', '.join(card_name(c) for c in cards)}" if cards else ""
        lines.append(f"{SEAT_NAMES[giver]} has passed {count} cards face down{what}.")
    if scene.trick:
        position = winning_position([c for _, c in scene.trick], scene.sunk_suit)
        plays = ", ".join(
            f"{SEAT_NAMES[s]} {'led' if i == 0 else 'played'} {card_name(c)}"
            for i, (s, c) in enumerate(scene.trick)
        )
        lines.append(
            f"On the table: {plays}; {SEAT_NAMES[scene.trick[position][0]]} "
            + ("takes the trick." if len(scene.trick) == 4 else "is winning so far.")
        )
    elif scene.tricks and scene.phase is Phase.PLAY:
        last = scene.tricks[-1]
        lines.append(
            f"Last trick: {', '.join(f'{SEAT_NAMES[s]} {card_name(c)}' for s, c in last.plays)}; "
            f"{SEAT_NAMES[last.winner]} took it."
        )
    if scene.to_act is not None:
        legal = scene.legal_cards()
        if legal and scene.hands[scene.to_act] is not None:
            words = ", ".join(card_name(c) for c in legal)
            lines.append(f"{SEAT_NAMES[scene.to_act]} to act, and may choose {words}.")
        else:
            lines.append(f"{SEAT_NAMES[scene.to_act]} to act.")
    if scene.winner is not None:
        lines.append(f"{TEAM_NAMES[scene.winner]} won the game.")
    return lines


def title(scene: Scene) -> str:
    """The picture's title: the hand, the phase, who acts and whose view it is."""
    if scene.is_state:
        who = "all hands open"
    elif scene.viewer is None:
        who = "as a spectator sees it"
    else:
        who = f"as {SEAT_NAMES[scene.viewer]} sees it"
    act = f", {SEAT_NAMES[scene.to_act]} to act" if scene.to_act is not None else ""
    return f"Deep Six table, hand {scene.hand_number}, {PHASE_NAMES[scene.phase]}{act} ({who})"
