"""The trainer widget, driven headless through its widget objects."""

import html
import json
import re
import sqlite3
import traceback

import ipywidgets as widgets
import pytest

from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.puzzles.format import parse_puzzle_set
from canasta_tutor.puzzles.solver import solve
from canasta_tutor.widgets import Trainer

SET = parse_puzzle_set("""
title: Trainer test
puzzles:
  - {id: sc, kind: score-hand, topic: scoring, melds: [KH KS KD KC KH KS KD, 7C 7D 2S], red_threes: 3H,
     hands: [5C 9D, ""], went_out: true, expect: {score: 785}}
  - {id: tk, kind: take-pile, topic: taking, hand: 7H 4C 9D QS, melds: [KH KS KD], score: 0, pile: 5D 2C 7C,
     expect: {take: false}}
  - {id: md, kind: meld, topic: melds, cards: QH QS QD QC QH QS 2D, expect: {valid: true, canasta: mixed}}
  - {id: fz, kind: freeze, topic: freezing, pile: 5D 2C 9S, melds: [KH KS KD], expect: {frozen: true}}
""", "t.yaml").puzzles


@pytest.fixture
def store(tmp_path):
    return ProgressStore(tmp_path / "progress.sqlite3")


def trainer(store, ids, **kw):
    return Trainer(SET, ids=ids, learner="ana", store=store, **kw)


def buttons(t):
    return {b.description: b for b in t.controls.children if isinstance(b, widgets.Button)}


def all_state(root) -> str:
    """Everything the widgets would send to the browser, as one string."""
    seen, out, stack = set(), [], [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        out.append(json.dumps(w.get_state(), default=str, ensure_ascii=False))
        for key in w.keys:
            value = getattr(w, key)
            if isinstance(value, widgets.Widget):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in value if isinstance(v, widgets.Widget))
    return re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL", "\n".join(out))


def test_yes_no_by_clicking(store):
    t = trainer(store, ["tk"])
    assert t.puzzle.id == "tk" and set(buttons(t)) == {"Yes", "No"}
    buttons(t)["Yes"].click()
    assert "Not quite" in t.feedback.value and "The answer is <b>No</b>" in t.feedback.value
    assert "2♣" in t.feedback.value and "two natural 7s" in t.feedback.value
    assert (t.right, t.answered_count, t.streak) == (0, 1, 0)


def test_right_answer_counts_and_streaks(store):
    t = trainer(store, ["tk", "fz"])
    buttons(t)["No"].click()
    assert "Right!" in t.feedback.value and t.streak == 1
    t.next_button.click()
    assert t.puzzle.id == "fz" and "frozen for your team" not in t.situation.value  # no give-away marker
    buttons(t)["Yes"].click()
    assert (t.right, t.answered_count, t.streak, t.best_streak) == (2, 2, 2, 2)
    assert "Score <b>2</b> of 2" in t.header.value


def test_number_box_with_letters_and_then_a_number(store):
    t = trainer(store, ["sc"])
    t.number.value = "seven hundred"
    t.check_button.click()
    assert "whole number" in t.message.value and t.answered_count == 0 and not t.answered
    t.number.value = ""
    t.check_button.click()
    assert "Type your answer" in t.message.value and t.answered_count == 0
    t.number.value = " 785 "
    t.check_button.click()
    assert "Right!" in t.feedback.value and t.right == 1
    assert "<table" in t.feedback.value and "Canasta bonuses" in t.feedback.value


def test_double_click_and_answering_twice_count_once(store):
    t = trainer(store, ["tk"])
    yes = buttons(t)["Yes"]
    yes.click()
    yes.click()
    buttons(t)["No"].click()
    assert t.answered_count == 1 and "already" in t.message.value
    assert len(store.attempts()) == 1


def test_meld_buttons(store):
    t = trainer(store, ["md"])
    assert "Mixed canasta" in buttons(t) and "Samba" not in buttons(t)
    buttons(t)["Natural canasta"].click()
    assert "Not quite" in t.feedback.value and "a mixed canasta" in t.feedback.value


def test_empty_set_gives_a_message(store):
    t = Trainer([], learner="ana", store=store)
    assert t.puzzle is None and "no puzzles" in t.message.value.lower()
    assert t.answer(True) is None and "no puzzle to answer" in t.message.value
    t.hint()
    t.next()


