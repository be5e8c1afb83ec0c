import pytest

from canasta_tutor.engine.cards import (
    ALL_CARDS,
    Card,
    card_points,
    deck_counts,
    format_cards,
    parse_card,
    parse_cards,
    too_many_copies,
)
from canasta_tutor.engine.errors import CanastaError, NotationError


@pytest.mark.parametrize("text, code", [
    ("7H", "7H"), ("7h", "7H"), ("10S", "10S"), ("TS", "10S"), ("ts", "10S"), ("10♠", "10S"), ("K♦", "KD"),
    ("a♣", "AC"), ("JK", "JK"), ("Joker", "JK"), ("joker", "JK"), ("jk", "JK"), ("Q♥", "QH"),
])
def test_parse_notation(text, code):
    assert parse_card(text).code == code


def test_cards_are_interned_and_immutable():
    assert Card("7h") is Card("7H")
    with pytest.raises(AttributeError):
        Card("7H").rank = "8"


@pytest.mark.parametrize("text", ["7X", "1H", "11S", "", "H", "KK", "J", "Jo", "10"])
def test_bad_card_names_the_token(text):
    with pytest.raises(NotationError) as e:
        parse_card(text)
    assert isinstance(e.value, CanastaError) and isinstance(e.value, ValueError)
    assert "card" in str(e.value)


def test_bad_token_in_group_names_token_and_position():
    with pytest.raises(NotationError) as e:
        parse_cards("7H 7S, XD KD")
    assert e.value.position == 3 and e.value.token == "XD"
    # what to write, not how the parser failed ("card 3 of '...': 'XD' is not a card: unknown rank 'X'")
    assert str(e.value) == ("card 3, XD, is not a card: write a rank (2-10, J, Q, K, A) and a suit (H, D, C, S), "
                            "like 7H, or JK for a joker")
    with pytest.raises(NotationError) as e:
        parse_cards("ZZ")
    assert str(e.value).startswith("ZZ is not a card: write a rank (2-10, J, Q, K, A) and a suit (H, D, C, S)")


def test_groups_from_strings_and_lists():
    assert parse_cards("7H 7S, KD") == parse_cards(["7H", "7s", "KD"]) == parse_cards("7H,7S,KD")
    assert parse_cards("") == parse_cards([]) == ()
    with pytest.raises(NotationError):
        parse_cards(["7H", 7])
    with pytest.raises(NotationError):
        parse_cards(42)


def test_point_values_of_002():
    values = {"JK": 50, "AS": 20, "2H": 20, "KC": 10, "QD": 10, "JS": 10, "10H": 10, "9C": 10, "8D": 10,
              "7S": 5, "6H": 5, "5C": 5, "4D": 5, "3S": 5, "3C": 5}
    for code, points in values.items():
        assert Card(code).points == points, code
    # Red threes are a bonus, not a card value (003's table swaps them by a translation error).
    assert Card("3H").points == 0 and Card("3H").is_red_three and not Card("3H").is_natural
    assert Card("3S").is_black_three and not Card("3S").is_natural and not Card("3S").is_wild


def test_kinds_of_card():
    assert [c.code for c in parse_cards("2C JK") if c.is_wild] == ["2C", "JK"]
    assert Card("KH").is_natural and not Card("KH").is_wild
    assert Card("KH").is_red and not Card("KS").is_red


def test_rendering_with_symbols():
    assert format_cards(parse_cards("10H 2C JK 3D")) == "10♥ 2♣ Joker 3♦"
    assert format_cards(parse_cards("10H 2C JK"), symbols=False) == "10H 2C JK"
    assert str(Card("QS")) == "Q♠" and repr(Card("QS")) == "Card('QS')"


def test_card_points_sum():
    assert card_points(parse_cards("JK AS 7H 3C")) == 80


def test_deck_counts_and_copies():
    counts = deck_counts(2, 4)
    assert sum(counts.values()) == 108 and len(ALL_CARDS) == 53
    assert sum(deck_counts(3, 6).values()) == 162
    assert too_many_copies(parse_cards("KH KH KH JK"), 2, 4) == [(Card("KH"), 3, 2)]
    assert too_many_copies(parse_cards("KH KH KH"), 3, 6) == []
