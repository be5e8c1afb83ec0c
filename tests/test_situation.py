"""The one Situation value every check and puzzle takes, and the adapter that keeps the old call forms."""

import dataclasses

import pytest

from canasta_tutor import (
    CLASSIC,
    SAMBA,
    Card,
    SituationError,
    check_frozen,
    check_go_out,
    check_meld,
    check_opening,
    check_take_pile,
    is_frozen,
    parse_cards,
    score_hand,
)
from canasta_tutor.engine.errors import NotationError
from canasta_tutor.engine.pile import check_shown_cards
from canasta_tutor.engine.situation import Situation
from canasta_tutor.puzzles.format import load_puzzle_set, puzzle_files


def test_notation_is_read_once_into_cards_and_a_rule_set():
    s = Situation(hand="7H 7S KD", melds=["KH KS KD"], pile="5D 9S 7C", rules="samba")
    assert s.hand == parse_cards("7H 7S KD") and isinstance(s.hand, tuple) and isinstance(s.hand[0], Card)
    assert s.melds == (parse_cards("KH KS KD"),) and s.rules is SAMBA and s.pile[-1] == Card("7C")
    assert s == Situation(hand=parse_cards("7H 7S KD"), melds=(parse_cards("KH KS KD"),),
                          pile=parse_cards("5D 9S 7C"), rules=SAMBA)
    assert s == Situation.parse(hand="7H 7S KD", melds=["KH KS KD"], pile="5D 9S 7C", rules="samba")
    assert len({s, Situation.parse(hand="7H 7S KD", melds=["KH KS KD"], pile="5D 9S 7C", rules="samba")}) == 1


def test_it_is_immutable_and_keyword_only():
    s = Situation(hand="7H 7S")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.hand = ()
    with pytest.raises(TypeError):
        Situation("7H 7S")  # keyword-only: no order to remember
    changed = s.replace(score=1500, pile="5D 7C")
    assert (changed.score, changed.pile, s.score, s.pile) == (1500, parse_cards("5D 7C"), 0, ())


@pytest.mark.parametrize("s", [
    Situation(hand="7H 7S KD", melds=["KH KS KD"], score=1500, pile="5D 9S 7C", stock_empty=True),
    Situation(melds=["KH KS KD KC KH KS KD"], red_threes="3H", hands=["5C 9D", ""], went_out="concealed",
              rules="hoyle"),
    Situation(cards="5H 6H 7H 8H 9H 10H JH", going_out=True, rules="samba"),
    Situation(),
])
def test_repr_is_a_constructor_call_that_gives_the_same_value(s):
    assert eval(repr(s), {"Situation": Situation}) == s
    assert repr(s).startswith("Situation(")


def test_copies_are_checked_once_for_all_fields_and_named():
    with pytest.raises(SituationError, match=r"^hand, melds: 3 copies of 7♥"):
        Situation(hand="7H 7H", melds=["7H 7S 7D"])
    Situation(hand="7H 7H", melds=["7H 7S 7D"], rules="samba")  # three decks hold three 7♥
    with pytest.raises(SituationError, match="pile"):
        Situation(pile="JK JK JK JK JK")


def take_pile_puzzles():
    out = []
    for path in puzzle_files(["puzzles"]):
        out += [p for p in load_puzzle_set(path) if p.kind in ("take-pile", "go-out", "freeze", "opening",
                                                                 "score-hand")]
    return out


def test_old_positional_calls_and_situation_calls_give_the_same_verdicts(root):
    import os

    os.chdir(root)
    seen = set()
    for p in take_pile_puzzles():
        s = p.situation
        seen.add(p.kind)
        if p.kind == "take-pile":
            old = check_take_pile(list(s.hand), [list(m) for m in s.melds], s.score, list(s.pile), p.rules,
                                  stock_empty=s.stock_empty)
            assert old == check_take_pile(s) == check_take_pile(hand=s.hand, melds=s.melds, score=s.score,
                                                                pile=s.pile, rules=p.rules, stock_empty=s.stock_empty)
        elif p.kind == "go-out":
            assert check_go_out(s.hand, s.melds, s.score, p.rules) == check_go_out(s)
        elif p.kind == "freeze":
            assert check_frozen(s.pile, s.melds, p.rules) == check_frozen(s)
            assert is_frozen(s.pile, s.melds, p.rules) is is_frozen(s) is check_frozen(s).ok
        elif p.kind == "opening":
            assert check_opening(s.melds, s.score, p.rules) == check_opening(s)
        else:
            old = score_hand(s.melds, s.red_threes, s.hands, s.went_out, p.rules,
                             concealed_canastas=s.concealed_canastas)
            assert old.items == score_hand(s).items
    assert seen == {"take-pile", "go-out", "freeze", "opening", "score-hand"}


