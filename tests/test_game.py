"""The game model: deal, turns, legal actions, illegal moves with reasons, observations, the game to its target."""

import random
import re
from collections import Counter

import pytest

from canasta_tutor.engine.cards import Card, parse_cards
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.engine.rules import PRESETS, get_rules
from canasta_tutor.engine.situation import Situation
from canasta_tutor.game import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    END,
    GO_OUT,
    LAY_OFF,
    MELD,
    MELD_PHASE,
    SWAP,
    TAKE_PILE,
    Action,
    Game,
    IllegalMove,
    apply,
    legal_actions,
    observation,
)


def all_cards(state):
    cards = list(state.stock) + list(state.pile)
    for h in state.hands:
        cards += h
    for team in state.melds:
        for m in team:
            cards += m
    for r in state.red_threes:
        cards += r
    return Counter(cards)


def deck_of(rules):
    counts = Counter()
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"):
        for suit in "SHDC":
            counts[Card(rank + suit)] = rules.decks
    counts[Card("JK")] = rules.jokers
    return counts


def cards(text):
    return list(parse_cards(text))


def set_up(state, *, hand=None, player=None, melds=None, pile=None, team=None):
    """Put chosen cards in place for a scenario; the rest of the deck stays in the stock (cards conserved)."""
    p = state.current_player if player is None else player
    t = state.team_of(p) if team is None else team
    pool = Counter(all_cards(state))
    for h in state.hands:
        h.clear()
    state.pile, state.stock = [], []
    state.red_threes = [[] for _ in state.red_threes]
    state.melds = [[] for _ in state.melds]
    if melds is not None:
        state.melds[t] = [tuple(parse_cards(m)) for m in melds]
    if hand is not None:
        state.hands[p] = cards(hand)
    if pile is not None:
        state.pile = cards(pile)
    used = Counter(c for h in state.hands for c in h) + Counter(state.pile) + \
        Counter(c for ms in state.melds for m in ms for c in m)
    rest = pool - used
    assert not (used - pool), "scenario uses more cards than the decks hold"
    others = [c for c in sorted(rest.elements(), key=lambda c: c.code) if not c.is_red_three]
    for q in range(state.game.num_players):
        if q != p:
            state.hands[q] = others[:5]
            others = others[5:]
    state.stock = others
    state.red_threes[t] = [c for c in rest.elements() if c.is_red_three]
    state._legal = state._legal_set = state._results = None
    state.turn_opened = bool(state.melds[t])
    return state


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_deal_gives_each_player_a_hand_and_conserves_the_deck(name):
    rules = get_rules(name)
    state = Game(name).new_initial_state(seed=3)
    assert all_cards(state) == deck_of(rules)
    for hand in state.hands:
        assert len(hand) == rules.hand_size
        assert not any(c.is_red_three for c in hand)
    top = state.pile[-1]
    assert not top.is_wild and not top.is_red_three
    assert all(c.is_wild or c.is_red_three for c in state.pile[:-1])
    assert state.phase == DRAW_PHASE and state.current_player == 0 and state.hand_number == 1


def test_same_seed_same_deal_and_another_seed_another():
    g = Game("classic")
    a, b, c = g.new_initial_state(5), g.new_initial_state(5), g.new_initial_state(6)
    assert a.hands == b.hands and a.stock == b.stock
    assert a.hands != c.hands


def test_red_threes_dealt_are_laid_down_and_replaced():
    found = 0
    for seed in range(40):
        state = Game("classic").new_initial_state(seed)
        if any(state.red_threes):
            found += 1
            assert all(len(h) == 11 for h in state.hands)
    assert found > 5


def test_a_red_three_drawn_is_laid_down_and_replaced():
    state = Game("classic").new_initial_state(1)
    set_up(state, hand="7H 8S KD")
    state.stock += cards("5C 3H")    # 3H on top: drawn first
    team_reds = len(state.red_threes[0])
    apply(state, Action(DRAW))
    assert Card("3H") not in state.hands[0] and Card("5C") in state.hands[0]
    assert len(state.red_threes[0]) == team_reds + 1
    assert len(state.hands[0]) == 4


def test_samba_and_two_player_draw_two():
    for name in ("samba", "classic-2p", "classic-3p"):
        state = Game(name).new_initial_state(2)
        before = len(state.hands[0]) + len(state.red_threes[0])
        apply(state, Action(DRAW))
        assert len(state.hands[0]) + len(state.red_threes[0]) == before + 2


