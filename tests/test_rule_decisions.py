"""One test per rule decision of shared/spec/rule-decisions.md and per engine error fixed from the sources.

Each test quotes the line of the source (docs/sources/, copies of the project's rules-sources) that it follows.
"""

from __future__ import annotations

import pytest

from canasta_tutor import check_frozen, check_go_out, check_take_pile, score_hand
from canasta_tutor.engine.errors import SituationError
from canasta_tutor.engine.melds import check_swap
from canasta_tutor.engine.rules import with_options
from canasta_tutor.puzzles.format import parse_puzzle_set
from canasta_tutor.puzzles.solver import solve

OPENED = ["KH KS KD"]


def test_unopened_take_and_go_out_with_a_two_card_pile():
    """002 line 74: 'Alleen de bovenste kaart mag je meetellen, samen met kaarten uit je hand. De rest van de
    stapel krijg je pas nadat je het minimum hebt gehaald.' The 9♦ under the top card neither counts nor blocks:
    the six 7s and the 2 make a canasta worth 50 from hand and top card, and 9♦ is the discard."""
    v = check_take_pile("7H 7S 7D 7C 7H 2C", [], 0, "9D 7S")
    assert v.ok, v.sentence
    assert v.has("goes-out") and "discard 9♦" in v.sentence


def test_unopened_take_the_rest_of_the_pile_never_counts_towards_the_minimum():
    """002 line 74 (as above): a pile card that is melded, not discarded, still does not count."""
    # 45 points from hand and top card; the K♦ under the top would make 55 but may not count.
    v = check_take_pile("7H 7S 7D 7C 2C 5H", [], 0, "KD 7S")
    assert not v.ok, v.sentence


def test_take_and_go_out_on_a_meld_made_while_taking_does_not_crash():
    """002 line 66: the top card melded with two from hand; the last card then goes on that new meld."""
    v = check_take_pile("9H 9S 9C", ["7S 7D 7H 7C 7S 7D 7H"], 0, "9D")
    assert v.ok and "lay off 9♣ on 9♦ 9♥ 9♠" in v.sentence


def test_hoyle_red_three_in_pile_does_not_freeze_it():
    """003 line 16: 'As een van hierdie bonuskaarte 'n wilde kaart was, vries dit ook die vullisstapel' (only a
    wild card turned up freezes it; rule-decisions: a red three in the pile does not)."""
    assert not check_frozen("5D 3H 9S", OPENED, "hoyle").ok
    assert check_frozen("5D 3H 9S", OPENED, "classic").codes == ("red-three-in-pile",)
    assert check_frozen("5D 2C 9S", OPENED, "hoyle").codes == ("wild-in-pile",)
    assert "red three" not in check_frozen("5D 9S", OPENED, "hoyle").sentence


def test_hoyle_concealed_canastas_and_going_out_concealed():
    """003 line 24: ''N Versteekte canasta ... dra 'n bonus telling van 100 punte (so 400 vir 'n versteekte gemengde
    canasta en 600 vir 'n versteekte natuurlike canasta).' Going out concealed, every canasta is concealed."""
    melds = ["KH KS KD KC KH KS KD", "QH QS QD QC QH QS 2C"]
    base = score_hand(melds, went_out="concealed", rules="classic").total  # 70 + 80 + 500 + 300 + 200
    assert base == 1150
    assert score_hand(melds, went_out="concealed", rules="hoyle").total == base + 200
    assert score_hand(melds, went_out=True, rules="hoyle").total == 70 + 80 + 500 + 300 + 100
    assert score_hand(melds, went_out=True, rules="hoyle", concealed_canastas=1).total == 1150 - 200 + 100 + 100
    # no bonus where the preset gives none
    assert score_hand(melds, went_out=True, rules="classic", concealed_canastas=2).total == 1050
    with pytest.raises(SituationError, match="concealed_canastas: 3, but the team has only two canastas"):
        score_hand(melds, went_out=True, rules="hoyle", concealed_canastas=3)
    with pytest.raises(SituationError, match="went out concealed"):
        score_hand(melds, went_out="concealed", rules="hoyle", concealed_canastas=1)


