"""The sentences learners read: true, naming the real reason, in good English."""

from __future__ import annotations

import re

from canasta_tutor import check_go_out, check_meld, check_opening, check_take_pile, check_team_melds
from canasta_tutor.engine.rules import with_options


def test_red_threes_are_bonus_cards_not_wild_cards():
    v = check_meld("3H 3D 3H")
    assert v.codes == ("red-three",)
    assert "wild" not in v.sentence
    assert "wild cards cannot make a meld" in check_meld("2C 2D JK").sentence


def test_going_out_names_the_missing_canasta_not_the_cards():
    """g-003: the kings meld and 9♣ is discarded; only the canasta is missing."""
    v = check_go_out("KH KS KD 9C", [], 0)
    assert not v.ok
    assert v.codes == ("places-every-card", "canastas-short")
    assert "cannot meld or lay off every card" not in v.sentence
    assert "meld K♥ K♠ K♦ and discard 9♣" in v.sentence and "no canasta; it needs one" in v.sentence
    # a real placement problem is still named as such
    v = check_go_out("KH KS 9C 5D", ["7H 7S 7D 7C 7H 7S 7D"], 0)
    assert v.codes[0] == "cannot-go-out" and "lone-card" in v.codes


def test_samba_sentences():
    assert check_meld("AS 2S 3S", "samba").codes == ("low-sequence",)
    assert "A-2-3 is not a sequence: the ace is high only" in check_meld("AS 2S 3S", "samba").sentence
    v = check_take_pile("7C 9H 9S", ["4C 5C 6C", "KH KS KD"], 0, "5D 7C", "samba")
    assert not v.ok and "top-not-on-sequence" in v.codes and "cannot go onto a sequence" in v.sentence
    v = check_take_pile("7C 9H 9S", ["KH KS KD"], 0, "5D 7C", "samba")
    assert "top-not-on-sequence" not in v.codes


def test_samba_is_closed():
    from canasta_tutor import check_add_to_meld

    v = check_add_to_meld("5D 6D 7D 8D 9D 10D JD", "QD", "samba")
    assert not v.ok and "the samba is closed" in v.sentence.lower() or "it is closed" in v.sentence


def test_singular_and_plural():
    v = check_go_out("KH KS 9C", [], 0)
    assert "1 wild cards" not in v.sentence
    v = check_go_out("KH KS 5D 5S 9C", ["7H 7S 7D 7C 7H 7S 7D"], 0)
    assert "need two wild cards" in v.sentence and "you hold no wild card" in v.sentence
    v = check_go_out("KH KS 9C", ["7H 7S 7D 7C 7H 7S 7D"], 0)
    assert "Your pair K♥ K♠ needs a wild card" in v.sentence
    for sentence in (check_go_out("KH KS KD", [], 0, "danish").sentence,
                     check_take_pile("7H 7S", ["KH KS KD"], 0, "5D 7C").sentence):
        assert not re.search(r"\b1 \w+s\b", sentence), sentence
        assert not re.search(r"\b0 canastas\b", sentence), sentence


def test_no_lower_case_sentence_after_a_full_stop():
    v = check_team_melds(["5H 5S 2C 2D 2S JK 3H"])
    text = v.sentence
    assert not re.search(r"\. [a-z]", text), text
    v = check_opening(["5H 5S 2C 2D 2S JK 3H"], 0)
    assert not re.search(r"\. [a-z]", v.sentence), v.sentence


def test_no_opening_minimum_for_a_team_that_has_melded():
    for verdict in (check_take_pile("7H 7S 5D", ["KH KS KD"], 0, "5C 7C"),
                    check_go_out("KH KS KD", ["QH QS QD QC QH QS QD"], 0)):
        assert "minimum" not in verdict.sentence, verdict.sentence


def test_needs_no_minimum_only_when_the_option_says_so():
    house = with_options("classic", concealed_needs_no_minimum=False)
    assert "needs no opening minimum" not in check_go_out("4H 4S 4D 4C 4H 4S 2D 9H", [], 0, house).sentence
