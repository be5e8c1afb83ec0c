"""The trainer widget, driven headless through its widget objects."""

import html
import json
import re

import ipywidgets as widgets
import pytest

from canasta_tutor.progress import ProgressStore
from canasta_tutor.puzzle import parse_puzzle_set
from canasta_tutor.solver import solve
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
        assert any(html.escape(s) in after for s in solution.explanation)


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
    assert "opening minimum" in value and "<b>Your team's score</b>: 0" in value


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
