"""The last English corners of issue 16, in every language: the command line's help and argparse's own words, the
progress database's errors, the scoring errors for impossible hands, the coach's fallback sentences and the moves
of the other players told as sentences (the table's live region and log). The common English words are the list of
``test_golden_languages`` (through ``test_i18n_rest.untranslated``)."""

from __future__ import annotations

import io
import re
import sqlite3
from contextlib import redirect_stderr, redirect_stdout

import pytest
from test_bots_policies import obs_of
from test_i18n_rest import untranslated

from canasta_tutor.bots.coach import _fallback, move_from_buttons, player_name
from canasta_tutor.classroom import db
from canasta_tutor.classroom.progress import ProgressStore, clean_name
from canasta_tutor.cli import main
from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.engine.i18n import pgettext, use_language
from canasta_tutor.engine.scoring import GameScore, score_hand
from canasta_tutor.game import DISCARD, DRAW, END, GO_OUT, LAY_OFF, MELD, SWAP, TAKE_PILE, Action
from canasta_tutor.widgets.table_model import announce

TRANSLATED = ("nl", "da", "af")
COMMANDS = ("solve", "check", "generate", "progress", "worksheet", "assign", "play", "serve")


def cli(argv, env: dict | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """``canasta-tutor ARGV`` in this process: (status, stdout, stderr); ``--help`` and argparse's errors exit."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


#: The help's words that stay English by design: the JSON keys that ``play --json`` writes, quoted in its help.
JSON_KEYS = "rules, seed, hand, went_out, teams (players, melds, red_threes, hands_left, score), stock_left, pile"


def help_words(text: str) -> str:
    """The help without what is not prose: the JSON keys (listed, or quoted), the puzzle kinds, options
    (``--no-from-play``), names with ``-``, ``_``, ``/`` or ``.`` in them (``pile_always_frozen``,
    ``04-taking-the-pile.ipynb``)."""
    from canasta_tutor.puzzles.kinds import KINDS

    text = re.sub(r'"\w+"', " ", " ".join(text.split()).replace(JSON_KEYS, " "))   # "score": a key, quoted
    words = [w.strip(".,;:()'") for w in text.split()]
    return " ".join(w for w in words if w not in KINDS and not any(c in w for c in "-_/.{}"))


# ---- 1. the command line's help and argparse's words -------------------------------------------------------------

@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_help_page_is_in_the_language(lang, monkeypatch):
    monkeypatch.delenv("CANASTA_TUTOR_LANG", raising=False)
    pages = {"": cli(["--lang", lang, "--help"])}
    for command in COMMANDS:
        pages[command] = cli(["--lang", lang, command, "--help"])
        # the subcommand's own --lang, and the variable, choose the help's language as well
        assert cli([command, "--lang", lang, "--help"]) == pages[command]
        monkeypatch.setenv("CANASTA_TUTOR_LANG", lang)
        assert cli([command, "--help"]) == pages[command]
        monkeypatch.delenv("CANASTA_TUTOR_LANG")
    with use_language(lang):
        usage = pgettext("argparse", "usage: ")
        exit_help = pgettext("argparse", "show this help message and exit")
    found = {}
    for command, (status, out, err) in pages.items():
        assert status == 0 and not err, (command, err)
        assert out.startswith(usage) and exit_help in out, out[:200]
        words = untranslated([help_words(out)], lang)
        if words:
            found[command] = words
    assert found == {}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_argparse_errors_are_in_the_language(lang, monkeypatch):
    monkeypatch.delenv("CANASTA_TUTOR_LANG", raising=False)
    said = [cli(["--lang", lang, "solve"]), cli(["--lang", lang, "generate", "take-pile", "--count", "x"]),
            cli(["--lang", lang, "play", "--hands", "0"]), cli(["--lang", lang, "nonsense"]),
            cli(["--lang", lang, "solve", "a.yaml", "--frobnicate"]), cli(["--lang", lang, "generate"])]
    for status, out, err in said:
        assert status == 2 and not out
        assert err.startswith("usage:") is False and "error:" not in err, err
        assert not untranslated([help_words(err)], lang), err
    with use_language(lang):
        required = pgettext("argparse", "the following arguments are required: %s")
    assert required % "FILE" in said[0][2]


def test_english_help_and_errors_are_argparse_s_own(monkeypatch):
    monkeypatch.delenv("CANASTA_TUTOR_LANG", raising=False)
    status, out, _err = cli(["solve", "--help"])
    assert status == 0 and out.startswith("usage: canasta-tutor solve") and "show this help message and exit" in out
    assert "positional arguments:" in out and "options:" in out
    status, _out, err = cli(["solve"])
    assert status == 2 and "error: the following arguments are required: FILE" in err
    # the parse put argparse's words back: a parser of another program reads argparse's own English
    import argparse

    with use_language("nl"):
        assert "show this help message and exit" in argparse.ArgumentParser(prog="x").format_help()


# ---- 2. the progress database's errors ---------------------------------------------------------------------------

def prose(texts) -> list[str]:
    """The texts without the names of fields and keys (``concealed_canastas``, ``red_threes``): the API's, English."""
    return [re.sub(r"\w+_\w+", " ", t) for t in texts]


def progress_errors(tmp_path) -> list[str]:
    tmp_path.mkdir()
    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    no_column = tmp_path / "old.sqlite3"
    with sqlite3.connect(no_column) as conn:
        conn.execute("CREATE TABLE attempts (learner TEXT)")
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"this is no database at all" * 100)
    calls = [lambda: clean_name(""), lambda: clean_name(7), lambda: clean_name("x" * 500),
             lambda: db.target(3.5), lambda: db.target("mysql://host/db"), lambda: db.target("postgresql://host"),
             lambda: db.target("sqlite://"), lambda: db.target("postgresql:nothing"),
             lambda: ProgressStore(foreign).summary(), lambda: ProgressStore(no_column).summary(),
             lambda: ProgressStore(damaged).summary(),
             lambda: ProgressStore(tmp_path / "p.sqlite3").record(
                 learner="Ann", puzzle_set="s", puzzle_id="1", kind="take-pile", topic="t", difficulty="hard",
                 answer={}, correct=True, seconds=1.0)]
    said = []
    for call in calls:
        with pytest.raises(CanastaError) as caught:
            call()
        said.append(str(caught.value))
    return said


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_progress_databases_errors_are_in_the_language(lang, tmp_path):
    english = progress_errors(tmp_path / "en")
    with use_language(lang):
        said = progress_errors(tmp_path / lang)
    assert len(said) == len(english) == 12
    # the database's path and SQLite's own words ("file is not a database") are no sentence of ours
    ours = [t.replace(str(tmp_path / lang), "PATH").replace("file is not a database", "") for t in said]
    assert untranslated(prose(ours), lang) == {}
    assert all(a != b for a, b in zip(said, english)), [a for a, b in zip(said, english) if a == b]