def test_a_turn_draw_then_discard_passes_to_the_left():
    state = Game("classic").new_initial_state(4)
    assert {a.kind for a in legal_actions(state)} <= {DRAW, TAKE_PILE}
    apply(state, Action(DRAW))
    assert state.phase == MELD_PHASE
    assert DRAW not in {a.kind for a in legal_actions(state)}
    card = state.hands[0][0]
    apply(state, Action(DISCARD, cards=(card,)))
    assert state.pile[-1] is card and state.current_player == 1 and state.phase == DRAW_PHASE


def test_an_illegal_move_is_refused_with_the_engines_reasons_and_changes_nothing():
    state = Game("classic").new_initial_state(4)
    before = state.clone()
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(DISCARD, cards=(state.hands[0][0],)))
    assert e.value.verdict.codes == ("draw-first",)
    assert isinstance(e.value, CanastaError)
    assert state.hands == before.hands and state.history == []
    # a take the engine refuses: its verdict's reasons come with the error
    set_up(state, hand="7H KD 4C 9S", pile="5D 2C 7C")
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(TAKE_PILE, cards=parse_cards("7H")))
    assert "frozen" in str(e.value) and e.value.verdict.has("wild-in-pile")


def test_an_opening_below_the_minimum_is_refused_by_check_opening():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="5H 5S 5D 9C 9D KH QS JD 8C")
    apply(state, Action(DRAW))
    low = Action(MELD, melds=(tuple(parse_cards("5H 5S 5D")),))
    assert low not in legal_actions(state)
    with pytest.raises(IllegalMove) as e:
        apply(state, low)
    assert e.value.verdict.has("too-few-points")


def test_opening_melds_offered_reach_the_minimum_and_are_put_down_together():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="KH KS KD 9C 9D 9H 5C 6D 7S")
    apply(state, Action(DRAW))
    openings = [a for a in legal_actions(state) if a.kind == MELD]
    assert openings
    assert all(sum(c.points for m in a.melds for c in m) >= 50 for a in openings)
    both = Action(MELD, melds=(tuple(parse_cards("9C 9D 9H")), tuple(parse_cards("KH KS KD"))))
    assert both in openings
    apply(state, both)
    assert len(state.melds[0]) == 2


def test_taking_the_pile_moves_the_pile_into_the_hand_and_melds_the_top_card():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="7H 7S KD 4C", melds=["KH KS KC"], pile="5D 9S 7C")
    takes = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    assert takes
    apply(state, takes[0])
    assert state.pile == [] and Card("5D") in state.hands[0] and Card("9S") in state.hands[0]
    assert any(Card("7C") in m for m in state.melds[0])


def test_unopened_take_carries_the_opening_and_counts_only_the_top_card():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="AH AS KD KS KC 4C 9H", pile="AD 5C 6D")
    takes = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    assert not takes  # 6D on top, no pair of sixes
    set_up(state, hand="AH AS KD KS KC 4C 9H", pile="5C 6D AD")
    takes = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    assert takes and all(a.melds[0][0] == Card("AD") for a in takes)
    # aces alone are 60 with the top card: enough; every offered opening reaches 50
    assert all(sum(c.points for m in a.melds for c in m) >= 50 for a in takes)


def test_going_out_ends_the_hand_and_is_scored_with_the_bonus():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="KH KS KD 9C", melds=["7H 7S 7D 7C 7H 7S 7D"])
    state.stock.append(Card("KC"))
    apply(state, Action(DRAW))
    outs = [a for a in legal_actions(state) if a.kind == GO_OUT]
    assert len(outs) == 1
    apply(state, outs[0])
    assert state.is_terminal() and state.went_out == (0, False)
    sheet = state.hand_result()[0]
    assert any(i.label == "Going out" for i in sheet.items)
    assert state.hands[0] == []


def test_going_out_concealed():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="7H 7S 7D 7C 7H 7S 2D KC KD KH")
    state.stock.append(Card("5S"))
    apply(state, Action(DRAW))
    out = next(a for a in legal_actions(state) if a.kind == GO_OUT)
    apply(state, out)
    assert state.went_out == (0, True)
    assert any(i.label == "Going out concealed" for i in state.hand_result()[0].items)


