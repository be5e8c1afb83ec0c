"""Bots against each other: win rates over seeded games (on demand, not a test).

    python benchmarks/bots.py                       # beginner vs random and club vs beginner, 400 games each
    python benchmarks/bots.py --games 40 --pairs club:beginner --rules classic-2p

A game is played to the preset's target score (5000 in classic), hand after hand. One bot kind holds every
seat of team 1, the other every seat of team 2; which side deals and starts alternates with the seed, so neither
kind gets the first turn more often. With three teams (classic-3p: each player alone) the first bot holds one seat
(which one turns with the seed) against two of the second, and two measures are printed: "first of three" (it wins
when its total is the highest; a chance player would win a third of the games) and "pairwise" (per game, the
share of the two others it finishes ahead of; a chance player: half). A tie (equal totals) counts as half a win.

What "X beats Y" fairly means under the lone hand (classic-3p, ``rules.lone_hand``): the first player to take the
pile plays alone and the other two are partners for the rest of the hand, each partner scoring the side's hand
(only red threes differ). In a hand where X is partnered with a Y it cannot beat that Y, however well it plays,
and the Y gains as much from X's good play as X does; so both game measures mix skill with the seating of the
lone hand, and X's own partner shares its wins. A third measure, "opposed hands", counts only what X's play can
decide: per hand (of the same 400 games, no other games), the Ys that ended the hand on another side than X
(``State.sides()`` at its end: the lone hand against the partners, or everyone when nobody took the pile), and
the share of them whose hand score X's beat (ties as halves); its 95 % interval is Wilson's over hands (hands of
one game are not independent, so it is somewhat narrow). The goals are not lowered: all three measures are
printed against the same 60 % (club) and 90 % (beginner) bars, and the first-of-three and pairwise figures stay
the issue's measures; "opposed hands" says how much of a shortfall is the partnership's and how much the play's.
The goals (issue 9): beginner beats random in at least 90 % of games, club beats beginner in at least 60 %. The
95 % interval is Wilson's; for the pairwise share it is taken over games (each game's share lies between 0 and 1,
so its variance is at most that of a win/loss game: the interval is conservative). A game that runs past
--max-hands hands is stopped and scored on the totals (reported).

Measured on 2026-12-01 (machine shared with other engineers' runs, load 6-17), club beats beginner:

    preset       games  wins    rate    95 % interval   s/game
    classic        200  130    65.0 %   58.2-71.3 %     0.04
    classic-2p     200  172    86.0 %   80.5-90.1 %     0.04
    samba          200  133    66.5 %   59.7-72.7 %     0.16
    hoyle          200  133    66.5 %   59.7-72.7 %     0.08
    danish         200  145    72.5 %   65.9-78.2 %     0.04
    classic-6p     400  240.5  60.1 %   55.3-64.8 %     0.05
    classic-6p    2000  1225   61.3 %   59.1-63.4 %     0.02
    classic-3p     400  160.5  40.1 %   35.4-45.0 %     0.10   (first of three; goal NOT met; chance 33 %)
    classic-3p     400  227.75 56.9 %   52.0-61.7 %     0.10   (pairwise; goal NOT met; chance 50 %)

classic-3p, 2026-12-01, after the beginner and club learnt that the hand's first pile makes its taker the lone
hand (``lone_pile_min``: the beginner leaves the first pile until 15 cards, the club until 30), 400 games:

    pair               measure          games/hands  wins      rate    95 % interval
    beginner:random    first of three   400          381       95.2 %  92.7-96.9 %
    beginner:random    pairwise         400          390.5     97.6 %  95.6-98.7 %
    beginner:random    opposed hands    2429 hands   2309.25   95.1 %  94.1-95.9 %
    club:beginner      first of three   400          370       92.5 %  89.5-94.7 %
    club:beginner      pairwise         400          385       96.2 %  93.9-97.7 %
    club:beginner      opposed hands    2415 hands   2199      91.1 %  89.9-92.1 %

Before that rule (400 games, as measured for the brief): beginner 76.2 % first of three / 86.4 % pairwise, club
34.2 % / 51.9 %. With the club at the beginner's 15 (200 games) it was 35.8 % / 54.2 % / opposed hands 64.1 %:
the gain is the waiting game (whoever gives in first plays alone), not better melding. The same day, 200 games,
unchanged by the rule (it reads ``rules.lone_hand``): classic 65.0 %, classic-2p 86.0 %, classic-6p 56.5 %
(49.6-63.2 %; the bots before the rule give the same 113 of 200 on these seeds); beginner beats random 200/200,
199/200, 200/200.

classic-6p was 55.0 % (200) and 56.9 % (2000) before the club, once its side has the canastas it needs to go out,
stopped taking back a pile of one card on a black three (with three players to a side the black three went round
the side's seats and no hand changed: in 300 games the other side went out in 435 of the 850 hands the club's side
reached its two canastas first) and began to meld a pair with a wild card. Same games, 2000 each: the black-three
rule alone 58.0 %, the wild-card rule alone 59.8 %, both 61.3 %; in classic (1000 games) 64.1 % -> 68.2 %.
Final table on the merged main (2026-12-01, 400 games each, ``--games 400``; the default seed): club beats beginner
classic 68.8 % (64.0-73.1), classic-2p 89.0 % (85.6-91.7), samba 67.2 % (62.5-71.7), hoyle 69.8 % (65.1-74.0),
danish 73.8 % (69.2-77.8), classic-6p 60.1 % (55.3-64.8), classic-3p 92.5 % first of three (89.5-94.7); beginner
beats random 400/400, 398/400, 400/400, 399/400, 394/400, 400/400, 381/400. classic-6p on 2000 more games
(``--games 2000 --seed 100000``, none shared with the default seed's): 63.0 % (60.9-65.1); with ``--seed 0``:
61.3 % (59.1-63.4).
Earlier (2026-11-30): classic 66.8 % (400), classic-2p 88.4 % (400), samba 65.6 % (400), hoyle 63.0 %, danish
74.0 % (200 each); before the club weighed the pile against the stock (draw_count): classic-2p 49.8 %, samba
35.4 %, classic-6p 45.8 % (400 each). Beginner beats random: classic, samba, hoyle 200/200, classic-6p and
classic-3p 400/400, classic-2p 199/200, danish 196/200 (95.0-99.2 %).

Duplicate deals (issue 20), ``--duplicate``: each deal (the first hand of a game seeded ``dup:<deal>``) is played
once per team, the first bot holding that team's seats and the second the others (with two teams: twice, the
seats swapped, the same cards), so the luck of the cards cancels. A deal pair goes to the bot whose summed score
over the plays is higher (ties half); printed: pairs won with Wilson's 95 % interval, the mean margin per hand
with its 95 % interval, and the expert's move times (median of all its moves, the slowest, and the median of the
moves that searched). ``--think`` sets the expert's seconds a decision. ``--elo [BOTS]``: every pairing of the bots
(default random beginner club expert) on ``--deals`` pairs, and Bradley-Terry ratings on the Elo scale (club = 0,
one virtual tie per pairing so an unbeaten bot stays finite) with bootstrap 95 % intervals over the deal pairs.

    python benchmarks/bots.py --duplicate --deals 200 --rules samba          # expert against club
    python benchmarks/bots.py --duplicate --deals 200 --rules samba --workers 2   # the deals over two processes
    python benchmarks/bots.py --duplicate --deals 20 --think 0.1 --elo

At the default think time (0.8 s), 200 deal pairs each (deals 0-199), expert against club (issue 20's goal: 60 %
of the pairs, the interval's low end above 50 %):

    preset      measured     pairs won  share   95 % (Wilson)   margin/hand (95 %)     searched move
    classic     2026-12-02   152.5      76.2 %  69.9-81.6 %     +221                   median 0.80 s
    classic-2p  2026-12-02   145        72.5 %  65.9-78.2 %     +422 (+331 to +514)    median 0.80 s
    samba       2026-12-03   121.5      60.8 %  53.8-67.3 %     +155 (+83 to +226)     median 0.80 s, max 0.97 s

(samba with the unfinished runs counted at the horizon, ``expert.SEQUENCE_PROGRESS``, ``--workers 2`` on a quiet
machine, 1566 s; before it, 2026-12-02: 57.2 %, 50.3-63.9 %, margin +53.) Earlier small samples (2026-12-02, load
4-11, the expert on a fifth to a half of a core): classic 0.2 s 16 of 20, classic-2p 0.2 s 15 of 20, samba 0.2 s
10.5 of 20.

(The median over all the expert's moves is under 1 ms: most follow the plan made earlier in the turn or have one
legal choice.) Elo, classic, 10 pairs per pairing at think 0.1 s: club 0, expert -22 (-127 to +77), beginner -169
(-311 to -30), random -608 (-710 to -540); at 0.1 s the expert drew 5 of 10 pairs with club (margin -8).
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
from canasta_tutor.engine.rules import PRESETS  # noqa: E402
from canasta_tutor.game import Game, apply, legal_actions, observation  # noqa: E402


def play_game(rules: str, seed: int, first, second, max_hands: int = 60):
    """Play one game. With two teams, ``first`` holds team 0's seats when the seed is even, team 1's when odd;
    with more teams (classic-3p: each player alone), ``first`` holds team ``seed % teams`` and ``second`` every
    other team. Returns (``first``'s total, the best total of ``second``'s teams, hands, stopped, every total of
    ``second``'s teams, opposed): ``opposed`` lists, per hand in which ``first``'s player ended on another side
    than at least one of ``second``'s teams (``State.sides()`` at the end of the hand; under ``lone_hand`` the
    sides form in the hand), the share of those opponents whose hand score it beat (ties as halves)."""
    game = Game(rules)
    mine_team = seed % game.num_teams
    team_bot = [first if t == mine_team else second for t in range(game.num_teams)]
    state = game.new_initial_state(f"bots:{seed}")
    hands = 1
    opposed = []
    while True:
        rng = random.Random(f"{seed}:{hands}")
        while not state.is_terminal():
            p = state.current_player
            bot = team_bot[game.team_of(p)]   # the seat's own team (classic-3p: its own column)
            action, _ = bot.choose(observation(state, p), legal_actions(state), rng)
            apply(state, action)
        if game.num_teams > 2:
            scores = state.hand_scores()
            mine_side = state.team_of(game.teams[mine_team][0])
            rivals = [t for t in range(game.num_teams) if t != mine_team
                      and all(state.team_of(q) != mine_side for q in game.teams[t])]
            if rivals:
                opposed.append(sum(1.0 if scores[mine_team] > scores[t] else 0.5 if scores[mine_team] == scores[t]
                                   else 0.0 for t in rivals) / len(rivals))
        if state.is_game_over() or hands >= max_hands:
            totals = state.totals()
            others = [v for t, v in enumerate(totals) if t != mine_team]
            return totals[mine_team], max(others), hands, not state.is_game_over(), others, opposed
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


def make_bot(name: str, think: float | None = None):
    """``get_bot(name)``; the expert with ``think`` seconds a decision when given."""
    if name == "expert" and think is not None:
        from canasta_tutor.bots.expert import ExpertBot

        return ExpertBot(think=think)
    return get_bot(name)


def play_deal(rules: str, deal: int, bots, times=None) -> tuple[int, ...]:
    """One hand of the deal ``deal`` (the first hand of a game seeded ``dup:<deal>``), ``bots[t]`` holding every
    seat of team ``t``; the teams' hand scores. ``times`` collects the seconds of each move of an expert."""
    game = Game(rules)
    state = game.new_initial_state(f"dup:{deal}")
    rng = random.Random(f"dup:{deal}:play")
    while not state.is_terminal():
        p = state.current_player
        bot = bots[game.team_of(p)]
        t0 = time.perf_counter()
        action, _ = bot.choose(observation(state, p), legal_actions(state), rng)
        if times is not None and bot.name == "expert":
            times.append(time.perf_counter() - t0)
        apply(state, action)
    return state.hand_scores()