def store_errors(tmp_path) -> list[str]:
    """The errors of the stores beside the progress database: the assignments and the kept mistakes."""
    from canasta_tutor.classroom.assignments import AssignmentBook, parse_due
    from canasta_tutor.classroom.mistakes import MistakeStore

    tmp_path.mkdir()
    book = AssignmentBook(tmp_path / "p.sqlite3")
    calls = [lambda: book.create(""), lambda: book.create("Homework"), lambda: book.get(99),
             lambda: parse_due("next week"), lambda: book.create("Homework", generate={"colour": "red"}),
             lambda: book.create("Homework", generate={"count": 2}),
             lambda: book.create("Homework", generate={"kind": "take-pile", "count": 0}),
             lambda: book.create("Homework", sources=[tmp_path / "absent"]),
             lambda: MistakeStore(book.store).save("Ann", ["a puzzle"]),
             lambda: MistakeStore(book.store).answered(99, True)]
    said = []
    for call in calls:
        with pytest.raises(CanastaError) as caught:
            call()
        said.append(str(caught.value))
    return said


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_stores_errors_are_in_the_language(lang, tmp_path):
    english = store_errors(tmp_path / "en")
    with use_language(lang):
        said = store_errors(tmp_path / lang)
    # the path and the system's own words (strerror: "No such file or directory") are no sentence of ours
    ours = [t.replace(str(tmp_path / lang), "PATH").replace("No such file or directory", "") for t in said]
    assert untranslated(prose(ours), lang) == {}
    assert all(a != b for a, b in zip(said, english)), [a for a, b in zip(said, english) if a == b]