def test_the_stock_running_out_ends_the_hand_unless_the_pile_is_taken():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="9C 9D 5H 6S", melds=["KH KS KC"], pile="4D")
    state.stock = []
    state._legal = None
    assert [a.kind for a in legal_actions(state)] == [END]
    apply(state, Action(END))
    assert state.is_terminal() and state.went_out is None
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="9C 9D 5H 6S", melds=["KH KS KC"], pile="4D 9S")
    state.stock = []
    state._legal = None
    assert {a.kind for a in legal_actions(state)} == {TAKE_PILE, END}


def test_observation_shows_only_what_the_player_sees():
    state = Game("classic").new_initial_state(9)
    for _ in range(30):
        apply(state, random.Random(len(state.history)).choice(legal_actions(state)))
    obs = observation(state, 1)
    assert isinstance(obs, Situation)
    assert obs.hand == tuple(state.hands[1])
    assert obs.melds == tuple(state.melds[1])
    assert obs.hand_sizes == tuple(len(h) for h in state.hands)
    assert obs.stock_left == len(state.stock)
    hidden = set(state.hands[0]) | set(state.hands[2]) | set(state.hands[3]) | set(state.stock)
    seen = set(obs.hand) | set(obs.pile) | {c for m in obs.table for mm in m for c in mm}
    # every card the player sees is his own, on the table or in the pile
    for c in seen:
        assert c in obs.hand or c in obs.pile or any(c in m for ms in obs.table for m in ms)
    for name in ("hands", "stock"):
        assert not hasattr(obs, name) or name == "hands" and obs.hands == ()
    assert hidden  # the others' hands exist and are not part of the observation's fields
    with pytest.raises(CanastaError, match="not a seat"):
        observation(state, 7)


def test_clone_is_independent():
    state = Game("samba").new_initial_state(1)
    copy = state.clone()
    apply(copy, Action(DRAW))
    assert state.phase == DRAW_PHASE and copy.phase == MELD_PHASE
    assert len(state.hands[0]) != len(copy.hands[0]) and state.history == []


def test_a_game_is_played_to_the_target_across_hands():
    game = Game("classic-2p")
    state = game.new_initial_state("g")
    rng = random.Random(0)
    hands = 0
    while True:
        while not state.is_terminal():
            apply(state, rng.choice(legal_actions(state)))
        hands += 1
        if state.is_game_over():
            break
        nxt = state.next_hand()
        assert nxt.scores == state.totals() and nxt.hand_number == state.hand_number + 1
        assert nxt.dealer == (state.dealer + 1) % 2
        state = nxt
        assert hands < 60
    assert max(state.totals()) >= 5000
    with pytest.raises(CanastaError, match="game is over"):
        state.next_hand()


def test_action_text_form_round_trips_and_bad_text_is_explained():
    state = Game("samba").new_initial_state(3)
    rng = random.Random(3)
    seen = set()
    while not state.is_terminal():
        for a in legal_actions(state):
            assert Action.parse(a.to_text()) == a
            assert a.describe().endswith(".")
            seen.add(a.kind)
        apply(state, rng.choice(legal_actions(state)))
    assert {DRAW, DISCARD} <= seen
    with pytest.raises(CanastaError, match="unknown kind"):
        Action.parse("fly: cards=7H")
    with pytest.raises(CanastaError, match="part 'cards=XX'"):
        Action.parse("discard: cards=XX")
    with pytest.raises(CanastaError, match="unknown action kind"):
        Action("fly")


def test_a_hand_can_be_dealt_again_by_its_number():
    game = Game("classic")
    state = game.new_initial_state("r")
    rng = random.Random(1)
    while not state.is_terminal():
        apply(state, rng.choice(legal_actions(state)))
    second = state.next_hand()
    again = game.deal("r", 2, scores=state.totals())
    assert again.hands == second.hands and again.stock == second.stock and again.pile == second.pile
    assert (again.dealer, again.current_player, again.scores) == (second.dealer, second.current_player,
                                                                   second.scores)
    assert game.deal("r", 1).hands == game.new_initial_state("r").hands
    with pytest.raises(CanastaError, match="numbered from 1"):
        game.deal("r", 0)


