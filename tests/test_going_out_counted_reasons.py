"""A no to going out on a big hand under sequences is explained from the counting core's facts (issue 19 §0):
the cards that find no place are named, or, when every card finds a place, the canastas the team would have."""

from canasta_tutor import Card, check_go_out, parse_cards
from canasta_tutor.engine.going_out import SEARCH_REASONS_MAX

# samba: no canasta on the table, three groups of naturals, a run of hearts, two lone cards (7♣ and 9♦: no partner,
# no meld of their rank, no neighbour of their suit)
BIG = "KH KS KD QH QS QD 10H 10S 10C 4H 5H 6H 5S 5D 5C 7C 9D"


def test_two_lone_cards_are_named_and_only_they():
    hand = parse_cards(BIG)
    assert len(hand) > SEARCH_REASONS_MAX
    v = check_go_out(hand, [], 0, "samba")
    assert not v.ok
    assert v.codes == ("cannot-go-out", "lone-card", "lone-card", "one-discard")
    texts = [r.text for r in v.reasons]
    assert texts[1].startswith("7♣ has no partner") and texts[2].startswith("9♦ has no partner")
    named = " ".join(texts[1:3])
    for card in ("K♥", "5♠", "4♥", "10♣"):
        assert card not in named


def test_a_card_next_to_a_run_or_with_a_meld_of_its_rank_is_not_named():
    # 9♦ now sits next to 10♦ J♦ (a run): only 7♣ has no place, and it must be the last discard
    hand = parse_cards(BIG.replace("KD", "10D JD"))
    v = check_go_out(hand, [], 0, "samba")
    assert "9♦ has no partner" not in " ".join(r.text for r in v.reasons)
    # with a meld of nines on the table 9♦ goes on it
    v = check_go_out(parse_cards(BIG), [parse_cards("9H 9S 9C")], 0, "samba")
    assert "9♦ has no partner" not in " ".join(r.text for r in v.reasons)
    assert "lay off 9♦ on 9♥ 9♠ 9♣" in v.reasons[0].text


def test_the_one_card_with_no_place_and_the_rest():
    # 9♦ must be the last discard, and then the pair 7♣ 7♦ has no wild card to become a meld
    v = check_go_out(parse_cards(BIG.replace("7C", "7C 7D")), [], 0, "samba")
    assert v.codes == ("cannot-go-out", "lone-card", "rest-no-placement")
    assert v.reasons[1].text.startswith("9♦ has no partner")


def test_every_card_placed_but_canastas_short():
    hand = parse_cards("KH KS KD QH QS QD 10H 10S 10C 4H 5H 6H 5S 5D 5C 7C 7D 7S 9D")
    v = check_go_out(hand, [], 0, "samba")
    assert not v.ok and v.codes == ("places-every-card", "canastas-short")
    assert v.reasons[1].text == "Your team would then have no canasta; it needs two to go out."
    assert "discard 9♦" in v.reasons[0].text


def test_black_threes_that_make_no_meld():
    hand = parse_cards("KH KS KD QH QS QD 10H 10S 10C 4H 5H 6H 5S 5D 5C 3C 3S")
    v = check_go_out(hand, [], 0, "samba")
    assert v.codes == ("cannot-go-out", "black-threes") and "3♣ 3♠" in v.reasons[1].text


def test_the_same_kind_of_no_as_the_search_on_random_hands():
    """On random samba hands just above the size the search explains, the core's facts give the same kind of no as
    the search (every card placed but the canastas short, with the same count; or not every card placed)."""
    import random

    from canasta_tutor import get_rules
    from canasta_tutor.engine.cards import ALL_CARDS
    from canasta_tutor.engine.going_out import _explain_go_out, _go_out_reasons

    rules = get_rules("samba")
    pool = [c for c in ALL_CARDS for _ in range(rules.jokers if c.rank == "JK" else rules.decks)
            if not c.is_red_three and c.rank != "9"]
    melds = [parse_cards("9H 9S 9D 9C 9H 9S 9D")]
    rng = random.Random(19)
    compared = kinds = 0
    for _ in range(150):
        if rng.random() < 0.5:
            hand = rng.sample(pool, rng.randint(SEARCH_REASONS_MAX + 1, SEARCH_REASONS_MAX + 5))
        else:   # groups of three of a rank and a few more cards: often every card placed, the canastas short
            ranks = rng.sample(["4", "5", "6", "7", "8", "10", "J", "Q", "K", "A"], 6)
            hand = [Card(r + rng.choice("HSDC")) for r in ranks for _ in range(3)] + rng.sample(pool, 2)
            if any(hand.count(c) > rules.decks for c in hand):
                continue
        if check_go_out(hand, melds, 0, rules).ok:
            continue
        ours = _go_out_reasons(hand, melds, rules, 2, 0)
        theirs = _explain_go_out(hand, melds, rules, 2, 0, known_no=True).reasons
        if "no-placement" in [r.code for r in theirs]:
            continue   # the search gave up within its budget
        compared += 1
        assert (ours[0].code == "places-every-card") == (theirs[0].code == "places-every-card"), (hand, ours, theirs)
        if ours[0].code == "places-every-card":
            assert ours[1] == theirs[1]
            kinds += 1
    assert compared >= 20 and kinds >= 3, (compared, kinds)
