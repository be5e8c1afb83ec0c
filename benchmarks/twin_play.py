"""Random play side by side: canasta-tutor's game model against canasta-openspiel's, in one process.

The shared twin harness times only the peer's random self-play (canasta-tutor had no game model when it was
written). This adapter plays both in interleaved rounds: each round gives each engine ``--block`` seconds of
uniform-random play (a chance node: a random outcome; a decision: a random legal action), counts the hands
finished and the actions applied, and prints hands/s, actions/s and the tutor/peer ratio per round. It needs
``canasta_tutor.game`` (the game model) in the checkout it is run from.

Setup as for ``benchmarks/twin.py`` (a copy of jhtschultz/canasta-openspiel and a venv with ``open_spiel``):

    PEER_SRC=$WORK/openspiel $WORK/venv-peer/bin/python benchmarks/twin_play.py --rounds 5 --block 2

Only the ratios mean anything on a shared machine. Seeds are fixed: round ``r`` starts both engines from
seed ``r``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tutor_play(seconds: float, seed: int) -> tuple[int, int, float]:
    from canasta_tutor.game import Game, apply, legal_actions

    game = Game("classic")
    rng = random.Random(seed)
    hands = actions = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state(rng.randrange(1 << 30))
        while not state.is_terminal():
            acts = legal_actions(state)
            apply(state, acts[rng.randrange(len(acts))])
            actions += 1
        hands += 1
    return hands, actions, time.perf_counter() - start


def peer_play(seconds: float, seed: int) -> tuple[int, int, float]:
    """As the harness's ``random_play``: a game of hands, counted hand by hand."""
    from canasta.canasta_game import CanastaGame

    rng = random.Random(seed)
    game = CanastaGame()
    hands = actions = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        s = game.new_initial_state()
        last = s._hand_number
        while not s.is_terminal() and time.perf_counter() < end:
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                legal = s.legal_actions()   # may end the hand as a side effect and return []
                if legal:
                    s.apply_action(rng.choice(legal))
                    actions += 1
            if s._hand_number != last:
                hands += 1
                last = s._hand_number
        if s.is_terminal():
            hands += 1
    return hands, actions, time.perf_counter() - start


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--block", type=float, default=2.0, help="seconds of play per engine and round")
    args = ap.parse_args(argv)
    peer_src = os.environ.get("PEER_SRC")
    if not peer_src:
        print("twin_play.py: set PEER_SRC to a checkout of jhtschultz/canasta-openspiel", file=sys.stderr)
        return 2
    sys.path[:0] = [str(ROOT), peer_src]
    try:
        import canasta_tutor.game  # noqa: F401
    except ImportError:
        print("twin_play.py: this checkout has no canasta_tutor.game (the game model) yet", file=sys.stderr)
        return 2
    import pyspiel  # noqa: F401  (the peer package needs it)

    rows = []
    for r in range(args.rounds):
        t = tutor_play(args.block, r)
        p = peer_play(args.block, r)
        rows.append((t[0] / t[2], t[1] / t[2], p[0] / p[2], p[1] / p[2]))
        print(f"round {r + 1}: tutor {rows[-1][0]:7.1f} hands/s {rows[-1][1]:9,.0f} actions/s | "
              f"peer {rows[-1][2]:7.1f} hands/s {rows[-1][3]:9,.0f} actions/s | "
              f"ratio hands {rows[-1][0] / rows[-1][2]:.2f}, actions {rows[-1][1] / rows[-1][3]:.2f}")
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"median: tutor {med[0]:.1f} hands/s {med[1]:,.0f} actions/s | peer {med[2]:.1f} hands/s "
          f"{med[3]:,.0f} actions/s | per-round ratio medians: hands "
          f"{statistics.median(r[0] / r[2] for r in rows):.2f}, actions "
          f"{statistics.median(r[1] / r[3] for r in rows):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
