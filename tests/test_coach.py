"""Lesson 10, the coached hand: the pure coach (``canasta_tutor.bots.coach``) and its widget driven as a learner would,
by selecting cards and pressing buttons (no browser; ``tests/test_browser_coach.py`` does it in one)."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from canasta_tutor.bots.coach import KIND_LABELS, CoachedHand, CoachError, available_levels, coach_bot_name, player_name
from canasta_tutor.engine.cards import Card, parse_cards
from canasta_tutor.engine.melds import check_meld
from canasta_tutor.game import Action, IllegalMove
from canasta_tutor.widgets.coach import PlayAHand
from canasta_tutor.widgets.render import card_html

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "lessons" / "10-play-a-hand.ipynb"


@pytest.fixture(autouse=True)
def _club_coach(monkeypatch):
    """These tests are of the table, the buttons and the rules-of-thumb coach: the club bot coaches (the expert
    coach, the default, has its own tests in test_coach_expert.py)."""
    import canasta_tutor.bots.coach as coach

    monkeypatch.setattr(coach, "DEFAULT_COACH", "club")


def visible(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def log_text(w: PlayAHand) -> str:
    """The table's log, as the learner reads it."""
    return " ".join(e["text"] for e in w.table.log)


def play_simply(w: PlayAHand, limit: int = 400) -> int:
    """Play the learner's seat to the end of the hand by pressing buttons: draw (or end the hand when the stock is
    used up), then discard the first card. Returns the number of button presses."""
    presses = 0
    while not w.hand.over:
        shown = w.shown_moves
        if "draw" in shown:
            w.press("draw")
        elif "end" in shown:
            w.press("end")
        else:
            assert "discard" in shown, shown
            w.table.selected = [0]
            w.press("discard")
        presses += 1
        assert presses < limit, "the hand does not end"
    return presses


def greedy(hand: CoachedHand):
    """A learner who melds whatever it can: take the pile or meld or lay off when it may, else draw, else the
    first legal move."""
    legal = hand.legal()
    return ([a for a in legal if a.kind in ("take_pile", "meld", "lay_off")] or
            [a for a in legal if a.kind == "draw"] or legal)[0]


# --- a full hand, by the buttons -----------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["classic", "classic-2p", "samba"])
def test_a_whole_hand_played_by_buttons_ends_with_both_teams_score_sheets(rules):
    w = PlayAHand(rules=rules, level="random", seed=5)
    assert w.hand.your_turn and "draw" in w.shown_moves
    assert "discard" not in w.shown_moves  # not before drawing
    assert w.sheet.value == ""
    play_simply(w)
    sheet = visible(w.sheet.value)
    assert "Score sheet" in sheet
    teams = w.hand.score_sheets()
    assert len(teams) == 2 and w.hand.seat in teams[0][0]
    assert sorted(p for players, _ in teams for p in players) == list(range(w.hand.players))
    final = w.hand.state
    for players, s in teams:
        # the sheet shown is the team's own: its cards left in hand are exactly what its players still hold
        left = [c for p in players for c in final.hands[p]]
        assert s.total == sum(i.points for i in s.items)
        item = {i.label: i for i in s.items}
        if left:
            assert item["Cards left in hand"].points == -sum(c.points for c in left)
        assert f"{s.total} points" in sheet
    ours, theirs = (("You and your partner", "Left opponent and right opponent") if w.hand.players == 4
                    else ("You", "Your opponent"))
    assert re.search(rf"{ours} : -?\d+ points", sheet) and re.search(rf"{theirs} : -?\d+ points", sheet), sheet
    assert w.shown_moves == []  # no moves once the hand is over
    assert "is over" in log_text(w)


def test_bots_turns_are_told_with_their_own_sentences():
    w = PlayAHand(level="random", seed=5)
    w.press("draw")
    w.select(w._hand_cards()[0].code)
    w.press("discard")
    log = log_text(w)
    for who in ("Left opponent", "Your partner", "Right opponent"):
        assert re.search(who + r" (draws from the stock|takes the pile)[^.]*\. “I picked one of the \d+ legal moves",
                         log)
    assert "You: Draw from the stock." in log


