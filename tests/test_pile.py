import pytest

from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.errors import SituationError
from canasta_tutor.engine.melds import check_meld
from canasta_tutor.engine.pile import check_frozen, check_stopped, check_take_pile
from canasta_tutor.engine.rules import get_rules, with_options

OPENED = ["KH KS KD"]


def test_frozen_by_a_wild_card_or_red_three():
    v = check_frozen("5D 2C 9S", OPENED)
    assert v.ok and v.codes == ("wild-in-pile",) and "2♣" in v.sentence
    assert check_frozen("5D 3H 9S", OPENED).codes == ("red-three-in-pile",)
    assert check_frozen("5D JK 2C", OPENED).ok


def test_frozen_for_an_unopened_team():
    v = check_frozen("5D 9S", [])
    assert v.ok and v.codes == ("not-opened",)


def test_frozen_collects_every_reason():
    v = check_frozen("5D 2C 3D", [], with_options("classic", pile_always_frozen=True))
    assert set(v.codes) == {"wild-in-pile", "red-three-in-pile", "not-opened", "always-frozen"}


def test_black_three_does_not_freeze():
    assert not check_frozen("5D 3S 9S", OPENED).ok


def test_stopped_by_wild_or_black_three_on_top():
    assert check_stopped("5D 3S").codes == ("black-three-on-top",)
    assert check_stopped("5D JK").codes == ("wild-on-top",)
    assert not check_stopped("5D 3S 9C").ok
    assert check_stopped("").codes == ("empty-pile",)


def test_the_example_from_the_issue():
    v = check_take_pile("7H KD 4C 9S", OPENED, 0, "5D 2C 7C")
    assert not v.ok
    assert v.sentence.startswith("No: the pile is frozen because 2♣ lies in it")
    assert "two natural 7s" in v.sentence and "you hold only 7♥" in v.sentence


def test_take_with_a_natural_pair_from_a_frozen_pile():
    v = check_take_pile("7H 7S KD 4C", OPENED, 0, "5D 2C 7C")
    assert v.ok and v.method == "pair" and v.cards == parse_cards("7H 7S")


def test_take_with_natural_and_wild_only_when_opened_and_unfrozen():
    v = check_take_pile("7H JK QD 4C", OPENED, 0, "5D 9C 7C")
    assert v.ok and v.method == "natural-and-wild" and set(v.cards) == set(parse_cards("7H JK"))
    assert not check_take_pile("7H JK QD 4C", OPENED, 0, "5D 2C 7C").ok   # frozen
    assert not check_take_pile("7H JK QD 4C AD", [], 0, "5D 9C 7C").ok     # unopened
    # samba never allows a natural and a wild card
    assert not check_take_pile("7H JK QD 4C", OPENED, 0, "5D 9C 7C", get_rules("samba")).ok


def test_take_by_laying_off_on_a_team_meld():
    v = check_take_pile("4C 9D 5S", ["KH KS KD", "7H 7S 7D"], 0, "5D 9C 7C")
    assert v.ok and v.method == "lay-off" and v.cards == ()
    assert check_meld(v.meld).ok and parse_cards("7C")[0] in v.meld
    # onto a finished canasta too (classic) but not in samba
    canasta = ["7H 7S 7D 7C 7H 7S 7D"]
    assert check_take_pile("4C 9D 5S", canasta, 0, "5D 9C 7C").ok
    assert not check_take_pile("4C 9D 5S", canasta, 0, "5D 9C 7C", get_rules("samba")).ok


def test_nobody_takes_a_stopped_pile():
    assert check_take_pile("3S 3C KD", OPENED, 0, "5D 9C 3C").codes == ("black-three-on-top",)
    assert not check_take_pile("2D 2S KD", OPENED, 0, "5D 9C 2C").ok


def test_unopened_team_needs_the_minimum_with_top_card_only():
    # 7-7-7 is 15 points: not enough for 50, although the pile below holds aces
    v = check_take_pile("7H 7S KD 4C", [], 0, "AD AC AS 7C")
    assert not v.ok and "below-minimum" in v.codes
    # with a negative score the minimum is 15
    assert check_take_pile("7H 7S KD 4C", [], -20, "AD AC AS 7C").ok
    # further melds from hand count: K-K-K adds 30, J adds 50
    assert check_take_pile("7H 7S KD KC KS 4C", [], 0, "9D 7C").ok is False  # 45 < 50
    assert check_take_pile("7H 7S KD KC KS JK", [], 0, "9D 7C").ok         # 95
    # a natural pair is needed even if a wild card would reach the minimum
    assert not check_take_pile("7H JK AD AC AS", [], 0, "9D 7C").ok


def test_unopened_with_wild_cards_in_the_pile_and_minimum_boundaries():
    # exactly the minimum counts
    assert check_take_pile("KH KS 2C 4D", [], 0, "5C KD").ok            # K K K 2 = 50
    assert not check_take_pile("KH KS 4D 5H", [], 1500, "5C KD").ok     # 30 < 90


