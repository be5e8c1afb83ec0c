"""Calls per second of check_take_pile and check_go_out on the twin harness's kind of inputs; on demand:

    .venv/bin/python benchmarks/checks.py [--passes P] [--seed S] [--only take|goout] [--root FOLDER]

The situations are those of the shared twin harness (``twin_bench.py``'s ``gen_take_situations`` and
``gen_goout_situations``: 1000 classic-rules situations each from one seed, two decks and four jokers, the team's
melds, a pile, a hand built to be close to taking or going out), made here from the same draws without the peer
engine, so that the engine's own speed can be compared between two checkouts (``--root``: the checkout whose engine
is imported, this one by default). Each pass calls every situation once; the figure is the median over the passes.
The machine is shared and noisy: medians, and no assertion.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

N = 1000
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = "CDHS"
MELD_RANKS = [0] + list(range(3, 13))   # A, 4..K (rank indices)


def rank_of(cid: int) -> int:
    return -1 if cid >= 104 else cid % 52 % 13


def is_wild(cid: int) -> bool:
    return cid >= 104 or rank_of(cid) == 1


def cards_of_rank(rank: int) -> list[int]:
    return [c for c in range(104) if rank_of(c) == rank]


WILDS = [c for c in range(108) if is_wild(c)]
RED3 = [c for c in range(104) if rank_of(c) == 2 and _SUITS[c % 52 // 13] in "DH"]


def _draw_meld(rng, pool: set, rank: int, canasta_bias: float):
    nats = [c for c in cards_of_rank(rank) if c in pool]
    wl = [c for c in WILDS if c in pool]
    if len(nats) < 2:
        return None
    lo = min(len(nats), 5) if rng.random() < canasta_bias else 2
    n_nat = rng.randint(lo, len(nats))
    n_wild = rng.randint(0, min(3, len(wl)))
    if n_nat + n_wild < 3:
        if not wl and n_nat < 3:
            if len(nats) < 3:
                return None
            n_nat = 3
        elif n_nat < 3:
            n_wild = max(n_wild, 1)
    nat = rng.sample(nats, n_nat)
    w = rng.sample(wl, n_wild)
    pool.difference_update(nat + w)
    return rank, nat + w


def _team_melds(rng, pool, k, canasta_bias=0.25):
    out = []
    for r in rng.sample(MELD_RANKS, k):
        m = _draw_meld(rng, pool, r, canasta_bias)
        if m is not None:
            out.append(m)
    return out


def take_situations(rng):
    out = []
    for _ in range(N):
        pool = set(range(108))
        opened = rng.random() < 0.6
        ms = _team_melds(rng, pool, rng.randint(1, 4)) if opened else []
        score = rng.choice([-50, 0, 0, 800, 1500, 2500, 3000])
        pool.difference_update(RED3)
        pile = rng.sample(sorted(pool), rng.randint(1, 12))
        pool.difference_update(pile)
        if rng.random() < 0.05:
            pile.insert(0, rng.choice(RED3))
        top = pile[-1]
        hand = []
        if rng.random() < 0.6 and not is_wild(top):
            same = [c for c in cards_of_rank(rank_of(top)) if c in pool]
            hand = rng.sample(same, min(len(same), rng.randint(1, 3)))
            pool.difference_update(hand)
        hand += rng.sample(sorted(pool), rng.randint(0, 12))
        if not hand:
            hand = rng.sample(sorted(pool), 1)
        rng.shuffle(hand)
        out.append((hand, [cards for _r, cards in ms], score, pile))
    return out


def goout_situations(rng):
    out = []
    for _ in range(N):
        pool = set(range(108))
        pool.difference_update(RED3)
        opened = rng.random() < 0.85
        ms = _team_melds(rng, pool, rng.randint(1, 4), canasta_bias=0.4) if opened else []
        hand = []
        if rng.random() < 0.6:
            for rank, _cards in rng.sample(ms, min(len(ms), rng.randint(0, 3))):
                same = [c for c in cards_of_rank(rank) if c in pool]
                hand += rng.sample(same, min(len(same), rng.randint(0, 2)))
            for r in rng.sample([r for r in MELD_RANKS if all(m[0] != r for m in ms)], rng.randint(0, 2)):
                same = [c for c in cards_of_rank(r) if c in pool]
                hand += rng.sample(same, min(len(same), rng.choice([2, 3, 3, 4, 7] if not ms else [2, 3, 4])))
            pool.difference_update(hand)
            wl = [c for c in WILDS if c in pool]
            w = rng.sample(wl, min(len(wl), rng.choice([0, 0, 1, 1, 2, 3])))
            pool.difference_update(w)
            hand += w
            hand += rng.sample(sorted(pool), rng.randint(0, 1))
        else:
            hand = rng.sample(sorted(pool), rng.randint(1, 8))
        if not hand:
            hand = rng.sample(sorted(pool), 1)
        rng.shuffle(hand)
        out.append((hand, [cards for _r, cards in ms], 0))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=40, help="passes over the 1000 situations of each check")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=["take", "goout"], help="time one check only (the other is not called)")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout whose engine is timed")
    args = parser.parse_args(argv)
    if args.passes < 1:
        parser.error(f"--passes: {args.passes} is not a number of passes (one or more)")
    sys.path.insert(0, str(args.root))
    from canasta_tutor import CLASSIC, Card, check_go_out, check_take_pile
    from canasta_tutor.engine import speedups

    def card(cid: int):
        return Card("JK") if cid >= 104 else Card(_RANKS[cid % 52 % 13] + _SUITS[cid % 52 // 13])

    def cards(ids) -> tuple:
        return tuple(card(c) for c in ids)

    rng = random.Random(args.seed)
    takes = [(cards(h), [cards(m) for m in ms], s, cards(p)) for h, ms, s, p in take_situations(rng)]
    goouts = [(cards(h), [cards(m) for m in ms], s) for h, ms, s in goout_situations(rng)]
    used = [n for n in ("goout", "take") if speedups.load(n) is not None]
    print("compiled:", ", ".join(used) or "none", "".join(f"; {n}: {r}" for n, r in speedups.NOT_USED.items()))
    rates = {"check_take_pile": [], "check_go_out": []}
    for _ in range(args.passes):
        if args.only != "goout":
            start = time.perf_counter()
            for hand, ms, score, pile in takes:
                check_take_pile(hand, ms, score, pile, CLASSIC)
            rates["check_take_pile"].append(len(takes) / (time.perf_counter() - start))
        if args.only != "take":
            start = time.perf_counter()
            for hand, ms, score in goouts:
                check_go_out(hand, ms, score, CLASSIC)
            rates["check_go_out"].append(len(goouts) / (time.perf_counter() - start))
    yes = sum(check_take_pile(h, ms, s, p, CLASSIC).ok for h, ms, s, p in takes), \
        sum(check_go_out(h, ms, s, CLASSIC).ok for h, ms, s in goouts)
    for name, values in rates.items():
        if not values:
            continue
        print(f"{name:16s} median {statistics.median(values):10.0f} calls/s  (min {min(values):.0f}, max "
              f"{max(values):.0f}, {args.passes} passes of 1000)")
    print(f"yes answers: take {yes[0]}, go out {yes[1]} of 1000")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
