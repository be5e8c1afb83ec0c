"""``canasta-tutor play``: the JSON-lines format of issue 9 field by field, determinism, the summary, the
progress bar only on a terminal, and bad arguments (exit 2, a clear message, no traceback)."""

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from collections import Counter

import pytest

from canasta_tutor.cli import main
from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.rules import PRESETS, get_rules

KEYS = {"rules", "seed", "hand", "went_out", "teams", "stock_left", "pile"}
TEAM_KEYS = {"players", "melds", "red_threes", "hands_left", "score"}


def run(capsys, *argv):
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def records(out):
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("name", list(PRESETS))
def test_json_lines_follow_the_issue_field_by_field(capsys, name):
    status, out, err = run(capsys, "--rules", name, "--seed", "4", "--hands", "3", "--json")
    assert status == 0 and err == ""
    rules = get_rules(name)
    lines = records(out)
    assert [r["hand"] for r in lines] == [1, 2, 3]
    for r in lines:
        assert set(r) == KEYS
        assert r["rules"] == name and r["seed"] == 4
        seats = []
        deck = Counter()
        for team in r["teams"]:
            assert set(team) == TEAM_KEYS | ({"player_scores"} if rules.lone_hand else set())
            assert isinstance(team["score"], int) and not isinstance(team["score"], bool)
            assert all(isinstance(p, int) for p in team["players"])
            seats += team["players"]
            assert len(team["hands_left"]) == len(team["players"])      # one per player of the team
            for text in team["melds"] + [team["red_threes"]] + team["hands_left"]:
                assert isinstance(text, str)
                deck.update(parse_cards(text))                            # the contract's notation
            assert all(parse_cards(m) and " " in m for m in team["melds"])
            assert all(c.is_red_three for c in parse_cards(team["red_threes"]))
        assert sorted(seats) == list(range(rules.players))
        if rules.lone_hand:   # one alone against two, or (nobody took the pile, nobody went out) each alone
            assert sorted(len(t["players"]) for t in r["teams"]) in ([1, 2], [1, 1, 1])
        assert isinstance(r["stock_left"], int) and r["stock_left"] >= 0
        assert isinstance(r["pile"], str)
        deck.update(parse_cards(r["pile"]))
        # every card of the decks is in one of the fields, or still in the stock
        assert sum(deck.values()) + r["stock_left"] == 52 * rules.decks + rules.jokers
        went = r["went_out"]
        if went is None:
            assert r["stock_left"] == 0
        else:
            assert set(went) == {"player", "concealed"} and isinstance(went["concealed"], bool)
            team = next(t for t in r["teams"] if went["player"] in t["players"])
            assert team["hands_left"][team["players"].index(went["player"])] == ""


def test_the_same_seed_gives_the_same_output_and_another_seed_another(capsys):
    first = run(capsys, "--seed", "11", "--hands", "4", "--json")[1]
    again = run(capsys, "--seed", "11", "--hands", "4", "--json")[1]
    other = run(capsys, "--seed", "12", "--hands", "4", "--json")[1]
    assert first == again and first != other
    summary = run(capsys, "--seed", "11", "--hands", "4")[1]
    assert summary == run(capsys, "--seed", "11", "--hands", "4")[1]


def test_the_summary_is_short_and_matches_the_json(capsys):
    lines = records(run(capsys, "--seed", "3", "--hands", "2", "--json")[1])
    status, out, _ = run(capsys, "--seed", "3", "--hands", "2")
    assert status == 0
    text = out.splitlines()
    assert len(text) == 3 and text[0].startswith("hand 1: ") and "classic" in text[-1]
    for line, r in zip(text, lines):
        for team in r["teams"]:
            assert f"{team['score']:+d}" in line
    total = sum(r["teams"][0]["score"] for r in lines)
    assert f"team 1 {total:+d}" in text[-1]


def red_three_value(reds: int, melded: bool) -> int:
    """Classic's red threes, written out here: 100 each, 800 for all four; negative for a side without melds."""
    value = 800 if reds == 4 else 100 * reds
    return value if melded else -value


def test_three_players_sides_and_each_players_score(capsys):
    """classic-3p: the sides at the end of each hand, and each player's score the side's plus or minus his own
    red threes (which the record lists in player order); the summary adds up per player."""
    rules = get_rules("classic-3p")
    lines = records(run(capsys, "--rules", "classic-3p", "--seed", "2", "--hands", "12", "--json")[1])
    shapes = Counter()
    totals = Counter()
    for r in lines:
        shapes[len(r["teams"])] += 1
        for team in r["teams"]:
            scores = team["player_scores"]
            assert len(scores) == len(team["players"]) and all(type(v) is int for v in scores)
            reds = parse_cards(team["red_threes"])
            others = [c for t in r["teams"] if t is not team for c in parse_cards(t["red_threes"])]
            assert len(reds) + len(others) <= rules.red_threes_in_game
            differences = [v - team["score"] for v in scores]
            for d in differences:
                assert d % 100 == 0 and abs(d) <= 800
            # the partners' own red threes add up to the side's
            own = [abs(d) // 100 if abs(d) != 800 else 4 for d in differences]
            assert sum(own) == len(reds), (team, own)
            for d, k in zip(differences, own):
                assert d == red_three_value(k, bool(team["melds"]))
            for p, v in zip(team["players"], scores):
                totals[p] += v
    assert shapes[2] > 0   # someone took the pile in some hand
    status, out, _ = run(capsys, "--rules", "classic-3p", "--seed", "2", "--hands", "12")
    last = out.splitlines()[-1]
    for p in range(3):
        assert f"player {p} {totals[p]:+d}" in last


def test_bots_one_per_seat(capsys):
    assert run(capsys, "--rules", "classic-2p", "--bots", "random,random", "--json")[0] == 0


@pytest.mark.parametrize("argv, message", [
    (["--rules", "chess"], "unknown rule preset 'chess'"),
    (["--bots", "random,random"], "2 bots for 4 players"),
    (["--bots", "grandmaster"], "unknown bot 'grandmaster'"),
    (["--hands", "0"], "--hands must be from 1 to 100000"),
    (["--hands", "many"], "--hands must be a whole number"),
    (["--seed", "-1"], "--seed must be at least 0"),
])
def test_bad_arguments_exit_2_with_a_clear_message(capsys, argv, message):
    with pytest.raises(SystemExit) as e:
        status = main(["play", *argv])
        raise SystemExit(status)
    out, err = capsys.readouterr()
    assert e.value.code == 2
    assert message in err and "Traceback" not in err and out == ""


def test_no_progress_bar_in_a_pipe_and_one_on_a_terminal(tmp_path):
    cmd = [sys.executable, "-c", "import sys; from canasta_tutor.cli import main; sys.exit(main())",
           "play", "--hands", "3", "--json"]
    piped = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""
    assert len(piped.stdout.splitlines()) == 3
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))   # a terminal 100 wide
    with open(tmp_path / "out.jsonl", "w") as out:
        proc = subprocess.run(cmd, stdout=out, stderr=follower, cwd=tmp_path, timeout=120)
    os.close(follower)
    seen = b""
    try:
        while True:
            chunk = os.read(leader, 4096)
            if not chunk:
                break
            seen += chunk
    except OSError:
        pass
    os.close(leader)
    assert proc.returncode == 0
    assert b"/3 [" in seen and b"hand" in seen       # tqdm's bar: " 0/3 [00:00<?, ?hand/s]"
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 3
