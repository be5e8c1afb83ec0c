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


# --- the command line ------------------------------------------------------------------------------------------

def _clean_failure(r, *words):
    assert r.returncode == 2, (r.returncode, r.stdout[:300], r.stderr[:300])
    assert "Traceback" not in r.stderr and len(r.stderr) < LINE_LIMIT + 400, r.stderr[:500]
    for word in words:
        assert word in r.stderr, r.stderr


def test_generate_count_has_a_documented_cap(cli):
    from canasta_tutor import cli as cli_module
    from canasta_tutor.generator import MAX_COUNT

    assert cli_module.MAX_COUNT == MAX_COUNT
    _clean_failure(cli("generate", "meld", "--count", str(MAX_COUNT + 1)), "--count", "10000")
    _clean_failure(cli("generate", "meld", "--count", "9" * 5000), "--count", "out of range")
    _clean_failure(cli("generate", "meld", "--count", "0"), "--count")
    _clean_failure(cli("generate", "meld", "--count", "many"), "whole number")
    _clean_failure(cli("generate", "meld", "--difficulty", "1" * 4400), "--difficulty")
    assert "10,000" in cli("generate", "--help").stdout


def test_generate_seed_that_is_not_utf8(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "canasta_tutor.cli", "generate", "meld", "--count", "2", "--seed",
                        b"\xff\xfe"], capture_output=True, cwd=Path(__file__).parent.parent)
    stderr = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2 and "Traceback" not in stderr and "not valid UTF-8" in stderr, stderr
    assert r"\xff\xfe" in stderr


def test_generate_bad_seeds_in_the_api():
    from canasta_tutor.errors import CanastaError
    from canasta_tutor.generator import generate

    for seed in ("\udcff", "x" * 1000, 1.5, None, 10 ** 5000):
        with pytest.raises(CanastaError):
            generate("meld", count=1, seed=seed)
    for count in (0, -1, 10 ** 9, "3", None, 2.0, True):
        with pytest.raises(CanastaError):
            generate("meld", count=count)


def test_generate_to_an_empty_file_name_is_an_error(cli):
    r = cli("generate", "meld", "--count", "2", "-o", "")
    _clean_failure(r, "--output")
    assert r.stdout == ""


@pytest.mark.parametrize("port", ["99999", "0", "-1", "65536", "http", "9" * 5000])
def test_serve_checks_the_port_before_starting(cli, port):
    _clean_failure(cli("serve", "--no-browser", "--port", port), "--port")


def test_progress_never_creates_a_database(cli, tmp_path):
    target = tmp_path / "new" / "path" / "p.sqlite3"
    r = cli("progress", "--db", str(target))
    _clean_failure(r, "no progress database at", str(target))
    assert not (tmp_path / "new").exists()
    r = cli("progress", "--db", "")
    _clean_failure(r, "--db")
