"""The live class puzzle: a teacher panel and learner views, each with its own store objects on one DB file."""

import time

import pytest

from canasta_tutor.classroom.live import LiveClass, bar_chart_html
from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.puzzles.format import puzzle_from_mapping
from canasta_tutor.widgets.live import LiveLearnerView, LiveTeacherPanel

# Worked out by hand: 2♣ lies in the pile, so it is frozen; 7♣ on top and a natural pair of 7s in hand
# take even a frozen pile.
FROZEN = {"id": "live-freeze", "kind": "freeze", "pile": "5H 2C 9S", "melds": ["KH KS KD"]}
TAKE = {"id": "live-take", "kind": "take-pile", "hand": "7H 7S 4C 9D", "melds": ["KH KS KD"], "score": 0,
        "pile": "5D 2C 7C"}


@pytest.fixture
def db(db_url):
    return db_url


def _panel(db, code="7B"):
    return LiveTeacherPanel(class_code=code, path=db, auto=False)


def _learner(db, name, code="7B"):
    return LiveLearnerView(learner=name, class_code=code, path=db, auto=False)


def test_send_answer_count_reveal_across_separate_views(db):
    teacher = _panel(db)
    ana, bo = _learner(db, "ana"), _learner(db, "bo")
    assert ana.puzzle is None and "Waiting" in ana.status.value
    teacher.send(puzzle_from_mapping(FROZEN))
    for view in (ana, bo):
        view.refresh()
        assert view.puzzle is not None and view.puzzle.id == "live-freeze"
    assert ana.answer(True) is True          # frozen: yes
    assert bo.answer("no") is False
    # the explanation waits for the reveal
    assert "Wait for your teacher" in ana.feedback and "2♣" not in ana.feedback
    teacher.refresh()
    assert teacher.counts == {"Yes": 1, "No": 1}
    assert "data-count='1'" in teacher.chart.value and "ana, bo" in teacher.who.value
    teacher.reveal()
    for view in (ana, bo):
        view.refresh()
        assert "2♣" in view.feedback and "Why" in view.feedback
    assert "Right" in ana.feedback and "Not quite" in bo.feedback
    assert "Yes ✔" in teacher.chart.value


def test_one_answer_per_learner_even_from_a_second_tab(db):
    teacher = _panel(db)
    teacher.send(puzzle_from_mapping(FROZEN))
    first, second = _learner(db, "ana"), _learner(db, "ana")
    assert first.answer(False) is False
    second_result = second.answer(True)       # the second tab loaded before the first answered
    assert second_result is None and "already" in second.trainer.message.value
    teacher.refresh()
    assert teacher.counts == {"Yes": 0, "No": 1}
    third = _learner(db, "ana")               # a reloaded page shows the answer given
    assert "You answered: No" in third.feedback
    assert third.answer(True) is None
    with pytest.raises(CanastaError, match="already"):
        LiveClass("7B", db).answer("ana", {"frozen": True})


def test_late_joiner_gets_the_current_puzzle_and_a_new_puzzle_replaces_it(db):
    teacher = _panel(db)
    teacher.send(puzzle_from_mapping(FROZEN))
    early = _learner(db, "ana")
    early.answer(True)
    teacher.send(puzzle_from_mapping(TAKE))
    late = _learner(db, "cy")
    assert late.puzzle.id == "live-take"
    early.refresh()
    assert early.puzzle.id == "live-take" and "Wait for your teacher" not in early.feedback
    assert early.answer(True) is True
    teacher.refresh()
    assert teacher.counts == {"Yes": 1, "No": 0}


def test_reveal_reaches_learners_who_did_not_answer_and_stops_answers(db):
    teacher = _panel(db)
    teacher.send(puzzle_from_mapping(TAKE))
    quiet = _learner(db, "dee")
    teacher.reveal()
    quiet.refresh()
    assert "The answer is <b>Yes</b>" in quiet.feedback
    assert quiet.answer(False) is None


def test_classes_are_kept_apart(db):
    _panel(db, "7B").send(puzzle_from_mapping(FROZEN))
    other = _learner(db, "eve", code="8A")
    assert other.puzzle is None


def test_learner_answers_are_saved_as_attempts(db):
    teacher = _panel(db)
    teacher.send(puzzle_from_mapping(FROZEN))
    _learner(db, "ana").answer(True)
    history = ProgressStore(db).history("ana")
    assert [(a.puzzle_id, a.correct) for a in history] == [("live-freeze", True)]


def test_teacher_picks_from_the_sets_or_the_generator(db, root):
    teacher = LiveTeacherPanel(class_code="", source=root / "puzzles" / "03-opening.yaml", path=db, auto=False)
    assert teacher.send() is None and "Choose or make a puzzle first" in teacher.message.value
    teacher.picker.value = 1                      # as choosing in the drop-down does
    assert teacher.chosen is teacher.puzzles[1] and teacher.chosen.id in teacher.picker.label
    chosen = teacher.choose(0)
    assert chosen.kind == "opening" and "Send" in teacher.send_button.description
    assert not teacher.send_button.disabled
    made = teacher.generate("meld", difficulty=2, rules="hoyle", seed=5)
    assert made.kind == "meld" and made.rules.name == "hoyle"
    assert teacher.generate("meld", seed=6).id != teacher.generate("meld", seed=7).id != made.id
    made = teacher.generate("meld", difficulty=2, rules="hoyle", seed=5)
    teacher.send()
    view = _learner(db, "ana", code="")
    assert view.puzzle.kind == "meld" and view.puzzle.rules.name == "hoyle"
    assert teacher.counts == {"Not a meld": 0, "A meld, no canasta": 0, "Natural canasta": 0, "Mixed canasta": 0}