def test_keywords_after_a_situation_change_it_and_extras_pass_through():
    s = Situation(hand="7H 7S KD 4C", pile="5D 9S 7C")
    assert not check_take_pile(s)  # unopened, 7H 7S 7C = 15 < 50
    assert check_take_pile(s, melds=["KH KS KC"]) == check_take_pile(s.replace(melds=["KH KS KC"]))
    assert check_take_pile(s, melds=["KH KS KC"]).ok
    shown = check_shown_cards(s.replace(melds=["KH KS KC"]), shown="7H 7S")
    assert shown.ok and shown == check_shown_cards("7H 7S KD 4C", ["KH KS KC"], 0, "5D 9S 7C", "7H 7S")


def test_bad_calls_say_what_is_wrong():
    with pytest.raises(TypeError, match="at most 5 positional"):
        check_take_pile("7H", [], 0, "7C", "classic", False, 1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        check_take_pile("7H", colour="red")
    with pytest.raises(TypeError, match="multiple values for argument 'melds'"):
        check_take_pile("7H", [], melds=[])
    with pytest.raises(TypeError, match="takes a Situation and keyword arguments only"):
        check_take_pile(Situation(hand="7H"), [])


@pytest.mark.parametrize("score, words", [([1], "must be a whole number"), (True, "must be a whole number"),
                                          (10 ** 30, "beyond any game's score")])
def test_a_bad_score_is_refused_when_the_situation_is_made(score, words):
    from canasta_tutor import RulesError

    with pytest.raises(RulesError, match=f"^score: .*{words}"):
        Situation(hand="7H", score=score)
    with pytest.raises(RulesError, match=f"^score: .*{words}"):
        check_go_out("7H 7S", ["KH KS KD"], score)  # opened: the old check never looked at the score


def _mixed(text: str, bad: str):
    """A tuple of cards with one string among them (a caller that half-parsed its cards)."""
    cards = list(parse_cards(text))
    cards.insert(1, bad)
    return tuple(cards)


@pytest.mark.parametrize("bad", ["7H", "XX", 7])
@pytest.mark.parametrize("call", ["meld", "take", "go-out", "score"])
def test_a_string_among_the_cards_is_read_or_refused_by_name(call, bad):
    # only the first item used to be looked at: ("2♠", "7H") went on as cards and a traceback came when the
    # reasons were read
    hand, meld, pile = _mixed("2S 7S 9D", bad), _mixed("KS KD", bad), _mixed("5D 7C", bad)
    calls = {"meld": lambda: check_meld(meld),
             "take": lambda: check_take_pile(hand, [], 0, pile, CLASSIC),
             "go-out": lambda: check_go_out(hand, [parse_cards("KH KS KD KC KH KS KD")], 0, CLASSIC),
             "score": lambda: score_hand([meld], (), [hand], False, CLASSIC)}
    if bad == "7H" and call == "score":  # read as the card: then K♠ 7♥ K♦ is no meld, said so
        with pytest.raises(SituationError, match="not a legal meld"):
            calls[call]()
    elif bad == "7H":  # read as the card; every reason can be read
        assert all(r.text for r in calls[call]().reasons)
    else:
        with pytest.raises(NotationError) as e:
            calls[call]()
        assert "card 2, " in str(e.value) and str(bad) in str(e.value)


def test_lists_of_groups_are_kept_as_tuples_whatever_the_call_form():
    """A situation is an immutable, hashable value: groups given in a list (of card tuples, or in notation) are
    held as a tuple of tuples, also when the old call forms make it."""
    kings, sevens = parse_cards("KH KS KD"), parse_cards("7H 7S 7D")
    for s in (Situation(melds=[kings, sevens], hands=[kings]), Situation(melds=["KH KS KD", sevens]),
              Situation._positional(("hand", "melds", "hands"), ((), [kings, sevens], [kings]))):
        assert s.melds == (kings, sevens) and s.melds.__class__ is tuple
        assert all(g.__class__ is tuple for g in s.melds + s.hands) and s.hands.__class__ is tuple
        assert hash(s) == hash(Situation(melds=(kings, sevens), hands=s.hands))


@pytest.mark.parametrize("call", [
    lambda: check_take_pile("XX", ["KH KS KD"], 0, "YY"),
    lambda: check_take_pile(pile="YY", hand="XX"),
    lambda: Situation(red_threes="ZZ", pile="YY", hand="XX"),
    lambda: Situation(cards="XX", hand="YY"),
])
def test_the_first_bad_field_is_reported_in_one_order_whatever_the_call(call):
    """Within the groups of cards, in the fields' order: the cards asked about, the hand, the pile, the red threes."""
    with pytest.raises(NotationError, match="^XX is not a card"):
        call()
