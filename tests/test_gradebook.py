"""Exports a gradebook can take (canasta_tutor/classroom/gradebook.py through downloads.class_export): no cell a
spreadsheet runs, homework done and right, accuracy per topic, live answers marked and left out of accuracy unless
asked, answers in words, times in the teacher's zone with an ISO column, a workbook that is ready to read."""

from __future__ import annotations

import csv
import io
import zipfile

import openpyxl
import pytest

from canasta_tutor.classroom.assignments import AssignmentBook
from canasta_tutor.classroom.downloads import class_export
from canasta_tutor.classroom.gradebook import FORMULA_START, is_formula_like, neutral
from canasta_tutor.classroom.live import LiveClass
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.puzzles.format import puzzle_from_mapping

EVIL = '=HYPERLINK("http://e.io/x","Fix")'
PLUS, AT, MINUS = "+Ana 1", "@Bo", "-Cy"


@pytest.fixture
def room(tmp_path, monkeypatch):
    monkeypatch.setenv("CANASTA_TUTOR_FILES", str(tmp_path / "files"))
    monkeypatch.delenv("CANASTA_TUTOR_TIMEZONE", raising=False)
    return Classroom(str(tmp_path / "p.sqlite3"))


def record(room, learner, pid, right, *, topic="taking the pile", kind="take-pile", answer=None, pset="S",
           when="2026-03-02T08:30:00+00:00"):
    room.store.record(learner=learner, puzzle_set=pset, puzzle_id=pid, kind=kind, topic=topic, difficulty=1,
                      answer=answer if answer is not None else {"take": right}, correct=right, seconds=2,
                      timestamp=when)


def rows(download) -> list[dict]:
    return list(csv.DictReader(io.StringIO(download.body.decode("utf-8-sig"))))


def test_the_owasp_list_is_neutralised_and_other_text_kept():
    assert FORMULA_START == ("=", "+", "-", "@", "\t", "\r")
    for bad in (EVIL, "=1+2", PLUS, AT, MINUS, "\tx", "\rx"):
        assert is_formula_like(bad) and neutral(bad) == "'" + bad
    for fine in ("Ana", "Zoë", "a=b", "", 3, -2.5, None):
        assert neutral(fine) == fine


def test_no_csv_cell_starts_a_formula(room):
    for name in (EVIL, PLUS, AT, MINUS):
        assert room.join(name), name
        record(room, name, "t-1", True)
    record(room, EVIL, "=2+3", False, topic="=cmd|' /C calc'!A0")
    for export in ("learners.csv", "puzzles.csv"):
        text = class_export(room, export).body.decode("utf-8-sig")
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        assert not [c for c in cells if c.startswith(FORMULA_START)], export
    learners = {r["learner"] for r in rows(class_export(room, "learners.csv"))}
    assert learners == {"'" + n for n in (EVIL, PLUS, AT, MINUS)}