def test_broken_file_gives_a_message(store, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("puzzles: [\n")
    t = Trainer(bad, learner="ana", store=store)
    assert "could not be loaded" in t.notice.value and "not valid YAML" in html.unescape(t.notice.value)
    assert "no puzzles" in t.message.value.lower()


def test_answer_is_not_in_the_widget_state_before_answering(store):
    for pid in ("sc", "tk", "md", "fz"):
        t = trainer(store, [pid])
        puzzle = t.puzzle
        solution = solve(puzzle)
        before = all_state(t)
        secrets = [html.escape(s) for s in solution.explanation] + solution.explanation
        if puzzle.kind == "score-hand":
            secrets.append(str(solution.answer["score"]))
        for secret in secrets:
            assert not re.search(r"(?<![\w.])" + re.escape(secret) + r"(?![\w])", before), (pid, secret)
        assert t.solution is None
        t.hint()
        assert not any(s in all_state(t) for s in secrets if len(s) > 8)
        t.answer({"score-hand": "1", "meld": (True, "none")}.get(puzzle.kind, True))
        assert t.answered
        after = all_state(t)
        # the engine's sentences, or the table that lays them out (a score sheet)
        shown = [html.escape(s) for s in solution.explanation] + (
            [solution.verdict.to_html()] if hasattr(solution.verdict, "to_html") else [])
        assert any(s in after for s in shown)


def test_hint_reveals_one_reason_at_a_time(store):
    t = trainer(store, ["tk"])
    t.hint()
    assert t.hint_box.value.count("<li>") == 1 and "7♣" in t.hint_box.value
    t.hint()
    assert t.hint_box.value.count("<li>") == 2


def test_attempts_are_saved_with_time_taken(store):
    t = trainer(store, ["tk", "sc"])
    buttons(t)["No"].click()
    t.next()
    t.answer("700")
    frame = store.attempts("ana")
    assert frame["puzzle_id"].tolist() == ["tk", "sc"]
    assert frame["correct"].tolist() == [True, False]
    assert (frame["seconds"] >= 0).all() and frame["topic"].tolist() == ["taking", "scoring"]
    assert json.loads(frame["answer"][1]) == {"score": 700}


def test_skipping_needs_a_second_press(store):
    t = trainer(store, ["tk", "fz"])
    t.next()
    assert t.puzzle.id == "tk" and "Answer this puzzle first" in t.message.value
    t.next()
    assert t.puzzle.id == "fz" and t.answered_count == 0


def test_endless_after_the_set(store):
    t = Trainer(SET[:1], learner="ana", store=store)
    t.answer("785")
    t.next()
    assert t.puzzle is not None and t.puzzle.id.startswith("gen-")
    t.answer("0")
    assert t.answered_count == 2


def test_trainer_uses_the_learners_history(store):
    t = trainer(store, None, kind="take-pile")
    buttons(t)["Yes"].click()  # wrong
    again = Trainer(SET, kind="take-pile", learner="ana", store=store, missed_only=True, endless=False)
    assert again.puzzle.id == "tk"


def test_cards_drawn_as_cards(store):
    t = trainer(store, ["tk"])
    value = t.situation.value
    assert value.count("class='ct-card'") == 4 + 3 + 3
    assert "❄ frozen for your team" in value and "#c62828" in value
    # the team has melded (KH KS KD): its opening minimum no longer matters, so it is not shown
    assert "opening minimum" not in value and "<b>Your team's score</b>: 0" in value
    unopened = Trainer(WHICH, ids=["w2"], learner="ana", store=store)  # no melds yet: the minimum is shown
    assert "<b>opening minimum</b>: 50" in unopened.situation.value


WHICH = parse_puzzle_set("""
puzzles:
  - {id: w1, kind: take-pile, hand: 7H 7S KD 4C, melds: [KH KS KD], score: 0, pile: 5D 8S 7C, expect: {take: true}}
  - {id: w2, kind: take-pile, hand: KH KS QH QS QD 9D, melds: [], score: 0, pile: 5D 8S KC, expect: {take: true}}
""", "w.yaml").puzzles


def test_which_cards_after_a_right_yes(store):
    t = Trainer(WHICH, ids=["w1", "w2"], learner="ana", store=store)
    assert not t.card_toggles
    buttons(t)["Yes"].click()
    assert len(t.card_toggles) == 4 and "which cards" in t.followup.children[0].value
    t.card_toggles[0].value = True  # 7♥ only
    assert t.check_cards() is False and "Not those" in t.followup_feedback.value
    t.choose_cards("7H", "7S")
    assert t.check_cards() is True and "make a meld" in t.followup_feedback.value
    assert t.answered_count == 1  # the follow-up is practice, not a second answer
    t.next()
    buttons(t)["Yes"].click()
    t.choose_cards("KH", "KS")
    assert t.check_cards() is False and "50" in t.followup_feedback.value
    t.choose_cards("KH", "KS", "QH", "QS", "QD")
    assert t.check_cards() is True


def test_no_which_cards_after_no(store):
    t = trainer(store, ["tk"])
    buttons(t)["No"].click()
    assert not t.card_toggles and not t.followup.children


# --- answering by keyboard, neutral buttons, what the learner chose ------------------------------------------

def test_yes_and_no_are_neutral_and_the_feedback_names_both_answers(store):
    t = trainer(store, ["tk"])
    assert {b.button_style for b in buttons(t).values()} == {""}  # no green Yes / red No giving a hint
    buttons(t)["Yes"].click()
    # the answer said once ("The answer is No." and not again in "You answered: Yes. The answer: No.")
    assert "The answer is <b>No</b>." in t.feedback.value and "You answered: <b>Yes</b>." in t.feedback.value
    assert t.feedback.value.count("<b>No</b>") == 1
    assert t.hint_button.disabled and not t.next_button.disabled
    # feedback, then Next: the order keyboard focus takes after an answer
    order = list(t.children)
    nav = next(c for c in order if isinstance(c, widgets.HBox) and t.next_button in c.children)
    assert order.index(t.controls) < order.index(t.feedback) < order.index(nav)


def test_enter_in_the_number_box_answers(store):
    t = trainer(store, ["sc"])
    t.number.value = "785"
    t.number._handle_custom_msg({"event": "submit"}, [])  # what the browser sends when Enter is pressed
    assert t.answered and "Right!" in t.feedback.value and t.right == 1
    t.number._handle_custom_msg({"event": "submit"}, [])  # a second Enter does not answer twice
    assert t.answered_count == 1


def test_enter_waits_for_keystrokes_the_browser_still_holds(store):
    """In a kernel, Enter may arrive before the box's last value: the answer uses the value that follows."""
    import asyncio

    async def scenario():
        t = trainer(store, ["sc"])
        t.number.value = "78"                                  # what reached the kernel before Enter
        t.number._handle_custom_msg({"event": "submit"}, [])  # Enter overtakes the last keystroke
        assert not t.answered
        t.number.value = "785"                                 # the keystroke the browser held back
        assert t.answered and t.right == 1
        t2 = Trainer(SET, ids=["sc"], learner="bo", store=store)  # nothing held back: answered after a short wait
        t2.number.value = "700"
        t2.number._handle_custom_msg({"event": "submit"}, [])
        assert not t2.answered
        await asyncio.sleep(0.6)
        assert t2.answered and t2.right == 0 and "You answered: <b>700</b>" in t2.feedback.value, t2.message.value

    asyncio.run(scenario())


# --- the clock starts when a browser shows the puzzle -------------------------------------------------------

class FakeClock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    import time

    from canasta_tutor.widgets import kernel_guard

    fake = FakeClock(100.0)
    monkeypatch.setattr(time, "perf_counter", fake)
    monkeypatch.setattr(kernel_guard, "browser_seen_at", None)
    return fake


def request_states():
    """The message a browser's widget manager sends as the page opens."""

    class Comm:
        def send(self, *args, **kwargs):
            pass

    old = widgets.Widget._control_comm
    widgets.Widget._control_comm = Comm()
    try:
        widgets.Widget._handle_control_comm_msg({"content": {"data": {"method": "request_states"}}})
    finally:
        widgets.Widget._control_comm = old


def test_first_puzzle_is_timed_from_the_browsers_visit_not_the_preheated_kernel(store, clock):
    t = trainer(store, ["tk", "fz"])  # the kernel runs the lesson ahead of any visitor (t = 100 s)
    clock.now = 800.0                 # a learner opens the page 700 s later
    request_states()
    clock.now = 802.5                 # and answers 2.5 s after seeing the puzzle
    buttons(t)["No"].click()
    t.next()
    clock.now = 810.0                 # the second puzzle, shown at 802.5 with the browser there, takes 7.5 s
    buttons(t)["Yes"].click()
    assert store.attempts("ana")["seconds"].tolist() == [2.5, 7.5]


def test_a_trainer_made_after_the_browser_came_times_from_its_showing(store, clock):
    request_states()
    clock.now = 150.0
    t = trainer(store, ["tk"])
    clock.now = 154.0
    buttons(t)["No"].click()
    assert store.attempts("ana")["seconds"].tolist() == [4.0]


# --- never losing an answer silently -----------------------------------------------------------------------

class FlakyStore(ProgressStore):
    """A store whose first ``failures`` saves fail (a locked or full disk, say), then work."""

    def __init__(self, path, failures, error=None):
        super().__init__(path)
        self.failures = failures
        self.error = error or sqlite3.OperationalError("database is locked")

    def record(self, **kwargs):
        if self.failures:
            self.failures -= 1
            raise self.error
        return super().record(**kwargs)


def test_an_answer_the_store_cannot_take_is_kept_and_saved_later(tmp_path):
    store = FlakyStore(tmp_path / "p.sqlite3", failures=1)
    t = trainer(store, ["tk", "fz"])
    buttons(t)["No"].click()
    assert "Right!" in t.feedback.value  # the learner still gets the feedback
    assert "could not be saved yet" in t.message.value and "database is locked" in t.message.value
    assert "kept in this page and in this browser" in t.message.value
    assert "will be saved with your next answer" in t.message.value
    assert len(store.attempts()) == 0 and len(t._unsaved) == 1
    t.next()
    buttons(t)["Yes"].click()
    assert store.attempts("ana")["puzzle_id"].tolist() == ["tk", "fz"] and not t._unsaved
    assert "could not be saved" not in t.message.value


def test_a_store_that_keeps_the_attempt_for_later_is_reported(tmp_path):
    class Deferring(ProgressStore):
        def record(self, **kwargs):
            return False  # "kept for retry", as a store may answer

    t = trainer(Deferring(tmp_path / "p.sqlite3"), ["tk"])
    buttons(t)["No"].click()
    assert "could not be saved yet" in t.message.value and "save it later" in t.message.value


# --- a malformed message from the browser ------------------------------------------------------------------

MALFORMED = [
    {"content": {"data": {"method": "update", "state": {"value": 12}}}, "buffers": []},        # a number for text
    {"content": {"data": {"method": "update", "state": {"disabled": "perhaps"}}}, "buffers": []},
    {"content": {"data": {"method": "update", "state": {"no_such_trait": 1}}}, "buffers": []},
    {"content": {"data": {"method": "update", "state": ["value", 1]}}, "buffers": []},
    {"content": {"data": {}}, "buffers": []},                                                   # no method
    {"content": {}},                                                                             # no data
    {"content": {"data": {"method": "custom", "content": "submit"}}, "buffers": []},
    {"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []},
    {"content": {"data": {"method": "shout"}}, "buffers": []},
]


@pytest.mark.parametrize("msg", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_message_is_refused_without_a_traceback(store, msg, caplog, capsys, monkeypatch):
    import ipywidgets.widgets.widget as widget_module

    shown = []

    class Shell:  # what the kernel's IPython would do with ipywidgets' own handler: send the traceback
        def showtraceback(self):
            shown.append(traceback.format_exc())

    monkeypatch.setattr(widget_module, "get_ipython", lambda: Shell())
    t = trainer(store, ["sc"])
    before = t.number.value
    for target in (t.number, t.check_button, t.controls, t):
        target.comm.handle_msg(msg)
    out = capsys.readouterr()
    assert not shown, shown[:1]
    assert "Traceback" not in out.out + out.err and not caplog.records
    assert t.number.value == before and not t.answered and t.answered_count == 0
    t.number.value = "785"  # the widgets still work afterwards
    t.number.comm.handle_msg({"content": {"data": {"method": "custom", "content": {"event": "submit"}}}, "buffers": []})
    assert t.answered and t.right == 1


# --- the feedback a learner reads -------------------------------------------------------------------------------
def test_a_right_answer_is_said_once_with_a_capital_letter(store):
    """"✔ Right! not a meld." (lower case) and "The answer is 20." then "You answered: 25. The answer: 20."."""
    from canasta_tutor.widgets.trainer import load_puzzles

    (meld,), _ = load_puzzles(ids=["m-012"])  # 3♠ 3♣ 3♠ 2♦: not a meld
    t = Trainer([meld], ids=["m-012"], learner="ana", store=store)
    assert t.answer({"valid": False, "canasta": "none"}) is True
    text = re.sub(r"<[^>]+>", "", t.feedback.value)
    assert text.startswith("✔ Right! Not a meld.") and "You answered" not in text, text


def test_a_score_sheet_is_explained_once_as_a_table_not_as_a_list_and_then_the_table(store):
    from canasta_tutor.widgets.trainer import load_puzzles

    (sheet,), _ = load_puzzles(ids=["s-006"])
    t = Trainer([sheet], ids=["s-006"], learner="ana", store=store)
    assert t.answer("700") is False
    value = t.feedback.value
    assert value.count("<table") == 1 and "<li>" not in value, value
    assert "Melded cards" in value and value.count("The answer is <b>785</b>") == 1
    assert value.count("785") == 2  # the answer, and the sheet's total
