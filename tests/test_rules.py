import dataclasses

import pytest

from canasta_tutor.engine.errors import RulesError
from canasta_tutor.engine.rules import (
    CLASSIC,
    OPTION_NAMES,
    PRESETS,
    SOURCE_TITLES,
    RuleSet,
    citation,
    differing_options,
    get_rules,
    presets_table,
    with_options,
)

SOURCE_FILES = set(SOURCE_TITLES)


def test_all_presets_exist():
    assert set(PRESETS) == {"classic", "classic-2p", "classic-3p", "classic-6p", "danish", "hoyle", "samba"}


def test_presets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.canastas_to_go_out = 3


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(RulesError, match="classic, classic-2p"):
        get_rules("canasta-royale")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_cites_a_source_for_every_differing_option(name):
    preset = PRESETS[name]
    assert preset.__doc__ and preset.__doc__ != RuleSet.__doc__
    for option in differing_options():
        if option in ("teams",):
            continue
        if getattr(preset, option) != getattr(CLASSIC, option) or name == "classic":
            cite = citation(preset, option)
            assert cite, f"{name}.{option} has no citation"
            assert any(f in cite for f in SOURCE_FILES) or "rule-decisions" in cite, (name, option, cite)
            assert cite in preset.__doc__
            if name != "classic":  # a value other than classic's is not justified by classic's quote
                assert cite != citation(CLASSIC, option), (name, option, cite)


def test_the_options_the_contract_names():
    assert get_rules("classic").wild_limit == "three"
    assert get_rules("hoyle").wild_limit == "not-more-than-natural"
    assert get_rules("danish").wild_limit == "fewer-than-natural"
    assert get_rules("samba").wild_limit == "fewer-than-natural" and get_rules("samba").max_wild == 2
    assert [get_rules(n).canastas_to_go_out for n in PRESETS] == [1, 2, 2, 2, 2, 1, 2]
    assert not any(r.pile_always_frozen for r in PRESETS.values())


def test_player_counts():
    assert (get_rules("classic-2p").hand_size, get_rules("classic-2p").draw_count) == (15, 2)
    assert (get_rules("classic-3p").hand_size, get_rules("classic-3p").target_score) == (13, 7500)
    six = get_rules("classic-6p")
    assert (six.decks, six.jokers, six.hand_size) == (3, 6, 13)
    samba = get_rules("samba")
    assert (samba.decks, samba.jokers, samba.hand_size, samba.draw_count, samba.target_score) == (3, 6, 15, 2, 10000)


@pytest.mark.parametrize("score, minimum", [(-500, 15), (-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90),
                                            (3000, 120), (4995, 120), (9000, 120)])
def test_opening_table_of_002(score, minimum):
    assert CLASSIC.opening_minimum(score) == minimum
    assert get_rules("danish").opening_minimum(score) == minimum


@pytest.mark.parametrize("score, minimum", [(-50, 50), (0, 50), (1495, 50), (1500, 90), (6995, 90), (7000, 150)])
def test_opening_table_of_samba(score, minimum):
    assert get_rules("samba").opening_minimum(score) == minimum


def test_wild_capacity_per_limit():
    assert [CLASSIC.wild_capacity(n) for n in (2, 3, 4, 7)] == [3, 3, 3, 3]
    assert [get_rules("hoyle").wild_capacity(n) for n in (2, 3, 4)] == [2, 3, 3]
    assert [get_rules("danish").wild_capacity(n) for n in (2, 3, 4, 5)] == [1, 2, 3, 3]
    assert [get_rules("samba").wild_capacity(n) for n in (2, 3, 4)] == [1, 2, 2]


def test_house_rules_are_data():
    house = with_options("classic", pile_always_frozen=True, **{"canastas-to-go-out": 2})
    assert house.pile_always_frozen and house.canastas_to_go_out == 2 and CLASSIC.pile_always_frozen is False
    with pytest.raises(RulesError, match="unknown rule option"):
        with_options("classic", jokers_are_wild=False)
    with pytest.raises(RulesError, match="wild_limit"):
        with_options("classic", wild_limit="four")
    with pytest.raises(RulesError, match="whole number"):
        with_options("classic", canastas_to_go_out="two")


def test_presets_table_side_by_side():
    frame = presets_table()
    assert list(frame.columns) == list(PRESETS)
    assert set(frame.index) == set(OPTION_NAMES)
    assert frame.loc["canastas_to_go_out", "danish"] == 2
    assert frame.loc["target_score", "samba"] == 10000
    assert "7000 or more: 150" in frame.loc["opening_table", "samba"]


def test_ensure_score_returns_nothing_and_raises_for_a_score_no_game_has():
    from canasta_tutor.engine.rules import MAX_SCORE, ensure_score

    assert ensure_score(0) is None and ensure_score(-MAX_SCORE) is None and ensure_score(MAX_SCORE) is None
    for bad, message in ((1.5, "whole number"), (True, "whole number"), ("1500", "whole number"),
                         (MAX_SCORE + 1, "beyond any game"), (-10**40, "a number of 41 digits")):
        with pytest.raises(RulesError, match=message):
            ensure_score(bad)
