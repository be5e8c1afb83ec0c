"""Progress belongs to the learner's id within the class, not to a name (issue 17 §1), on SQLite and PostgreSQL:
homework (the learner's list, the teacher's grid, the gradebook's columns), live-puzzle answers, a merge that
keeps every answer, and migration 0003, which gives the live answers kept by name before it their learner."""
from __future__ import annotations

import csv
import io

import sqlalchemy as sa

from canasta_tutor.classroom import db
from canasta_tutor.classroom.accounts import Roster
from canasta_tutor.classroom.assignments import AssignmentBook
from canasta_tutor.classroom.downloads import class_export
from canasta_tutor.classroom.live import LiveClass
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.puzzles.format import puzzle_from_mapping
from canasta_tutor.puzzles.solver import solve

FREEZE = {"id": "f-1", "kind": "freeze", "pile": "5H 2C 9S", "melds": ["KH KS KD"]}


def homework(room, book, who: dict, assignment, puzzle_ids, correct: bool = True) -> None:
    for puzzle in assignment.puzzles():
        if puzzle.id in puzzle_ids:
            room.store.record(learner=who["name"], puzzle_set=assignment.set_title, puzzle_id=puzzle.id,
                              kind=puzzle.kind, topic="taking the pile", difficulty=1, answer={}, correct=correct,
                              seconds=2.0, learner_id=who["learner_id"])


def right_answer(puzzle) -> dict:
    return dict(solve(puzzle).answer)


def test_a_new_ana_under_the_same_class_code_meets_neither_the_old_anas_homework_nor_her_live_answer(db_url):
    from canasta_tutor.widgets.homework import MyAssignments

    room = Classroom(db_url)
    room.set_code("7B")
    book = AssignmentBook(db_url)
    week = book.create("Week 1", generate={"kind": "take-pile", "count": 3, "seed": 5}, class_code="7B")
    old = room.join("Ana", "7B").learner
    homework(room, book, old, week, week.puzzle_ids[:2])
    live = LiveClass("7B", db_url)
    sent = live.send(puzzle_from_mapping(FREEZE))
    assert live.answer("Ana", right_answer(sent.puzzle), learner_id=old["learner_id"])
    room.new_class("7B")  # next term: the same code, and another Ana
    new = room.join("Ana", "7B").learner
    assert book.progress("Ana", week, learner_id=new["learner_id"]).done == 0
    assert book.progress("Ana", week, learner_id=old["learner_id"]).done == 2
    mine = MyAssignments("Ana", "7B", path=db_url, learner_id=new["learner_id"])
    assert "0 of 3 done" in mine.list_box.children[0].children[0].value
    grid = book.results("7B", class_id=room.current().id)
    assert grid[["learner", "done"]].values.tolist() == [["Ana", 0]]
    assert live.answer_of("Ana", sent.id, learner_id=new["learner_id"]) is None  # not "you answered already"
    assert live.answer("Ana", right_answer(sent.puzzle), learner_id=new["learner_id"])
    assert {a.learner_id for a in live.answers(sent.id)} == {old["learner_id"], new["learner_id"]}


def test_merging_two_names_keeps_every_answer_including_homework_and_live(db_url):
    room = Classroom(db_url)
    book = AssignmentBook(db_url)
    week = book.create("Week 1", generate={"kind": "take-pile", "count": 3, "seed": 5})
    zed, zed2 = room.join("Zed").learner, room.join("Zed 2").learner
    homework(room, book, zed, week, week.puzzle_ids[:1])
    homework(room, book, zed2, week, week.puzzle_ids[1:3])  # finished the homework as "Zed 2"
    live = LiveClass("", db_url)
    first = live.send(puzzle_from_mapping(FREEZE))
    live.answer("Zed 2", right_answer(first.puzzle), learner_id=zed2["learner_id"])
    second = live.send(puzzle_from_mapping({**FREEZE, "id": "f-2"}))
    live.answer("Zed", {"frozen": False}, learner_id=zed["learner_id"])  # both names answered this one
    live.answer("Zed 2", {"frozen": True}, learner_id=zed2["learner_id"])
    assert Roster(room).merge(zed["learner_id"], zed2["learner_id"])
    assert book.progress("Zed", week, learner_id=zed["learner_id"]).done == 3
    grid = book.results("", class_id=room.current().id)
    assert grid[["learner", "done", "complete"]].values.tolist() == [["Zed", 3, True]]
    assert [(a.learner, a.learner_id) for a in live.answers(first.id)] == [("Zed", zed["learner_id"])]
    assert [(a.learner, a.answer) for a in live.answers(second.id)] == [("Zed", {"frozen": False})]  # the first
    assert live.answer_of("Zed 2", first.id, learner_id=zed2["learner_id"]) is not None  # a page still open as Zed 2
    rows = list(csv.DictReader(io.StringIO(class_export(room, "learners.csv").body.decode("utf-8-sig"))))
    assert [(r["learner"], r["Week 1: done (of 3)"], r["live answers"]) for r in rows] == [("Zed", "3", "0")]


