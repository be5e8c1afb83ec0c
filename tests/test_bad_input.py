"""Bad input and faults: every reproducer from issue 7 gets a short, clear message and never a traceback.

The hand-made files are in ``tests/bad_inputs/``; larger ones are generated here.
"""

import json
import time
from pathlib import Path

import pytest

from canasta_tutor.errors import MESSAGE_LIMIT, PuzzleError
from canasta_tutor.puzzle import parse_puzzle_set

BAD = Path(__file__).parent / "bad_inputs"
#: The longest line the CLI may print about one bad file: the message, its JSON frame and the file name.
LINE_LIMIT = MESSAGE_LIMIT + 200


def _file_error(path: Path) -> PuzzleError:
    with pytest.raises(PuzzleError) as e:
        parse_puzzle_set(path.read_text("utf-8"), path.name)
    return e.value


@pytest.mark.parametrize("field", ["title", "cards", "prompt", "expect", "puzzles", "rules"])
def test_alias_bombs_are_refused_at_once(field):
    path = BAD / f"alias-bomb-{field}.yaml"
    assert path.stat().st_size < 500
    start = time.perf_counter()
    error = _file_error(path)
    assert time.perf_counter() - start < 2
    assert "aliases" in str(error) and "line " in str(error) and len(str(error)) < MESSAGE_LIMIT


def test_a_single_alias_is_refused_too():
    text = "title: &t Melds\nprompt_holder: *t\npuzzles: [{id: a, kind: meld, cards: 7H 7S 7D}]\n"
    assert "aliases" in str(_excinfo(text))


def _excinfo(text):
    with pytest.raises(PuzzleError) as e:
        parse_puzzle_set(text, "t.yaml")
    return e.value


def test_merge_keys_are_refused():
    text = "puzzles:\n  - {id: a, kind: meld, <<: {cards: 7H 7S 7D}}\n"
    assert "merge keys" in str(_excinfo(text))


@pytest.mark.parametrize("name, key, line, first", [("duplicate-puzzles-key.yaml", "puzzles", 4, 2),
                                                    ("duplicate-key-in-puzzle.yaml", "hand", 6, 4)])
def test_duplicate_keys_name_the_key_and_both_lines(name, key, line, first):
    message = str(_file_error(BAD / name))
    assert f"'{key}' is written twice" in message
    assert f"line {line}" in message and f"first at line {first}" in message


@pytest.mark.parametrize("name", ["long-score.yaml", "long-difficulty.yaml"])
def test_numbers_over_python_digit_limit_are_refused(name):
    message = str(_file_error(BAD / name))
    assert "digits" in message and "line 2" in message and len(message) < MESSAGE_LIMIT


def test_deep_nesting_is_a_clear_error():
    assert "nesting" in str(_file_error(BAD / "deep-nesting.yaml"))
    text = "puzzles:\n" + "".join("  " * i + "- \n" for i in range(1, 40)) + "  " * 40 + "- x\n"
    assert "nest" in str(_excinfo(text))


def test_a_long_bad_group_gives_a_short_message_naming_the_token():
    pset = parse_puzzle_set((BAD / "long-cards.yaml").read_text("utf-8"), "long-cards.yaml")
    (error,) = pset.errors
    message = str(error)
    assert len(message) <= MESSAGE_LIMIT + 100
    assert "card 2 of" in message and "'XX' is not a card" in message and error.field == "cards"


def test_huge_values_are_clipped_in_schema_errors():
    big = "x" * 1_000_000
    for text in (f"title: [{big}]\npuzzles: [{{id: a, kind: meld, cards: 7H 7S 7D}}]\n",
                 f"puzzles: [{{id: a, kind: meld, cards: 7H 7S 7D, difficulty: '{big}'}}]\n",
                 f"puzzles: [{{id: '{big}', kind: meld, cards: 7H XX 7D}}]\n",
                 f"puzzles: [{{id: a, kind: meld, cards: 7H 7S 7D, {big[:1000]}: 1}}]\n",
                 f"puzzles:\n  - id: a\n    kind: meld\n    cards: 7H 7S 7D\n    ? {big}\n    : 1\n",
                 f"puzzles: [{{id: a, kind: meld, cards: 7H 7S 7D, expect: [{', '.join(['1'] * 50_000)}]}}]\n",
                 f"rules: {{preset: classic, {big[:1000]}: 1}}\npuzzles: [{{id: a, kind: meld, cards: 7H 7S 7D}}]\n"):
        try:
            pset = parse_puzzle_set(text, "big.yaml")
            messages = [str(e) for e in pset.errors]
        except PuzzleError as e:
            messages = [str(e)]
        assert messages and all(len(m) <= MESSAGE_LIMIT + 150 for m in messages), [m[:400] for m in messages]


def test_cli_prints_one_short_line_per_bad_file(cli):
    files = sorted(BAD.glob("*.yaml"))
    r = cli("check", *map(str, files))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(files)
    for line in lines:
        assert len(line) <= LINE_LIMIT, line[:400]
        assert json.loads(line)["error"]