# ---- 3. the scoring errors for impossible hands ------------------------------------------------------------------

def over(scores: dict) -> GameScore:
    """A game that is over: won by a team, or a tie (nobody won)."""
    game = GameScore(list(scores))
    game.add_hand(scores)
    return game


def scoring_errors() -> list[str]:
    canasta = "KH KS KD KC KH KS KD"
    calls = [lambda: score_hand(melds=[canasta], red_threes="3C"),
             lambda: score_hand(melds=[canasta], red_threes="3H 3D 3H 3D 3H"),
             lambda: score_hand(melds=["7C 7D 7S"], went_out=True),
             lambda: score_hand(melds=[canasta], hands=["3H 5C"]),
             lambda: score_hand(melds=[canasta], concealed_canastas=-1),
             lambda: score_hand(melds=[canasta], concealed_canastas=2),
             lambda: score_hand(melds=["7C 7D 7S"], concealed_canastas=1),
             lambda: score_hand(melds=[canasta], went_out="concealed", concealed_canastas=0),
             lambda: GameScore(["A"]), lambda: GameScore(["A", "B"]).add_hand({"C": 10}),
             lambda: over({"A": 5000, "B": 100}).add_hand({"A": 10}), lambda: over({"A": 5000, "B": 5000}).add_hand({})]
    said = []
    for call in calls:
        with pytest.raises(CanastaError) as caught:
            call()
        said.append(str(caught.value))
    return said


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_scoring_errors_are_in_the_language(lang):
    english = scoring_errors()
    with use_language(lang):
        said = scoring_errors()
    assert untranslated(prose(said), lang) == {}
    assert all(a != b for a, b in zip(said, english)), [a for a, b in zip(said, english) if a == b]


# ---- 4. the coach's fallback sentences ---------------------------------------------------------------------------

def fallback_sentences() -> list[str]:
    obs = obs_of("9H 9S 4C 5D KH KS KD", "5H 2C KD 9D", melds=["7C 7D 7S"])
    take = Action(TAKE_PILE, cards=parse_cards("9H 9S"))
    discard, other = Action(DISCARD, cards=parse_cards("4C")), Action(DISCARD, cards=parse_cards("5D"))
    meld = Action(MELD, melds=(parse_cards("KH KS KD"),))
    out = Action(GO_OUT, melds=(parse_cards("KH KS KD"),), discard=parse_cards("4C")[0])
    said = [_fallback(obs, Action(DRAW), take, ""), _fallback(obs, discard, out, ""), _fallback(obs, discard, meld, ""),
            _fallback(obs, discard, other, ""), _fallback(obs, meld, take, ""), _fallback(obs, take, Action(DRAW), "")]
    for kind, cards in ((DISCARD, ("4C", "5D")), (DISCARD, ())):
        with pytest.raises(CanastaError) as caught:
            move_from_buttons(kind, [], cards=cards)
        said.append(str(caught.value))
    return said


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_coachs_fallback_sentences_are_in_the_language(lang):
    english = fallback_sentences()
    with use_language(lang):
        said = fallback_sentences()
    assert untranslated(said, lang) == {}
    assert all(a != b for a, b in zip(said, english))


def test_the_coachs_fallback_sentences_in_english():
    said = fallback_sentences()
    assert said[0] == "You could have taken the pile: four cards, one of them wild."
    assert said[1] == "You could have gone out: meld K♥ K♠ K♦ and discard 4♣."
    assert said[3] == "The coach would have discarded 5♦ rather than 4♣."
    assert said[6] == "illegal move (this move): No: select exactly one card to discard (you selected 2)."


