"""Identities that last a term (canasta_tutor/classroom/accounts.py, roster.join, progress by learner id), on SQLite
and PostgreSQL: personal codes, the teacher's roster (add, rename, merge, free, new code), sessions in the database
and the cookie secret beside it."""
from __future__ import annotations

import json
import os
import sqlite3

import pytest
from test_storage import OLD_SCHEMA

from canasta_tutor.classroom import db
from canasta_tutor.classroom.accounts import CODE_ALPHABET, Roster, Sessions, cookie_secret, normal_code, secret_path
from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.engine.errors import CanastaError


def answer(store, who: dict, puzzle: str, topic: str, correct: bool = True):
    return store.record(learner=who["name"], puzzle_set="S", puzzle_id=puzzle, kind="meld", topic=topic,
                        difficulty=1, answer={"valid": correct}, correct=correct, seconds=2.0,
                        learner_id=who["learner_id"])


# --- progress belongs to the learner's id, not to a name ---------------------------------------------------------
def test_a_new_ana_in_a_new_class_does_not_see_the_old_anas_topics(db_url):
    from canasta_tutor.widgets.identity import my_progress

    room = Classroom(db_url)
    old = room.join("Ana").learner
    answer(room.store, old, "m-1", "melds")
    answer(room.store, old, "t-1", "taking the pile")
    room.new_class()
    new = room.join("Ana").learner
    assert new["learner_id"] != old["learner_id"]
    assert room.store.history("Ana", learner_id=new["learner_id"]) == []
    assert my_progress(room.store, "Ana", new["learner_id"]) == []
    answer(room.store, new, "m-2", "melds")
    assert [a.puzzle_id for a in room.store.history("Ana", learner_id=new["learner_id"])] == ["m-2"]
    assert [p.topic for p in my_progress(room.store, "Ana", old["learner_id"])] == ["melds", "taking the pile"]
    assert room.attempts()["puzzle_id"].tolist() == ["m-2"]  # and the class's report has only hers


def test_the_trainer_of_a_signed_in_learner_keeps_and_reads_progress_by_their_id(db_url, monkeypatch):
    from test_trainer import SET, buttons

    from canasta_tutor.widgets import Trainer, identity

    room = Classroom(db_url)
    old = room.join("Ana").learner
    room.store.record(learner="Ana", puzzle_set="Trainer test", puzzle_id="tk", kind="take-pile", topic="taking",
                      difficulty=1, answer={"take": True}, correct=False, seconds=2, learner_id=old["learner_id"])
    room.new_class()
    new = room.join("Ana").learner
    monkeypatch.setenv(identity.ENV, json.dumps({"name": "Ana", "learner_id": new["learner_id"],
                                                 "class_id": new["class_id"]}))
    t = Trainer(SET, ids=["tk", "fz"], store=room.store)
    assert t.learner_id == new["learner_id"] and t.practice.missed() == set()  # the old Ana's miss is not hers
    buttons(t)["No"].click()
    mine = room.store.history(learner_id=new["learner_id"])
    assert [a.puzzle_id for a in mine] == [t.puzzle.id] and mine[0].learner == "Ana"


# --- personal codes ---------------------------------------------------------------------------------------------
def test_a_name_on_the_list_is_given_only_with_its_code(db_url):
    room = Classroom(db_url)
    room.set_code("Red5")
    added = Roster(room).add("Zed")
    code = added.learner["code"]
    assert added and len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    taken = room.join(" zed ", "Red5")  # a classmate with the class code, before Zed arrives
    assert taken.codes == ("name-taken",) and "personal code" in taken.reasons[0].text
    back = room.join("", "", personal=f" {code[:3].lower()}-{code[3:]} ")  # any device, the card's code
    assert back and back.learner["learner_id"] == added.learner["learner_id"] and not back.learner["new"]
    wrong = room.join("Zed", "Red5", personal="AAAAAA" if code != "AAAAAA" else "BBBBBB")
    assert wrong.codes == ("wrong-personal-code",)
    first = room.join("Cy", "Red5")  # a new name: a code of its own, to come back with
    assert first.learner["new"] and room.join("", personal=first.learner["code"]).learner["name"] == "Cy"
    assert normal_code("k7p m3q") == "K7PM3Q"


def test_codes_are_per_class(db_url):
    room = Classroom(db_url)
    code = room.join("Ana").learner["code"]
    room.new_class()
    assert room.join("", personal=code).codes == ("wrong-personal-code",)  # last year's card opens nothing