def test_concealed_canastas_field_in_a_score_hand_puzzle():
    """puzzle-format.md: 'Optional concealed_canastas: N (default 0, or every canasta when went_out is concealed)
    ... N larger than the number of canastas is an error.'"""
    text = """rules: hoyle
puzzles:
  - {id: a, kind: score-hand, melds: [KH KS KD KC KH KS KD], went_out: true, concealed_canastas: 1}
  - {id: b, kind: score-hand, melds: [KH KS KD KC KH KS KD], went_out: true}
  - {id: c, kind: score-hand, melds: [KH KS KD KC KH KS KD], went_out: concealed}
  - {id: d, kind: score-hand, melds: [KH KS KD KC KH KS KD], went_out: true, concealed_canastas: 2}
  - {id: e, kind: score-hand, melds: [KH KS KD KC KH KS KD], went_out: true, concealed_canastas: -1}
"""
    pset = parse_puzzle_set(text, "c.yaml")
    by_id = {p.id: p for p in pset.puzzles}
    assert solve(by_id["a"]).answer == {"score": 770}
    assert solve(by_id["b"]).answer == {"score": 670}
    assert solve(by_id["c"]).answer == {"score": 870}
    with pytest.raises(SituationError, match="concealed_canastas: 2"):
        solve(by_id["d"])
    assert [e.puzzle_id for e in pset.errors] == ["e"] and pset.errors[0].field == "concealed_canastas"


def test_samba_black_three_anywhere_freezes_the_pile():
    """004 line 87: 'Blokkering: Een aflegstapel die niet kan worden opgepakt behalve met een gewoon paar dat
    overeenkomt met de bovenste kaart; wordt getriggerd wanneer een joker of een zwarte drie wordt afgelegd.'"""
    assert check_frozen("5D 3C 9S", OPENED, "samba").codes == ("black-three-in-pile",)
    assert not check_frozen("5D 3C 9S", OPENED, "classic").ok
    # frozen: the top card may no longer go on the team's group, only a natural pair takes it
    assert not check_take_pile("9C 5H", ["9H 9S 9D"], 0, "3S 9S", "samba").ok
    assert check_take_pile("9C 9D 5H", ["KH KS KD"], 0, "3S 9S", "samba").method == "pair"
    assert check_take_pile("9C 5H", ["9H 9S 9D"], 0, "4S 9S", "samba").method == "lay-off"


def test_samba_wild_swap():
    """004 line 36: 'Een joker in een groep vervangen: Als je de gewone kaart hebt die een joker vervangt in een
    onvoltooide groep, mag je hem omwisselen en de joker houden. In reeksen zijn jokers helemaal niet toegestaan,
    dus daar is geen omwisseling nodig.'"""
    v = check_swap("9C 5D", ["9H 9S JK"], "samba")
    assert v.ok and v.wild.rank == "JK" and str(v.card) == "9♣"
    assert check_swap("9C 5D", ["9H 9S JK"], "classic").codes == ("no-swap-rule",)
    assert check_swap("9C", ["9H 9S 9D 9C 9H 9S JK"], "samba", card="9C").codes == ("swap-canasta",)
    assert check_swap("9C", ["9H 9S 9D"], "samba", card="9C").codes == ("no-wild-in-group",)
    assert check_swap("5C", ["9H 9S JK"], "samba", card="5C").codes == ("no-group",)
    assert check_swap("2C 9C", ["9H 9S JK"], "samba", card="2C").codes == ("not-natural",)
    assert with_options("classic", wild_swap=True).wild_swap


def test_samba_go_out_uses_a_swap():
    """004 line 36 (as above): the swapped joker is used in the same turn, here to meld 5♦ 5♠ with it."""
    melds = ["9H 9S JK", "KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD"]
    v = check_go_out("9C 5D 5S", melds, 0, "samba")
    assert v.ok and v.plan.swaps and "swap 9♣ for the joker" in v.sentence
    assert not check_go_out("9C 5D 5S", melds, 0, with_options("samba", wild_swap=False)).ok


def test_concealed_going_out_minimum_follows_the_option():
    """002 line 58: 'wie na het trekken van de stock zijn hele hand in één keer kan uitleggen, met een canasta
    erbij, mag dat doen zonder het minimum te halen.' Where a house rule says otherwise, no sentence may say so."""
    v = check_go_out("4H 4S 4D 4C 4H 4S 2D 9H", [], 0, "classic")
    assert v.ok and "needs no opening minimum" in v.sentence
    house = with_options("classic", concealed_needs_no_minimum=False)
    v = check_go_out("4H 4S 4D 4C 4H 4S 2D 9H", [], 0, house)
    assert v.ok and "needs no opening minimum" not in v.sentence and "(50)" in v.sentence
    assert not check_go_out("4H 4S 4D 4C 4H 4S 2D 9H", [], 1500, house).ok
