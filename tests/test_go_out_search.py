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


def test_the_search_for_a_plan_alone_finds_the_plan_of_the_explained_search():
    """``explain=False`` (the game's move and a verdict's plan: no sentence written, each arrangement given up at its
    first problem) finds the very plan the explained search shows, and a no without reasons; on the hands of
    random play in every preset (samba's runs, an unopened team's minimum, melding out without a discard)."""
    import random

    from canasta_tutor.engine.rules import PRESETS
    from canasta_tutor.game import Game, apply, legal_actions

    compared = {}
    for name in sorted(PRESETS):
        game = Game(name)
        rules = game.rules
        yes = no = 0
        for seed in range(12):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                p = state.current_player
                hand, melds = tuple(state.hands[p]), tuple(state.melds[state.team_of(p)])
                if state.phase == "meld" and len(hand) <= 14 and not any(c.is_red_three for c in hand):
                    minimum = 0 if melds or rules.concealed_needs_no_minimum else rules.opening_minimum(
                        state.score_of(p))
                    for allow in (True, False):
                        told = find_go_out(hand, melds, rules, minimum=minimum, allow_discard=allow)
                        quiet = find_go_out(hand, melds, rules, minimum=minimum, allow_discard=allow, explain=False)
                        assert quiet[0] == told[0], (name, hand, melds, allow)
                        assert quiet[1] == [] and (told[0] is not None or told[1]), (name, hand, melds, allow)
                        yes += told[0] is not None
                        no += told[0] is None
                acts = legal_actions(state)
                apply(state, acts[rng.randrange(len(acts))])
        compared[name] = (yes, no)
    # under an opening minimum (a team going out concealed where the rules ask for one, or taking the pile): the
    # melded cards count 90, enough for 50, not for 120
    hand = parse_cards("KH KS KD KC KH KS KD 5H 5S 5D 4C")
    for minimum in (50, 120):
        told = find_go_out(hand, [], "classic", minimum=minimum)
        assert find_go_out(hand, [], "classic", minimum=minimum, explain=False) == (told[0], [])
        assert (told[0] is None) == (minimum == 120)
    assert all(y >= 3 and n >= 50 for y, n in compared.values()) and sum(y for y, _n in compared.values()) >= 100, \
        compared