# --- the coach -----------------------------------------------------------------------------------------------
def test_the_coach_compares_each_turn_with_its_bot_and_says_so():
    hand = CoachedHand("classic", 5, level="random")
    assert hand.coach_name == coach_bot_name() == available_levels()[-1]
    # a turn played exactly as the coach would play it: the coach agrees
    while True:
        action, why = hand.advice()
        assert why
        hand.play(action)
        if hand.over or hand.state.phase == "draw":  # the bots have played: the learner's next turn
            break
    assert hand.coach and "the same way" in hand.coach[0]
    # a turn that differs from the coach's choice: the coach says what it would have done, in a sentence
    hand.play(hand.move("draw"))
    advice, _why = hand.advice()
    hand.play(next(a for a in hand.legal() if a != advice and a.kind == "discard"))
    assert "differently" in hand.coach[0]
    assert len(hand.coach) >= 2 and all(s.endswith((".", "!", "?", ".”")) for s in hand.coach[1:])
    assert [e.text for e in hand.log if e.kind == "coach"][-len(hand.coach):] == hand.coach


def test_the_coach_box_shows_the_comparison_after_a_turn():
    w = PlayAHand(level="random", seed=5)
    assert w.coach_box.value == ""
    w.press("draw")
    advice, _ = w.hand.advice()
    other = next(a for a in w.hand.legal() if a.kind == "discard" and a != advice)
    w.select(other.cards[0].code)
    w.press("discard")
    text = visible(w.coach_box.value)
    assert "Coach:" in text and ("differently" in text or "same way" in text)
    if advice.kind == "discard":
        assert "differently" in text and str(advice.cards[0]) in text


# --- illegal moves -------------------------------------------------------------------------------------------
def test_an_illegal_meld_is_refused_with_the_engines_reason_and_nothing_changes():
    w = PlayAHand(level="random", seed=5)
    w.press("draw")
    assert "meld" in w.shown_moves  # seed 5 offers an opening meld
    hand_before = list(w._hand_cards())
    history = len(w.hand.state.history)
    card = hand_before[0]
    w.select(card.code)
    w.press("meld")
    refusal = visible(w.feedback.value).strip()
    engine = check_meld([card], "classic")  # the engine's own words for this meld
    assert not engine.ok
    assert refusal.startswith("Not allowed:") and engine.reasons[0].text in w.feedback.value.replace("&#x27;", "'")
    assert "ct-refusal" in w.feedback.value and "role='alert'" in w.feedback.value
    assert w._hand_cards() == hand_before and len(w.hand.state.history) == history
    # the legal move still works afterwards
    w.select(hand_before[-1].code)
    w.press("discard")
    assert w.feedback.value == "" and len(w.hand.state.history) > history


def test_taking_a_pile_the_wrong_way_is_refused_with_the_engines_reasons():
    hand = CoachedHand("classic", 5, level="random")
    action = hand.move("take_pile", [hand.observation().hand[0]])
    with pytest.raises(IllegalMove) as caught:
        hand.play(action)
    assert caught.value.verdict.reasons and not caught.value.verdict.ok
    assert hand.state.phase == "draw" and hand.state.history == [] and hand.your_turn


def test_a_discard_needs_one_selected_card():
    w = PlayAHand(level="random", seed=5)
    w.press("draw")
    w.press("discard")
    assert "Select exactly one card to discard" in w.feedback.value
    w.select(*[c.code for c in w._hand_cards()[:2]])
    w.press("discard")
    assert "you selected 2" in w.feedback.value


