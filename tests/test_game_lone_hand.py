"""classic-3p (``lone_hand``): the first player to take the pile plays alone against the other two, who share one
table for the rest of the hand; going out before any take makes the lone hand too; a stock used up with the pile
never taken leaves each alone; red threes stay their owner's; the opening minimum is each player's own.

Positions are set up card by card (the rest of the decks in the stock, so cards stay conserved) and played with
the game's own moves; the expected scores are counted by hand in the comments."""

from collections import Counter

import pytest

from canasta_tutor.bots.play import hand_record
from canasta_tutor.engine.cards import Card, parse_cards
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.engine.melds import check_team_melds
from canasta_tutor.engine.rules import PRESETS, get_rules, with_options
from canasta_tutor.game import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    END,
    GO_OUT,
    LAY_OFF,
    MELD,
    MELD_PHASE,
    TAKE_PILE,
    Action,
    Game,
    IllegalMove,
    apply,
    legal_actions,
    observation,
)


def cards(text):
    return list(parse_cards(text))


def position(*, hands, melds=((), (), ()), red_threes=("", "", ""), pile, current, phase=DRAW_PHASE,
             scores=(0, 0, 0), draws="", stock=None):
    """A classic-3p state: each player alone (nobody took the pile yet) with these ``hands``, ``melds`` (per
    player), ``red_threes`` and ``pile`` (bottom first); ``draws``: the stock's next cards, in the order they are
    drawn; the rest of the decks below them (``stock=""``: an empty stock)."""
    game = Game("classic-3p")
    state = game.deal(0, 1, scores=scores)
    state.hands = [cards(h) for h in hands]
    state.melds = [[tuple(parse_cards(m)) for m in ms] for ms in melds]
    state.red_threes = [cards(r) for r in red_threes]
    state.pile = cards(pile)
    used = Counter(state.pile) + Counter(cards(draws))
    for group in state.hands + state.red_threes + [c for ms in state.melds for c in ms]:
        used.update(group)
    rest = Counter(game.deck) - used
    assert not used - Counter(game.deck), "more copies than the decks hold"
    if stock is None:
        state.stock = sorted(rest.elements(), key=str) + cards(draws)[::-1]
    else:
        state.stock = cards(stock)
    state.current_player, state.phase = current, phase
    state.turn_opened = bool(state.melds[current])
    state.concealed_canastas = [0, 0, 0]
    # each player alone: the melds on his table are his own, laid down in earlier turns (going out concealed asks)
    state.melded = [bool(ms) for ms in state.melds]
    state.begin_turn()
    state._legal = state._legal_set = state._results = None
    return state


def find(state, kind, **where):
    acts = [a for a in legal_actions(state) if a.kind == kind
            and all(getattr(a, k) == v for k, v in where.items())]
    assert acts, (kind, where, legal_actions(state))
    return acts[0]


def meld_of(melds, rank):
    return next(i for i, m in enumerate(melds) if any(c.rank == rank for c in m))


def test_the_preset_says_so_and_no_other_preset_does():
    assert get_rules("classic-3p").lone_hand
    assert [n for n, r in PRESETS.items() if r.lone_hand] == ["classic-3p"]
    assert "Wie als eerste de stapel pakt" in get_rules("classic-3p").source_of("lone_hand")
    game = Game("classic-3p")
    assert game.teams == ((0,), (1,), (2,))   # three score columns
    house = with_options("classic", lone_hand=True)   # four players, the first to take the pile alone
    assert Game(house).teams == ((0,), (1,), (2,), (3,))
    with pytest.raises(CanastaError, match="lone_hand"):
        Game(house, teams=2)


def player_1_takes_first():
    """Player 1 (score 0, not opened) takes the pile with 5-5 and opens with 8-8-joker; player 0 has melded kings,
    player 2 kings and sevens."""
    state = position(hands=["7D 9C 4S 6H 8H 10C", "5H 5S 8C 8D JK 4C QH QS", "AH AS 4D 6D JH"],
                     melds=[["KH KS KD"], [], ["KC KH 2C", "7H 7S 7C"]],
                     pile="6C 10D 5D", current=1, draws="3D 4H 6S 9H 9S")
    return state


