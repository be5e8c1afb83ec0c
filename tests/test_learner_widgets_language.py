"""The learner's widgets in Dutch, Danish and Afrikaans: the trainer's feedback (a right and a wrong answer), its
buttons and messages, the situation's headings and the rule sets' table hold none of the common English words;
English is unchanged.

Mistakes planted while writing these (each made a test here fail, then reverted): the Dutch msgstr of
"<b>✔ Right!</b> {answer}." replaced by its English msgid (it passed at first: the lessons' list has no "right",
hence :data:`WORDS`); the Danish msgstr of "Cards left in your hand" emptied (test_i18n.py's check of missing
translations failed too); the "Discard pile" heading left without ``_()`` in render.py.
"""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import pytest
from test_lesson_text import ENGLISH_WORDS

from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.engine.i18n import use_language
from canasta_tutor.puzzles.format import parse_puzzle_set
from canasta_tutor.widgets import Trainer
from canasta_tutor.widgets.render import melds_html, pile_html, situation_html
from canasta_tutor.widgets.variants import presets_html

TRANSLATED = ("nl", "da", "af")
#: The lessons' list and the words of the trainer's own feedback and buttons, which none of the three writes.
WORDS = ENGLISH_WORDS | {"right", "quite", "answer", "answered", "why", "yes", "no", "not", "none", "check"}

SET = parse_puzzle_set("""
title: Language test
puzzles:
  - {id: sc, kind: score-hand, topic: scoring, melds: [KH KS KD KC KH KS KD, 7C 7D 2S], red_threes: 3H,
     hands: [5C 9D, 4H], went_out: true, expect: {score: 785}}
  - {id: tk, kind: take-pile, topic: taking, hand: 7H 4C 9D QS, melds: [KH KS KD], score: 0, pile: 5D 2C 7C,
     expect: {take: false}}
  - {id: ty, kind: take-pile, topic: taking, hand: 7H 7S 9D QS, melds: [KH KS KD], score: 0, pile: 5D 9C 7C,
     expect: {take: true}}
  - {id: md, kind: meld, topic: melds, cards: QH QS QD QC QH QS 2D, expect: {valid: true, canasta: mixed}}
  - {id: op, kind: opening, topic: opening, melds: [KH KS KD], score: 0, expect: {enough: false}}
""", "t.yaml").puzzles


def english_words(text: str) -> list[str]:
    """The common English words in ``text`` once its tags are gone. The score sheet's table (the engine's own
    ``to_html``, in ``ct-scroll``) is the engine's and left out here."""
    text = re.sub(r"<div class='ct-scroll'>.*?</table></div>", " ", text, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return sorted({w for w in re.findall(r"[A-Za-zÀ-ÿ’']+", text.lower()) if w in WORDS})


def button_words(t: Trainer) -> str:
    return " ".join(b.description for b in t.controls.children if isinstance(b, widgets.Button))


def trainer_text(store, ids, choose) -> str:
    """Everything a learner reads in a trainer after answering each puzzle: ``choose(trainer)`` answers."""
    t = Trainer(SET, ids=ids, learner="ana", store=store, endless=False)
    read = [t.title, t.name_box.description, t.number.description, t.number.placeholder, t.check_button.description,
            t.hint_button.description, t.next_button.description]
    for _ in ids:
        read += [t.question.value, button_words(t), t.situation.value]
        t.hint()
        read.append(t.hint_box.value)
        choose(t)
        read += [t.feedback.value, t.message.value]
        t.next()
    read.append(t.message.value)  # "Well done: ..."
    return "\n".join(read)


def right(t: Trainer) -> None:
    from canasta_tutor.puzzles.solver import solve

    t.answer(solve(t.puzzle).answer if t.puzzle.kind != "score-hand" else str(solve(t.puzzle).answer["score"]))


def wrong(t: Trainer) -> None:
    from canasta_tutor.puzzles.solver import solve

    answer = solve(t.puzzle).answer
    if t.puzzle.kind == "score-hand":
        t.answer(str(answer["score"] + 5))
    elif t.puzzle.kind == "meld":
        t.answer({"valid": False, "canasta": "none"})
    else:
        t.answer(not next(iter(answer.values())))


@pytest.fixture
def store(tmp_path):
    return ProgressStore(tmp_path / "progress.sqlite3")


IDS = ["sc", "tk", "ty", "md", "op"]


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("choose", [right, wrong], ids=["right", "wrong"])
def test_the_trainers_feedback_and_buttons_hold_no_english(lang, choose, store):
    with use_language(lang):
        text = trainer_text(store, IDS, choose)
    assert english_words(text) == [], (lang, english_words(text))
    assert ("✔" if choose is right else "✘") in text


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_situations_headings_hold_no_english(lang):
    with use_language(lang):
        parts = [situation_html(p) for p in SET] + [situation_html(p, answering=True) for p in SET]
        parts += [pile_html("5D 2C 7C", frozen=True), pile_html("5D 9C", frozen=False), pile_html(""),
                  melds_html([], SET[0].rules), melds_html(["KH KS KD KC KH KS KD", "7C 7D 2S 7H 7S 7D 7H"],
                                                          SET[0].rules)]
    text = "\n".join(parts)
    assert english_words(text) == [], (lang, english_words(text))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_variants_table_holds_no_english(lang):
    """Every rule's name and every preset's value in the rule sets' table (all presets, so every value is read)."""
    from canasta_tutor.engine.rules import PRESETS

    with use_language(lang):
        table = presets_html(list(PRESETS))
    assert english_words(table) == [], (lang, english_words(table))
    with use_language("en"):
        assert "the" in english_words(presets_html(list(PRESETS)))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_deck_picker_and_the_presets_picker_hold_no_english(lang):
    from canasta_tutor.widgets.cardbuttons import DeckPicker
    from canasta_tutor.widgets.lesson import PresetsTable

    with use_language(lang):
        box = widgets.Text(value="7H JK")
        picker = DeckPicker(box, melds=True)
        picker._show_chosen()
        table = PresetsTable()
        for tick in table.boxes.values():
            tick.value = False
    read = [*picker.deck.tooltips, *picker.chosen.tooltips, picker.chosen_label.value, picker.new_meld.description,
            picker.new_meld.tooltip, picker.clear_button.description, picker.clear_button.tooltip,
            table.children[0].value, table.table.value]
    assert english_words("\n".join(read)) == [], (lang, english_words("\n".join(read)))


def test_the_check_sees_english():
    """The check itself: an English heading and feedback are found (with the tags and cards left out)."""
    with use_language("en"):
        assert "your" in english_words(situation_html(SET[0]))
    said = english_words("<b>✔ Right!</b> Yes, you may take the pile.")
    assert said == ["may", "pile", "right", "take", "the", "yes", "you"]


def test_english_reads_as_before(store):
    t = Trainer(SET, ids=["tk"], learner="ana", store=store)
    t.answer(True)
    assert ("<b>✘ Not quite.</b> The answer is <b>No</b>.</div><div class='ct-chosen-answer'>You answered: "
            "<b>Yes</b>.</div>") in t.feedback.value
    assert [b.description for b in t.controls.children] == ["Yes", "No"]
    assert t.title == "Canasta puzzles" and t.next_button.description == "Next puzzle →"
    page = situation_html(SET[0])
    assert "<b>Cards left in your hand</b>" in page and "<b>Cards left in your partner's hand</b>" in page