def test_a_meld_selected_by_the_learner_is_the_engines_legal_meld():
    w = PlayAHand(level="random", seed=5)
    w.press("draw")
    meld = next(a for a in w.hand.legal() if a.kind == "meld")
    w.select(*[c.code for m in reversed(meld.melds) for c in reversed(m)])  # any order of clicking
    w.press("meld")
    assert w.feedback.value == "" and w.hand.state.history[-1] == meld
    for m in meld.melds:
        assert m in w.hand.observation().melds


# --- undo and replay -----------------------------------------------------------------------------------------
def test_undo_takes_back_the_last_turn_and_the_bots_turns_after_it():
    w = PlayAHand(level="random", seed=7)
    assert w.undo_button.disabled
    start_hand, start_pile = w._hand_cards(), w.hand.observation().pile
    w.press("draw")
    w.select(w._hand_cards()[0].code)
    w.press("discard")
    after_one = (w._hand_cards(), w.hand.observation().pile, len(w.hand.state.history))
    assert len(w.hand.state.history) > 2  # the bots played too
    assert not w.undo_button.disabled
    w.undo_button.click()
    assert w._hand_cards() == start_hand and w.hand.observation().pile == start_pile
    assert w.hand.state.history == [] and "draw" in w.shown_moves
    assert "took back" in log_text(w)
    # the same turn again meets the same bots' answers
    w.press("draw")
    w.select(after_one[0] and w._hand_cards()[0].code)
    w.press("discard")
    assert (w._hand_cards(), w.hand.observation().pile, len(w.hand.state.history)) == after_one


def test_undo_in_the_middle_of_a_turn_goes_back_to_its_start():
    hand = CoachedHand("classic", 5, level="random")
    hand.play(hand.move("draw"))
    assert hand.can_undo and hand.undo()
    assert hand.state.phase == "draw" and hand.state.history == []
    assert not hand.undo() and not hand.can_undo


def test_replaying_a_hand_number_deals_the_same_hand_and_another_number_another():
    w = PlayAHand(level="random", seed=11)
    first = (w._hand_cards(), w.hand.observation().pile, [e.text for e in w.hand.log])
    w.number.value = 12
    w.deal_button.click()
    assert w._hand_cards() != first[0]
    w.number.value = 11
    w.deal_button.click()
    assert (w._hand_cards(), w.hand.observation().pile, [e.text for e in w.hand.log]) == first
    w.next_button.click()
    assert w.number.value == 12 and w.hand.seed == 12


def test_the_same_hand_played_the_same_way_ends_the_same():
    a, b = PlayAHand(level="random", seed=9), PlayAHand(level="random", seed=9)
    play_simply(a), play_simply(b)
    assert a.sheet.value == b.sheet.value and [e.text for e in a.hand.log] == [e.text for e in b.hand.log]


# --- settings ------------------------------------------------------------------------------------------------
def test_the_rules_choice_deals_a_hand_of_those_rules():
    w = PlayAHand(level="random", seed=3)
    assert len(w._hand_cards()) == 11 and w.hand.players == 4
    w.rules_choice.value = "classic-2p"
    assert w.hand.rules.name == "classic-2p" and w.hand.players == 2 and len(w._hand_cards()) == 15
    assert [(s["place"], s["name"]) for s in w.table.view["seats"]] == [("south", "You"), ("north", "Your opponent")]
    w.rules_choice.value = "samba"
    assert w.hand.rules.name == "samba" and len(w._hand_cards()) == 15
    w.press("draw")
    assert len(w._hand_cards()) == 17  # samba draws two


def test_the_level_choice_sets_the_bots():
    w = PlayAHand(level="random", seed=3)
    assert w.hand.bot.name == "random"
    for level in available_levels():
        w.level_choice.value = level
        assert w.hand.bot.name == level


