import pytest

from canasta_tutor.engine.melds import (
    canasta_kind,
    check_add_to_meld,
    check_meld,
    check_team_melds,
    count_canastas,
    meld_points,
)
from canasta_tutor.engine.rules import CLASSIC, get_rules

HOYLE, DANISH, SAMBA = get_rules("hoyle"), get_rules("danish"), get_rules("samba")


# The worked examples of 003 (Hoyle): 5-5-2 and 9-9-9-2-2-Joker are melds; 5-2-2 and 9-9-2-2-2-Joker are not.
@pytest.mark.parametrize("cards, ok", [
    ("5H 5S 2C", True), ("9H 9S 9D 2C 2D JK", True), ("5H 2C 2D", False), ("9H 9S 2C 2D 2S JK", False),
])
def test_examples_of_003(cards, ok):
    assert check_meld(cards, HOYLE).ok is ok


def test_rule_decisions_wild_limits():
    # classic: at most three wild, so 5-5-2-2-2 is a meld
    assert check_meld("5H 5S 2C 2D 2S", CLASSIC).ok
    assert not check_meld("5H 5S 2C 2D 2S JK", CLASSIC).ok
    # hoyle: never more wild than natural
    assert check_meld("5H 5S 2C 2D", HOYLE).ok and not check_meld("5H 5S 2C 2D 2S", HOYLE).ok
    # danish: more natural than wild
    assert not check_meld("5H 5S 2C 2D", DANISH).ok and not check_meld("9H 9S 9D 2C 2D JK", DANISH).ok
    assert check_meld("9H 9S 9D 2C 2D", DANISH).ok
    # samba: at most two wild cards in a group, and more natural than wild
    assert check_meld("9H 9S 9D 2C 2D", SAMBA).ok and not check_meld("9H 9S 9D 9C 2C 2D JK", SAMBA).ok


def test_reasons_name_the_cards_and_collect_everything():
    v = check_meld("5H 2C 2D", HOYLE)
    assert v.codes == ("too-few-natural",)
    assert "5♥ 2♣ 2♦" in v.sentence and "one (5♥)" in v.sentence
    v = check_meld("5H 3H KD")
    assert {"red-three", "mixed-ranks"} <= set(v.codes)
    assert "3♥" in v.sentence


def test_basic_invalid_melds():
    assert check_meld("5H 5S").codes == ("too-few-cards",)
    assert check_meld("2C 2D JK").codes == ("too-few-natural",)
    assert "mixed-ranks" in check_meld("5H 6H 7H").codes
    assert not check_meld("").ok


def test_canasta_classification():
    assert canasta_kind("KH KS KD KC KH KS KD") == "natural"
    assert canasta_kind("KH KS KD KC KH KS 2C") == "mixed"
    assert canasta_kind("KH KS KD KC KH 2S 2C JK") == "mixed"
    assert canasta_kind("KH KS KD KC KH KS") == "none"
    assert canasta_kind("KH KS 2D 2C JK JK 2S") == "none"  # invalid: too many wild cards
    v = check_meld("KH KS KD KC KH KS KD")
    assert v.canasta == "natural" and "500" in v.sentence


def test_black_threes_only_going_out():
    v = check_meld("3S 3C 3S")
    assert not v.ok and "black-three-not-going-out" in v.codes
    assert check_meld("3S 3C 3S", going_out=True).ok
    assert check_meld("3S 3C 3S 3C", going_out=True).ok
    assert not check_meld("3S 3C 2D", going_out=True).ok
    assert check_meld("3S 3C 2D", DANISH, going_out=True).ok
    assert not check_meld("3S 3C 3S 2D", DANISH, going_out=True).ok
    assert not check_meld("3S 3C", going_out=True).ok


def test_red_threes_never_melded():
    assert "red-three" in check_meld("3H 3D 3H").codes


def test_impossible_copies_rejected():
    v = check_meld("KH KH KH KS")
    assert not v.ok and v.codes == ("impossible-copies",)
    assert check_meld("KH KH KH KS", SAMBA).ok


def test_samba_sequences():
    assert check_meld("4H 5H 6H", SAMBA).ok
    assert check_meld("JS QS KS AS", SAMBA).ok
    assert not check_meld("AS 2S 3S", SAMBA).ok  # the ace is high only; twos are wild
    assert not check_meld("4H 5H 7H", SAMBA).ok
    assert not check_meld("4H 5H 6H", CLASSIC).ok
    v = check_meld("4H 5H 2H", SAMBA)
    assert not v.ok and "wild-in-sequence" in v.codes
    v = check_meld("5D 6D 7D 8D 9D 10D JD", SAMBA)
    assert v.ok and v.canasta == "samba"
    assert not check_meld("5D 6D 7D 8D 9D 10D JD QD", SAMBA).ok


def test_meld_points():
    assert meld_points("KH KS 2C") == 40
    assert check_meld("AH AS JK").points == 90


def test_adding_cards():
    canasta = "KH KS KD KC KH KS KD"
    v = check_add_to_meld(canasta, "JK")
    assert v.ok and v.canasta == "mixed" and "natural-becomes-mixed" in v.codes
    assert check_add_to_meld("KH KS KD 2C 2D 2S", "JK").codes[0] == "cannot-add"
    assert check_add_to_meld("KH KS KD", "KC").ok
    assert not check_add_to_meld("KH KS KD", "QC").ok
    samba = "5D 6D 7D 8D 9D 10D JD"
    assert check_add_to_meld(samba, "QD", SAMBA).codes == ("samba-closed",)
    assert check_add_to_meld("5D 6D 7D", "8D", SAMBA).ok


def test_team_may_not_hold_two_melds_of_a_rank():
    v = check_team_melds(["KH KS KD", "KC KH 2S"])
    assert not v.ok and v.codes == ("same-rank-twice",)
    assert check_team_melds(["KH KS KD", "7C 7H 2S"]).ok
    assert count_canastas(["KH KS KD KC KH KS KD", "7C 7H 2S", "8H 8S 8D 8C 2C JK 8H"]) == 2


def test_a_red_three_in_a_run_of_one_suit_makes_no_sequence_under_samba():
    """The explained path: a red three among cards of one suit in a row is named, and the run is no sequence."""
    for text in ("4H 5H 6H 3H", "3H 4H 5H 6H 7H", "4D 5D 3D"):
        v = check_meld(text, "samba")
        assert not v.ok and v.codes == ("red-three", "mixed-ranks") and v.kind == "" and v.rank == "", (text, v)
