import pytest

from canasta_tutor.engine.errors import SituationError
from canasta_tutor.engine.opening import check_opening, max_meld_points, opening_minimum
from canasta_tutor.engine.rules import get_rules


def test_minimum_for_a_score():
    assert [opening_minimum(s) for s in (-10, 0, 1500, 3000)] == [15, 50, 90, 120]
    assert opening_minimum(7000, "samba") == 150


def test_opening_counts_card_points_only_and_combines_melds():
    v = check_opening(["KH KS KD", "7C 7D 2S"], 0)
    assert v.ok and v.points == 60 and v.minimum == 50


def test_opening_too_few_points():
    v = check_opening(["KH KS KD"], 1500)
    assert not v.ok and v.points == 30 and v.minimum == 90 and "too-few-points" in v.codes


def test_invalid_meld_spoils_the_opening_but_points_count():
    v = check_opening(["AH AS 2C 2D 2S JK"], 0)
    assert not v.ok and v.points == 150 and "invalid-meld" in v.codes


def test_same_rank_twice_is_not_an_opening():
    v = check_opening(["KH KS KD", "KC KH 2S"], 0)
    assert not v.ok and "same-rank-twice" in v.codes


def test_no_melds():
    v = check_opening([], 0)
    assert not v.ok and v.points == 0


def test_black_threes_not_in_an_opening():
    assert not check_opening(["3S 3C 3S", "AH AS AD"], 0).ok


def test_impossible_cards():
    with pytest.raises(SituationError):
        check_opening(["KH KH KH"], 0)


def test_max_meld_points():
    assert max_meld_points("KH KS 2C 7H 7S JK 9D") == 100
    assert max_meld_points("7H 7S JK KD", top=__import__("canasta_tutor").Card("7C")) == 65
    assert max_meld_points("7H JK KD", top=__import__("canasta_tutor").Card("7C")) == -1
    # danish: a pair takes one wild card at most
    assert max_meld_points("KH KS JK JK", get_rules("danish")) == 70
