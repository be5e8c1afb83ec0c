"""The search that places every card of a hand (:mod:`canasta_tutor.engine.go_out_search`): its own answers, a plan
or the reasons of the closest failed attempt. The public check built on it is tested in test_going_out.py."""

from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.go_out_search import find_go_out
from canasta_tutor.engine.going_out import check_go_out
from canasta_tutor.engine.rules import with_options

CANASTA = "7H 7S 7D 7C 7H 7S 7D"


def test_find_go_out_returns_reasons():
    plan, problems = find_go_out(parse_cards("9D 5C KH"), [parse_cards(CANASTA)])
    assert plan is None and problems


def test_two_black_threes_need_their_wild_card_and_wild_cards_need_room():
    """The search's own answers (find_go_out, and the explained check): two black threes without a wild card make
    no meld even where two may take one (danish); a wild card with no meld able to take it has no place, which the
    learner reads as no room (not as too few wild cards)."""
    two = [CANASTA, "8H 8S 8D 8C 8H 8S 8D"]  # (danish goes out with two canastas)
    plan, problems = find_go_out("3S 3C", two, "danish")
    assert plan is None and [p.code for p in problems] == ["wild-short"]
    assert find_go_out("3S 3C 2D", two, "danish")[0] is not None
    v = check_go_out("KH KS 2C", [CANASTA], rules=with_options("classic", max_wild=0))
    assert not v.ok and v.codes == ("cannot-go-out", "wild-no-room")
    assert v.reasons[1].text == ("Your wild cards (2♣) do not all fit: no meld can take another wild card within "
                                 "the limit.")
