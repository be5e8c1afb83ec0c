"""The puzzle file format and the solve/check commands (shared/spec/puzzle-format.md)."""

import json
import textwrap

import pytest

from canasta_tutor.engine.errors import PuzzleError
from canasta_tutor.engine.rules import OPTION_NAMES
from canasta_tutor.puzzles.format import load_puzzle_set, parse_puzzle_set, schema
from canasta_tutor.puzzles.solver import solve

SPEC_EXAMPLE = """\
title: Can you take the pile?
rules: classic                 # a preset name, or a mapping (see "Rules")
puzzles:
  - id: take-001               # unique in the file: [a-z0-9-]+
    kind: take-pile
    difficulty: 1              # 1 (first lesson) .. 5 (expert); optional, default 1
    topic: taking the pile     # optional free text, used to group results
    prompt: Your partner has not melded yet. Can you take the pile?   # optional
    hand: 7H 7S KD 4C JK       # the situation: fields depend on the kind
    melds: []
    score: 0
    pile: 5D 9S 7C
    expect: {take: true}       # optional: the author's answer (see `check`)
"""


def write(tmp_path, text, name="set.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def one_error(text):
    pset = parse_puzzle_set(textwrap.dedent(text), "f.yaml")
    assert len(pset.errors) == 1, pset.errors
    return pset.errors[0]


def test_spec_example_loads_and_solves():
    pset = parse_puzzle_set(SPEC_EXAMPLE, "example.yaml")
    assert not pset.errors and len(pset) == 1
    puzzle = pset.puzzles[0]
    assert (puzzle.id, puzzle.kind, puzzle.difficulty, puzzle.topic) == ("take-001", "take-pile", 1, "taking the pile")
    # 7-7-7 with the joker is 65 points, enough for the opening minimum of 50
    assert solve(puzzle).answer == {"take": True}


def test_every_kind_solves():
    pset = parse_puzzle_set(textwrap.dedent("""
        puzzles:
          - {id: a, kind: card-points, cards: "JK AS 7H 3C", expect: {points: 80}}
          - {id: b, kind: meld, cards: [KH, KS, 2C], expect: {valid: true, canasta: none}}
          - {id: c, kind: meld, cards: 3S 3C 3S, going_out: true, expect: {valid: true}}
          - {id: d, kind: opening, score: 1500, melds: [KH KS KD, AC AD 2S],
             expect: {minimum: 90, points: 90, enough: true}}
          - {id: e, kind: freeze, pile: 5D 2C 9S, melds: [KH KS KD], expect: {frozen: true}}
          - {id: f, kind: take-pile, hand: 7H 7S KD, melds: [KH KS KD], score: 0, pile: 5D 7C, expect: {take: true}}
          - {id: g, kind: go-out, hand: KH KS 2C 9D, melds: [7H 7S 7D 7C 7H 7S 7D], score: 0, expect: {go_out: true}}
          - id: h
            kind: score-hand
            melds: [KH KS KD KC KH KS KD, 7C 7D 2S]
            red_threes: 3H
            hands: [5C 9D, ""]
            went_out: yes
            expect: {score: 785}
        """), "all.yaml")
    assert not pset.errors
    for puzzle in pset:
        answer = solve(puzzle).answer
        for key, value in puzzle.expect.items():
            assert answer[key] == value, (puzzle.id, key)


def test_puzzle_rules_replace_the_sets():
    pset = parse_puzzle_set(textwrap.dedent("""
        rules: classic
        puzzles:
          - {id: a, kind: meld, cards: 5H 5S 2C 2D 2S}
          - {id: b, kind: meld, cards: 5H 5S 2C 2D 2S, rules: hoyle}
          - {id: c, kind: meld, cards: 5H 5S 2C 2D 2S, rules: {preset: classic, wild_limit: not-more-than-natural}}
          - {id: d, kind: take-pile, hand: 7H JK KD, melds: [KH KS KD], pile: 9C 7C,
             rules: {preset: classic, pile_always_frozen: true}}
        """))
    assert [solve(p).answer.get("valid", solve(p).answer.get("take")) for p in pset] == [True, False, False, False]


@pytest.mark.parametrize("text, field, words", [
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D, colour: red}\n", "colour", "unknown key"),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D, hand: 5C}\n", "hand", "not a field of a 'meld' puzzle"),
    ("puzzles:\n  - {id: a, kind: take-pile, hand: 5H, pile: 5D, score: lots}\n", "score", "whole number"),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5X}\n", "cards", "card 3, 5X, is not a card"),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5H 5H}\n", "cards", "3 copies of 5♥"),
    ("puzzles:\n  - {id: a, kind: take-pile, hand: JK JK JK, pile: JK JK 7C}\n", "hand, pile", "5 copies of Joker"),
    ("puzzles:\n  - {id: a, kind: meld}\n", "cards", "missing"),
    ("puzzles:\n  - {id: A_1, kind: meld, cards: 5H 5S 5D}\n", "id", "lower-case"),
    ("puzzles:\n  - {id: a, kind: poker, cards: 5H}\n", "kind", "not allowed"),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D, difficulty: 9}\n", "difficulty", "out of range"),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D, expect: {valid: true, canasta: dirty}}\n", "expect.canasta",
     "not allowed"),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D, expect: {take: true}}\n", "expect.take", "unknown key"),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D, rules: {preset: classic, wilds: 4}}\n", "rules", None),
    ("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D, rules: checkers}\n", "rules", None),
    ("puzzles:\n  - {id: a, kind: score-hand, melds: [], went_out: perhaps}\n", "went_out", None),
])
def test_bad_puzzles_name_file_id_and_field(text, field, words):
    err = one_error(text)
    assert err.file == "f.yaml" and err.puzzle_id in ("a", "A_1")
    assert err.field == field, str(err)
    if words:
        assert words in str(err), str(err)
    assert "f.yaml" in str(err)


