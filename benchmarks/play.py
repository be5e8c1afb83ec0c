"""Random play speed: hands per second and actions per second, the median of several runs; on demand:

    .venv/bin/python benchmarks/play.py [--hands N] [--repeat R] [--rules NAME ...] [--bot]

Each run plays N seeded hands per preset, choosing uniformly among ``legal_actions`` (the loop of OpenSpiel's
random simulation) and applying the choice. ``--bot`` goes through the ``random`` bot with an observation per
move (what ``canasta-tutor play`` does), which costs more. The machine is shared and noisy: medians, and no
assertion. Issue 9 quotes the public peer engine at 104 hands/s and 18.7 k actions/s on this machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots import get_bot  # noqa: E402
from canasta_tutor.engine.rules import PRESETS  # noqa: E402
from canasta_tutor.game import Game, apply, legal_actions, observation  # noqa: E402


def one_run(name: str, hands: int, *, bot: bool) -> tuple[float, int]:
    game = Game(name)
    chooser = get_bot("random") if bot else None
    actions = 0
    start = time.perf_counter()
    for seed in range(hands):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            acts = legal_actions(state)
            if chooser is None:
                action = acts[rng.randrange(len(acts))]
            else:
                action, _why = chooser.choose(observation(state), acts, rng)
            apply(state, action)
            actions += 1
    return time.perf_counter() - start, actions


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40, help="hands per run and preset (default 40)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per preset; the median is shown (default 3)")
    parser.add_argument("--rules", nargs="*", default=list(PRESETS), help="presets (default: all)")
    parser.add_argument("--bot", action="store_true", help="choose through the random bot and observations")
    args = parser.parse_args(argv)
    print(f"{'preset':12} {'hands/s':>9} {'actions/s':>11} {'actions/hand':>13}")
    all_hands, all_actions = [], []
    for name in args.rules:
        runs = [one_run(name, args.hands, bot=args.bot) for _ in range(args.repeat)]
        hps = statistics.median(args.hands / t for t, _n in runs)
        aps = statistics.median(n / t for t, n in runs)
        all_hands.append(hps)
        all_actions.append(aps)
        print(f"{name:12} {hps:9.1f} {aps:11,.0f} {runs[0][1] / args.hands:13.1f}")
    print(f"{'median':12} {statistics.median(all_hands):9.1f} {statistics.median(all_actions):11,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