# ---- 5. another player's move, told as a sentence ----------------------------------------------------------------

def moves() -> list[Action]:
    c = parse_cards
    return [Action(DRAW), Action(TAKE_PILE, cards=c("9C 9D")), Action(TAKE_PILE), Action(TAKE_PILE, target=0),
            Action(TAKE_PILE, cards=c("9C 9D"), target=0),
            Action(TAKE_PILE, cards=c("9C 9D"), melds=(c("9S 9C 9D"), c("KH KS KD"))),
            Action(MELD, melds=(c("5H 5S 2C"),)), Action(LAY_OFF, cards=c("7H"), target=0),
            Action(SWAP, cards=c("7H"), target=0, wild=c("JK")[0]), Action(DISCARD, cards=c("4H")),
            Action(GO_OUT, melds=(c("QH QS QD"),), discard=c("4C")[0]), Action(GO_OUT), Action(END)]


def told_all(seat_of_mover: int) -> list[str]:
    melds = (parse_cards("7S 7D 7C"),)
    name = player_name(seat_of_mover, 0, 4)
    return [announce(name, a, melds, you=seat_of_mover == 0) for a in moves()]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_move_is_told_as_a_sentence_of_the_language(lang):
    with use_language(lang):
        theirs, yours = told_all(1), told_all(0)
        buttons = [a.describe((parse_cards("7S 7D 7C"),), you=False) for a in moves()]
        seat = player_name(1, 0, 4)
    assert untranslated(theirs + yours, lang) == {}
    # the player, then a sentence of its own: never "Seat: <the button's imperative>"
    for told, button in zip(theirs, buttons):
        assert told.startswith(seat) and button not in told and f"{seat}:" not in told, (told, button)
    assert not set(theirs) & set(yours)


def test_a_bots_take_in_danish_is_a_danish_sentence():
    with use_language("da"):
        said = announce(player_name(1, 0, 4), moves()[1])
        mine = announce(player_name(0, 0, 4), moves()[9])
    assert said == f"{pgettext('seat', 'Left opponent', lang='da')} tager bunken med 9♣ 9♦."
    assert mine == "Du lægger 4♥ i afkastbunken."


def test_moves_told_in_english():
    theirs, yours = told_all(1), told_all(0)
    assert theirs[1] == "Left opponent takes the pile with 9♣ 9♦."
    assert theirs[7] == "Left opponent lays off 7♥ on 7♠ 7♦ 7♣."
    assert theirs[10] == "Left opponent goes out with Q♥ Q♠ Q♦ 4♣."
    assert yours[9] == "You discard 4♥." and yours[0] == "You draw from the stock."
    assert theirs[5] == "Left opponent takes the pile with 9♣ 9♦. Left opponent opens with 9♠ 9♣ 9♦ and K♥ K♠ K♦."


@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_unknown_language_is_refused_in_the_language_asked_for_before_it(lang, monkeypatch):
    monkeypatch.setenv("CANASTA_TUTOR_LANG", lang)
    status, out, err = cli(["solve", "--lang", "fr", "puzzles/"])
    assert status == 2 and not out and "'fr'" in err
    assert not untranslated([err.replace("English", "")], lang), err


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_expert_bots_reasons_are_in_the_language(lang):
    """The coach quotes the expert bot "in its words": those words are in the language too."""
    import random

    from canasta_tutor.bots.expert import ExpertBot
    from canasta_tutor.game import Game, apply, legal_actions, observation

    state = Game("classic").deal(seed=3)
    bot = ExpertBot(think=0.05, playouts=4, seed=1)
    english, said = [], []
    for _turn in range(4):
        obs, legal = observation(state, state.current_player), legal_actions(state)
        action, why = bot.choose(obs, legal, random.Random(0))
        with use_language(lang):
            said.append(bot.choose(obs, legal, random.Random(0))[1])
        english.append(why)
        apply(state, action)
    assert said and untranslated(said, lang) == {}, said
    assert all(a != b for a, b in zip(said, english)), said
