"""Homework: assignments are checked puzzle sets stored beside the DB; progress comes from the attempts."""

from datetime import date

import pytest
import yaml

from canasta_tutor.classroom.assignments import AssignmentBook, puzzle_to_mapping
from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.puzzles.format import load_puzzle_set
from canasta_tutor.puzzles.solver import solve
from canasta_tutor.widgets.homework import AssignmentProgress, MyAssignments, NewAssignment

# The same meld under two presets (README): Hoyle allows three wild with three natural, Danish does not.
HOYLE = "title: Hoyle melds\nrules: hoyle\npuzzles:\n  - {id: m-1, kind: meld, cards: 9H 9S 9D 2C 2D JK}\n"
DANISH = ("title: Danish melds\nrules: danish\npuzzles:\n  - {id: m-1, kind: meld, cards: 9H 9S 9D 2C 2D JK}\n"
          "  - {id: pts, kind: card-points, cards: JK AS 5C}\n")


@pytest.fixture
def files(tmp_path):
    (tmp_path / "in").mkdir()
    hoyle, danish = tmp_path / "in" / "hoyle.yaml", tmp_path / "in" / "danish.yaml"
    hoyle.write_text(HOYLE, encoding="utf-8")
    danish.write_text(DANISH, encoding="utf-8")
    return hoyle, danish


@pytest.fixture
def book(db_url):
    return AssignmentBook(db_url)


def _attempt(db, learner, set_title, pid, correct):
    ProgressStore(db).record(learner=learner, puzzle_set=set_title, puzzle_id=pid, kind="meld", topic="melds",
                             difficulty=1, answer={}, correct=correct, seconds=1.0)


