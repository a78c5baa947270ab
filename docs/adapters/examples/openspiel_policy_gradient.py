"""North-South learn Deep Six through the OpenSpiel adapter with OpenSpiel's own A2C (PyTorch).

OpenSpiel's ``rl_environment`` plays ``python_deep_six`` one hand at a
time, reading every player's information-state tensor at every step; its
PyTorch ``PolicyGradient`` agent (advantage actor-critic) learns for North
and for South, against random East and West.  The observations are scaled
to [0, 1] by the layout's bounds and the rewards (the hand's margin in
points) divided by 100 before the agents see them.  Every
``--evaluate-every`` seconds of training the policy plays a fixed set of
evaluation deals against random opponents (the win rate is the share of
hands North-South record fewer points than East-West; a tie counts half),
and at the end against the heuristic bot.

    pip install torch==2.13.0 "deepsix[openspiel]" matplotlib
    python docs/adapters/examples/openspiel_policy_gradient.py --seconds 600 --plot rl.png
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_agent, rl_environment
from open_spiel.python.pytorch import policy_gradient

import deepsix.adapters.openspiel  # noqa: F401  (registers python_deep_six)
from deepsix import RandomBot, view
from deepsix.adapters.observations import ObservationLayout
from deepsix.play.heuristic import HeuristicBot

LEARNERS = (0, 2)
REWARD_SCALE = 100.0


@dataclass
class Result:
    """What :func:`train` measured."""

    curve: list[tuple[float, int, float]] = field(default_factory=list)
    """(training CPU seconds, hands trained, win rate against random) at each evaluation."""
    random_baseline: float = 0.0
    """The win rate of random North-South against random East-West on the same deals."""
    heuristic: float = 0.0
    """The final policy's win rate against the heuristic bot."""
    heuristic_margin: float = 0.0
    """Its mean margin per hand against the heuristic bot (points; positive is better)."""
    hands: int = 0
    """Hands trained."""
    wall_seconds: float = 0.0
    """Wall-clock seconds of the whole run, evaluations included."""


class BotAgent(rl_agent.AbstractAgent):  # type: ignore[misc]  # OpenSpiel ships no types
    """A deepsix bot (``choose(view, rng)``) as an OpenSpiel RL agent."""

    def __init__(self, player_id: int, bot: Any, env: rl_environment.Environment, seed: int):
        self.player_id = player_id
        self.bot = bot
        self._env = env
        self._rng = random.Random(seed)

    def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
        if time_step.last():
            return None
        state = self._env.get_state
        action = self.bot.choose(view(state.engine_state, self.player_id), self._rng)
        return rl_agent.StepOutput(action=state.get_game().config.codec.encode(action), probs=[])


def scaled(time_step: Any, scale: np.ndarray) -> Any:
    """The time step as the learners see it: observations in [0, 1], rewards / 100."""
    observations = dict(time_step.observations)
    observations["info_state"] = [
        np.asarray(tensor, dtype=np.float32) * scale
        for tensor in time_step.observations["info_state"]
    ]
    rewards = time_step.rewards
    if rewards is not None:
        rewards = [reward / REWARD_SCALE for reward in rewards]
    return time_step._replace(observations=observations, rewards=rewards)


def play(env: Any, agents: list[Any], scale: np.ndarray, *, learn: bool) -> float:
    """One hand; returns North-South's margin."""
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        output = agents[player].step(scaled(time_step, scale), is_evaluation=not learn)
        time_step = env.step([output.action])
    if learn:
        for player in LEARNERS:
            agents[player].step(scaled(time_step, scale))
    return float(time_step.rewards[0])


def win_rate(margins: list[float]) -> float:
    """Share of hands won (a tie counts half)."""
    return sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins) / len(margins)


def evaluate(
    game: Any, agents: list[Any], scale: np.ndarray, *, opponent: str, hands: int, seed: int
) -> list[float]:
    """North-South margins over ``hands`` fixed deals (the same deals for every call)."""
    env = rl_environment.Environment(game, chance_event_sampler=_Sampler(seed))
    bot = HeuristicBot() if opponent == "heuristic" else RandomBot()
    players = [
        BotAgent(seat, agent.bot, env, seed + seat) if isinstance(agent, BotAgent) else agent
        for seat, agent in enumerate(agents)
    ]
    for seat in (1, 3):
        players[seat] = BotAgent(seat, bot, env, seed + seat)
    return [play(env, players, scale, learn=False) for _ in range(hands)]