# --- the teacher's roster ---------------------------------------------------------------------------------------
def test_merging_two_names_keeps_every_answer_in_one_row(db_url):
    room = Classroom(db_url)
    roster, sessions = Roster(room), Sessions(room, b"s" * 32)
    zed, zed2 = room.join("Zed").learner, room.join("Zed 2").learner
    answer(room.store, zed, "m-1", "melds")
    answer(room.store, zed2, "m-2", "melds", correct=False)
    answer(room.store, zed2, "t-1", "taking the pile")
    other_device = sessions.open(learner_id=zed2["learner_id"])
    merged = roster.merge(zed["learner_id"], zed2["learner_id"])
    assert merged and "2 answers" in merged.reasons[0].text
    rows = room.report().per_learner()
    assert rows["learner"].tolist() == ["Zed"] and rows["attempts"].tolist() == [3]
    assert sorted(a.puzzle_id for a in room.store.history(learner_id=zed["learner_id"])) == ["m-1", "m-2", "t-1"]
    assert sessions.learner(other_device)["learner_id"] == zed["learner_id"]  # still signed in, as Zed
    answer(room.store, zed2, "m-3", "melds")  # from a page still open under the old name
    assert room.report().per_learner()["attempts"].tolist() == [4]
    assert [e["name"] for e in roster.entries()] == ["Zed"]
    assert not roster.merge(zed["learner_id"], zed["learner_id"])


def test_renaming_takes_the_answers_along_and_frees_the_old_name(db_url):
    room = Classroom(db_url)
    roster = Roster(room)
    bob = room.join("Ana").learner  # Bob took Ana's name before she came
    answer(room.store, bob, "m-1", "melds")
    assert roster.rename(bob["learner_id"], "Bob") and room.report().per_learner()["learner"].tolist() == ["Bob"]
    ana = room.join("Ana")
    assert ana and ana.learner["learner_id"] != bob["learner_id"]
    assert roster.rename(bob["learner_id"], "ana").codes == ("name-taken",)
    assert roster.rename(bob["learner_id"], "  ").codes == ("no-name",)


def test_a_name_nobody_answered_under_can_be_freed(db_url):
    room = Classroom(db_url)
    roster, sessions = Roster(room), Sessions(room, b"s" * 32)
    typo, busy = room.join("Anna").learner, room.join("Cy").learner
    answer(room.store, busy, "m-1", "melds")
    sid = sessions.open(learner_id=typo["learner_id"])
    assert roster.free(typo["learner_id"]) and sessions.learner(sid) is None
    assert room.join("Anna")  # free again
    refused = roster.free(busy["learner_id"])
    assert refused.codes == ("has-answers",) and "merge" in refused.reasons[0].text


def test_a_new_code_signs_the_old_card_out(db_url):
    room = Classroom(db_url)
    roster, sessions = Roster(room), Sessions(room, b"s" * 32)
    ana = roster.add("Ana").learner
    sid = sessions.open(learner_id=ana["learner_id"])
    fresh = roster.reset_code(ana["learner_id"]).learner["code"]
    assert fresh != ana["code"] and sessions.learner(sid) is None
    assert not room.join("", personal=ana["code"]) and room.join("", personal=fresh)


# --- sessions and the cookie secret -----------------------------------------------------------------------------
def test_sessions_are_kept_hashed_and_end_with_sign_out_or_the_class(db_url):
    room = Classroom(db_url)
    sessions = Sessions(room, b"s" * 32)
    ana = room.join("Ana").learner
    sid = sessions.open(learner_id=ana["learner_id"])
    assert Sessions(Classroom(db_url), b"s" * 32).learner(sid)["name"] == "Ana"  # another process: a restart
    with db.begin(db.target(db_url)) as conn:
        stored = [r[0] for r in conn.execute(db.sessions.select().with_only_columns(db.sessions.c.id_hash))]
    assert sid not in stored and len(stored) == 1
    teacher = sessions.open(teacher_key="k3y")
    assert sessions.is_teacher(teacher, "k3y") and not sessions.is_teacher(teacher, "other")
    assert not sessions.is_teacher(sid, "k3y") and sessions.learner(teacher) is None
    sessions.close(sid)
    assert sessions.learner(sid) is None
    again = sessions.open(learner_id=ana["learner_id"])
    room.new_class()  # the teacher ends the class
    assert sessions.learner(again) is None


def test_the_cookie_secret_is_made_once_beside_the_database_and_private(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    first = cookie_secret(store)
    path = secret_path(store)
    assert path.parent == tmp_path and path.stat().st_mode & 0o777 == 0o600
    assert cookie_secret(ProgressStore(tmp_path / "p.sqlite3")) == first and len(first) >= 32  # a restart
    path.chmod(0o644)
    assert cookie_secret(store) == first and path.stat().st_mode & 0o777 == 0o600
    path.write_text("short")
    with pytest.raises(CanastaError, match="damaged"):
        cookie_secret(store)
    os.unlink(path)
    assert cookie_secret(store) != first  # removed: a new one (everyone signs in again)


def test_an_older_database_gets_codes_and_learner_ids(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute("UPDATE attempts SET class_id = 1 WHERE learner = 'Ana'")
    room = Classroom(path)
    [ana] = Roster(room).entries()
    assert ana["name"] == "Ana" and len(ana["code"]) == 6 and ana["answers"] == 1
    assert [a.puzzle_id for a in room.store.history(learner_id=ana["learner_id"])] == ["m-1"]
    assert room.join("", "7B", personal=ana["code"]).learner["name"] == "Ana"