def test_apply_accepts_a_meld_the_engine_allows_beyond_the_listed_ones():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="KH KS KD KC 9C 9D 5H 6S", melds=["7H 7S 7D"])
    state.stock.append(Card("4D"))
    apply(state, Action(DRAW))
    # the list offers three of the four kings (issue 19: part of a rank), once: with the first three in hand
    assert Action(MELD, melds=(tuple(parse_cards("KH KS KD")),)) in legal_actions(state)
    three_kings = Action(MELD, melds=(tuple(parse_cards("KH KS KC")),))
    assert three_kings not in legal_actions(state)          # another choice of the same kings: not listed
    apply(state, three_kings)
    assert Card("KD") in state.hands[0] and tuple(parse_cards("KH KS KC")) in state.melds[0]
    # a second meld of kings is refused: one meld per rank
    with pytest.raises(IllegalMove):
        apply(state, Action(MELD, melds=(tuple(parse_cards("KD 9C 9D")),)))
    # a king does not go on the sevens: refused with the engine's reason
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(LAY_OFF, cards=tuple(parse_cards("KD")), target=0))
    assert e.value.verdict.reasons
    apply(state, Action(LAY_OFF, cards=tuple(parse_cards("KD")), target=1))
    assert len(state.melds[0][1]) == 4
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(MELD, melds=(tuple(parse_cards("9C 9D 5H")),)))
    assert e.value.verdict.has("mixed-ranks")


def test_apply_beyond_the_list_still_needs_the_opening_minimum():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="KH KS KD KC 9C 9D 9H 5H 6S")
    state.stock.append(Card("4D"))
    apply(state, Action(DRAW))
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(MELD, melds=(tuple(parse_cards("KH KS KD")),)))
    assert e.value.verdict.has("too-few-points")
    apply(state, Action(MELD, melds=(tuple(parse_cards("KH KS KD")), tuple(parse_cards("9C 9D 9H")))))
    assert len(state.melds[0]) == 2 and Card("KC") in state.hands[0]


def test_going_out_too_early_is_refused_with_check_go_outs_reasons():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="KH KS KD 9C", melds=["7H 7S 7D"])
    state.stock.append(Card("KC"))
    apply(state, Action(DRAW))
    assert not any(a.kind == GO_OUT for a in legal_actions(state))
    attempt = Action(GO_OUT, melds=(tuple(parse_cards("KH KS KD KC")),), discard=Card("9C"))
    with pytest.raises(IllegalMove) as e:
        apply(state, attempt)
    assert "canasta" in e.value.verdict.sentence
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(DRAW))
    assert e.value.verdict.codes == ("already-drawn",)
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(DISCARD, cards=(Card("AS"),)))
    assert e.value.verdict.has("not-in-hand")


def test_the_end_is_refused_while_the_stock_holds_cards():
    state = Game("classic").new_initial_state(4)
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(END))
    assert e.value.verdict.has("stock-left")


def test_a_take_or_a_way_out_the_engine_allows_but_not_this_way_names_the_offered_one():
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="7H 7S KD 4C 9S", melds=["QH QS QD"], pile="5D 7C")
    offered = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    assert offered and offered[0].cards == tuple(parse_cards("7H 7S"))
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(TAKE_PILE, cards=parse_cards("KD 4C")))   # the engine allows a take, not this one
    assert e.value.verdict.codes == ("not-this-way",)
    assert e.value.verdict.reasons[0].text == ("You may take the pile, but not this way: you could take the pile "
                                               "with 7♥ 7♠ from your hand.")
    # a way out the engine allows, written another way: the engine's plan is named
    state = Game("classic").new_initial_state(4)
    set_up(state, hand="KH KS KD 9C", melds=["7H 7S 7D 7C 7H 7S 7D"])
    state.stock.append(Card("KC"))
    apply(state, Action(DRAW))
    assert any(a.kind == GO_OUT for a in legal_actions(state))
    with pytest.raises(IllegalMove) as e:
        apply(state, Action(GO_OUT, melds=(tuple(parse_cards("KH KS KD 9C")),), discard=Card("KC")))
    assert e.value.verdict.codes == ("not-this-way",)
    text = e.value.verdict.reasons[0].text
    assert text.startswith("You may go out, but not this way: ") and "9♣" in text