class _Sampler:
    """Chance outcomes drawn from a seeded generator (so evaluation deals repeat)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def __call__(self, state: Any) -> int:
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        return int(self._rng.choices(outcomes, probabilities)[0])


def setup(seed: int) -> tuple[Any, Any, np.ndarray]:
    """The game, a training environment dealing from ``seed``, and the observation scale."""
    game = pyspiel.load_game("python_deep_six")
    layout = ObservationLayout.build(game.config.rules)
    scale = (1.0 / layout.high).astype(np.float32)
    env = rl_environment.Environment(game, chance_event_sampler=_Sampler(seed + 1))
    return game, env, scale


def make_agents(seed: int, env: Any = None) -> list[Any]:
    """A2C learners for North and South, random players for East and West."""
    if env is None:
        env = setup(seed)[1]
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents: list[Any] = [None] * 4
    for player in LEARNERS:
        agents[player] = policy_gradient.PolicyGradient(
            player,
            size,
            actions,
            loss_str="a2c",
            hidden_layers_sizes=(128,),
            batch_size=64,
            critic_learning_rate=0.01,
            pi_learning_rate=0.003,
            entropy_cost=0.01,
            num_critic_before_pi=4,
            optimizer_str="adam",
        )
    for player in (1, 3):
        agents[player] = BotAgent(player, RandomBot(), env, seed + player)
    return agents


def train(
    seconds: float = 600.0,
    *,
    evaluate_every: float = 30.0,
    evaluation_hands: int = 300,
    heuristic_hands: int = 200,
    seed: int = 0,
    threads: int = 1,
) -> Result:
    """Train North-South for ``seconds`` of training time (evaluations excluded).

    Training time is this process's CPU time (PyTorch on one thread): on a shared
    machine the wall clock would count the time spent waiting for a core.
    """
    wall = time.perf_counter()
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    game, env, scale = setup(seed)
    agents = make_agents(seed, env)
    result = Result()
    random_players = [BotAgent(p, RandomBot(), env, seed + 10 + p) for p in range(4)]
    baseline = evaluate(
        game, random_players, scale, opponent="random", hands=evaluation_hands, seed=seed + 1000
    )
    result.random_baseline = win_rate(baseline)
    trained = 0.0
    next_evaluation = 0.0
    while True:
        if trained >= next_evaluation or trained >= seconds:
            margins = evaluate(
                game, agents, scale, opponent="random", hands=evaluation_hands, seed=seed + 1000
            )
            result.curve.append((trained, result.hands, win_rate(margins)))
            next_evaluation += evaluate_every
            if trained >= seconds:
                break
        start = time.process_time()
        play(env, agents, scale, learn=True)
        trained += time.process_time() - start
        result.hands += 1
    margins = evaluate(
        game, agents, scale, opponent="heuristic", hands=heuristic_hands, seed=seed + 2000
    )
    result.heuristic = win_rate(margins)
    result.heuristic_margin = float(np.mean(margins))
    result.wall_seconds = time.perf_counter() - wall
    return result


def draw(result: Result, path: str) -> None:
    """Win rate against training time, with the random baseline and the heuristic result."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    minutes = [t / 60 for t, _, _ in result.curve]
    axes.plot(minutes, [w for _, _, w in result.curve], marker="o", label="A2C vs random")
    axes.axhline(result.random_baseline, color="grey", linestyle="--", label="random vs random")
    axes.axhline(result.heuristic, color="tab:red", linestyle=":", label="A2C vs heuristic (end)")
    axes.set_xlabel("training time (CPU minutes, one thread)")
    axes.set_ylabel("hands won by North-South")
    axes.set_ylim(0, 1)
    axes.set_title(f"Deep Six through OpenSpiel: A2C, {result.hands:,} hands")
    axes.legend(loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--evaluate-every", type=float, default=30.0)
    parser.add_argument("--evaluation-hands", type=int, default=300)
    parser.add_argument("--heuristic-hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", default="")
    args = parser.parse_args()
    result = train(
        args.seconds,
        evaluate_every=args.evaluate_every,
        evaluation_hands=args.evaluation_hands,
        heuristic_hands=args.heuristic_hands,
        seed=args.seed,
    )
    print(f"random vs random: North-South win {result.random_baseline:.1%} of hands")
    for seconds, hands, rate in result.curve:
        print(f"  {seconds:7.0f} s  {hands:7,} hands  win rate vs random {rate:.1%}")
    print(
        f"against the heuristic bot: {result.heuristic:.1%} of hands, "
        f"{result.heuristic_margin:+.1f} points a hand"
    )
    print(f"wall-clock time of the run, evaluations included: {result.wall_seconds:.0f} s")
    if args.plot:
        draw(result, args.plot)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
