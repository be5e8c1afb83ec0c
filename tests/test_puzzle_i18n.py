"""A puzzle's prompt and a set's title in the reader's language: the optional ``i18n:`` map of the puzzle format
(docs/puzzle-format.md), what the schema accepts and refuses, and what a Dutch reader of the trainer sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_tutor.classroom.assignments import puzzle_to_mapping
from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.engine.errors import PuzzleError
from canasta_tutor.engine.i18n import LANGUAGES, SOURCE_LANGUAGE, use_language
from canasta_tutor.puzzles.format import load_puzzle_set, parse_puzzle_set, puzzle_from_mapping, shipped_schema

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = tuple(code for code in LANGUAGES if code != SOURCE_LANGUAGE)

SET = """\
title: Can you take the pile?
i18n: {nl: {title: "Mag je de stapel pakken?"}, da: {title: "Må du tage bunken?"}}
puzzles:
  - {id: t1, kind: take-pile, hand: 7H 7S 4C, pile: 5D 9S 7C, expect: {take: true},
     prompt: "Your partner has not melded yet. Can you take the pile?",
     i18n: {nl: {prompt: "Je partner heeft nog niets uitgelegd. Mag je de stapel pakken?"},
            af: {prompt: "Jou vennoot het nog niks neergelê nie. Mag jy die stapel optel?"}}}
  - {id: t2, kind: freeze, pile: 5D 2C 9S, prompt: "Is the pile frozen?"}
"""


def test_a_reader_of_each_language_reads_its_translation_or_else_the_english():
    pset = parse_puzzle_set(SET, "t.yaml")
    assert pset.errors == []
    first, second = pset.puzzles
    assert first.prompt_text("nl") == "Je partner heeft nog niets uitgelegd. Mag je de stapel pakken?"
    assert first.prompt_text("af").startswith("Jou vennoot")
    assert first.prompt_text("da") == first.prompt_text("en") == first.prompt   # no Danish: the English one
    assert second.prompt_text("nl") == "Is the pile frozen?"                      # no i18n: map at all
    assert pset.title_text("da") == first.set_title_text("da") == "Må du tage bunken?"
    assert pset.title_text("af") == pset.title == first.set_title == "Can you take the pile?"
    with use_language("nl"):   # the current language by default
        assert first.prompt_text().startswith("Je partner") and pset.title_text().startswith("Mag je")


def test_a_dutch_reader_of_the_trainer_sees_the_dutch_question(tmp_path):
    from canasta_tutor.widgets import Trainer

    puzzles = parse_puzzle_set(SET, "t.yaml").puzzles
    store = ProgressStore(tmp_path / "progress.sqlite3")
    with use_language("nl"):
        dutch = Trainer(puzzles, ids=["t1"], learner="ana", store=store).prompt.value
    english = Trainer(puzzles, ids=["t1"], learner="bo", store=store).prompt.value
    assert "Je partner heeft nog niets uitgelegd. Mag je de stapel pakken?" in dutch
    assert "Your partner" not in dutch
    assert "Your partner has not melded yet. Can you take the pile?" in english


@pytest.mark.parametrize("bad, where", [
    ("i18n: {fr: {prompt: Peux-tu prendre le talon ?}}", "fr"),          # a language the tutor does not speak
    ("i18n: {nl: {question: Mag je de stapel pakken?}}", "question"),    # the format's own key names only
    ("i18n: {nl: {prompt: ''}}", "prompt"),                              # an empty translation
    ("i18n: {nl: {}}", "nl"),                                            # a language with nothing in it
    ("i18n: {nl: Mag je de stapel pakken?}", "nl"),                      # a text, not a mapping
    ("colour: red", "colour"),                                           # unknown keys elsewhere: still refused
])
def test_the_schema_refuses_a_wrong_translation_and_still_every_unknown_key(bad, where):
    raw = f"puzzles:\n  - {{id: t1, kind: freeze, pile: 5D 2C 9S, {bad}}}\n"
    pset = parse_puzzle_set(raw, "bad.yaml")
    assert pset.puzzles == [] and len(pset.errors) == 1
    assert where in str(pset.errors[0])


@pytest.mark.parametrize("bad", ["i18n: {nl: {prompt: De stapel}}", "i18n: {xx: {title: X}}", "colour: red"])
def test_a_sets_translations_hold_only_its_title(bad):
    with pytest.raises(PuzzleError, match="not a puzzle set"):
        parse_puzzle_set(f"{bad}\npuzzles:\n  - {{id: t1, kind: freeze, pile: 5D 2C 9S}}\n", "bad.yaml")


def test_the_schema_names_the_languages_the_tutor_speaks():
    defs = shipped_schema()["$defs"]
    assert tuple(defs["puzzleTranslations"]["properties"]) == TRANSLATED
    assert tuple(defs["setTranslations"]["properties"]) == TRANSLATED


def test_a_puzzle_written_back_keeps_its_translations():
    puzzle = parse_puzzle_set(SET, "t.yaml").puzzles[0]
    again = puzzle_from_mapping(puzzle_to_mapping(puzzle))
    assert again.i18n == puzzle.i18n and again.prompt_text("nl") == puzzle.prompt_text("nl")


def test_every_shipped_set_has_its_title_and_every_prompt_in_each_language_with_no_english_left():
    from test_golden_languages import english_words

    prompts = 0
    for path in sorted((ROOT / "puzzles").glob("*.yaml")):
        pset = load_puzzle_set(path)
        assert pset.errors == [], path.name
        for lang in TRANSLATED:
            assert pset.i18n.get(lang, {}).get("title"), f"{path.name}: no {lang} title"
        for puzzle in pset.puzzles:
            if puzzle.i18n:
                assert puzzle.prompt, f"{path.name} {puzzle.id}: a translation of no English prompt"
            if puzzle.prompt:
                assert set(puzzle.i18n) == set(TRANSLATED), f"{path.name} {puzzle.id}: {sorted(puzzle.i18n)}"
                for lang in TRANSLATED:
                    text = puzzle.prompt_text(lang)
                    assert text != puzzle.prompt and english_words(text, lang) == [], (path.name, puzzle.id, lang)
                prompts += 1
    assert prompts >= 70
