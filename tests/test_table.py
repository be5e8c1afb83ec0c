"""The card table of lesson 10 without a browser: what its model (``widgets/table_model.py``) shows for a state (the
seats and their counts, each side's melds, canastas closed, red threes, the pile frozen or not, the hand in order,
the moves announced), and what the widget (``widgets/table.py``) sends and accepts. ``test_browser_table.py``
drives it in a real page."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from canasta_tutor.engine.cards import Card, parse_cards
from canasta_tutor.game import Action, Game, Observation, apply, legal_actions, observation
from canasta_tutor.web.kernel_gate import refusal
from canasta_tutor.widgets.coach import PlayAHand, default_moves
from canasta_tutor.widgets.table import STATIC, CardTable
from canasta_tutor.widgets.table_model import (
    announce,
    hand_order,
    meld_view,
    move_view,
    place_of,
    replay_views,
    table_view,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _club_coach(monkeypatch):
    """These tests are of the table, the buttons and the rules-of-thumb coach: the club bot coaches (the expert
    coach, the default, has its own tests in test_coach_expert.py)."""
    import canasta_tutor.bots.coach as coach

    monkeypatch.setattr(coach, "DEFAULT_COACH", "club")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def four_player_obs(**changes) -> Observation:
    """An observation of a classic hand for four, seen from seat 0, with ``changes``."""
    base = dict(hand="KH 4S 2C JK 9D 4D 3S", melds=[], pile="5C 7H", rules="classic", player=0, team=0,
                current_player=1, phase="draw", hand_sizes=(7, 11, 9, 2), stock_left=50,
                table=((), ()), table_red_threes=((), ()), sides=((0, 2), (1, 3)))
    base.update(changes)
    return Observation(**base)


# --- seats ----------------------------------------------------------------------------------------------------
def test_the_seats_as_the_learner_sees_them_partner_across_opponents_left_and_right():
    view = table_view(four_player_obs())
    assert [(s.place, s.name, s.cards, s.to_move) for s in view.seats] == [
        ("south", "You", 7, False), ("west", "Left opponent", 11, True), ("north", "Your partner", 9, False),
        ("east", "Right opponent", 2, False)]
    # seen from seat 2, the seats turn with the viewer: its partner (0) across, 3 on its left
    view = table_view(four_player_obs(player=2, hand_sizes=(7, 11, 9, 2)))
    assert [(s.player, s.place) for s in view.seats] == [(2, "south"), (3, "west"), (0, "north"), (1, "east")]
    assert [(s.player, s.cards) for s in view.seats] == [(2, 9), (3, 2), (0, 7), (1, 11)]


def test_a_game_for_two_has_its_one_opponent_across():
    obs = observation(Game("classic-2p").new_initial_state(4), 0)
    view = table_view(obs)
    assert [(s.place, s.name, s.cards) for s in view.seats] == [("south", "You", 15), ("north", "Your opponent", 15)]
    assert [s.name for s in view.sides] == ["You", "Your opponent"]
    assert place_of(0, 1, 2) == "north" and place_of(2, 0, 3) == "east"
    with pytest.raises(ValueError, match="a table for 5 players"):
        place_of(0, 1, 5)


# --- melds and red threes ------------------------------------------------------------------------------------------
def test_each_sides_melds_canastas_closed_and_marked_and_red_threes_beside():
    ours = (cards("KH KS KD KC KH KS KD"), cards("7C 7S 2D"))
    theirs = (cards("8S 8C 8D 8H JK 2H 8S"),)
    obs = four_player_obs(hand="QH 4S 9D", melds=ours, table=(ours, theirs),
                          table_red_threes=(cards("3H"), cards("3D 3H")), opponents_melds=theirs)
    view = table_view(obs)
    mine, other = view.sides
    assert mine.mine and mine.name == "Your team" and mine.players == (0, 2)
    assert other.name == "Left opponent and right opponent" and other.players == (1, 3)
    natural, open_meld = mine.melds
    assert natural.closed and natural.canasta == "natural" and natural.top.is_red and len(natural.cards) == 7
    assert not open_meld.closed and open_meld.wild == 1 and open_meld.cards == cards("7C 7S 2D")
    assert open_meld.label == "7s" and natural.label == "kings"
    (mixed,) = other.melds
    assert mixed.closed and mixed.canasta == "mixed" and not mixed.top.is_red and not mixed.top.is_wild
    assert mixed.cards[-2:] == cards("2H JK")  # naturals first, then the wild cards
    assert mine.canastas == 1 and other.canastas == 1
    assert mine.red_threes == cards("3H") and other.red_threes == cards("3D 3H")
    assert natural.describe() == "natural canasta of kings, 7 cards"
    assert open_meld.describe() == "7s: 7♣ 7♠ 2♦ (3 cards, 1 wild)"
    data = view.to_json()
    assert data["sides"][0]["melds"][0]["closed"] and data["sides"][1]["red_threes"] == ["3D", "3H"]


def test_a_samba_sequence_is_labelled_by_its_suit():
    view = meld_view(cards("5H 6H 7H 8H 9H 10H JH"), "samba")
    assert view.label == "♥ sequence" and view.canasta == "samba" and view.closed


# --- the pile ------------------------------------------------------------------------------------------------------
def test_a_pile_frozen_by_a_wild_card_has_that_card_sideways_and_its_size():
    pile = table_view(four_player_obs(pile="5C 2C 9H 7H", melds=[cards("KH KS KD")],
                                      table=((cards("KH KS KD"),), ()))).pile
    assert pile.size == 4 and pile.top == Card("7H") and pile.sideways == Card("2C") and pile.frozen
    assert any("2♣" in why for why in pile.why)


def test_a_pile_frozen_only_because_the_team_has_not_melded_lies_straight():
    pile = table_view(four_player_obs(pile="5C 9H 7H")).pile
    assert pile.frozen and pile.sideways is None and pile.size == 3
    opened = table_view(four_player_obs(pile="5C 9H 7H", melds=[cards("KH KS KD")],
                                        table=((cards("KH KS KD"),), ()))).pile
    assert not opened.frozen and opened.sideways is None


def test_an_empty_pile():
    pile = table_view(four_player_obs(pile="")).pile
    assert pile.size == 0 and pile.top is None and not pile.frozen


# --- the hand ------------------------------------------------------------------------------------------------------
def test_the_hand_is_sorted_by_rank_with_the_wild_cards_apart():
    view = table_view(four_player_obs(hand="KH 4S 2C JK 9D 4D 3S AH"))
    assert view.naturals == cards("3S 4D 4S 9D KH AH")
    assert view.wild == cards("2C JK") and view.wild_from == 6
    assert view.to_json()["hand"] == ["3S", "4D", "4S", "9D", "KH", "AH", "2C", "JK"]
    assert hand_order(cards("JK 2H")) == ((), cards("2H JK"))


def test_the_view_never_holds_a_hidden_card():
    """What the page receives is the learner's observation only: no other hand's cards, no stock card."""
    state = Game("classic").new_initial_state(8)
    for _ in range(30):  # some moves in, with melds and red threes on the table
        apply(state, legal_actions(state)[-1])
    text = repr(table_view(observation(state, 0)).to_json())
    seen = set(state.hands[0]) | set(state.pile) | {c for ms in state.melds for m in ms for c in m} | \
        {c for reds in state.red_threes for c in reds}
    hidden = ({c for p in (1, 2, 3) for c in state.hands[p]} | set(state.stock)) - seen
    assert hidden and not [c for c in hidden if f"'{c.code}'" in text]


# --- moves in words, and replays -----------------------------------------------------------------------------
def test_every_move_is_announced_as_a_sentence_naming_who_and_what():
    take = Action("take_pile", cards=cards("9C 9D"))
    assert announce("Left opponent", take) == "Left opponent takes the pile with 9♣ 9♦."
    assert announce("You", take) == "You take the pile with 9♣ 9♦."
    assert announce("Your partner", Action("draw")) == "Your partner draws from the stock."
    assert announce("Right opponent", Action("lay_off", cards=cards("7H"), target=0), [cards("7C 7S 7D")]) == \
        "Right opponent lays off 7♥ on 7♣ 7♠ 7♦."
    assert announce("Left opponent", Action("meld", melds=(cards("5H 5S 2C"),))) == "Left opponent melds 5♥ 5♠ 2♣."
    assert announce("Your opponent", Action("go_out", discard=Card("4C")))== "Your opponent goes out with 4♣."
    move = move_view(1, take, 0, 4)
    assert (move.place, move.kind, move.cards) == ("west", "take_pile", cards("9C 9D"))


def test_a_replay_is_the_table_before_and_after_each_move():
    state = Game("classic").new_initial_state(3)
    before = [c.code for c in state.hands[0]]
    draw = legal_actions(state)[0]
    after = state.clone()
    apply(after, draw)
    discard = next(a for a in legal_actions(after) if a.kind == "discard")
    views = replay_views(state, [draw, discard], 0)
    assert [c.code for c in state.hands[0]] == before  # the state replayed from is not changed
    assert len(views) == 3 and views[0].last is None and views[0].caption == "Before"
    assert views[1].last.kind == "draw" and views[2].last.kind == "discard"
    assert views[2].last.text == f"You discard {discard.cards[0].text}."
    assert len(views[1].hand) == len(views[0].hand) + 1 and len(views[2].hand) == len(views[0].hand)
    assert views[2].pile.top == discard.cards[0] and views[2].caption == views[2].last.text
    assert replay_views(state, [draw], 0, captions=["Draw first"])[1].caption == "Draw first"


# --- the widget -----------------------------------------------------------------------------------------------
def test_the_widget_ships_its_script_and_styles_and_fetches_nothing():
    script, styles = (STATIC / "table.js").read_text(), (STATIC / "table.css").read_text()
    for text in (script, styles):
        assert "http://" not in text and "https://" not in text and "@import" not in text and "import(" not in text
    assert "export default" in script
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"canasta_tutor.widgets" = ["static/*.js", "static/*.css"]' in pyproject


def test_show_sends_one_view_and_press_messages_play_the_move_offered():
    table = CardTable()
    pressed = []
    table.on_press(pressed.append)
    view = table_view(four_player_obs(current_player=0))
    table.show(view, moves=[("draw", "Draw from the stock")], defaults=["draw"], log=[("deal", "Hand 1 is dealt.")])
    assert table.view["hand"] == [c.code for c in view.hand] and table.moves[0]["kind"] == "draw"
    assert table.log == [{"kind": "deal", "text": "Hand 1 is dealt."}]
    table._message(table, {"event": "press", "kind": "discard", "selected": [0]}, [])  # not offered: nothing
    table._message(table, "junk", [])
    assert pressed == [] and table.selected == []
    table._message(table, {"event": "press", "kind": "draw", "selected": [1, 99, 2]}, [])
    assert pressed == ["draw"] and table.selected == [1, 2]
    table.announce("Left opponent draws from the stock.")
    table.announce("Left opponent draws from the stock.")
    assert table.announcement == {"n": 2, "text": "Left opponent draws from the stock."}
    table.replay([view, view])
    assert len(table.frames) == 2 and table.frame == 0
    table.show(view)
    assert table.frames == [] and table.moves == []
    with pytest.raises(ValueError, match="no view"):
        table.replay([])


def test_the_pages_messages_to_the_kernel_pass_the_gate():
    """The table speaks to its kernel by comm messages only (its state and ``press``), which the kernel gate of
    both servers lets through; what the script sends is a ``comm_msg`` of a few hundred bytes."""
    script = (STATIC / "table.js").read_text()
    assert "model.send(" in script and "model.save_changes()" in script
    assert "fetch(" not in script and "WebSocket" not in script and "XMLHttpRequest" not in script
    assert refusal("shell", {"msg_type": "comm_msg"}, 600) == ""


def test_enter_plays_the_move_that_fits_the_selection():
    assert default_moves(["draw", "take_pile"]) == ["draw", "take_pile", "take_pile"]
    assert default_moves(["meld", "lay_off", "discard"]) == ["discard", "discard", "meld"]
    assert default_moves(["go_out", "discard"]) == ["go_out", "discard", "go_out"]
    assert default_moves(["end", "take_pile"]) == ["end", "take_pile", "take_pile"]
    assert default_moves([]) == ["", "", ""]


def test_the_coached_hand_shows_bots_moves_where_they_happened_and_announces_them():
    w = PlayAHand(level="random", seed=5)
    assert w.table.announcement["text"] == "Your turn."
    w.press("draw")
    assert w.table.announcement["text"].startswith("You draw from the stock. New in your hand: ")
    assert [m["kind"] for m in w.table.view["recent"]] == ["draw"]
    card = w._hand_cards()[0]
    w.select(card.code)
    w.press("discard")
    recent = w.table.view["recent"]
    assert recent[0] == {"player": 0, "place": "south", "kind": "discard", "cards": [card.code],
                         "text": f"You discard {card.text}."}
    assert [m["place"] for m in recent[1:]][:2] == ["west", "west"]  # the left opponent plays next
    said = w.table.announcement["text"]
    for m in recent:
        assert m["text"] in said
    assert "Coach: " in said and said.endswith("Your turn.")
    # the same moves as the game played, in words
    bots = [e for e in w.hand.log if e.kind == "bot"]
    assert [m["text"] for m in recent[1:]] == [announce(w.hand.name(e.player), e.action, e.melds) for e in bots]


def test_a_refused_move_keeps_the_selection_and_the_table():
    w = PlayAHand(level="random", seed=5)
    w.press("draw")
    before = dict(w.table.view)
    w.select(*[c.code for c in w._hand_cards()[:2]])
    w.press("discard")
    assert "Not allowed" in w.feedback.value or "Select exactly one card" in w.feedback.value
    assert w.table.view == before and len(w.table.selected) == 2


def test_the_selection_is_cleared_when_the_hand_changes():
    w = PlayAHand(level="random", seed=5)
    w.press("draw")
    w.select(w._hand_cards()[0].code)
    w.press("discard")
    assert w.table.selected == []


def test_a_view_of_a_finished_hand_has_no_one_to_move():
    state = Game("classic").new_initial_state(3)
    obs = dataclasses.replace(observation(state, 0), phase="hand-over")
    assert not any(s.to_move for s in table_view(obs).seats)