def test_renaming_keeps_the_live_answers_by_id(db_url):
    room = Classroom(db_url)
    bob = room.join("Ana").learner
    live = LiveClass("", db_url)
    sent = live.send(puzzle_from_mapping(FREEZE))
    live.answer("Ana", {"frozen": True}, learner_id=bob["learner_id"])
    assert Roster(room).rename(bob["learner_id"], "Bob")
    ana = room.join("Ana").learner  # the real Ana comes: she has not answered
    assert live.answer_of("Ana", sent.id, learner_id=ana["learner_id"]) is None
    assert live.answer_of("Bob", sent.id, learner_id=bob["learner_id"]).learner == "Bob"


def test_migration_0003_gives_the_live_answers_kept_by_name_their_learner(db_url):
    """A database at 0002 (live answers keyed by name and class code): after the upgrade each answer is its
    learner's, the one of the class open under that code when it was answered; every row is carried over."""
    from pathlib import Path

    from alembic import command
    from alembic.config import Config

    room = Classroom(db_url)  # at head; taken down to 0002, filled as the old code did, brought up again
    where = db.target(db_url)
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).with_name("migrations")))

    def run(step, revision):
        with db.engine(where).connect() as conn:
            conn.info["write"] = True
            with conn.begin():
                config.attributes["connection"] = conn
                step(config, revision)
            conn.info.pop("write", None)

    run(command.downgrade, "0002")
    with db.engine(where).connect() as conn:
        assert "learner_id" not in {c["name"] for c in sa.inspect(conn).get_columns("live_answers")}
    if where.kind == "postgresql":  # the key's name in a database that 0001 made
        with room.store._begin(write=True) as conn:
            conn.execute(sa.text("ALTER TABLE live_answers RENAME CONSTRAINT live_answers_0002_pkey "
                                 "TO live_answers_pkey"))
    room.set_code("7B")
    old_ana = room.join("Ana", "7B").learner
    lp = sa.table("live_puzzles", sa.column("id"), sa.column("class_code"), sa.column("puzzle"),
                  sa.column("set_title"), sa.column("sent_at"))
    la = sa.table("live_answers", sa.column("live_id"), sa.column("learner"), sa.column("answer"),
                  sa.column("correct"), sa.column("answered_at"))
    created = "2026-09-01T09:00:00+00:00"  # the first class began in September; Ana answered that day
    with room.store._begin(write=True) as conn:
        conn.execute(sa.text("UPDATE classes SET created = :c"), {"c": "2026-09-01T08:00:00+00:00"})
        first = conn.execute(lp.insert().values(class_code="7B", puzzle="{}", set_title="live", sent_at=created)
                             .returning(lp.c.id)).scalar_one()
        conn.execute(la.insert().values(live_id=first, learner="Ana", answer="{}", correct=1, answered_at=created))
        conn.execute(la.insert().values(live_id=first, learner="Guest", answer="{}", correct=0, answered_at=created))
    later = room.new_class("7B")
    new_ana = room.join("Ana", "7B").learner
    with room.store._begin(write=True) as conn:
        second = conn.execute(lp.insert().values(class_code="7B", puzzle="{}", set_title="live",
                                                 sent_at=later.created).returning(lp.c.id)).scalar_one()
        conn.execute(la.insert().values(live_id=second, learner="Ana", answer="{}", correct=1,
                                        answered_at=later.created + "Z"))
    run(command.upgrade, "head")
    with room.store._begin() as conn:
        rows = conn.execute(sa.text("SELECT live_id, learner, learner_id FROM live_answers ORDER BY live_id, learner"))
        assert [tuple(r) for r in rows] == [(first, "Ana", old_ana["learner_id"]), (first, "Guest", None),
                                            (second, "Ana", new_ana["learner_id"])]
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == db.HEAD_REVISION