def test_turn_must_be_finishable():
    # taking a one-card pile with the last two cards of the hand leaves nothing to discard:
    # only legal if the team can go out (it has a canasta)
    assert not check_take_pile("7H 7S", OPENED, 0, "7C").ok
    v = check_take_pile("7H 7S", ["KH KS KD KC KH KS KD"], 0, "7C")
    assert v.ok and "goes-out" in v.codes
    # one more card in the pile is not enough: discarding it would empty the hand (going out)
    assert not check_take_pile("7H 7S", OPENED, 0, "9D 7C").ok
    # with two more cards in the pile there is always a discard that keeps a card
    assert check_take_pile("7H 7S", OPENED, 0, "9D 5C 7C").ok
    # red threes in the pile go to the table, not to the hand
    assert not check_take_pile("7H 7S", OPENED, 0, "3D 9D 7C").ok
    # two-player game needs two canastas to go out
    assert not check_take_pile("7H 7S", ["KH KS KD KC KH KS KD"], 0, "7C", get_rules("classic-2p")).ok


def test_one_card_rule_is_an_option():
    house = with_options("classic", one_card_pile_rule=True)
    canasta = ["KH KS KD KC KH KS KD", "7H 7S 7D"]
    assert check_take_pile("4C", canasta, 0, "7C").ok
    assert not check_take_pile("4C", canasta, 0, "7C", house).ok
    assert check_take_pile("4C", canasta, 0, "7C", house, stock_empty=True).ok


def test_impossible_situations_raise():
    with pytest.raises(SituationError, match="copies of K♥"):
        check_take_pile("KH KH", OPENED, 0, "9D KH")
    with pytest.raises(SituationError, match="red three"):
        check_take_pile("3H 7S 7D", OPENED, 0, "9D 7C")


def test_always_frozen_house_rule():
    house = with_options("classic", pile_always_frozen=True)
    assert not check_take_pile("7H JK QD 4C", OPENED, 0, "5D 9C 7C", house).ok
    assert check_take_pile("7H 7D QD 4C", OPENED, 0, "5D 9C 7C", house).ok


def test_shown_cards():
    from canasta_tutor.engine.pile import check_shown_cards

    opened = ["KH KS KD"]
    assert check_shown_cards("7H 7S 7D 9D", opened, 0, "5D 8S 7C", "7H 7D").ok
    assert not check_shown_cards("7H 7S 4C 9D", opened, 0, "5D 8S 7C", "7H 4C").ok
    assert check_shown_cards("7H JK 4C", opened, 0, "5D 8S 7C", "7H JK").ok
    assert not check_shown_cards("7H JK 7S", opened, 0, "5D 2C 7C", "7H JK").ok   # frozen
    assert check_shown_cards("4C 9D", ["KH KS KD", "7D 7S 7H"], 0, "5D 8S 7C", "").ok
    assert not check_shown_cards("7H 7S", opened, 0, "5D 8S 7C", "7H 7D").ok     # not in hand
    assert not check_shown_cards("KH KS QH QS QD", [], 0, "5D 8S KC", "KH KS").ok   # 30 < 50
    assert check_shown_cards("KH KS QH QS QD", [], 0, "5D 8S KC", "KH KS QH QS QD").ok
    assert not check_shown_cards("KH KS QH QS QD 4C", [], 0, "5D 8S KC", "KH KS QH QS QD 4C").ok  # 4♣ fits no meld


def test_a_black_three_in_the_pile_is_named_and_said_not_to_freeze_it():
    # rule-decisions.md (classic): "A black three does not freeze the pile: on top, it only stops the next player."
    v = check_frozen("5D 3C 9S", melds=["KH KS KD"])
    assert not v.ok
    assert "black-three-not-freezing" in v.codes and "3♣" in v.sentence
    assert "black-three-not-freezing" not in check_frozen("5D 9S", melds=["KH KS KD"]).codes
    # where a black three does freeze the pile (samba), it is a reason for freezing, not a reassurance
    s = check_frozen("5D 3C 9S", melds=["KH KS KD"], rules="samba")
    assert s.ok and "black-three-in-pile" in s.codes and "black-three-not-freezing" not in s.codes


def test_a_black_three_on_top_blocks_the_pile_for_everyone():
    v = check_stopped("5D 9S 3C")
    assert v.ok and v.codes == ("black-three-on-top",) and "nobody may take the pile" in v.sentence


def test_a_meld_with_a_three_on_the_table_does_not_break_the_samba_run_search():
    """Found by hypothesis: a team 'meld' holding a red three made the search for a run raise KeyError '3'."""
    v = check_take_pile("AS", [["3H", "AS", "AS"]], 0, "AH", "samba")
    assert not v.ok and v.reasons