def test_bad_settings_are_refused_with_a_clear_message():
    with pytest.raises(CoachError, match="hand number: 0 is not a whole number from 1 to"):
        CoachedHand("classic", 0)
    with pytest.raises(CoachError, match="level: 'grandmaster' is not a bot level; choose one of random"):
        CoachedHand("classic", 1, level="grandmaster")
    with pytest.raises(CoachError, match="seat: 4 is not a seat of classic"):
        CoachedHand("classic", 1, level="random", seat=4)
    w = PlayAHand(level="random", seed=3)
    with pytest.raises(Exception, match="not in your hand"):
        w.select("JK", "JK", "JK", "JK", "JK")


def test_another_seat_plays_too():
    hand = CoachedHand("classic", 5, level="random", seat=2)
    assert hand.your_turn and hand.state.current_player == 2
    assert [player_name(p, 2, 4) for p in range(4)] == ["Your partner", "Right opponent", "You", "Left opponent"]
    assert len(hand.log) > 1  # the seats before the learner's played first


def test_every_move_is_labelled_and_the_hand_is_drawn_as_the_lessons_cards():
    """The table's move buttons carry the coach's labels, and its cards are the lessons' drawing (render.card_html)
    of exactly the cards of the hand (before: grey text buttons unlike every other lesson)."""
    w = PlayAHand(level="random", seed=5)
    assert w.table.moves == [{"kind": "draw", "label": KIND_LABELS["draw"]}]
    w.press("draw")
    assert [m["label"] for m in w.table.moves] == [KIND_LABELS[k] for k in w.hand.legal_kinds()]
    assert Counter(w._hand_cards()) == Counter(w.hand.observation().hand)
    for size in ("small", "normal"):
        for code in w.table.hand:
            assert w.table.faces[size][code] == card_html(code, size=size, title="")


