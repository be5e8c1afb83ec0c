import itertools
from collections import Counter

import pytest

from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.errors import SituationError
from canasta_tutor.engine.going_out import check_go_out
from canasta_tutor.engine.melds import check_meld, count_canastas
from canasta_tutor.engine.rules import get_rules

CANASTA = "7H 7S 7D 7C 7H 7S 7D"


def apply_plan(hand, melds, plan, rules):
    """Independent check of a plan: every card used once, every meld legal, canastas enough."""
    hand = Counter(parse_cards(hand))
    melds = [list(parse_cards(m)) for m in melds]
    used = Counter()
    for idx, cards in plan.lay_offs:
        melds[idx] += cards
        used.update(cards)
    for meld in plan.new_melds:
        melds.append(list(meld))
        used.update(meld)
    if plan.discard is not None:
        used[plan.discard] += 1
    assert used == hand
    for m in melds:
        assert check_meld(m, rules, going_out=True).ok, m
    assert count_canastas(melds, rules) >= rules.canastas_to_go_out


def test_go_out_with_a_final_discard():
    v = check_go_out("KH KS 2C 9D", [CANASTA])
    assert v.ok and v.discard == parse_cards("9D")[0]
    apply_plan("KH KS 2C 9D", [CANASTA], v.plan, get_rules("classic"))


def test_go_out_without_discard():
    v = check_go_out("KH KS KD", [CANASTA])
    assert v.ok
    apply_plan("KH KS KD", [CANASTA], v.plan, get_rules("classic"))


def test_no_canasta_no_going_out():
    v = check_go_out("KH KS KD 9D", ["7H 7S 7D"])
    assert not v.ok and "canastas-short" in v.codes


def test_canasta_completed_in_the_same_turn_with_wild_cards():
    # 7-7-7-7-7 on the table + two wild cards from hand = a mixed canasta
    v = check_go_out("2C JK 9D", ["7H 7S 7D 7C 7H"])
    assert v.ok
    apply_plan("2C JK 9D", ["7H 7S 7D 7C 7H"], v.plan, get_rules("classic"))


def test_wild_cards_must_be_spread_right():
    # Two melds; four wild cards: three can go on KKK only if the 5-5 pair gets one: search, not greed.
    hand = "KH KS KD 5C 5D 2C 2D 2S JK 9H"
    melds = ["8H 8S 8D 8C 8H 8S"]
    v = check_go_out(hand, melds)
    assert v.ok
    apply_plan(hand, melds, v.plan, get_rules("classic"))


def test_too_many_wild_cards_to_place():
    hand = "2C 2D 2S 2H JK JK JK 9H 9S"
    # seven wild cards, one discarded: 9-9 takes three and the canasta three more in classic
    assert check_go_out(hand, ["KH KS KD KC KH KS KD"]).ok
    # under hoyle 9-9 takes only two: one wild card too many
    v = check_go_out(hand, ["KH KS KD KC KH KS KD"], rules=get_rules("hoyle"))
    assert not v.ok and "wild-no-room" in v.codes


def test_lone_cards_block_going_out():
    v = check_go_out("9D 5C KH", [CANASTA])
    assert not v.ok and "lone-card" in v.codes


def test_black_threes_when_going_out():
    assert check_go_out("3S 3C 3S 9D", [CANASTA]).ok
    assert not check_go_out("3S 3C 9D", [CANASTA]).ok
    assert check_go_out("3S 3C 2D", [CANASTA, "8H 8S 8D 8C 8H 8S 8D"], rules=get_rules("danish")).ok
    assert not check_go_out("3S 3C 2D 9H", [CANASTA, "8H 8S 8D 8C 8H 8S 8D"], rules=get_rules("classic")).ok


@pytest.mark.parametrize("rules", ["classic", "danish"])
@pytest.mark.parametrize("black", ["3S 3C 3S 3C", "3S 3C 3S", "3S 3C 2H"])
def test_a_meld_of_black_threes_takes_no_wild_card(rules, black):
    # 2♦ has no other place (the canasta of sevens holds its three wild cards): laying it on the black threes would
    # make a meld check_meld refuses (four black threes and a wild card, or two and two wild cards)
    if black == "3S 3C 2H" and rules == "classic":
        return  # not a meld in classic at all
    v = check_go_out("2D 9D", ["7H 7S 7D 7C 2C 2S 2H", black], rules=get_rules(rules))
    assert not v.ok and "wild-no-room" in v.codes
    assert "no meld can take another wild card within the limit" in " ".join(r.text for r in v.reasons)
    assert not check_meld(parse_cards(black) + parse_cards("2D"), get_rules(rules), going_out=True).ok


def test_concealed_going_out_needs_no_minimum_but_a_canasta():
    v = check_go_out("4H 4S 4D 4C 4H 4S 2D 9H", [], score=3000)
    assert v.ok and "concealed" in v.codes
    assert not check_go_out("4H 4S 4D 9H", [], score=0).ok


def test_danish_and_two_player_need_two_canastas():
    assert check_go_out("KH KS KD", [CANASTA]).ok
    assert not check_go_out("KH KS KD", [CANASTA], rules=get_rules("danish")).ok
    assert not check_go_out("KH KS KD", [CANASTA], rules=get_rules("classic-2p")).ok
    assert check_go_out("KH KS KD KC KH KS KD", [CANASTA], rules=get_rules("classic-2p")).ok


def test_samba_sequences_and_sambas_count():
    samba = get_rules("samba")
    # a samba made from hand plus an existing canasta makes two
    hand = "5D 6D 7D 8D 9D 10D JD KC"
    assert check_go_out(hand, ["QH QS QD QC QH QS QD"], rules=samba).ok
    assert not check_go_out("5D 6D 7D 8D 9D 10D KC QC", ["QH QS QD QC QH QS QD"], rules=samba).ok
    # extending a sequence on the table
    assert check_go_out("8D 9D 10D", ["5D 6D 7D", "QH QS QD QC QH QS QD", "KH KS KD KC KH KS KD"], rules=samba).ok


def test_search_is_exhaustive_on_small_hands():
    # brute force over every discard and every way to split the wild cards agrees with the search
    rules = get_rules("classic")
    melds = ["KH KS KD KC KH", "9C 9D 9H"]
    for hand in ["2C JK 5H 5S 8D", "2C JK 2D 5H 5S", "JK 5H 5S 5D 8C 8D", "2C 2D 2S JK QH", "5H 5S 2D 2C"]:
        assert check_go_out(hand, melds, rules=rules).ok == _brute(hand, melds, rules), hand


def _brute(hand, melds, rules):
    cards = list(parse_cards(hand))
    for discard in [None] + cards:
        rest = list(cards)
        if discard is not None:
            rest.remove(discard)
        wilds = [c for c in rest if c.is_wild]
        naturals = [c for c in rest if not c.is_wild]
        table = [list(parse_cards(m)) for m in melds]
        ranks = {m[0].rank: i for i, m in enumerate(table)}
        groups = {}
        for c in naturals:
            if c.rank in ranks:
                table[ranks[c.rank]].append(c)
            else:
                groups.setdefault(c.rank, []).append(c)
        all_melds = table + list(groups.values())
        for assignment in itertools.product(range(len(all_melds)), repeat=len(wilds)):
            trial = [list(m) for m in all_melds]
            for w, target in zip(wilds, assignment):
                trial[target].append(w)
            if all(check_meld(m, rules).ok for m in trial) and count_canastas(trial, rules) >= 1:
                return True
    return False


def test_red_three_in_hand_is_impossible():
    with pytest.raises(SituationError):
        check_go_out("3H KH KS KD", [CANASTA])
