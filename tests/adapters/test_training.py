"""The learning agent of issue 27: OpenSpiel's A2C trains through the adapter (a tiny budget).

These tests need PyTorch, which only ``nox -s rl`` installs (PyTorch's CPU
build: ``pip install torch==2.13.0``).  Elsewhere they are skipped with
the reason shown; ``nox -s rl`` sets ``DEEPSIX_REQUIRE_TORCH``, under which
a missing PyTorch is an error instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .examples import example
from .frameworks import require

if os.environ.get("DEEPSIX_REQUIRE_TORCH", "") in ("", "0"):
    pytest.importorskip("torch", reason="PyTorch is not installed: `nox -s rl` runs these tests")
require("pyspiel", "openspiel")


def test_a2c_trains_through_the_adapter_and_is_evaluated(tmp_path: Path) -> None:
    module = example("openspiel_policy_gradient")
    result = module.train(3.0, evaluate_every=1.0, evaluation_hands=4, heuristic_hands=2, seed=1)
    assert result.hands >= 1
    assert len(result.curve) >= 2
    assert result.curve[0][1] == 0  # the first evaluation is before any training
    assert result.curve[-1][0] >= 3.0
    assert all(0.0 <= rate <= 1.0 for _, _, rate in result.curve)
    assert 0.0 <= result.heuristic <= 1.0
    assert 0.0 <= result.random_baseline <= 1.0
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    module.draw(result, str(tmp_path / "curve.png"))
    assert (tmp_path / "curve.png").stat().st_size > 1000


def test_the_learners_weights_move() -> None:
    import torch

    module = example("openspiel_policy_gradient")
    torch.manual_seed(0)
    before = module.train(0.0, evaluation_hands=1, heuristic_hands=1)
    assert before.hands == 0
    _, env, scale = module.setup(seed=2)
    agents = module.make_agents(seed=2, env=env)
    learner = agents[0]
    start = [p.detach().clone() for p in learner._net_torso.parameters()]
    for _ in range(20):
        module.play(env, agents, scale, learn=True)
    after = list(learner._net_torso.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(start, after, strict=True))