def test_number_answers_get_a_bar_each(db):
    teacher = _panel(db)
    teacher.send(puzzle_from_mapping({"id": "pts", "kind": "card-points", "cards": "JK AS 5C"}))
    for name, given in (("ana", "75"), ("bo", "70"), ("cy", "75")):
        assert _learner(db, name).answer(given) is (given == "75")
    teacher.refresh()
    assert teacher.counts == {"70": 1, "75": 2}


def test_polling_thread_brings_the_puzzle_and_the_reveal(db):
    teacher = _panel(db)
    view = LiveLearnerView(learner="ana", class_code="7B", path=db, poll=0.05)
    try:
        teacher.send(puzzle_from_mapping(FROZEN))
        deadline = time.monotonic() + 10
        while view.puzzle is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert view.puzzle is not None
        teacher.reveal()
        while "Why" not in view.feedback and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "Why" in view.feedback
    finally:
        view.close()
    view._thread.join(2)
    assert not view._thread.is_alive()


def test_bar_chart_scales_bars_to_the_largest_count():
    svg = bar_chart_html({"Yes": 4, "No": 2}, width=200, font=20)   # labels: (3 + 2) x 20 x 0.62 + 12 = 74 px
    assert "data-label='Yes' data-count='4' x='74' y='5' width='200.0'" in svg
    assert "data-label='No' data-count='2' x='74' y='39' width='100.0'" in svg
    assert "6 answers" in svg and "✔" not in svg
    assert "No ✔" in bar_chart_html({"Yes": 4, "No": 2}, right="No")


@pytest.mark.browser
def test_two_learner_kernels_in_voila_follow_the_teacher(tmp_path):
    """Two browser pages (two kernels) poll the shared database; the teacher is this test's process."""
    import os
    import socket
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    import nbformat
    from playwright.sync_api import sync_playwright

    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.fail("the browser tests need Debian's Chromium at /usr/bin/chromium; scripts/test.sh installs it")
    db = tmp_path / "class.sqlite3"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import os, urllib.parse\nfrom canasta_tutor.widgets.live import LiveLearnerView\n"
        "name = urllib.parse.parse_qs(os.environ.get('QUERY_STRING', '')).get('learner', ['nobody'])[0]\n"
        "LiveLearnerView(learner=name, class_code='7B', poll=0.3)")]
    nbformat.write(nb, tmp_path / "learner.ipynb")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(tmp_path / "voila.log", "w")
    env = dict(os.environ, CANASTA_TUTOR_DB=str(db))
    server = subprocess.Popen([sys.executable, "-m", "voila", "learner.ipynb", f"--port={port}", "--no-browser",
                               "--Voila.ip=127.0.0.1"], cwd=tmp_path, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(url, timeout=60)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        teacher = _panel(db)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            pages = [browser.new_page(), browser.new_page()]
            for page, name in zip(pages, ("ana", "bo")):
                page.set_default_timeout(60_000)
                page.goto(url + f"?learner={name}")
                page.get_by_text("Waiting for your teacher").wait_for()
            teacher.send(puzzle_from_mapping(FROZEN))
            for page, choice in zip(pages, ("Yes", "No")):
                page.get_by_text("Is the discard pile frozen for your team?").wait_for(timeout=45_000)
                page.get_by_role("button", name=choice, exact=True).click()
                page.get_by_text("Your answer is in").wait_for(timeout=45_000)
            teacher.refresh()
            assert teacher.counts == {"Yes": 1, "No": 1} and "ana, bo" in teacher.who.value
            teacher.reveal()
            pages[0].get_by_text("Right!").wait_for(timeout=45_000)
            pages[1].get_by_text("Not quite.").wait_for(timeout=45_000)
            assert "2♣" in pages[1].inner_text("body")
            late = browser.new_page()
            late.goto(url + "?learner=cy")
            late.get_by_text("Is the discard pile frozen for your team?").wait_for()
            late.get_by_text("The answer is").wait_for()
            browser.close()
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def test_a_damaged_class_file_is_named_on_both_screens_and_nothing_polls(tmp_path):
    path = tmp_path / "class.sqlite3"
    path.write_bytes(b"this is not SQLite at all" * 100)
    learner = LiveLearnerView(learner="Ana", class_code="7B", path=path, poll=0.05)
    panel = LiveTeacherPanel(class_code="7B", path=path, poll=0.05)
    assert learner.live is None and panel.live is None
    assert str(path) in learner.status.value and "not a database" in learner.status.value
    assert str(path) in panel.message.value and "not a database" in panel.message.value
    assert getattr(learner, "_thread", None) is None and getattr(panel, "_thread", None) is None
