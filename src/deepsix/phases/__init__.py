"""The rules of a hand, one module per phase, in the order they are played.

* :mod:`deepsix.phases.deal` -- the deal, chance's step (R-DEAL-*);
* :mod:`deepsix.phases.auction` -- the bidding (R-BID-*);
* :mod:`deepsix.phases.contract` -- the sunk suit and the invitation (R-SUNK-1, R-INVITE-*);
* :mod:`deepsix.phases.passing` -- the partner's pass and the bidder's pass (R-PASS-*);
* :mod:`deepsix.phases.melding` -- the bidder's melds, then the others' (R-MELD-3 to R-MELD-5);
* :mod:`deepsix.phases.play` -- the fourteen tricks and the hand's score (R-PLAY-*, R-SCORE-*,
  R-END-*).

Every phase module exports the same four things, side by side:

* ``KINDS`` -- the kinds of action each of its phases takes;
* ``legal(state)`` -- the legal actions, in a fixed order;
* ``refusal(state, action)`` -- why a move of the right kind, by the seat
  to act, is refused: a :class:`~deepsix.errors.Reason` and the particulars;
* ``step(state, action)`` -- the state after a legal action.

The phase modules do not import each other.  :mod:`deepsix.engine`
dispatches to them (caching each state's legal list); the generic
refusals -- not an action, not now, not your turn -- are
:mod:`deepsix.diagnosis`.  What the phases share is below them: the
card-action tables (:mod:`deepsix.legal`), the successor state
(:func:`deepsix.state.successor`), and the rule algebra the solver shares
(:mod:`deepsix.melds`, :mod:`deepsix.tricks`, :mod:`deepsix.scoring`,
:mod:`deepsix.hands`).
"""