def duplicate_pair(rules: str, deal: int, a, b, times=None) -> tuple[float, float]:
    """The deal played once per team with ``a`` holding that team's seats and ``b`` the others (with two teams:
    twice, the seats swapped). Returns (``a``'s summed score minus ``b``'s mean summed score, and that per hand);
    the pair goes to ``a`` when the first is above zero."""
    teams = Game(rules).num_teams
    mine = theirs = 0.0
    for t in range(teams):
        bots = [a if u == t else b for u in range(teams)]
        scores = play_deal(rules, deal, bots, times)
        mine += scores[t]
        theirs += sum(v for u, v in enumerate(scores) if u != t) / (teams - 1)
    return mine - theirs, (mine - theirs) / teams


def mean_interval(values) -> tuple[float, float, float]:
    """The mean and its 95 % interval (normal approximation)."""
    k = len(values)
    m = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(k) if k > 1 else float("inf")
    return m, m - half, m + half


def _deal_range(job) -> tuple[list, list]:
    """One worker's share of :func:`duplicate`: the pairs of the deals ``first`` to ``last`` (its own bots)."""
    rules, a_name, b_name, first, last, think = job
    a, b = make_bot(a_name, think), make_bot(b_name, think)
    times: list[float] = []
    return [duplicate_pair(rules, d, a, b, times) for d in range(first, last)], times


