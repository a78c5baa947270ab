"""The search bot's choices among candidates: which one to take from their costs deal by
deal, and which actions are worth comparing (:class:`deepsix.search.bot.SearchBot`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from deepsix.actions import Action, Bid, Pass, PlayCard
from deepsix.cards import Card
from deepsix.views import PlayerView

__all__ = ["auction_candidates", "cheapest", "distinct", "distinct_cards", "lowest", "significant"]


def lowest(costs: Sequence[float]) -> int:
    """The index of the lowest cost; ties go to the first."""
    best = 0
    for index in range(1, len(costs)):
        if costs[index] < costs[best] - 1e-9:
            best = index
    return best


def significant(costs: Sequence[Sequence[float]], confidence: float) -> int:
    """The index of the candidate to take, given each candidate's costs deal by deal.

    Candidate 0 is the heuristic's own choice.  The candidate with the lowest
    mean cost is taken if its mean advantage over candidate 0, paired deal by
    deal, exceeds ``confidence`` standard errors of that mean; otherwise
    candidate 0.  (Ties go to the earliest candidate.)
    """
    deals = len(costs[0])
    best = lowest([sum(row) for row in costs])
    if best == 0 or not confidence:
        return best
    if deals < 2:
        return 0
    gains = [costs[0][k] - costs[best][k] for k in range(deals)]
    mean = sum(gains) / deals
    variance = sum((gain - mean) ** 2 for gain in gains) / (deals - 1)
    return best if mean > confidence * math.sqrt(variance / deals) + 1e-6 else 0


def cheapest(costs: Sequence[tuple[float, Card]]) -> Card:
    """The heuristic's card: the first with the lowest cost (as the heuristic plays)."""
    return costs[lowest([cost for cost, _ in costs])][1]


def distinct_cards(view_: PlayerView) -> list[Card]:
    """The seat's legal cards, each once (the two copies of a card play alike)."""
    cards: list[Card] = []
    for action in view_.legal_actions:
        if isinstance(action, PlayCard) and action.card not in cards:
            cards.append(action.card)
    return cards


def distinct(actions: Sequence[Action]) -> list[Action]:
    """``actions`` without repeats, in order."""
    seen: list[Action] = []
    for action in actions:
        if action not in seen:
            seen.append(action)
    return seen


def auction_candidates(view_: PlayerView, fallback: Action) -> list[Action]:
    """The calls worth comparing: the heuristic's, passing, and the highest bid open."""
    legal = view_.legal_actions
    calls: list[Action] = [fallback]
    passing = next((action for action in legal if isinstance(action, Pass)), None)
    if passing is not None:
        calls.append(passing)
    bids = [action for action in legal if isinstance(action, Bid)]
    if bids:
        calls.append(bids[0])
    return calls
