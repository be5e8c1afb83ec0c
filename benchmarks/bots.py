"""Bots against each other: win rates over seeded games (on demand, not a test).

    python benchmarks/bots.py                       # beginner vs random and club vs beginner, 400 games each
    python benchmarks/bots.py --games 40 --pairs club:beginner --rules classic-2p

A game is played to the preset's target score (5000 in classic), hand after hand. One bot kind holds every
seat of team 1, the other every seat of team 2; which side deals and starts alternates with the seed, so neither
kind gets the first turn more often. With three teams (classic-3p: each player alone) the first bot holds one seat
(which one turns with the seed) against two of the second, and wins when its total is the highest (a chance
player would win a third of the games). A tie (equal totals) counts as half a win. The goals (issue 9): beginner
beats random in at least 90 % of games, club beats beginner in at least 60 %. The 95 % interval is Wilson's.
A game that runs past --max-hands hands is stopped and scored on the totals (reported).

Measured on 2026-11-30 (machine shared with other engineers' runs), club beats beginner:

    preset       games  wins    rate    95 % interval   s/game
    classic        400  267    66.8 %   62.0-71.2 %     0.04-0.06
    classic-2p     400  353.5  88.4 %   84.9-91.2 %     0.08
    samba          400  262.5  65.6 %   60.8-70.1 %     0.16
    hoyle          200  126    63.0 %   56.1-69.4 %     0.04
    danish         200  148    74.0 %   67.5-79.6 %     0.04
    classic-6p     200  110    55.0 %   48.1-61.7 %     0.03   (goal NOT met)
    classic-3p     200   86.5  43.2 %   36.6-50.2 %     0.15   (first of three; goal NOT met)

Before the club learned to weigh the pile against the stock (draw_count) and to read the rules' data for wild
cards and the frozen pile: classic-2p 49.8 %, samba 35.4 %, classic-6p 45.8 % (400 games each). Beginner beats
random: classic 400/400, classic-2p 398/400, samba 400/400 (99.0-100 %), hoyle, classic-6p, classic-3p
200/200, danish 196/200 (95.0-99.2 %).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots import get_bot  # noqa: E402
from canasta_tutor.game import Game, apply, legal_actions, observation  # noqa: E402
from canasta_tutor.rules import PRESETS  # noqa: E402


def play_game(rules: str, seed: int, first, second, max_hands: int = 60):
    """Play one game. With two teams, ``first`` holds team 0's seats when the seed is even, team 1's when odd;
    with more teams (classic-3p: each player alone), ``first`` holds team ``seed % teams`` and ``second`` every
    other team. Returns (``first``'s total, the best total of ``second``'s teams, hands, stopped)."""
    game = Game(rules)
    mine_team = seed % game.num_teams
    team_bot = [first if t == mine_team else second for t in range(game.num_teams)]
    state = game.new_initial_state(f"bots:{seed}")
    hands = 1
    while True:
        rng = random.Random(f"{seed}:{hands}")
        while not state.is_terminal():
            p = state.current_player
            bot = team_bot[game.team_of(p)]   # the seat's own team (classic-3p: its own column)
            action, _ = bot.choose(observation(state, p), legal_actions(state), rng)
            apply(state, action)
        if state.is_game_over() or hands >= max_hands:
            totals = state.totals()
            theirs = max(v for t, v in enumerate(totals) if t != mine_team)
            return totals[mine_team], theirs, hands, not state.is_game_over()
        state = state.next_hand()
        hands += 1


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--rules", default="classic", choices=sorted(PRESETS),
                    help="the preset to play (default: classic)")
    ap.add_argument("--pairs", nargs="*", default=["beginner:random", "club:beginner"])
    ap.add_argument("--max-hands", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    goals = {"beginner:random": 0.90, "club:beginner": 0.60}
    for pair in args.pairs:
        a_name, b_name = pair.split(":")
        a, b = get_bot(a_name), get_bot(b_name)
        wins = 0.0
        times, hands, stopped = [], [], 0
        for g in range(args.games):
            t0 = time.perf_counter()
            mine, theirs, h, stop = play_game(args.rules, args.seed + g, a, b, args.max_hands)
            times.append(time.perf_counter() - t0)
            hands.append(h)
            stopped += stop
            wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        lo, hi = wilson(wins, args.games)
        goal = goals.get(pair)
        verdict = "" if goal is None else ("  goal met" if wins / args.games >= goal else f"  goal {goal:.0%} NOT met")
        print(f"{args.rules}: {a_name} beats {b_name} in {wins:g} of {args.games} games = {wins / args.games:.1%} "
              f"(95% {lo:.1%}-{hi:.1%}){verdict}; median {statistics.median(hands)} hands and "
              f"{statistics.median(times):.2f} s per game; {stopped} stopped at {args.max_hands} hands", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
