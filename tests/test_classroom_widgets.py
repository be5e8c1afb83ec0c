"""The classroom's widgets headless: who is signed in reaches the trainer (and the browser cannot change it), the
landing page's panel, and the teacher's dashboard."""

from __future__ import annotations

import json

import pytest

from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.widgets import identity
from canasta_tutor.widgets.dashboard import TeacherDashboard
from canasta_tutor.widgets.trainer import PracticeRoom, Trainer


@pytest.fixture
def signed_in(monkeypatch):
    def sign(name, teacher=False):
        monkeypatch.setenv(identity.ENV, json.dumps({"name": name, "learner_id": 7, "class_id": 1,
                                                     "teacher": teacher}))
    monkeypatch.delenv(identity.ENV, raising=False)
    return sign


def test_nobody_signed_in_outside_the_web_app(signed_in):
    assert identity.current() is None and identity.learner_name() == "learner"
    t = Trainer(ids=["t-001"], resume=False)
    assert t.learner == "learner" and t.name_box.layout.display != "none"


def test_the_trainer_takes_the_signed_in_learner_and_ignores_the_browser(signed_in, db_url):
    signed_in("Ana <b>")
    store = ProgressStore(db_url)
    t = Trainer(ids=["t-001"], store=store, resume=False)
    assert t.learner == "Ana <b>" and t.name_box.layout.display == "none"
    t.name_box.value = "Bo"  # what a browser could send through the widget's state
    assert t.learner == "Ana <b>"
    t.answer(True)
    assert [a.learner for a in store.history()] == ["Ana <b>"]


def test_the_practice_room_takes_the_signed_in_learner(signed_in, db_url):
    signed_in("Ana")
    room = PracticeRoom(store=ProgressStore(db_url))
    assert room.name.layout.display == "none"
    room.name.value = "Bo"
    room.begin()
    assert room.trainer.learner == "Ana"


def test_an_explicit_learner_still_wins(signed_in):
    signed_in("Ana")
    assert Trainer(ids=["t-001"], learner="Cy", resume=False).learner == "Cy"


def test_landing_panel_shows_the_name_as_text_and_own_progress(signed_in, db_url):
    signed_in("<script>x</script>")
    store = ProgressStore(db_url)
    store.record(learner="<script>x</script>", puzzle_set="S", puzzle_id="t-1", kind="take-pile",
                 topic="taking the pile", difficulty=1, answer={}, correct=True, seconds=1)
    store.record(learner="someone else", puzzle_set="S", puzzle_id="m-1", kind="meld", topic="melds",
                 difficulty=1, answer={}, correct=True, seconds=1)
    text = identity.panel_html(identity.current(), store.summary("<script>x</script>"))
    assert "<script>" not in text and "&lt;script&gt;x&lt;/script&gt;" in text
    assert "taking the pile" in text and "100 %" in text and "melds" not in text and "sign out" in text
    assert "Sign in" in identity.panel_html(None)
    # the landing page's own reading (no pandas) says the same as the store's summary
    store.record(learner="<script>x</script>", puzzle_set="S", puzzle_id="m-2", kind="meld", topic="melds",
                 difficulty=1, answer={}, correct=False, seconds=1)
    store.record(learner="<script>x</script>", puzzle_set="S", puzzle_id="t-2", kind="take-pile",
                 topic="taking the pile", difficulty=1, answer={}, correct=False, seconds=1)
    summary = store.summary("<script>x</script>")
    mine = identity.my_progress(store, "<script>x</script>")
    assert [(r.topic, r.attempts, r.accuracy) for r in mine] == \
        [(r.topic, int(r.attempts), float(r.accuracy)) for r in summary.itertuples()] == \
        [("melds", 1, 0.0), ("taking the pile", 2, 0.5)]
    assert identity.panel_html(identity.current(), mine) == identity.panel_html(identity.current(), summary)


