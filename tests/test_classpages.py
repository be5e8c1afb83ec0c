"""The classroom's pages headless: the teacher's tabs (live puzzle, homework with the roster, worksheets), a
signed-in learner's corner of the landing page, and the teacher-only worksheet PDFs."""

from __future__ import annotations

import json
import re
import shutil

import ipywidgets as widgets
import pytest

from canasta_tutor.classroom.assignments import AssignmentBook
from canasta_tutor.classroom.live import LiveClass
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.web.app import worksheet_for
from canasta_tutor.widgets import identity
from canasta_tutor.widgets.classpages import (
    HomeworkPanel,
    WorksheetLinks,
    assignments_state,
    learner_corner,
    teacher_page,
)


@pytest.fixture
def room(db_url):
    r = Classroom(db_url)
    r.set_code("blue7")
    return r


@pytest.fixture
def sign(monkeypatch):
    monkeypatch.delenv(identity.ENV, raising=False)

    def as_(name, *, class_id=None, teacher=False):
        monkeypatch.setenv(identity.ENV, json.dumps({"name": name, "learner_id": 1, "class_id": class_id,
                                                     "teacher": teacher}))
    return as_


def test_the_teacher_page_is_refused_to_a_learner(room, sign):
    ana = room.join("Ana", "blue7").learner
    sign("Ana", class_id=ana["class_id"])
    page = teacher_page(classroom=room, refresh=0, auto=False)
    assert not isinstance(page, widgets.Tab)
    assert "for the teacher" in page.children[0].value


def test_the_teacher_page_has_four_tabs_for_the_open_class(room, sign, root):
    room.join("Ana", "blue7")
    room.join("Bo", "blue7")
    sign("teacher", teacher=True)
    page = teacher_page(classroom=room, refresh=0, auto=False, join_urls=[])
    assert isinstance(page, widgets.Tab)
    assert [page.get_title(i) for i in range(4)] == ["Class", "Live puzzle", "Homework", "Worksheets"]
    assert page.live.class_code == "blue7" and page.homework.class_code == "blue7"
    # an assignment made in the Homework tab: everyone of the roster shows, 0 done before they start
    form = page.homework.form
    form.title.value = "Week 1"
    form.files.value = (str(root / "puzzles" / "05-take-pile.yaml"),)
    made = form.create()
    assert made is not None and made.class_code == "blue7"
    table = page.homework.progress.table.value
    assert "Ana" in table and "Bo" in table and f"0/{made.count}" in table
    # ... and can be printed from the Worksheets tab
    assert ("Assignment: Week 1", f"assignment/{made.id}") in page.worksheets.choice.options
    # a learner who joins later appears at the next refresh
    room.join("Cy", "blue7")
    page.homework.refresh()
    assert "Cy" in page.homework.progress.table.value



def test_after_a_new_class_the_live_homework_and_worksheet_tabs_follow_it_at_once(room, sign, root):
    sign("teacher", teacher=True)
    page = teacher_page(classroom=room, refresh=0, auto=False, join_urls=[])
    old_live = page.live
    page.homework.form.title.value = "Old class's homework"
    page.homework.form.files.value = (str(root / "puzzles" / "05-take-pile.yaml"),)
    assert page.homework.form.create() is not None
    page.dashboard.code_box.value = "green3"
    page.dashboard.new_button.click()  # asks to confirm
    assert page.live is old_live
    page.dashboard.new_button.click()
    assert room.current().code == "green3"
    assert page.live.class_code == "green3" and "green3" in page.live.children[0].value
    assert page.homework.class_code == "green3" and page.homework.form.class_code == "green3"
    assert page.worksheets.class_code == "green3"
    assert not any(label.startswith("Assignment:") for label, _v in page.worksheets.choice.options)
    assert list(page.children) == [page.dashboard, page.live, page.homework, page.worksheets]
    assert [page.get_title(i) for i in range(4)] == ["Class", "Live puzzle", "Homework", "Worksheets"]

def test_a_learners_answers_show_in_the_completion_of_the_roster(room, root):
    book = AssignmentBook(room.path)
    made = book.create("Pile", sources=[root / "puzzles" / "05-take-pile.yaml"], class_code="blue7")
    room.join("Ana", "blue7")
    room.join("Bo", "blue7")
    room.store.record(learner="Ana", puzzle_set=made.set_title, puzzle_id=made.puzzle_ids[0], kind="take-pile",
                      topic="taking the pile", difficulty=1, answer={"take": True}, correct=True, seconds=1)
    panel = HomeworkPanel("blue7", classroom=room, path=room.path, refresh=0)
    cells = set(re.findall(r"data-learner='([^']*)' data-assignment='\d+' data-done='(\d+)' data-right='(\d+)'.*?"
                           r"<span class='ct-done'>([^<]*)</span>", panel.progress.table.value))
    assert cells == {("Ana", "1", "1", f"1/{made.count}"), ("Bo", "0", "0", f"0/{made.count}")}


