"""Which passed cards a seat sees: the one rule that every seat's-eye reading follows.

The partners' passes are face down (R-PASS-1, R-PASS-2).  A seat sees the cards
*it* passes as it passes them, and the cards passed *to* it once the whole pass
has arrived (they join its hand together); nobody else sees either pass, only
how many cards went each way.  In a hidden-card game this is the security
boundary of the web table and the correctness boundary of the learning
environments, so it is written once, here: :func:`deepsix.view`, the adapters'
observations and the pictures all read it (``tests/test_visibility.py`` plants
a leak in it and watches every consumer's check fail).
"""

from __future__ import annotations

from deepsix.cards import Card
from deepsix.handsetup import HandSetup

__all__ = ["passes_seen", "received_pass"]


def received_pass(setup: HandSetup, seat: int, pass_size: int) -> tuple[Card, ...]:
    """The pass ``seat`` has received, once all ``pass_size`` cards of it have arrived."""
    bidder = setup.bidder
    if bidder is None:
        return ()
    if seat == bidder:
        pass_in = setup.partner_pass
    elif seat == (bidder + 2) & 3:
        pass_in = setup.bidder_pass
    else:
        return ()
    return pass_in if len(pass_in) == pass_size else ()


def passes_seen(
    setup: HandSetup, seat: int, pass_size: int
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """What ``seat`` sees of the passes: the cards it passed and the cards it received."""
    bidder = setup.bidder
    if bidder is None:
        return (), ()
    if seat == bidder:
        passed = setup.bidder_pass
    elif seat == (bidder + 2) & 3:
        passed = setup.partner_pass
    else:
        return (), ()
    return passed, received_pass(setup, seat, pass_size)