def test_a_move_is_told_to_the_player_or_to_others():
    take = Action(TAKE_PILE, cards=parse_cards("9C 9D"), target=0)
    assert take.describe() == "Take the pile with 9♣ 9♦ from your hand, laying the top card off on meld 1."
    assert take.describe(you=False) == "Take the pile with 9♣ 9♦, laying the top card off on meld 1."
    assert Action(GO_OUT).describe() == "Go out: your hand is empty."
    assert Action(GO_OUT).describe(you=False) == "Go out: the hand is empty."
    # told to others, no sentence of random play speaks to "you"; to the player, the sentence is unchanged
    game = Game("classic")
    rng = random.Random(5)
    seen = set()
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            acts = legal_actions(state)
            melds = state.melds[state.team_of(state.current_player)]
            for a in acts:
                seen.add(a.kind)
                other = a.describe(melds, you=False)
                assert " your " not in f" {other.lower()} " and "you " not in other.lower(), other
                assert a.describe(melds, you=True) == a.describe(melds)
            apply(state, acts[rng.randrange(len(acts))])
    assert {TAKE_PILE, GO_OUT, MELD, LAY_OFF, DISCARD} <= seen


@pytest.mark.parametrize("action, named, numbered", [
    (Action(DRAW), "Draw from the stock.", None),
    (Action(END), "Leave the pile: the stock is used up, so the hand ends.", None),
    (Action(DISCARD, cards=parse_cards("KD")), "Discard K♦.", None),
    (Action(TAKE_PILE, cards=parse_cards("KC KD"), melds=(parse_cards("KS KC KD"), parse_cards("7C 7D 2S"))),
     "Take the pile with K♣ K♦ from your hand. Open with K♠ K♣ K♦ and 7♣ 7♦ 2♠.", None),
    (Action(MELD, melds=(parse_cards("QH QS 2C"), parse_cards("AC AD AH"))), "Meld Q♥ Q♠ 2♣ and A♣ A♦ A♥.", None),
    (Action(LAY_OFF, cards=parse_cards("9D"), target=0), "Lay off 9♦ on 9♥ 9♠ Joker.", "Lay off 9♦ on meld 1."),
    (Action(LAY_OFF, cards=parse_cards("4H"), target=5), "Lay off 4♥ on meld 6.", "Lay off 4♥ on meld 6."),
    (Action(SWAP, cards=parse_cards("9C"), target=0, wild=Card("JK")),
     "Put 9♣ in place of the joker in 9♥ 9♠ Joker and keep the joker.",
     "Put 9♣ in place of the joker in meld 1 and keep the joker."),
    (Action(SWAP, cards=parse_cards("9C"), target=0, wild=Card("2D")),
     "Put 9♣ in place of 2♦ in 9♥ 9♠ Joker and keep 2♦.", "Put 9♣ in place of 2♦ in meld 1 and keep 2♦."),
    (Action(GO_OUT, melds=(parse_cards("QH QS 2C"),), lay_offs=((1, parse_cards("8H")),),
            swaps=((0, Card("9C"), Card("JK")),), discard=Card("4C")),
     "Go out: swap 9♣ for Joker in 9♥ 9♠ Joker, lay off 8♥ on 5♥ 6♥ 7♥, meld Q♥ Q♠ 2♣ and discard 4♣.",
     "Go out: swap 9♣ for Joker in meld 1, lay off 8♥ on meld 2, meld Q♥ Q♠ 2♣ and discard 4♣."),
    (Action(GO_OUT, melds=(parse_cards("QH QS 2C"),)), "Go out: meld Q♥ Q♠ 2♣.", None),
])
def test_every_kind_of_action_has_its_sentence(action, named, numbered):
    melds = [parse_cards("9H 9S JK"), parse_cards("5H 6H 7H")]
    assert action.describe(melds) == named
    assert action.describe() == (named if numbered is None else numbered)


def test_the_game_model_page_lists_every_module_of_the_game_and_its_example_runs(root):
    import doctest

    text = (root / "docs" / "game-model.md").read_text()
    modules = {p.name for p in (root / "canasta_tutor" / "game").glob("*.py") if p.name != "__init__.py"}
    assert modules == set(re.findall(r"^\| `game/(\w+\.py)` \|", text, re.M))
    test = doctest.DocTestParser().get_doctest(text, {}, "game-model.md", "docs/game-model.md", 0)
    assert test.examples
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0


