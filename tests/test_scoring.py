import pytest

from canasta_tutor.engine.errors import SituationError
from canasta_tutor.engine.rules import get_rules
from canasta_tutor.engine.scoring import GameScore, score_hand

CANASTA = "KH KS KD KC KH KS KD"


def test_score_breakdown():
    sheet = score_hand([CANASTA, "7C 7D 2S"], "3H", ["5C 9D", ""], True)
    assert sheet.total == 785
    assert {i.label: i.points for i in sheet.items} == {
        "Melded cards": 100, "Canasta bonuses": 500, "Red threes": 100, "Going out": 100, "Cards left in hand": -15}
    frame = sheet.to_frame()
    assert frame.iloc[-1]["points"] == 785 and list(frame.columns) == ["item", "detail", "points"]


def test_all_four_red_threes_and_concealed():
    sheet = score_hand([CANASTA], "3H 3D 3H 3D", [], "concealed")
    assert sheet.total == 70 + 500 + 800 + 200


def test_red_threes_count_minus_for_a_team_that_never_melded():
    assert score_hand([], "3H 3D", ["KH 9C"], False).total == -200 - 20
    assert score_hand([], "3H 3D 3H 3D", [], False).total == -800
    assert score_hand([], "3H 3D", [], False, get_rules("danish")).total == -400
    assert score_hand([], "3H 3D 3H 3D", [], False, get_rules("danish")).total == -1600


def test_mixed_canasta_and_hoyle_concealed_canasta():
    mixed = "KH KS KD KC KH KS 2D"
    assert score_hand([mixed], "", [], False).total == 80 + 300
    assert score_hand([mixed], "", [], False, get_rules("hoyle"), concealed_canastas=1).total == 80 + 400


def test_samba_scores():
    samba = get_rules("samba")
    sheet = score_hand(["5D 6D 7D 8D 9D 10D JD", "QH QS QD QC QH QS QD"], "3H 3D 3H 3D 3H 3D", [], "concealed", samba)
    assert sheet.total == 55 + 70 + 1500 + 500 + 1000 + 300


def test_went_out_values():
    assert score_hand([CANASTA], "", [], "yes").total == 670
    assert score_hand([CANASTA], "", [], "no").total == 570
    with pytest.raises(SituationError):
        score_hand([CANASTA], "", [], "maybe")


def test_impossible_hands_raise():
    with pytest.raises(SituationError, match="needs 1 to go out"):
        score_hand(["KH KS KD"], "", [], True)
    with pytest.raises(SituationError, match="not a red three"):
        score_hand([CANASTA], "3S", [], False)
    with pytest.raises(SituationError, match="red three"):
        score_hand([CANASTA], "", ["3H"], False)
    with pytest.raises(SituationError):
        score_hand([CANASTA, "KC KH 2S"], "", [], False)
    with pytest.raises(SituationError):
        score_hand([], "3H 3D 3H 3D 3H", [], False)


def test_black_three_meld_only_when_went_out():
    assert score_hand([CANASTA, "3S 3C 3S"], "", [], True).total == 70 + 500 + 15 + 100
    with pytest.raises(SituationError):
        score_hand([CANASTA, "3S 3C 3S"], "", [], False)


def test_game_to_5000():
    game = GameScore(["Us", "Them"])
    game.add_hand({"Us": 2000, "Them": -300})
    assert not game.is_over and game.winner is None and game.opening_minimum("Them") == 15
    assert game.opening_minimum("Us") == 90
    game.add_hand({"Us": 2900, "Them": 5400})
    assert game.is_over and game.winner == "Them" and game.totals == {"Us": 4900, "Them": 5100}
    with pytest.raises(SituationError):
        game.add_hand({"Us": 10})
    assert game.to_frame().loc["total", "Us"] == 4900


def test_game_target_per_preset():
    game = GameScore(["A", "B", "C"], "classic-3p")
    game.add_hand({"A": 6000})
    assert not game.is_over
    game.add_hand({"A": 1500})
    assert game.winner == "A"


def test_unknown_team():
    with pytest.raises(SituationError):
        GameScore(["Us", "Them"]).add_hand({"Others": 10})


def test_breakdown_as_html_without_pandas():
    sheet = score_hand([CANASTA, "7C 7D 2S"], "3H", ["5C 9D", ""], True)
    page = sheet.to_html()
    assert page.count("<tr>") == len(sheet.items) + 2 and "<b>785</b>" in page and "Canasta bonuses" in page


def test_a_count_of_concealed_canastas_that_cannot_be_is_refused():
    two = [CANASTA, "QH QS QD QC QH QS QD"]
    for bad in (-1, 1.5, True, "1"):
        with pytest.raises(SituationError, match="concealed_canastas must be a whole number, 0 or more"):
            score_hand(two, "", [], True, "hoyle", concealed_canastas=bad)
    with pytest.raises(SituationError, match="concealed_canastas: 3, but the team has only two canastas"):
        score_hand(two, "", [], True, "hoyle", concealed_canastas=3)
    with pytest.raises(SituationError, match="concealed_canastas: 1, but the team has no canasta$"):
        score_hand(["KH KS KD"], "", [], False, "hoyle", concealed_canastas=1)
    with pytest.raises(SituationError, match="went out concealed, so all 2 of its canastas were melded"):
        score_hand(two, "", [], "concealed", "hoyle", concealed_canastas=1)
    # the canastas needed to go out are checked first
    with pytest.raises(SituationError, match="the team went out with 0 canastas, but hoyle needs 1 to go out"):
        score_hand(["KH KS KD"], "", [], True, "hoyle", concealed_canastas=-1)
    # cards, two natural canastas, two of them concealed, going out
    assert score_hand(two, "", [], True, "hoyle", concealed_canastas=2).total == 140 + 2 * 500 + 2 * 100 + 100
