"""Bad input and faults: every reproducer from issue 7 gets a short, clear message and never a traceback.

The hand-made files are in ``tests/bad_inputs/``; larger ones are generated here.
"""

import json
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import canasta_tutor as ct
from canasta_tutor.engine.errors import MESSAGE_LIMIT, CanastaError, PuzzleError
from canasta_tutor.puzzles.format import parse_puzzle_set

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
    assert "card 2, XX, is not a card: write a rank" in message and error.field == "cards"


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
    from canasta_tutor.puzzles.generator import MAX_COUNT

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
    from canasta_tutor.engine.errors import CanastaError
    from canasta_tutor.puzzles.generator import generate

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


# --- junk through the public API -------------------------------------------------------------------------------
# The probe: 604 of 31,500 calls with None or numbers for ``melds``, ``hands`` or ``score`` raised
# TypeError instead of a CanastaError: every public check normalises a list of groups with ``melds.as_groups``
# and a score through ``RuleSet.opening_minimum``, which raise the project's errors.

_JUNK = st.one_of(st.none(), st.integers(), st.floats(), st.booleans(), st.builds(object),
                  st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
_CALLS = {
    "check_take_pile": (lambda **kw: ct.check_take_pile(**{"hand": "7H 7S", "melds": [], "score": 0, "pile": "7C",
                                                           **kw}), ("melds", "score")),
    "check_go_out": (lambda **kw: ct.check_go_out(**{"hand": "7H 7S 7D", "melds": [], "score": 0, **kw}),
                     ("melds",)),  # its score is read only where a minimum applies, never here: left out
    "check_opening": (lambda **kw: ct.check_opening(**{"melds": ["KH KS KD"], "score": 0, **kw}), ("melds", "score")),
    "check_frozen": (lambda **kw: ct.check_frozen(**{"pile": "7C", "melds": [], **kw}), ("melds",)),
    "score_hand": (lambda **kw: ct.score_hand(**{"melds": ["KH KS KD"], "hands": [], **kw}), ("melds", "hands")),
    "check_team_melds": (lambda **kw: ct.check_team_melds(**{"melds": ["KH KS KD"], **kw}), ("melds",)),
}
_CASES = [pytest.param(name, arg, id=f"{name}-{arg}") for name, (_call, args) in _CALLS.items() for arg in args]


@pytest.mark.parametrize("name, arg", _CASES)
@given(junk=_JUNK)
def test_junk_for_a_list_of_groups_or_a_score_is_a_canasta_error(name, arg, junk):
    call, _args = _CALLS[name]
    if arg == "score" and isinstance(junk, int) and not isinstance(junk, bool):
        return  # any whole number is a score
    if arg != "score" and junk is None:
        return  # None means "none" for a group list, as for a group (parse_cards(None) == ())
    try:
        call(**{arg: junk})
    except CanastaError as e:
        assert len(str(e)) < 400


# --- the practice page's Start with a broken progress database ----------------------------------------------------

def _practice_room_start(monkeypatch, db):
    from canasta_tutor.classroom.progress import ENV_VAR
    from canasta_tutor.widgets.trainer import PracticeRoom

    monkeypatch.setenv(ENV_VAR, str(db))
    room = PracticeRoom(str(Path(__file__).parent.parent / "puzzles" / "02-melds.yaml"), learner="ana")
    room.begin()  # must not raise
    assert room.trainer is not None and room.trainer.puzzle is not None
    return room.trainer


def test_start_with_a_damaged_database(monkeypatch, tmp_path):
    db = tmp_path / "p.sqlite3"
    db.write_bytes(b"\0garbage" * 1000)
    trainer = _practice_room_start(monkeypatch, db)
    assert trainer.store is None and str(db) in trainer._store_problem


def test_start_with_a_foreign_database(monkeypatch, tmp_path):
    import sqlite3

    db = tmp_path / "p.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE attempts (who TEXT)")
    trainer = _practice_room_start(monkeypatch, db)
    assert trainer.store is None and "not a canasta-tutor progress database" in trainer._store_problem


def test_start_with_a_bad_json_row(monkeypatch, tmp_path):
    import sqlite3

    from canasta_tutor.classroom.progress import ProgressStore

    db = tmp_path / "p.sqlite3"
    ProgressStore(db)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO attempts (learner, puzzle_set, puzzle_id, kind, topic, difficulty, answer, correct, "
                     "seconds, timestamp) VALUES ('ana', 'Melds', 'x', 'meld', 'melds', 1, '{oops', 0, 1, 'now')")
    trainer = _practice_room_start(monkeypatch, db)
    assert trainer.store is not None and not trainer._store_problem
    assert [a.puzzle_id for a in trainer.practice.history] == ["x"]


def test_file_names_that_are_not_utf8(tmp_path):
    import os
    import subprocess
    import sys

    root = Path(__file__).parent.parent
    name = os.fsencode(tmp_path) + b"/\xff.yaml"
    with open(name, "wb") as f:
        f.write((root / "puzzles" / "02-melds.yaml").read_bytes())
    for args in ([b"solve", name], [b"check", name + b"x"], [b"generate", b"meld", b"-o", b"/nonexistent/\xff.yaml"],
                 [b"progress", b"--db", name + b"x"]):
        r = subprocess.run([sys.executable, "-m", "canasta_tutor.cli", *args], capture_output=True, cwd=root)
        stderr = r.stderr.decode("utf-8")
        assert "Traceback" not in stderr and r.returncode in (0, 2), (args, stderr[-500:])
        for line in r.stdout.decode("utf-8").splitlines():
            assert "\udcff" in json.loads(line)["file"]  # valid JSON, the bad byte escaped