# --- the lesson ----------------------------------------------------------------------------------------------
def test_the_lesson_is_prose_and_one_line_calls_and_listed_on_the_landing_page():
    nb = json.loads(LESSON.read_text("utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    for source in code:
        body = ast.parse(source).body
        assert len(body) == 1, source
        if isinstance(body[0], ast.ImportFrom):
            continue
        call = body[0].value
        assert isinstance(call, ast.Call) and call.func.id == "PlayAHand", source
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            ast.literal_eval(arg)
    assert any("PlayAHand(" in s for s in code)
    index = (ROOT / "lessons" / "index.ipynb").read_text("utf-8")
    assert index.count("(10-play-a-hand.ipynb)") == 1 and "Play a hand with a coach" in index
    markdown = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "# 10. Play a hand with a coach" in markdown
    for label in ("Undo my last turn", "Meld the selected cards", "Add to a meld"):
        assert label in markdown or label in KIND_LABELS.values()


def test_the_engine_side_of_the_coach_imports_no_jupyter():
    import subprocess
    import sys

    code = "import sys, canasta_tutor.bots.coach; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_taking_the_pile_one_of_several_ways_is_chosen_by_the_selected_cards():
    w = PlayAHand(level="random", seed=11)
    ways = [a for a in w.hand.legal() if a.kind == "take_pile"]
    assert len(ways) > 1 and "take_pile" in w.shown_moves
    w.press("take_pile")
    text = visible(w.feedback.value).strip()
    assert "Select the cards from your hand that take the pile with its top card" in text, text
    assert w.hand.state.history == []
    # the message names the selections that work, as cards: selecting one of them takes the pile that way
    listed = text.split("You could select ", 1)[1].removesuffix(".").split("; or ")

    def from_hand(a):
        return Counter(list(a.melds[0][1:]) + [c for m in a.melds[1:] for c in m])

    selections = {frozenset(from_hand(a).items()) for a in ways}
    assert len(listed) == min(4, len(selections)) == len(set(listed)) and len(listed) > 1, listed
    assert {frozenset(Counter(Card(t) for t in sel.split()).items()) for sel in listed} <= selections
    cards = [Card(t) for t in listed[-1].split()]
    chosen = next(a for a in ways if from_hand(a) == Counter(cards))   # the first way with these cards
    top = w.hand.observation().pile[-1]
    pile = len(w.hand.observation().pile)
    w.select(*[c.code for c in cards])
    w.press("take_pile")
    assert w.feedback.value == "" and w.hand.state.history == [chosen]
    assert all(m in w.hand.observation().melds for m in chosen.melds) and top in chosen.melds[0]
    assert len(w._hand_cards()) == 11 - sum(len(m) for m in chosen.melds) + pile


def test_a_card_is_added_to_a_meld_chosen_from_the_list():
    w = PlayAHand(level="random", seed=1)
    for _ in range(200):  # a greedy learner's moves up to the first position where it can lay off
        if any(a.kind == "lay_off" for a in w.hand.legal()):
            break
        w.hand.play(greedy(w.hand))
    w.update()
    lay = next(a for a in w.hand.legal() if a.kind == "lay_off")
    assert "lay_off" in w.shown_moves and w.table.targets
    meld = w.hand.observation().melds[lay.target]
    assert [t["index"] for t in w.table.targets] == list(range(len(w.hand.observation().melds)))
    w.select(*[c.code for c in lay.cards])
    w.table.target = lay.target
    w.press("lay_off")
    assert w.feedback.value == "" and w.hand.state.history[-1] == lay
    assert w.hand.observation().melds[lay.target] == meld + lay.cards
    # a card that does not fit the meld is refused with the engine's reason
    wrong = next(c for c in w._hand_cards() if not c.is_wild and c.rank != meld[0].rank)
    w.select(wrong.code)
    w.press("lay_off")
    assert "Not allowed:" in w.feedback.value and w.hand.state.history[-1] == lay


def test_going_out_by_the_button_ends_the_hand_with_the_going_out_bonus_on_our_sheet():
    w = PlayAHand(level="random", seed=1)
    for _ in range(200):  # seed 1: a greedy learner may go out after 31 moves (found by search)
        if "go_out" in w.hand.legal_kinds():
            break
        w.hand.play(greedy(w.hand))
    w.update()
    assert "go_out" in w.shown_moves
    w.press("go_out")
    assert w.hand.over and w.hand.state.went_out[0] == w.hand.seat
    assert "You went out" in log_text(w)
    (ours, our_sheet), (_theirs, their_sheet) = w.hand.score_sheets()
    assert any(i.label == "Going out" and i.points > 0 for i in our_sheet.items)
    assert not any(i.label == "Going out" and i.points for i in their_sheet.items)
    assert "Going out" in visible(w.sheet.value)


def test_the_coach_switches_to_the_club_bot_by_itself_once_it_is_registered(monkeypatch):
    import canasta_tutor.bots as bots

    bots.bot_names()  # load the registered bots first

    class Club:  # a stand-in for the club bot, registered as the bots' engineer's module will do
        name = "club"

        def choose(self, observation, legal_actions, rng):
            return legal_actions[-1], "I take the last move on the list."

    monkeypatch.setitem(bots._REGISTRY, "club", Club)
    assert coach_bot_name() == "club" and available_levels()[-1] == "club"
    hand = CoachedHand("classic", 5, level="random")
    assert hand.coach_name == "club"
    hand.play(hand.move("draw"))
    first = next(a for a in hand.legal() if a.kind == "discard")
    last = hand.legal()[-1]
    hand.play(first)
    assert "the club bot" in hand.coach[0]
    if last != first:
        assert "differently" in hand.coach[0] and len(hand.coach) >= 2
        if not hasattr(bots, "explain_difference"):  # without the bots' own explanation: the bot's reason is quoted
            assert "I take the last move on the list." in " ".join(hand.coach)


# --- the sentences a learner reads -----------------------------------------------------------------------------
def _play_two_classic_hands():
    """Two classic hands to the end: hand 1 with the learner's moves at random, hand 2 as the beginner bot plays
    them (against club bots); every event of the log."""
    import random

    from canasta_tutor.bots import get_bot

    hands = []
    for seed, mover, level in ((1, None, "beginner"), (2, "beginner", "club")):
        hand, rng = CoachedHand("classic", seed, level=level), random.Random(seed)
        bot = get_bot(mover) if mover else None
        coached = []
        while not hand.over:
            legal = hand.legal()
            before = Counter(hand.observation().hand)
            action = bot.choose(hand.observation(), legal, rng)[0] if bot else rng.choice(legal)
            hand.play(action)
            if action.kind == "draw":
                drawn = [e.text for e in hand.log if e.kind == "you"][-1]
                new = Counter(hand.observation().hand) - before if hand.your_turn else None
                if new:
                    assert drawn.endswith(" New in your hand: " + " ".join(c.text for c in sorted(new.elements()))
                                          + "."), drawn
            if hand.coach and hand.coach not in coached:
                coached.append(list(hand.coach))
        hands.append((hand, coached))
    return hands


def test_bots_say_why_without_saying_their_move_twice_and_the_coach_gives_one_note_per_move():
    hands = _play_two_classic_hands()
    for hand, coached in hands:
        events = [e for e in hand.log if e.kind == "bot"]
        bots = [e.text for e in events]
        assert bots and all("“" in t and t.endswith("”") for t in bots), bots[:3]
        for e in events:   # "Left opponent discards 9♦. “I discard 9♦: ...”" said the move twice
            text = e.text
            move = e.action.describe(list(e.melds), you=False)
            told, words = text.split(" “", 1)
            assert told == e.action.told(hand.name(e.player), list(e.melds)), text
            head = words.split(":")[0]
            assert not (head.startswith("I ") and head != "I take the pile"
                        and move.lower().startswith(head[2:].lower())), text
            assert " from your hand" not in text, text
        assert coached
        for sentences in coached:
            head, *notes = sentences
            assert head.startswith("I (the club bot) would have played this turn"), head
            # notes follow a turn played differently, or one that let an opponent take the pile (said after it)
            assert ("differently:" in head or "did not work out:" in head) == bool(notes), sentences
            assert len(notes) == len(set(notes)), notes
            # never two notes about the same move of the coach ("I would have chosen: Lay off 8♦ ..." and
            # "You could have put more cards down first: lay off 8♦ ...")
            moves = [re.sub(r"^.*?: ", "", n).lower() for n in notes if ": " in n]
            assert len(moves) == len(set(moves)), notes
            assert not any(re.search(r": [A-Z][a-z]", n) and "I would have chosen" in n for n in notes), notes


def test_the_coachs_hint_reads_as_one_sentence_and_quotes_the_bot():
    w = PlayAHand(level="random", seed=5)
    w.hint()
    text = visible(w.feedback.value)
    assert re.search(r"The coach would (draw|take) ", text) and "would:" not in text, text
    assert "“" in text and text.strip().endswith("”"), text


# --- from a button and the selected cards to the game's action ---------------------------------------------------
def _hand_offering(*legal):
    """A learner's hand whose legal actions are ``legal`` (to read how a button and a selection become one)."""
    hand = CoachedHand("classic", 5, level="random")
    hand.legal = lambda: list(legal)
    return hand


def _cards(text):
    return parse_cards(text)


def _refusal(call) -> tuple[str, str]:
    with pytest.raises(IllegalMove) as caught:
        call()
    (reason,) = caught.value.verdict.reasons
    return reason.code, reason.text


def test_draw_end_and_go_out_are_the_legal_action_or_the_one_asked_for():
    out = Action("go_out", melds=(_cards("KH KS KD"),), discard=Card("4C"))
    hand = _hand_offering(Action("draw"), out)
    assert hand.move("draw") == Action("draw") and hand.move("go_out", ["KH"]) == out
    assert hand.move("end") == Action("end")


def test_a_take_is_the_only_one_or_the_one_showing_the_selected_cards():
    one = Action("take_pile", cards=_cards("9H 9S"))
    assert _hand_offering(one).move("take_pile") == one
    assert _hand_offering(one).move("take_pile", ["9C", "2C"]) == Action("take_pile", cards=_cards("9C 2C"))
    ways = [Action("take_pile", cards=_cards(f"{r}H {r}S"), melds=(_cards(f"{r}D {r}H {r}S"), _cards("AH AS AD")))
            for r in ("4", "5", "6", "7", "8", "9")]
    hand = _hand_offering(*ways)
    assert hand.move("take_pile", ["AS", "5S", "AH", "5H", "AD"]) == ways[1]
    code, text = _refusal(lambda: hand.move("take_pile"))
    assert code == "select-shown"
    assert text.endswith("You could select 4♥ 4♠ A♦ A♥ A♠; or 5♥ 5♠ A♦ A♥ A♠; or 6♥ 6♠ A♦ A♥ A♠; or "
                         "7♥ 7♠ A♦ A♥ A♠ (or one of 2 other ways).")
    code, text = _refusal(lambda: _hand_offering(*ways[:5]).move("take_pile"))
    assert text.endswith("; or 7♥ 7♠ A♦ A♥ A♠ (or one of 1 other way).")
    code, text = _refusal(lambda: _hand_offering(*ways[:4]).move("take_pile"))
    assert text.endswith("; or 7♥ 7♠ A♦ A♥ A♠.")


def test_a_discard_a_meld_a_lay_off_and_a_swap_say_what_to_select():
    hand = _hand_offering()
    assert _refusal(lambda: hand.move("discard")) == ("select-one", "Select exactly one card to discard.")
    assert _refusal(lambda: hand.move("meld")) == ("select-meld", "Select the cards you want to meld first.")
    assert _refusal(lambda: hand.move("lay_off")) == ("select-one", "Select the cards to add to the meld first.")
    assert _refusal(lambda: hand.move("swap", ["9C", "9D"], target=0)) == \
        ("select-one", "Select the card to put in the meld.")
    assert _refusal(lambda: hand.move("lay_off", ["9C"])) == ("choose-meld", "Choose the meld to add it to.")
    with pytest.raises(CoachError, match="unknown move 'pass': the moves are draw, take_pile, "):
        hand.move("pass")


def test_a_meld_a_lay_off_and_a_swap_are_the_legal_one_or_the_one_asked_for():
    meld = Action("meld", melds=(_cards("KH KS KD"), _cards("7C 7D 2S")))
    lay = Action("lay_off", cards=_cards("9C"), target=1)
    swap = Action("swap", cards=_cards("9C"), target=0, wild=Card("JK"))
    hand = _hand_offering(meld, lay, swap)
    assert hand.move("meld", ["2S", "7D", "KD", "7C", "KS", "KH"]) == meld
    assert hand.move("meld", ["7C", "7D", "2S"]) == Action("meld", melds=(_cards("7C 7D 2S"),))
    assert hand.move("lay_off", ["9C"], target=1) == lay
    assert hand.move("lay_off", ["9C"], target=0) == Action("lay_off", cards=_cards("9C"), target=0)
    assert hand.move("swap", ["9C"], target=0) == swap
    # another card for the same meld takes back the same wild card; a meld with no swap offered, none
    assert hand.move("swap", ["9D"], target=0) == Action("swap", cards=_cards("9D"), target=0, wild=Card("JK"))
    assert hand.move("swap", ["9D"], target=1) == Action("swap", cards=_cards("9D"), target=1)


# --- what the coach says after a turn that handed the pile over ------------------------------------------------------
def _turns_following_the_coach(rules: str, seeds) -> list[tuple[list[str], str, str, list[str]]]:
    """Hands played as the coach advises (club bots): for each finished turn of the learner, ``(the coach's
    sentences, the learner's last move, the next move in the log, the log's lines up to the learner's next turn)``,
    read from the log (the game's own sentences), not from the coach's reasoning."""
    turns = []
    for seed in seeds:
        hand = CoachedHand(rules, seed, level="club")
        while not hand.over:
            action, _why = hand.advice()
            hand.play(action)
            if hand.state.phase != "draw" and not hand.over:
                continue
            texts = [(e.kind, e.text) for e in hand.log]
            last_you = max(i for i, (kind, _t) in enumerate(texts) if kind == "you")
            after = [t for kind, t in texts[last_you + 1:] if kind != "coach"]
            turns.append((list(hand.coach), texts[last_you][1], after[0] if after else "", after))
    return turns


def test_the_coach_praises_only_a_turn_that_did_not_hand_the_pile_over_and_says_what_happened():
    """Lesson 10: the learner discarded 9♦ as the coach advised, the opponent took the pile and went out, and the
    coach said "Well played!". Praise only a turn the coach agrees with and that did not hand the pile over."""
    handed = went_out = praised = 0
    for coach, mine, following, after in _turns_following_the_coach("classic-2p", range(50, 60)):
        assert coach and "the same way" in coach[0], coach  # every move as the coach advised
        took = mine.startswith("You: Discard ") and following.startswith("Your opponent takes the pile")
        if took:
            handed += 1
            card = mine.removeprefix("You: Discard ").rstrip(".")
            assert "Well played" not in " ".join(coach), coach
            assert any(f"Your opponent then took the pile on your {card} " in s for s in coach[1:]), coach
            if after[-1] == "Your opponent went out: the hand is over." and \
                    all(t.startswith("Your opponent") for t in after[:-1]):
                went_out += 1
                assert coach[-1].endswith(" and went out."), coach
        else:
            praised += 1
            assert coach == ["I (the club bot) would have played this turn the same way. Well played!"], coach
    assert handed and went_out and praised, (handed, went_out, praised)


def test_a_meld_of_two_ranks_is_refused_for_its_ranks_not_card_by_card():
    """Lesson 10: selecting 4♦ 5♣ and pressing Meld said "A meld needs at least three cards; 4♦ is only one..." for
    each card and never that they are of different ranks."""
    from canasta_tutor.bots.coach import _meld_move
    from canasta_tutor.engine.cards import parse_cards
    from canasta_tutor.engine.rules import get_rules
    from canasta_tutor.game import IllegalMove

    rules = get_rules("classic")
    with pytest.raises(IllegalMove) as e:
        _meld_move([], parse_cards("4D 5C"), rules)
    assert [r.text for r in e.value.verdict.reasons] == ["A meld is cards of one rank; 4♦ 5♣ mixes 4s and 5s."]
    # two ranks each enough for a meld are two melds; a rank that is short is named with its own reason
    assert _meld_move([], parse_cards("5H 5S 5D KH KS KD"), rules).melds == (parse_cards("5H 5S 5D"),
                                                                                parse_cards("KH KS KD"))
    assert len(_meld_move([], parse_cards("5H 5S 5D KH KS"), rules).melds) == 2


def test_the_table_counts_each_seats_cards_and_the_deal_nests_no_brackets():
    """Each seat's count is its hand's, one card too (the page writes "1 card"); "Hand 1 is dealt (Classic Canasta
    (four players, two partnerships))" once nested brackets."""
    import dataclasses

    from canasta_tutor.widgets.table_model import table_view

    w = PlayAHand(rules="classic", level="random", seed=5)
    obs = dataclasses.replace(w.hand.observation(), hand_sizes=(11, 1, 11, 1), stock_left=1)
    view = table_view(obs).to_json()
    assert [(s["name"], s["cards"]) for s in view["seats"]] == [
        ("You", 11), ("Left opponent", 1), ("Your partner", 11), ("Right opponent", 1)]
    assert view["stock"] == 1
    assert w.hand.log[0].text == "Hand 5 is dealt: Classic Canasta (four players, two partnerships)."
    assert len(w.table.hand) == 11