def duplicate(rules: str, a_name: str, b_name: str, deals: int, seed: int = 0, think=None, quiet=False,
              workers: int = 1):
    """``deals`` duplicate deal pairs of ``a_name`` against ``b_name``; prints and returns the pair results.
    ``workers``: processes that share the deals (each plays a contiguous range with its own bots; the results are
    the same deals in the same order; give each a core of its own, or the expert's clock counts the others' turns)."""
    times: list[float] = []
    results = []
    t0 = time.perf_counter()
    if workers <= 1:
        results, times = _deal_range((rules, a_name, b_name, seed, seed + deals, think))
    else:
        import multiprocessing

        cuts = [seed + deals * k // workers for k in range(workers + 1)]
        jobs = [(rules, a_name, b_name, cuts[k], cuts[k + 1], think) for k in range(workers)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for part, part_times in pool.map(_deal_range, jobs):
                results += part
                times += part_times
    wins = sum(1.0 if diff > 0 else 0.5 if diff == 0 else 0.0 for diff, _ in results)
    lo, hi = wilson(wins, deals)
    lo, hi = max(0.0, lo), min(1.0, hi)
    m, mlo, mhi = mean_interval([per for _, per in results])
    timing = ""
    if times:
        searched = [t for t in times if t > 0.01] or [0.0]
        timing = (f"; expert moves: median {statistics.median(times):.3f} s, slowest {max(times):.2f} s "
                  f"({len(times)} moves; the {len(searched)} that searched, over 10 ms: median "
                  f"{statistics.median(searched):.2f} s)")
    if not quiet:
        print(f"{rules}: duplicate, {a_name} against {b_name}: wins {wins:g} of {deals} deal pairs = "
              f"{wins / deals:.1%} (95% {lo:.1%}-{hi:.1%}); margin {m:+.0f} a hand (95% {mlo:+.0f} to {mhi:+.0f})"
              f"{timing}; think {think if think is not None else 'default'}; "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    return results


def elo_ratings(names, wins: dict, games: dict) -> dict:
    """Bradley-Terry ratings on the Elo scale from pair wins (``wins[(x, y)]``: x's wins over y, ties as halves;
    ``games[(x, y)]``: their pairs), each pairing given one virtual tie so that an unbeaten bot stays finite;
    the club at 0."""
    strength = {n: 1.0 for n in names}
    for _ in range(2000):
        new = {}
        for x in names:
            w = sum(wins.get((x, y), 0.0) + 0.5 for y in names if y != x and games.get((x, y)))
            denom = sum((games[(x, y)] + 1) / (strength[x] + strength[y])
                        for y in names if y != x and games.get((x, y)))
            new[x] = w / denom if denom else strength[x]
        strength = new
    anchor = strength.get("club", 1.0)
    return {n: 400 * math.log10(strength[n] / anchor) for n in names}


def round_robin(rules: str, names, deals: int, seed: int = 0, think=None, boots: int = 200) -> None:
    """Every pair of ``names`` on ``deals`` duplicate deal pairs; the Elo table with bootstrap 95 % intervals."""
    pairs = {}
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            results = duplicate(rules, x, y, deals, seed, think)
            pairs[(x, y)] = [1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d, _ in results]

    def table(sample):
        wins, games = {}, {}
        for (x, y), outcomes in sample.items():
            wins[(x, y)] = sum(outcomes)
            wins[(y, x)] = len(outcomes) - sum(outcomes)
            games[(x, y)] = games[(y, x)] = len(outcomes)
        return elo_ratings(names, wins, games)

    point = table(pairs)
    rng = random.Random(seed)
    draws = {n: [] for n in names}
    for _ in range(boots):
        sample = {k: [rng.choice(v) for _ in v] for k, v in pairs.items()}
        for n, r in table(sample).items():
            draws[n].append(r)
    print(f"{rules}: Elo from a round robin of {deals} duplicate deal pairs per pairing (club = 0; 95% bootstrap "
          f"interval, {boots} resamples; one virtual tie per pairing):")
    for n in sorted(names, key=lambda n: -point[n]):
        lo, hi = sorted(draws[n])[int(0.025 * boots)], sorted(draws[n])[int(0.975 * boots) - 1]
        print(f"    {n:10s} {point[n]:+6.0f}   ({lo:+.0f} to {hi:+.0f})", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--rules", default="classic", choices=sorted(PRESETS),
                    help="the preset to play (default: classic)")
    ap.add_argument("--pairs", nargs="*", default=["beginner:random", "club:beginner"])
    ap.add_argument("--max-hands", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--duplicate", action="store_true",
                    help="duplicate deals: each deal played with the seats swapped (see --deals, --think)")
    ap.add_argument("--deals", type=int, default=200, help="--duplicate: deal pairs per pairing (default 200)")
    ap.add_argument("--workers", type=int, default=1,
                    help="--duplicate: processes that share the deals (one core each; default 1)")
    ap.add_argument("--think", type=float, default=None,
                    help="--duplicate: the expert's seconds a decision (default: the bot's own)")
    ap.add_argument("--elo", nargs="*", default=None, metavar="BOT",
                    help="--duplicate: a round robin of these bots (default random beginner club expert) "
                         "and its Elo table")
    args = ap.parse_args(argv)
    if args.duplicate:
        if args.elo is not None:
            round_robin(args.rules, args.elo or ["random", "beginner", "club", "expert"], args.deals, args.seed,
                        args.think)
            return 0
        pairs = args.pairs if args.pairs != ap.get_default("pairs") else ["expert:club"]
        for pair in pairs:
            a_name, b_name = pair.split(":")
            duplicate(args.rules, a_name, b_name, args.deals, args.seed, args.think, workers=args.workers)
        return 0
    goals = {"beginner:random": 0.90, "club:beginner": 0.60}
    for pair in args.pairs:
        a_name, b_name = pair.split(":")
        a, b = get_bot(a_name), get_bot(b_name)
        wins = pairwise = 0.0
        times, hands, stopped, teams, opposed = [], [], 0, 2, []
        for g in range(args.games):
            t0 = time.perf_counter()
            mine, theirs, h, stop, others, opp = play_game(args.rules, args.seed + g, a, b, args.max_hands)
            opposed += opp
            times.append(time.perf_counter() - t0)
            hands.append(h)
            stopped += stop
            teams = len(others) + 1
            wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            pairwise += sum(1.0 if mine > v else 0.5 if mine == v else 0.0 for v in others) / len(others)
        lo, hi = wilson(wins, args.games)
        goal = goals.get(pair)
        verdict = "" if goal is None else ("  goal met" if wins / args.games >= goal else f"  goal {goal:.0%} NOT met")
        print(f"{args.rules}: {a_name} beats {b_name} in {wins:g} of {args.games} games = {wins / args.games:.1%} "
              f"(95% {lo:.1%}-{hi:.1%}){verdict}; median {statistics.median(hands)} hands and "
              f"{statistics.median(times):.2f} s per game; {stopped} stopped at {args.max_hands} hands", flush=True)
        if teams > 2:
            lo, hi = wilson(pairwise, args.games)
            verdict = "" if goal is None else ("  goal met" if pairwise / args.games >= goal
                                               else f"  goal {goal:.0%} NOT met")
            print(f"{args.rules}: pairwise, {a_name} finishes ahead of a {b_name} in {pairwise / args.games:.1%} "
                  f"of its {(teams - 1) * args.games} pairings ({pairwise:g} games' worth of {args.games}; 95% "
                  f"{lo:.1%}-{hi:.1%} over games, a conservative interval){verdict}; a chance player: 50%",
                  flush=True)
        if opposed:
            won = sum(opposed)
            lo, hi = wilson(won, len(opposed))
            verdict = "" if goal is None else ("  goal met" if won / len(opposed) >= goal
                                               else f"  goal {goal:.0%} NOT met")
            print(f"{args.rules}: opposed hands, {a_name} scores more than the {b_name} it played against in "
                  f"{won / len(opposed):.1%} of {len(opposed)} hands ({won:g}; 95% {lo:.1%}-{hi:.1%} over hands)"
                  f"{verdict}; a chance player: 50%", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