# --- near-valid files: whatever the edit, a PuzzleError or a puzzle the engine answers or refuses cleanly ------

_NEAR = (Path(__file__).parent.parent / "puzzles" / "05-take-pile.yaml").read_text("utf-8")[:3000]
_NEAR = _NEAR[: _NEAR.rfind("\n  - ")] + "\n"


@given(edits=st.lists(st.tuples(st.integers(0, len(_NEAR) - 1), st.integers(0, 8),
                                st.sampled_from(["", "&a ", "*a", "9" * 30, "- ", ": ", "{", "]", "\n", "  ", "null",
                                                 "JK", "3H", "-1", "puzzles:", "'", "\t", "\x1b", "~", "[]",
                                                 "!!timestamp x", "!!int y", "!!bool q", "!!binary aGk=", "!!set {a}",
                                                 "2001-12-14", "!!python/object:os.system", "---\n"])),
                      min_size=1, max_size=4))
def test_near_valid_files_fail_cleanly(edits):
    from canasta_tutor.puzzles.solver import solve

    text = _NEAR
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut:]
    try:
        pset = parse_puzzle_set(text, "near.yaml")
    except PuzzleError as e:
        assert len(str(e)) <= MESSAGE_LIMIT + 100
        return
    for error in pset.errors:
        assert len(str(error)) <= MESSAGE_LIMIT + 150
    for puzzle in pset:
        try:
            solve(puzzle)
        except CanastaError as e:
            assert len(str(e)) < 1000


@pytest.mark.parametrize("value, words", [("!!timestamp x", "!!timestamp"), ("2001-12-14", "!!timestamp"),
                                          ("!!binary aGk=", "!!binary"), ("!!set {a}", "!!set"),
                                          ("!!python/object:os.system x", "python/object"),
                                          ("!!int x", "could not be read"), ("!!bool maybe", "could not be read")])
def test_yaml_types_a_puzzle_file_never_uses(value, words):
    message = str(_excinfo(f"title: {value}\npuzzles: [{{id: a, kind: meld, cards: 7H 7S 7D}}]\n"))
    assert words in message and len(message) < MESSAGE_LIMIT


def test_a_locked_database_does_not_hold_up_or_lose_the_learners_answer(tmp_path):
    import sqlite3

    from canasta_tutor.classroom.progress import ProgressStore
    from canasta_tutor.widgets.trainer import Trainer

    db = tmp_path / "p.sqlite3"
    store = ProgressStore(db, busy_seconds=0.2)
    trainer = Trainer(str(Path(__file__).parent.parent / "puzzles" / "02-melds.yaml"), learner="ana", store=store,
                      endless=False)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
    start = time.perf_counter()
    trainer.answer((True, "none"))
    assert time.perf_counter() - start < 3  # not the 30 s of before
    assert store.pending() == 1
    holder.execute("ROLLBACK")
    holder.close()
    trainer.next()
    trainer.answer((False, "none"))
    assert store.pending() == 0 and len(store.history("ana")) == 2


@pytest.mark.parametrize("call", ["take-pile", "opening"])
def test_a_score_of_5000_digits_is_a_canasta_error(call):
    score = 10 ** 5000
    with pytest.raises(CanastaError):
        if call == "take-pile":
            _ = ct.check_take_pile("7H 7S", melds=[], score=score, pile="7C").sentence
        else:
            _ = ct.check_opening(["KH KS KD"], score=score).sentence


# --- junk through the entry points this branch owns ---------------------------------------------------------

def test_junk_through_the_loader_generator_practice_and_store(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # ProgressStore('x') makes a database named x: never in the project's folder
    from canasta_tutor.classroom.progress import ProgressStore, clean_name
    from canasta_tutor.puzzles.format import load_puzzle_set, parse_rules, puzzle_from_mapping
    from canasta_tutor.puzzles.generator import generate, rules_value
    from canasta_tutor.puzzles.practice import Practice

    calls = {
        "parse_puzzle_set": parse_puzzle_set, "load_puzzle_set": load_puzzle_set,
        "puzzle_from_mapping": puzzle_from_mapping,
        "puzzle rules": lambda j: puzzle_from_mapping({"id": "a", "kind": "meld", "cards": "7H 7S 7D"}, rules=j),
        "parse_rules": parse_rules, "generate kind": lambda j: generate(j, count=1),
        "generate rules": lambda j: generate("meld", count=1, rules=j),
        "generate difficulty": lambda j: generate("meld", count=1, difficulty=j), "rules_value": rules_value,
        "Practice": lambda j: Practice(j).next(), "Practice topics": lambda j: Practice([], topics=j).next(),
        "Practice history": lambda j: Practice([], history=j).next(),
        "ProgressStore": lambda j: ProgressStore(j) if j is not None else None, "clean_name": clean_name,
    }
    junk = [None, 5, 3.5, True, [], {}, [None], b"bytes", object(), "x", {"id": 5}, [5], 10 ** 5000]
    escaped = []
    for name, call in calls.items():
        for value in junk:
            try:
                call(value)
            except CanastaError as e:
                assert len(str(e)) < 400, (name, str(e)[:400])
            except Exception as e:  # noqa: BLE001 - the point of the test
                escaped.append(f"{name}({clip_repr(value, 20)}): {type(e).__name__}: {clip(str(e), 60)}")
    assert not escaped, escaped


from canasta_tutor.engine.errors import clip, clip_repr  # noqa: E402