def test_no_workbook_cell_is_a_formula_and_the_names_stay_as_typed(room):
    room.join(EVIL)
    room.join("=1+2x")
    record(room, EVIL, "t-1", True)
    record(room, "=1+2x", "t-1", False)
    body = class_export(room, "gradebook.xlsx").body
    with zipfile.ZipFile(io.BytesIO(body)) as z:
        xml = "".join(z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/"))
    assert "<f>" not in xml and "<f " not in xml
    book = openpyxl.load_workbook(io.BytesIO(body))
    names = [c.value for c in book["Learners"]["A"][1:]]
    assert sorted(names) == sorted([EVIL, "=1+2x"])
    assert all(c.data_type == "s" and c.quotePrefix for c in book["Learners"]["A"][1:])


def test_homework_done_and_right_per_assignment_and_accuracy_per_topic(room):
    book = AssignmentBook(room.path)
    week = book.create("Week 1", generate={"kind": "take-pile", "count": 3, "seed": 1})
    for name in ("Ana", "Bo"):
        room.join(name)
    first, second, third = week.puzzle_ids
    record(room, "Ana", first, True, pset=week.set_title)
    record(room, "Ana", second, False, pset=week.set_title)
    record(room, "Ana", third, True, pset=week.set_title)
    record(room, "Bo", first, False, pset=week.set_title)
    record(room, "Bo", first, True, pset=week.set_title)       # the last answer counts
    record(room, "Ana", "m-1", True, topic="melds", kind="meld", answer={"valid": True})
    by = {r["learner"]: r for r in rows(class_export(room, "learners.csv"))}
    assert (by["Ana"]["Week 1: done (of 3)"], by["Ana"]["Week 1: right (of 3)"]) == ("3", "2")
    assert (by["Bo"]["Week 1: done (of 3)"], by["Bo"]["Week 1: right (of 3)"]) == ("1", "1")
    assert float(by["Ana"]["accuracy: melds"]) == 1.0 and by["Bo"]["accuracy: melds"] == ""
    assert float(by["Ana"]["accuracy: taking the pile"]) == pytest.approx(2 / 3, abs=0.01)
    sheets = openpyxl.load_workbook(io.BytesIO(class_export(room, "gradebook.xlsx").body))
    homework = [tuple(c.value for c in r) for r in sheets["Homework"].iter_rows()]
    assert homework[0][:6] == ("learner", "assignment", "due", "puzzles", "done", "right")
    assert ("Ana", "Week 1", None, 3, 3, 2) in [h[:6] for h in homework]


def send_live(room, learner, right):
    live = LiveClass(room.current().code, room.path)
    sent = live.send(puzzle_from_mapping({"id": "f-1", "kind": "freeze", "pile": "5H 2C 9S", "melds": ["KH KS KD"],
                                          "topic": "freezing"}))
    live.answer(learner, {"frozen": right})
    return sent


def test_live_answers_are_marked_and_left_out_of_accuracy_unless_asked(room):
    from datetime import UTC, datetime

    room.join("Ana")
    record(room, "Ana", "t-1", True)
    send_live(room, "Ana", False)      # the live puzzle answered wrong, and the trainer's copy of it
    record(room, "Ana", "f-1", False, topic="freezing", kind="freeze", answer={"frozen": False},
           when=datetime.now(UTC).isoformat(timespec="seconds"))
    plain = rows(class_export(room, "learners.csv"))[0]
    assert (plain["answers"], plain["right"], plain["accuracy"]) == ("1", "1", "1.0")
    assert (plain["live answers"], plain["live right"]) == ("1", "0")
    assert "accuracy: freezing" not in plain
    counted = rows(class_export(room, "learners.csv", live=True))[0]
    assert (counted["answers"], counted["accuracy"], counted["accuracy: freezing"]) == ("2", "0.5", "0.0")
    attempts = openpyxl.load_workbook(io.BytesIO(class_export(room, "gradebook.xlsx").body))["Attempts"]
    header = [c.value for c in attempts[1]]
    marks = {r[header.index("puzzle")]: r[header.index("live puzzle")] for r in attempts.iter_rows(min_row=2,
                                                                                                   values_only=True)}
    assert marks == {"t-1": None, "f-1": "live"}


def test_answers_in_words_and_times_in_the_teachers_zone_with_an_iso_column(room):
    room.join("Ana")
    record(room, "Ana", "t-1", False, answer={"take": True}, when="2026-03-02T08:30:00+00:00")
    record(room, "Ana", "c-1", False, kind="card-points", topic="points", answer={"points": 60},
           when="2026-07-02T08:30:00+00:00")
    sheet = openpyxl.load_workbook(io.BytesIO(class_export(room, "gradebook.xlsx", tz="Europe/Amsterdam").body))
    attempts = [dict(zip([c.value for c in sheet["Attempts"][1]], r))
                for r in sheet["Attempts"].iter_rows(min_row=2, values_only=True)]
    assert [a["answer"] for a in attempts] == ["Yes", "60"]
    assert attempts[0]["question"] and attempts[0]["right"] == "no"
    assert [a["time (Europe/Amsterdam)"] for a in attempts] == ["2026-03-02 09:30", "2026-07-02 10:30"]  # CET, CEST
    assert [a["time (UTC, ISO 8601)"] for a in attempts] == ["2026-03-02T08:30:00Z", "2026-07-02T08:30:00Z"]
    learner = rows(class_export(room, "learners.csv", tz="America/New_York"))[0]
    assert learner["last answer (America/New_York)"] == "2026-07-02 04:30"
    assert learner["last answer (UTC, ISO 8601)"] == "2026-07-02T08:30:00Z"
    puzzles = rows(class_export(room, "puzzles.csv"))
    assert {p["most common wrong answer"] for p in puzzles} == {"Yes", "60"}
    with pytest.raises(LookupError, match="no time zone 'Mars/Olympus'"):
        class_export(room, "learners.csv", tz="Mars/Olympus")


def test_the_zone_comes_from_the_environment_when_not_given(room, monkeypatch):
    monkeypatch.setenv("CANASTA_TUTOR_TIMEZONE", "Asia/Tokyo")
    room.join("Ana")
    record(room, "Ana", "t-1", True, when="2026-03-02T08:30:00+00:00")
    assert rows(class_export(room, "learners.csv"))[0]["last answer (Asia/Tokyo)"] == "2026-03-02 17:30"


def test_the_workbook_has_a_frozen_header_sized_columns_and_percentages(room):
    room.join("Anastasia Konstantinopoulou-Smith")
    record(room, "Anastasia Konstantinopoulou-Smith", "t-1", True)
    record(room, "Anastasia Konstantinopoulou-Smith", "t-2", False)
    book = openpyxl.load_workbook(io.BytesIO(class_export(room, "gradebook.xlsx").body))
    assert book.sheetnames == ["Learners", "Homework", "Topics", "Puzzles", "Attempts"]
    for sheet in book:
        assert sheet.freeze_panes in ("A2", "B2"), sheet.title
    learners = book["Learners"]
    assert learners.column_dimensions["A"].width >= len("Anastasia Konstantinopoulou-Smith")
    header = [c.value for c in learners[1]]
    accuracy = learners.cell(row=2, column=header.index("accuracy") + 1)
    assert accuracy.value == 0.5 and accuracy.number_format == "0%"
    topic = learners.cell(row=2, column=header.index("accuracy: taking the pile") + 1)
    assert topic.number_format == "0%"


def test_a_class_with_nobody_yet_exports_empty_tables(room):
    assert [r for r in rows(class_export(room, "learners.csv"))] == []
    assert rows(class_export(room, "puzzles.csv")) == []
    room.join("Ana")   # signed in, nothing answered
    [ana] = rows(class_export(room, "learners.csv"))
    assert (ana["learner"], ana["answers"], ana["live answers"]) == ("Ana", "0", "0")
    book = openpyxl.load_workbook(io.BytesIO(class_export(room, "gradebook.xlsx").body))
    assert book["Attempts"].max_row == 1 and book["Learners"].max_row == 2