def test_each_refused_move_names_its_reason():
    def codes(state, action):
        with pytest.raises(IllegalMove) as e:
            apply(state, action)
        return e.value.verdict.codes

    state = Game("classic").new_initial_state(4)
    set_up(state, hand="KH KS KD 9C 5D", melds=["7H 7S 7D"], pile="4D 6C")
    assert codes(state, Action(DISCARD, cards=parse_cards("9C"))) == ("draw-first",)
    assert codes(state, Action(MELD, melds=(parse_cards("KH KS KD"),))) == ("draw-first",)
    apply(state, Action(DRAW))
    for kind in (DRAW, TAKE_PILE, END):
        assert codes(state, Action(kind)) == ("already-drawn",)
    assert codes(state, Action(MELD, melds=(parse_cards("QH QD QC"),))) == ("not-in-hand",)
    assert codes(state, Action(LAY_OFF, cards=parse_cards("9C"), target=3)) == ("no-such-meld",)
    assert codes(state, Action(LAY_OFF, cards=parse_cards("9C"), target=0)) == ("cannot-add", "mixed-ranks")
    # a way out with cards not in hand: the engine's reasons why the hand cannot go out, no "not-in-hand"
    assert codes(state, Action(GO_OUT, melds=(parse_cards("QH QD QC"),), discard=Card("9C")))[0] == "cannot-go-out"
    # a team that has opened keeps two cards: only that is said, not the opening minimum of its first meld
    set_up(state, hand="KH KS KD 9C", melds=["7H 7S 7D"], pile="4D 6C")
    state.phase, state._legal = MELD_PHASE, None
    assert codes(state, Action(MELD, melds=(parse_cards("KH KS KD"),))) == ("keep-a-card",)
    assert codes(state, Action(LAY_OFF, cards=parse_cards("KH"), target=0)) == ("cannot-add", "mixed-ranks")
    set_up(state, hand="9C", melds=["7H 7S 7D"], pile="4D 6C")
    state.phase, state._legal = MELD_PHASE, None
    assert codes(state, Action(DISCARD, cards=parse_cards("9C"))) == ("last-card",)
    set_up(state, hand="KH KS KD 9C 4C", pile="4D 6C")
    state.phase, state.stock, state._legal = DRAW_PHASE, [], None
    assert codes(state, Action(DRAW)) == ("stock-empty",)
    state.stock, state._legal = [Card("5H")], None
    assert codes(state, Action(END)) == ("stock-left",)
    state.phase, state._legal = "hand-over", None
    assert codes(state, Action(DRAW)) == ("hand-over",)


def test_a_canasta_melded_in_one_go_is_concealed_and_going_out_after_a_take_is_not_in_samba():
    # hoyle: a canasta melded from the hand in one go earns the concealed-canasta bonus; one laid off to seven does not
    state = Game("hoyle").new_initial_state(4)
    set_up(state, hand="8H 8S 8D 8C 8H 8S 8D KC KD KH 4C 5C", melds=["9H 9S 9D"])
    state.phase, state._legal = MELD_PHASE, None
    apply(state, Action(MELD, melds=(parse_cards("8H 8S 8D 8C 8H 8S 8D"),)))
    assert state.concealed_canastas[0] == 1
    set_up(state, hand="8H 8S 8D 8C 8H 8S 8D KC KD KH 4C 5C", melds=["9H 9S 9D"])
    state.concealed_canastas = [0] * len(state.concealed_canastas)
    state.phase, state._legal = MELD_PHASE, None
    apply(state, Action(MELD, melds=(parse_cards("8H 8S 8D 8C 8H 8S"),)))
    apply(state, Action(LAY_OFF, cards=parse_cards("8D"), target=1))
    assert state.concealed_canastas[0] == 0
    # going out in the turn the pile was taken, the team without melds before: concealed in classic, not in samba
    for name, concealed in (("classic", True), ("samba", False)):
        state = Game(name).new_initial_state(4)
        set_up(state, hand="KH KS KC KD KH KS 7H 7S 7D 7C 7H 7S 2C 9C 9D 2D", pile="5D KD")
        # the kings with the top card and the sevens: two canastas, 9C 9D 2D and the pile's 5D left in hand
        take = next(a for a in legal_actions(state) if a.kind == TAKE_PILE and [len(m) for m in a.melds] == [7, 7])
        apply(state, take)
        apply(state, next(a for a in legal_actions(state) if a.kind == GO_OUT))
        assert state.went_out == (0, concealed), name