def test_nobody_or_the_teacher_gets_no_learner_corner(room, sign):
    assert learner_corner(path=room.path, auto=False) is None
    sign("teacher", teacher=True)
    assert learner_corner(path=room.path, auto=False) is None


def test_a_learner_sees_the_live_puzzle_of_their_class_and_their_assignments(room, sign, root):
    ana = room.join("Ana", "blue7").learner
    book = AssignmentBook(room.path)
    book.create("Ours", sources=[root / "puzzles" / "04-freezing.yaml"], class_code="blue7")
    book.create("Theirs", sources=[root / "puzzles" / "04-freezing.yaml"], class_code="red2")
    from canasta_tutor.puzzles.format import puzzle_from_mapping

    LiveClass("blue7", room.path).send(puzzle_from_mapping({"id": "f-1", "kind": "freeze", "pile": "5H 2C 9S",
                                                            "melds": ["KH KS KD"]}))
    room.new_class("red2")  # the class the learner signed in to is looked up by its id, not "the open one"
    sign("Ana", class_id=ana["class_id"])
    corner = learner_corner(path=room.path, auto=False)
    assert corner.live.learner == "Ana" and corner.live.class_code == "blue7"
    assert corner.live.puzzle.id == "f-1"  # a late joiner gets the current puzzle
    titles = [a.title for a in corner.homework.assignments()]
    assert titles == ["Ours"] and corner.homework.learner == "Ana"
    assert assignments_state(corner.homework)[0][3] == "0/" + str(len(book.get(1).puzzle_ids))


def test_the_learner_is_who_signed_in_not_what_the_browser_types(room, sign):
    ana = room.join("Ana", "blue7").learner
    sign("Ana", class_id=ana["class_id"])
    corner = learner_corner(path=room.path, auto=False)
    from canasta_tutor.puzzles.format import puzzle_from_mapping

    LiveClass("blue7", room.path).send(puzzle_from_mapping({"id": "f-2", "kind": "freeze", "pile": "5H 2C 9S",
                                                            "melds": ["KH KS KD"]}))
    corner.live.refresh()
    corner.live.trainer.name_box.value = "Mallory"  # what a browser could send through the widget's state
    assert corner.live.answer(True) is True
    assert [a.learner for a in LiveClass("blue7", room.path).answers()] == ["Ana"]


def test_worksheets_of_a_set_and_of_an_assignment(room, root):
    plain_title, plain = worksheet_for("set", "04-freezing")
    keyed_title, keyed = worksheet_for("set", "04-freezing", answers=True)
    assert plain[:5] == b"%PDF-" and keyed[:5] == b"%PDF-"
    assert keyed.count(b"/Type /Page\n") > plain.count(b"/Type /Page\n") and keyed_title.endswith("-answers")
    made = AssignmentBook(room.path).create("Week 2: go out", sources=[root / "puzzles" / "06-go-out.yaml"])
    title, data = worksheet_for("assignment", str(made.id), path=room.path)
    assert title == "Week-2-go-out" and data[:5] == b"%PDF-"
    for kind, name in (("set", "nope"), ("assignment", "99"), ("assignment", "x"), ("file", "04-freezing")):
        with pytest.raises(LookupError):
            worksheet_for(kind, name, path=room.path)


def test_a_worksheet_name_is_looked_up_never_followed_as_a_path(tmp_path, root):
    sets = tmp_path / "sets"
    sets.mkdir()
    shutil.copy(root / "puzzles" / "04-freezing.yaml", sets / "04-freezing.yaml")
    shutil.copy(root / "puzzles" / "06-go-out.yaml", tmp_path / "private.yaml")  # a set outside the folder
    assert worksheet_for("set", "04-freezing", puzzle_dir=sets)[1][:5] == b"%PDF-"
    for name in ("../private", "..%2Fprivate", str(tmp_path / "private")):
        with pytest.raises(LookupError):
            worksheet_for("set", name, puzzle_dir=sets)


def test_worksheet_links_point_at_the_teacher_route(room, root):
    links = WorksheetLinks("blue7", path=room.path)
    assert links.choice.value == "set/01-card-points"
    assert "/classroom/worksheet/set/01-card-points.pdf'" in links.links.value
    assert "/classroom/worksheet/set/01-card-points.pdf?answers=1'" in links.links.value
    made = AssignmentBook(room.path).create("HW", sources=[root / "puzzles" / "06-go-out.yaml"],
                                            class_code="blue7")
    links.refresh()
    links.choice.value = f"assignment/{made.id}"
    assert f"/classroom/worksheet/assignment/{made.id}.pdf" in links.links.value