def test_before_the_first_take_each_player_melds_for_himself():
    state = player_1_takes_first()
    assert state.sides() == ((0,), (1,), (2,)) and state.lone is None
    seen = observation(state, 0)
    assert seen.melds == (tuple(cards("KH KS KD")),) and seen.partners == ()
    assert len(seen.opponents_melds) == 2   # player 2's melds are another side's


def test_the_first_to_take_the_pile_plays_alone_and_the_others_share_one_table():
    state = player_1_takes_first()
    full = Counter(c for group in [state.stock, state.pile, *state.hands, *state.red_threes] for c in group) + \
        Counter(c for ms in state.melds for m in ms for c in m)
    take = find(state, TAKE_PILE)
    apply(state, take)
    assert state.lone == 1
    assert state.sides() == ((0, 2), (1,))
    assert state.team_of(0) == state.team_of(2) == 0 and state.team_of(1) == 1
    table = state.melds[0]
    assert state.melds[2] == []
    # the two kings' melds are one meld (one wild card: within the limit); the sevens came along
    kings = table[meld_of(table, "K")]
    assert sorted(map(str, kings)) == sorted(map(str, cards("KH KS KD KC KH 2C")))
    assert sum(1 for m in table if any(c.rank == "K" for c in m)) == 1
    assert check_team_melds(table, state.rules).ok
    assert observation(state, 2).melds == tuple(table) and observation(state, 2).partners == (0,)
    assert observation(state, 0).partners == (2,) and observation(state, 1).partners == ()
    assert observation(state, 1).opponents_melds == tuple(table)
    # the game goes on: 1 discards, 2 draws and discards, and 0 lays a seven off on the sevens 2 melded
    apply(state, Action(DISCARD, cards=(Card("4C"),)))
    apply(state, find(state, DRAW))
    # the red three 2 drew is his own, laid down and replaced (4H, 6S), though 0 and 2 share a table
    assert state.red_threes == [[], [], [Card("3D")]] and state.hands[2][-2:] == cards("4H 6S")
    apply(state, Action(DISCARD, cards=(Card("4D"),)))
    assert state.current_player == 0
    apply(state, find(state, DRAW))
    sevens = meld_of(state.melds[0], "7")
    lay = find(state, LAY_OFF, cards=(Card("7D"),), target=sevens)
    apply(state, lay)
    assert len(state.melds[0][sevens]) == 4
    assert observation(state, 2).melds[sevens] == state.melds[0][sevens]
    assert sum(Counter(c for group in [state.stock, state.pile, *state.hands, *state.red_threes]
                       for c in group).values()) + sum(len(m) for ms in state.melds for m in ms) == sum(full.values())
    # player 1 alone: the sides stay as they are when he takes the pile again... and when another does
    assert state.sides() == ((0, 2), (1,))


def test_joined_melds_keep_within_the_wild_card_limit():
    """0's kings hold three wild cards, 2's one more: the joined meld keeps three (classic's limit) and the fourth
    goes back to 2, who melded it."""
    state = position(hands=["7D 9C 4S 6H 8H 10C", "5H 5S 8C 8D JK 4C QH QS", "AH AS 4D 6D JH"],
                     melds=[["KH KS 2C 2D JK"], [], ["KD KC 2H"]], pile="6C 10D 5D", current=1)
    apply(state, find(state, TAKE_PILE))
    (kings,) = state.melds[0]
    assert sorted(map(str, kings)) == sorted(map(str, cards("KH KS 2C 2D JK KD KC")))
    assert check_team_melds(state.melds[0], state.rules).ok   # a mixed canasta of seven
    assert Card("2H") in state.hands[2] and len(state.hands[2]) == 6


def going_out_first():
    """Player 0 goes out before anyone took the pile: two canastas and 9-9-9, discarding 4C. Player 1 melded aces
    and holds one red three, player 2 aces with a two and eights, two red threes."""
    return position(hands=["9H 9S 9D 4C", "5C 6C", "KD"],
                    melds=[["QH QS QD QC QH QS QD", "JH JS JD JC JH JS 2C"], ["AH AS AD"], ["AC AD 2D", "8H 8S 8D"]],
                    red_threes=["", "3H", "3D 3H"], pile="6D 10C", current=0, phase=MELD_PHASE)