def test_assignment_from_files_is_a_checked_puzzle_set_beside_the_db(book, files, cli):
    made = book.create("Wild cards", sources=files, class_code="7B", due="2030-01-31")
    assert made.path.parent == book.folder and made.path.is_file()
    assert (made.title, made.class_code, made.due, made.count) == ("Wild cards", "7B", "2030-01-31", 3)
    assert made.puzzle_ids == ("m-1", "m-1-2", "pts")            # a clashing id gets a suffix
    pset = load_puzzle_set(made.path)
    assert pset.title == "Wild cards" and not pset.errors
    # each puzzle keeps its own rules: the same cards are a meld under Hoyle and not under the Danish rules
    answers = [solve(p).answer for p in pset.puzzles]
    assert answers[0]["valid"] is True and answers[1]["valid"] is False and answers[2] == {"points": 75}
    result = cli("check", str(made.path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert [a.id for a in book.list("7B")] == [made.id]
    assert book.get(made.id) == made


def test_assignment_from_the_generator(book):
    made = book.create("Take it", generate={"kind": "take-pile", "count": 4, "seed": 2, "difficulty": 3,
                                            "rules": "samba"})
    puzzles = made.puzzles()
    assert made.count == 4 and len(puzzles) == 4
    assert {p.kind for p in puzzles} == {"take-pile"} and {p.difficulty for p in puzzles} == {3}
    assert {p.rules.name for p in puzzles} == {"samba"}
    again = AssignmentBook(book.path).create("Take it again", generate={"kind": "take-pile", "count": 4, "seed": 2,
                                                                        "difficulty": 3, "rules": "samba"})
    assert [puzzle_to_mapping(p, rules=False) | {"id": ""} for p in again.puzzles()] == \
        [puzzle_to_mapping(p, rules=False) | {"id": ""} for p in puzzles]


@pytest.mark.parametrize("kwargs, message", [
    ({"title": " "}, "needs a title"),
    ({"title": "T", "due": "31/01/2030"}, "not a date"),
    ({"title": "T"}, "needs puzzles"),
    ({"title": "T", "generate": {"kind": "bridge"}}, "unknown puzzle kind"),
    ({"title": "T", "generate": {"kind": "meld", "count": 0}}, "at least 1"),
])
def test_bad_requests_say_what_is_wrong(book, kwargs, message):
    with pytest.raises(CanastaError, match=message):
        book.create(**kwargs)
    assert book.list() == []


def test_a_broken_file_is_named_and_titles_are_unique(book, tmp_path, files):
    broken = tmp_path / "broken.yaml"
    broken.write_text("title: x\npuzzles: [{id: a, kind: meld, cards: 7H 7X 7D}]\n")
    with pytest.raises(CanastaError, match=r"broken.yaml: puzzle 'a'.*7X"):
        book.create("T", sources=[broken])
    book.create("Once", sources=files[:1])
    with pytest.raises(CanastaError, match="already an assignment called 'Once'"):
        book.create("Once", sources=files[:1])


def test_progress_comes_from_the_attempts(book, files):
    made = book.create("Wild cards", sources=files)
    db = book.path
    _attempt(db, "ana", "Wild cards", "m-1", False)
    _attempt(db, "ana", "Wild cards", "m-1", True)       # tried again: the last try counts
    _attempt(db, "ana", "Wild cards", "pts", False)
    _attempt(db, "ana", "Danish melds", "m-1-2", True)   # another set: does not count
    _attempt(db, "bo", "Wild cards", "gone", True)       # not a puzzle of the assignment
    ana, bo = book.progress("ana", made), book.progress("bo", made)
    assert (ana.done, ana.right, ana.total, ana.complete) == (2, 1, 3, False)
    assert (bo.done, str(bo)) == (0, "0/3")
    _attempt(db, "ana", "Wild cards", "m-1-2", True)
    assert book.progress("ana", made).complete


def test_classes_see_their_own_and_everyones_assignments_soonest_due_first(book, files):
    later = book.create("Later", sources=files[:1], class_code="7B", due="2030-05-01")
    sooner = book.create("Sooner", sources=files[:1], class_code="7B", due="2030-02-01")
    everyone = book.create("Everyone", sources=files[:1])
    other = book.create("Other class", sources=files[:1], class_code="8A")
    assert [a.title for a in book.list("7B")] == ["Sooner", "Later", "Everyone"]
    assert [a.title for a in book.list("")] == ["Everyone"]
    assert {a.id for a in book.list()} == {later.id, sooner.id, everyone.id, other.id}


def test_completion_table(book, files):
    first = book.create("First", sources=files[:1])
    book.create("Second", sources=files[1:])
    _attempt(book.path, "bo", "First", "m-1", True)
    _attempt(book.path, "ana", "Second", "pts", False)
    frame = book.completion()
    assert list(frame.index) == ["ana", "bo"] and list(frame.columns) == ["First", "Second"]
    assert frame.loc["bo", "First"] == "1/1" and frame.loc["ana", "Second"] == "1/2"
    assert frame.loc["ana", "First"] == "0/1"
    assert book.completion(learners=["cy"]).loc["cy", "First"] == "0/1"
    assert first.count == 1


def test_my_assignments_lists_progress_and_opens_a_trainer(book, files):
    made = book.create("Wild cards", sources=files, class_code="7B", due="2030-01-31")
    view = MyAssignments(learner="ana", class_code="7B", path=book.path, today=date(2030, 2, 5))
    text = view.list_box.children[0].children[0].value
    assert "Wild cards" in text and "0 of 3 done" in text and "due 2030-01-31 (late)" in text
    view.open_buttons[made.id].click()
    trainer = view.trainer
    assert trainer is not None and trainer in view.area.children
    assert trainer.puzzle.id == "m-1" and trainer.puzzle.rules.name == "hoyle"
    assert trainer.answer((True, "none")) is True                # hand-worked: a legal meld under Hoyle
    trainer.next()
    assert trainer.puzzle.id == "m-1-2"
    view.close_trainer()
    text = view.list_box.children[0].children[0].value
    assert "1 of 3 done · 1 right" in text
    assert view.open_buttons[made.id].description == "Go on"
    again = MyAssignments(learner="ana", class_code="7B", path=book.path).open_assignment(made.id)
    assert again.puzzle.id == "m-1-2"                            # answered puzzles are not asked again
    assert MyAssignments(learner="ana", class_code="8A", path=book.path).assignments() == []


def test_assignment_progress_table_widget(book, files):
    made = book.create("Wild cards", sources=files, class_code="7B")
    empty = AssignmentProgress(class_code="7B", path=book.path)
    assert "Nobody has started" in empty.table.value
    _attempt(book.path, "ana", "Wild cards", "m-1", True)
    panel = AssignmentProgress(class_code="7B", path=book.path, learners=["ana", "bo"])
    assert f"data-learner='ana' data-assignment='{made.id}'" in panel.table.value
    assert "data-done='1' data-right='1'" in panel.table.value and "data-done='0' data-right='0'" in panel.table.value
    assert ">1/3</span> · <span class='ct-right'" in panel.table.value and ">1 right</span>" in panel.table.value
    _attempt(book.path, "bo", "Wild cards", "m-1", False)   # done, not right: the grid tells the two apart
    panel.refresh()
    assert f"data-learner='bo' data-assignment='{made.id}' data-done='1' data-right='0'" in panel.table.value


def test_new_assignment_form(book, files):
    made = []
    form = NewAssignment(class_code="7B", path=book.path, puzzle_dir=files[0].parent, on_created=made.append)
    assert [label for label, _v in form.files.options] == ["danish.yaml", "hoyle.yaml"]
    assert form.create() is None and "choose at least one puzzle file" in form.message.value
    form.title.value = "From files"
    form.files.value = (str(files[1]),)
    form.due.value = date(2030, 3, 1)
    first = form.create()
    assert first.count == 2 and first.due == "2030-03-01" and first.class_code == "7B" and made == [first]
    form.source.value = "gen"
    assert form.files.layout.display == "none" and form.generator_box.layout.display == ""
    form.title.value = "Made"
    form.kind.value, form.count.value, form.difficulty.value = "score-hand", 3, 2
    second = form.create()
    assert second.count == 3 and {p.kind for p in second.puzzles()} == {"score-hand"}
    assert form.create() is None and "already an assignment" in form.message.value


def test_cli_assign(cli, tmp_path, files):
    db = tmp_path / "cli" / "p.sqlite3"
    out = tmp_path / "copy.yaml"
    result = cli("assign", "--title", "Week 1", "--due", "2030-01-31", "--class", "7B", "--db", str(db),
                 "-o", str(out), *map(str, files))
    assert result.returncode == 0, result.stderr
    assert "'Week 1' for class 7B, due 2030-01-31, 3 puzzles" in result.stdout
    assert yaml.safe_load(out.read_text())["title"] == "Week 1"
    result = cli("assign", "--title", "Gen", "--generate", "meld", "--count", "2", "--seed", "4", "--difficulty",
                 "2", "--rules", "danish", "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert [(a.title, a.count, a.class_code) for a in AssignmentBook(db).list()] == [("Week 1", 3, "7B"),
                                                                                     ("Gen", 2, "")]


@pytest.mark.parametrize("args, words", [
    (["--title", "T"], "one of the two"),
    (["--title", "T", "--generate", "meld", "FILE"], "one of the two"),
    (["--title", "T", "--due", "tomorrow", "--generate", "meld"], "not a date"),
    (["--title", "T", "--generate", "bridge"], "unknown puzzle kind"),
    (["--title", "T", "missing.yaml"], "cannot read the file"),
])
def test_cli_assign_errors_exit_2(cli, tmp_path, args, words):
    result = cli("assign", *args, "--db", str(tmp_path / "p.sqlite3"), cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr


def test_every_project_puzzle_survives_being_written_into_an_assignment(root):
    """puzzle -> mapping -> YAML -> puzzle gives the same situation, rules and author's answer."""
    from canasta_tutor.classroom.assignments import set_to_yaml
    from canasta_tutor.puzzles.format import parse_puzzle_set
    from canasta_tutor.widgets.trainer import load_puzzles

    puzzles, problems = load_puzzles(root / "puzzles")
    assert not problems and len(puzzles) > 200
    house = parse_puzzle_set("title: h\npuzzles:\n  - {id: h, kind: take-pile, hand: 7H 7S, melds: [], score: 0, "
                             "pile: 5D 7C, rules: {preset: danish, pile_always_frozen: true, "
                             "opening_table: [[null, 15], [0, 60]]}}\n").puzzles
    back = parse_puzzle_set(set_to_yaml("all", puzzles + house), "all.yaml")
    assert not back.errors and len(back.puzzles) == len(puzzles) + 1
    for before, after in zip(puzzles + house, back.puzzles):
        assert (after.kind, after.situation, after.rules, after.expect, after.difficulty, after.topic,
                after.prompt) == (before.kind, before.situation, before.rules, before.expect, before.difficulty,
                                  before.topic, before.prompt), before.id
    assert back.puzzles[-1].rules.pile_always_frozen and back.puzzles[-1].rules.opening_minimum(0) == 60
