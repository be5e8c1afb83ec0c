"""The live classroom and the worksheets read a kind's answer buttons from its record (``options``/``words``):
a kind registered in one place with buttons of its own gets its own bars, labels, boxes to tick and answer-key
words, and the meld kind's labels are those of its record under each preset (a samba only with sequences)."""

from __future__ import annotations

import io

import pypdf
import pytest

from canasta_tutor.classroom.live import answer_choices, answer_label
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.puzzles.format import parse_puzzle_set
from canasta_tutor.puzzles.kinds import KINDS, Choice, PuzzleKind, Solution, get_kind, register, unregister
from canasta_tutor.puzzles.worksheet import answer_text, worksheet_pdf


def _suit_solve(s) -> Solution:
    hearts = sum(c.suit == "H" for c in s.cards)
    return Solution({"hearts": hearts > 0}, [f"{hearts} hearts."])


SUIT = PuzzleKind(
    name="any-hearts", fields=("cards",), required=("cards",), answers={"hearts": bool}, solve=_suit_solve,
    hints=lambda s: ["Look for ♥."], question="Is there a heart among these cards?", answer_control="meld-choice",
    describe=lambda answer: "some hearts" if answer["hearts"] else "no heart",
    choices=lambda rules: [Choice("Hearts, yes", {"hearts": True}, "there is a heart"),
                           Choice("Not one heart", {"hearts": False}, "there is no heart")],
    topic="suits")


@pytest.fixture
def suit_kind():
    register(SUIT)
    try:
        yield SUIT
    finally:
        unregister(SUIT.name)
    assert SUIT.name not in KINDS


def test_a_new_kinds_buttons_are_the_live_bars_and_the_worksheets_boxes(suit_kind):
    pset = parse_puzzle_set("puzzles:\n  - {id: h, kind: any-hearts, cards: 5S 6H 7C}\n", "h.yaml")
    [puzzle] = pset.puzzles
    assert answer_choices(puzzle) == ["Hearts, yes", "Not one heart"]
    assert answer_label("any-hearts", {"hearts": False}, puzzle.rules) == "Not one heart"
    assert answer_text("any-hearts", {"hearts": True}, puzzle.rules) == "there is a heart"
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(worksheet_pdf([puzzle], key=True))).pages)
    assert "Hearts, yes" in text and "Not one heart" in text, text     # the boxes to tick
    assert "1. there is a heart" in text, text                          # the answer key


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_meld_labels_are_the_records_under_each_preset(preset):
    pset = parse_puzzle_set(f"puzzles:\n  - {{id: m, kind: meld, cards: 7H 7S 7D, rules: {preset}}}\n", "m.yaml")
    [puzzle] = pset.puzzles
    record, rules = get_kind("meld"), puzzle.rules
    labels = ["Not a meld", "A meld, no canasta", "Natural canasta", "Mixed canasta"] + \
        (["Samba"] if rules.sequences else [])
    assert answer_choices(puzzle) == labels == [c.label for c in record.options(rules)]
    for choice in record.options(rules):
        assert answer_label("meld", choice.answer, rules) == choice.label
        assert answer_text("meld", choice.answer, rules) == choice.words
    assert answer_text("meld", {"valid": True, "canasta": "natural"}, rules) == "a natural canasta"
    assert answer_label("meld", {"valid": False, "canasta": "none"}, rules) == "Not a meld"
