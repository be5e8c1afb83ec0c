"""Side by side with the best public Canasta engine (jhtschultz/canasta-openspiel): same inputs, one process.

This runs the shared twin harness (``twin_bench.py``: 1000 classic-rules situations per item from one seed,
both engines on the same inputs, interleaved rounds) against THIS checkout. Only the per-round ratios
(tutor/peer) mean anything on a shared machine: absolute rates move with the load.

Set up the peer once (any scratch folder, here ``$WORK``; nothing goes into the project folder):

    git clone https://github.com/jhtschultz/canasta-openspiel $WORK/openspiel
    python3.11 -m venv $WORK/venv-peer && $WORK/venv-peer/bin/pip install open_spiel

Run (from the project folder, after ``bash scripts/test.sh --co -q`` or ``pip install -e .``, which build the
engine's compiled modules in place, ``canasta_tutor/engine/_speedups``; the engine is imported from this checkout
into the peer's venv, so both engines share one interpreter, and the peer's Python must be the one the modules
were built for, 3.11 here; this script first prints which compiled modules the run uses and why any is not
used):

    PEER_SRC=$WORK/openspiel PEER_PY=$WORK/venv-peer/bin/python \\
        python benchmarks/twin.py --rounds 9 --block 0.3 --random-play 10   # agreement + timing (~1 min)
    ... python benchmarks/twin.py --agree-only --examples 3                # answers only
    ... python benchmarks/twin.py --profile goout --profile-passes 5       # cProfile of one tutor item

Every argument goes to the harness. It prints: the agreement section (per item, how many of the 1000
answers agree, and each kind of disagreement with examples: the peer answers a narrower question, with no
opening minimum and no wild-card limit when going out); then one row per engine and call with min, median
and max calls/s over the rounds and the tutor/peer ratio per round (min / median); then the peer's
uniform-random play (hands/s, actions/s) when ``--random-play`` is given.

``TWIN_HARNESS`` names the harness folder (default: ``../shared/bench/twin`` next to this checkout).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


_SHOW_COMPILED = """if True:
    import sys; sys.path.insert(0, sys.argv[1])
    from pathlib import Path
    from canasta_tutor.engine import speedups
    names = sorted(p.stem for p in (Path(sys.argv[1]) / "canasta_tutor" / "engine" / "_speedups").glob("*.pyx"))
    used = [n for n in names if speedups.load(n) is not None]
    print("compiled modules used:", ", ".join(used) or "none",
          "".join(f"; {n} not used: {speedups.NOT_USED[n]}" for n in names if n not in used))
"""

# The shared harness names the engine's modules by their paths before the layers had folders
# (``canasta_tutor.melds``): the same modules under those names, then the harness as its own main.
_RUN_HARNESS = """if True:
    import runpy, sys
    sys.path.insert(0, sys.argv[1])
    import canasta_tutor.engine.melds
    sys.modules.setdefault("canasta_tutor.melds", canasta_tutor.engine.melds)
    harness, sys.argv = sys.argv[2], sys.argv[2:]
    runpy.run_path(harness, run_name="__main__")
"""


def main(argv: list[str]) -> int:
    harness = Path(os.environ.get("TWIN_HARNESS", ROOT.parent / "shared" / "bench" / "twin")) / "twin_bench.py"
    peer_src, peer_py = os.environ.get("PEER_SRC"), os.environ.get("PEER_PY")
    missing = [name for name, value in (("PEER_SRC", peer_src), ("PEER_PY", peer_py)) if not value]
    if missing or not harness.is_file():
        what = f"set {' and '.join(missing)}" if missing else f"no harness at {harness} (set TWIN_HARNESS)"
        print(f"twin.py: {what}; see the setup at the top of {Path(__file__).name}", file=sys.stderr)
        return 2
    env = dict(os.environ, TUTOR_SRC=str(ROOT), PEER_SRC=peer_src)
    subprocess.call([peer_py, "-c", _SHOW_COMPILED, str(ROOT)], env=env)
    return subprocess.call([peer_py, "-c", _RUN_HARNESS, str(ROOT), str(harness), *argv], env=env, cwd=harness.parent)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