def test_samba_decks_allow_three_copies():
    pset = parse_puzzle_set("rules: samba\npuzzles:\n  - {id: a, kind: meld, cards: 5H 5H 5H}\n")
    assert not pset.errors


def test_duplicate_ids():
    err = one_error("puzzles:\n  - {id: a, kind: meld, cards: 5H 5S 5D}\n  - {id: a, kind: meld, cards: 6H 6S 6D}\n")
    assert err.field == "id" and "twice" in str(err)


@pytest.mark.parametrize("text, words", [
    ("title: x\npuzzles: [\n", "not valid YAML at line"),
    ("- just\n- a list\n", "not a puzzle set"),
    ("title: x\n", "'puzzles' is missing"),
    ("title: x\npuzzles: []\n", "must not be empty"),
    ("title: x\nauthor: me\npuzzles: [{id: a, kind: meld, cards: 5H 5S 5D}]\n", "unknown key 'author'"),
    ("rules: snap\npuzzles: [{id: a, kind: meld, cards: 5H 5S 5D}]\n", "preset name"),
])
def test_broken_files(text, words):
    with pytest.raises(PuzzleError) as e:
        parse_puzzle_set(text, "f.yaml")
    assert words in str(e.value) and "f.yaml" in str(e.value)


def test_schema_lists_every_rule_option():
    options = schema()["$defs"]["rules"]["oneOf"][1]["properties"]
    assert set(options) - {"preset"} == set(OPTION_NAMES)


def test_cli_solve_prints_json_lines(tmp_path, cli):
    path = write(tmp_path, SPEC_EXAMPLE)
    r = cli("solve", str(path))
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert lines == [{"file": str(path), "id": "take-001", "kind": "take-pile", "answer": {"take": True},
                      "explanation": lines[0]["explanation"]}]
    assert all(isinstance(s, str) and s.endswith(".") for s in lines[0]["explanation"])
    assert "7♣" in " ".join(lines[0]["explanation"])


def test_cli_solve_reports_bad_puzzles_and_goes_on(tmp_path, cli):
    path = write(tmp_path, """\
        puzzles:
          - {id: good, kind: meld, cards: 5H 5S 5D}
          - {id: bad, kind: meld, cards: 5H 5S 5Q}
          - {id: impossible, kind: take-pile, hand: 3H 7S, melds: [], pile: 7C}
          - {id: good2, kind: card-points, cards: 5H}
        """)
    r = cli("solve", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr + r.stdout
    lines = {d["id"]: d for d in map(json.loads, r.stdout.splitlines())}
    assert set(lines) == {"good", "bad", "impossible", "good2"}
    assert "card 3, 5Q, is not a card" in lines["bad"]["error"] and "cards" in lines["bad"]["error"]
    assert "red three" in lines["impossible"]["error"]
    assert lines["good2"]["answer"] == {"points": 5}


def test_cli_file_level_errors_exit_2(tmp_path, cli):
    good = write(tmp_path, SPEC_EXAMPLE, "good.yaml")
    bad = write(tmp_path, "puzzles: [\n", "bad.yaml")
    r = cli("solve", str(bad), str(good))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert lines[0]["file"] == str(bad) and "error" in lines[0]
    assert lines[1]["id"] == "take-001"
    r = cli("solve", str(tmp_path / "missing.yaml"))
    assert r.returncode == 2 and "cannot read" in r.stdout


def test_cli_check(tmp_path, cli):
    path = write(tmp_path, """\
        puzzles:
          - {id: right, kind: card-points, cards: JK AS, expect: {points: 70}}
          - {id: wrong, kind: card-points, cards: JK AS, expect: {points: 60}}
          - {id: silent, kind: card-points, cards: JK AS}
        """)
    r = cli("check", str(path))
    assert r.returncode == 1
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["id"] for d in lines] == ["wrong"]
    assert lines[0]["expected"] == {"points": 60} and lines[0]["answer"] == {"points": 70}
    assert "1 disagree" in r.stderr
    ok = write(tmp_path, "puzzles:\n  - {id: right, kind: card-points, cards: JK AS, expect: {points: 70}}\n",
               "ok.yaml")
    r = cli("check", str(ok))
    assert r.returncode == 0 and r.stdout == ""


def test_cli_check_folders(tmp_path, cli):
    write(tmp_path, "puzzles:\n  - {id: a, kind: card-points, cards: JK, expect: {points: 50}}\n", "a.yaml")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "puzzles:\n  - {id: a, kind: card-points, cards: AS, expect: {points: 20}}\n", "b.yml")
    r = cli("check", str(tmp_path))
    assert r.returncode == 0 and "checked 2 puzzles in 2 files" in r.stderr


def test_load_from_path(tmp_path):
    path = write(tmp_path, SPEC_EXAMPLE)
    assert load_puzzle_set(path).puzzles[0].file == str(path)