def test_going_out_before_any_take_makes_the_lone_hand_and_the_others_score_as_partners():
    state = going_out_first()
    apply(state, find(state, GO_OUT))
    assert state.is_terminal() and state.went_out == (0, False) and state.lone == 0
    assert state.sides() == ((0,), (1, 2))
    aces = state.melds[1][meld_of(state.melds[1], "A")]
    assert sorted(map(str, aces)) == sorted(map(str, cards("AH AS AD AC AD 2D"))) and state.melds[2] == []
    # player 0: queens 70 + 500, jacks 80 + 300, nines 30, going out 100
    # partners: aces 120 + eights 30, minus 5C 6C (10) and KD (10) = 130; player 1 +100 (one red three),
    # player 2 +200 (two)
    assert state.hand_scores() == (1080, 230, 330)
    assert state.totals() == (1080, 230, 330)
    record = hand_record(state, 0, 1)
    assert record["teams"] == [
        {"players": [0], "melds": ["QH QS QD QC QH QS QD", "JH JS JD JC JH JS 2C", "9H 9S 9D"], "red_threes": "",
         "hands_left": [""], "score": 1080, "player_scores": [1080]},
        {"players": [1, 2], "melds": ["AH AS AD AC AD 2D", "8H 8S 8D"], "red_threes": "3H 3D 3H",
         "hands_left": ["5C 6C", "KD"], "score": 130, "player_scores": [230, 330]}]


def test_red_threes_of_a_partnership_without_melds_count_against_each_owner():
    """Player 2 goes out; 0 and 1 never melded: each partner loses his own red threes (100 each) on top of the
    cards in both hands."""
    state = position(hands=["5C", "6C 7C", "9H 9S 9D 4C"],
                     melds=[[], [], ["QH QS QD QC QH QS QD", "JH JS JD JC JH JS 2C"]],
                     red_threes=["3H 3D", "", ""], pile="6D 10C", current=2, phase=MELD_PHASE)
    apply(state, find(state, GO_OUT))
    assert state.sides() == ((0, 1), (2,))
    # partners: -5 (5C) - 10 (6C 7C) = -15; player 0 also -200 (two red threes)
    assert state.hand_scores() == (-215, -15, 1080)


def test_stock_used_up_with_the_pile_never_taken_each_scores_alone():
    state = position(hands=["4C", "AH", "9C 9D"], melds=[["KH KS KD"], [], ["7H 7S 7C"]],
                     red_threes=["3H", "3D", ""], pile="6D 3S", current=0, stock="")
    assert legal_actions(state) == [Action(END)]
    apply(state, Action(END))
    assert state.is_terminal() and state.lone is None and state.sides() == ((0,), (1,), (2,))
    # 0: kings 30 + red three 100 - 4C 5; 1: no melds, red three -100, - AH 20; 2: sevens 15 - 20
    assert state.hand_scores() == (125, -120, -5)
    assert [t["players"] for t in hand_record(state, 0, 1)["teams"]] == [[0], [1], [2]]


def test_the_opening_minimum_is_each_players_own():
    """Player 1 takes the pile; his opponents 0 (1500 points: 90 to open) and 2 (0 points: 50) are partners who
    have not melded. Three aces (60) open for 2, not for 0."""
    state = position(hands=["AH AS AD 4C 6H 9S", "5H 5S 8C 8D JK 4C QH QS", "AC AD AS 4D 6D 9H"],
                     pile="6C 10D 5D", current=1, scores=(1500, 200, 0), draws="4H 6S 4S 7D")
    apply(state, find(state, TAKE_PILE))
    apply(state, Action(DISCARD, cards=(Card("4C"),)))
    apply(state, find(state, DRAW))
    assert state.current_player == 2 and not state.melds[state.team_of(2)]
    assert observation(state, 2).score == 0 and observation(state, 0).score == 1500
    opening = [a for a in legal_actions(state) if a.kind == MELD]
    assert opening and all(all(c.rank == "A" for c in a.melds[0]) for a in opening)
    apply(state, Action(DISCARD, cards=(Card("4D"),)))
    apply(state, find(state, DRAW))
    assert state.current_player == 0
    assert not [a for a in legal_actions(state) if a.kind == MELD]
    with pytest.raises(IllegalMove) as refused:
        apply(state, Action(MELD, melds=(tuple(cards("AH AS AD")),)))
    assert "90" in refused.value.verdict.sentence
