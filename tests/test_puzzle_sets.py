"""The hand-written puzzle sets in puzzles/: enough of each skill, every one checked by the engine."""

from collections import Counter

import pytest

from canasta_tutor.puzzles.format import load_puzzle_set, puzzle_files
from canasta_tutor.puzzles.solver import disagreements, solve

MINIMA = {"card-points": 10, "meld": 25, "opening": 20, "freeze": 10, "take-pile": 40, "go-out": 15,
          "score-hand": 30}


@pytest.fixture(scope="module")
def sets(root):
    return [load_puzzle_set(p) for p in puzzle_files([root / "puzzles"])]


@pytest.fixture(scope="module")
def root():
    from pathlib import Path

    return Path(__file__).resolve().parent.parent


def test_every_set_loads_without_errors(sets):
    assert sets
    for pset in sets:
        assert not pset.errors, pset.errors


def test_every_stored_answer_agrees_with_the_engine(sets):
    for pset in sets:
        for puzzle in pset:
            assert puzzle.expect, (pset.file, puzzle.id, "hand-written puzzles carry the author's answer")
            assert not disagreements(puzzle, solve(puzzle)), (pset.file, puzzle.id)


def test_enough_puzzles_per_skill(sets):
    classic = Counter(p.kind for s in sets if s.rules.name == "classic" for p in s)
    for kind, minimum in MINIMA.items():
        assert classic[kind] >= minimum, (kind, classic[kind])
    assert sum(len(s) for s in sets) >= 150


def test_difficulties_spread_within_each_skill(sets):
    for pset in sets:
        if pset.rules.name != "classic":
            continue
        levels = {p.difficulty for p in pset}
        assert len(levels) >= 3 and min(levels) <= 2 and max(levels) >= 4, (pset.file, levels)


def test_variant_sets_exist(sets):
    names = {s.rules.name for s in sets}
    assert {"danish", "samba", "classic-2p"} <= names


def test_prompts_tell_stories(sets):
    with_prompt = sum(1 for s in sets for p in s if p.prompt)
    assert with_prompt >= 40


def test_check_command_passes_on_the_shipped_puzzles(cli, root):
    r = cli("check", str(root / "puzzles"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 disagree, 0 errors" in r.stderr


#: Cards dealt to each player, typed from the sources (002: "Geef iedere speler 11 kaarten"; two players 15,
#: three 13, six 13; samba 15), not read from the engine's rule sets.
DEAL = {"classic": 11, "classic-2p": 15, "classic-3p": 13, "classic-6p": 13, "danish": 11, "hoyle": 11,
        "samba": 15}


def test_an_unopened_player_holds_a_realistic_hand(root):
    """Until a team melds, every turn draws and discards, so a player of a team that has not melded holds at
    least the cards dealt (red threes are replaced): a take-the-pile or go-out puzzle with no team melds must
    show that many cards. Counted in the files' own text, without the engine."""
    import yaml

    short = []
    for path in sorted((root / "puzzles").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        preset = data.get("rules", "classic")
        for p in data["puzzles"]:
            if p["kind"] not in ("take-pile", "go-out") or p.get("melds"):
                continue
            rules = p.get("rules", preset)
            rules = rules if isinstance(rules, str) else rules["preset"]
            if len(p["hand"].split()) < DEAL[rules]:
                short.append(f"{path.name}:{p['id']} holds {len(p['hand'].split())} cards, dealt {DEAL[rules]}")
    assert not short, short
