"""Score-hand puzzles show hands that could end a real hand (issue 9 §5): a player whose hand is empty has gone
out, so a team that did not go out holds no empty hand, a team that went out has exactly one player with an empty
hand when every player's hand is listed (never two), and no team lists more hands than it has players (one in a
two-player game). Checked over every puzzle file of the project."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_tutor.engine.scoring import parse_went_out
from canasta_tutor.game import Game
from canasta_tutor.puzzles.format import load_puzzle_set, parse_puzzle_set, puzzle_files

ROOT = Path(__file__).resolve().parent.parent
FILES = puzzle_files([ROOT / "puzzles"])


def hand_problems(puzzle) -> list[str]:
    """What no real end of a hand would show in this score-hand puzzle's hands, in sentences."""
    s = puzzle.situation
    hands = [list(h) for h in s.hands]
    players = len(Game(puzzle.rules).teams[0])
    went = parse_went_out(s.went_out) if s.went_out is not None else None
    empty = sum(1 for h in hands if not h)
    out = []
    if len(hands) > players:
        out.append(f"{len(hands)} hands listed for a team of {players}")
    if not went and empty:
        out.append(f"the team did not go out, yet {empty} of its hands {'is' if empty == 1 else 'are'} empty")
    if went and empty > 1:
        out.append(f"{empty} empty hands: only the player who went out has none left")
    if went and hands and len(hands) == players and not empty:
        out.append("the team went out, yet every player of it still holds cards")
    return out


SCORE_HAND = [(f.name, p) for f in FILES for p in load_puzzle_set(f).puzzles if p.kind == "score-hand"]


def test_there_are_score_hand_puzzles_in_several_files():
    assert len(SCORE_HAND) >= 35 and len({name for name, _p in SCORE_HAND}) >= 3


def test_every_score_hand_puzzle_shows_hands_a_real_hand_could_end_with():
    bad = [f"{name} {p.id}: {problem}" for name, p in SCORE_HAND for problem in hand_problems(p)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("entry, problem", [
    ('hands: ["", ""], went_out: true', "2 empty hands"),
    ('hands: [5C, ""], went_out: false', "did not go out, yet 1 of its hands is empty"),
    ('hands: [5C, 7D], went_out: true', "every player of it still holds cards"),
    ('hands: [5C, 7D, 8S], went_out: false', "3 hands listed for a team of 2"),
    ('hands: [5C, 7D], went_out: false, rules: classic-2p', "2 hands listed for a team of 1"),
])
def test_the_check_finds_each_impossible_end(entry, problem):
    [puzzle] = parse_puzzle_set(f"puzzles:\n  - {{id: x, kind: score-hand, melds: [KH KS KD], {entry}}}\n",
                                "x.yaml").puzzles
    assert any(problem in p for p in hand_problems(puzzle)), hand_problems(puzzle)


@pytest.mark.parametrize("entry", ['hands: ["", 9C 4D], went_out: true', "hands: [9C 4D], went_out: concealed",
                                   "hands: [5C, 7D], went_out: false", "hands: [], went_out: false",
                                   'hands: [""], went_out: true, rules: classic-2p'])
def test_the_check_lets_real_ends_pass(entry):
    [puzzle] = parse_puzzle_set(f"puzzles:\n  - {{id: x, kind: score-hand, melds: [KH KS KD], {entry}}}\n",
                                "x.yaml").puzzles
    assert hand_problems(puzzle) == []