def test_the_dashboard_shows_nothing_to_a_learner(signed_in, db_url):
    room = Classroom(db_url)
    room.join("Ana")
    signed_in("Ana")
    d = TeacherDashboard(classroom=room, refresh=0)
    assert not d.allowed and "for the teacher" in d.children[0].value and "Ana" not in d.children[0].value


def test_the_dashboard_for_the_teacher(signed_in, db_url):
    room = Classroom(db_url)
    room.set_code("blue")
    room.join("Ana", "blue")
    signed_in("teacher", teacher=True)
    d = TeacherDashboard(classroom=room, refresh=0, join_urls=["http://192.168.1.20:8866/"])
    assert d.allowed and "http://192.168.1.20:8866/" in d.join.value and "/classroom/join" in d.join.value
    assert "<svg" not in d.join.value  # the QR code is on the Join screen, for the projector, not beside results
    assert "1</b> learner · <b>0</b> answers" in d.summary.value and "class code <b>blue</b>" in d.summary.value
    for pid in ("t-1", "t-2", "t-3"):
        room.store.record(learner="Ana", puzzle_set="S", puzzle_id=pid, kind="take-pile", topic="taking the pile",
                          difficulty=1, answer={"take": True}, correct=False, seconds=1)
    d.update()
    assert "3</b> answers" in d.summary.value and "stuck: Ana" in d.summary.value
    assert "data-learner='Ana'" in d.heatmap.value and "take: Yes" in d.missed.value
    assert "export/learners.csv" in d.exports.value and "gradebook.xlsx" in d.exports.value
    first = room.current().id
    assert d.new_class("red") is False and room.current().id == first  # asks once
    assert d.new_class("red") is True and room.current().id != first and room.current().code == "red"
    assert "0</b> learners" in d.summary.value


def test_the_teachers_list_adds_renames_merges_frees_and_gives_new_codes(signed_in, db_url):
    from canasta_tutor.classroom.accounts import Roster

    room = Classroom(db_url)
    signed_in("teacher", teacher=True)
    d = TeacherDashboard(classroom=room, refresh=0)
    panel = d.roster
    panel.names.value = "Zed\nAna\n\nzed"
    panel.add_button.click()
    assert [e["name"] for e in Roster(room).entries()] == ["Ana", "Zed"]
    assert "already called zed" in panel.message.value and panel.names.value  # the refused one is said
    codes = {e["name"]: e["code"] for e in Roster(room).entries()}
    assert all(f"<code>{c}</code>" in panel.table.value for c in codes.values())
    assert [label for label, _ in panel.who.options] == ["Ana", "Zed"]
    ana, zed = (dict(panel.who.options)[n] for n in ("Ana", "Zed"))
    zed2 = room.join("Zed 2").learner
    room.store.record(learner="Zed", puzzle_set="S", puzzle_id="m-1", kind="meld", topic="melds", difficulty=1,
                      answer={}, correct=True, seconds=1, learner_id=zed)
    room.store.record(learner="Zed 2", puzzle_set="S", puzzle_id="m-2", kind="meld", topic="melds", difficulty=1,
                      answer={}, correct=False, seconds=1, learner_id=zed2["learner_id"])
    d.update()
    assert "Zed 2" in d.learners.value
    panel.who.value, panel.into.value = zed2["learner_id"], zed
    panel.merge_button.click()
    assert "Zed 2" not in [label for label, _ in panel.who.options]
    rows = room.report().per_learner()
    assert rows.loc[rows["learner"] == "Zed", "attempts"].tolist() == [2]
    assert "Zed 2" not in d.learners.value  # the dashboard redrew: one row
    panel.who.value = ana
    panel.new_name.value = "Ana B"
    panel.rename_button.click()
    assert "Ana is now called Ana B" in panel.message.value
    panel.code_button.click()
    assert Roster(room).find(ana)["code"] != codes["Ana"]
    panel.free_button.click()
    assert [label for label, _ in panel.who.options] == ["Zed"]
    panel.who.value = zed
    panel.free_button.click()
    assert "has 2 answers" in panel.message.value
