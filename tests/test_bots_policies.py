"""The beginner and club bots: legal choices for every preset, no peeking, the decisions a player expects,
and sentences that say why. Win rates are measured in benchmarks/bots.py, not here."""

import random

import pytest

from canasta_tutor.bots import explain_difference, get_bot
from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.game import (
    DISCARD,
    DRAW,
    GO_OUT,
    LAY_OFF,
    MELD,
    TAKE_PILE,
    Action,
    Game,
    Observation,
    apply,
    legal_actions,
    observation,
)

BOTS = ("beginner", "club")


def cards(text):
    return tuple(parse_cards(text))


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_bots_choose_only_legal_actions_and_finish_hands(rules):
    for seed in range(3):
        game = Game(rules)
        state = game.new_initial_state(f"t{seed}")
        seats = [get_bot(BOTS[(p + seed) % 2]) for p in range(game.num_players)]
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            p = state.current_player
            acts = legal_actions(state)
            action, why = seats[p].choose(observation(state, p), acts, rng)
            assert action in acts, (rules, seed, action)
            assert isinstance(why, str) and why[:1].isupper() and why.endswith("."), why
            apply(state, action)
            steps += 1
            assert steps < 2000, "a hand of bots must end"


def _hide_differently(state, rng):
    """The same state for the player to move, with every card it cannot see dealt again among the other hands
    and the stock."""
    other = state.clone()
    me = other.current_player
    hidden = list(other.stock)
    sizes = {}
    for p, hand in enumerate(other.hands):
        if p != me:
            sizes[p] = len(hand)
            hidden += hand
    rng.shuffle(hidden)
    for p, n in sizes.items():
        other.hands[p] = hidden[:n]
        hidden = hidden[n:]
    other.stock = hidden
    other._legal = None
    return other


@pytest.mark.parametrize("name", BOTS)
def test_a_bot_never_peeks_at_hidden_cards(name):
    bot = get_bot(name)
    game = Game("classic")
    state = game.new_initial_state("peek")
    compared = 0
    while not state.is_terminal() and compared < 150:
        p = state.current_player
        twin = _hide_differently(state, random.Random(compared))
        assert twin.hands[p] == state.hands[p] and twin.hands != state.hands
        a, why_a = bot.choose(observation(state, p), legal_actions(state), random.Random(5))
        b, why_b = bot.choose(observation(twin, p), legal_actions(twin), random.Random(5))
        assert (a, why_a) == (b, why_b)
        apply(state, a)
        compared += 1
    assert compared > 20


def obs_of(hand, pile, melds=(), opponents=(), hand_sizes=(11, 11, 11, 11), stock_left=40, rules="classic",
           sides=()):
    return Observation(hand=cards(hand), pile=cards(pile), melds=tuple(cards(m) for m in melds),
                       opponents_melds=tuple(cards(m) for m in opponents), rules=rules, player=0, team=0,
                       hand_sizes=hand_sizes, stock_left=stock_left, sides=sides,
                       table=(tuple(cards(m) for m in melds), tuple(cards(m) for m in opponents)))


@pytest.mark.parametrize("name", BOTS)
def test_takes_the_pile_when_it_may_and_says_how_big_it_is(name):
    obs = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "5H 2C KD 8H 6S 7D 10C 4H JS QD 9D")
    take = Action(TAKE_PILE, cards=cards("9H 9S"))
    action, why = get_bot(name).choose(obs, [Action(DRAW), take], random.Random(0))
    assert action == take
    assert why == "I take the pile: eleven cards, one of them wild."


@pytest.mark.parametrize("name", BOTS)
def test_goes_out_when_its_side_is_ahead(name):
    obs = obs_of("KH KS KD 4C", "5H", melds=["7H 7S 7D 7C 7H 7S 2C", "AH AS AD"], opponents=["5C 5D 5S"])
    out = Action(GO_OUT, melds=(cards("KH KS KD"),), discard=cards("4C")[0])
    acts = [Action(DISCARD, cards=cards("4C")), Action(DISCARD, cards=cards("KH")), out]
    action, why = get_bot(name).choose(obs, acts, random.Random(0))
    assert action == out and why.startswith("I go out")


def test_club_waits_to_go_out_when_behind_but_beginner_does_not():
    obs = obs_of("KH KS KD 4C 9C", "5H", melds=["7H 7S 7D 7C 7H 7S 2C"],
                 opponents=["AH AS AD AC AH AS AD", "QH QS QD QC QH QS QD", "JH JS JD"],
                 hand_sizes=(5, 9, 9, 9), stock_left=60)
    out = Action(GO_OUT, melds=(cards("KH KS KD"),), lay_offs=(), discard=cards("4C")[0])
    meld = Action(MELD, melds=(cards("KH KS KD"),))
    acts = [meld, Action(DISCARD, cards=cards("4C")), Action(DISCARD, cards=cards("9C")), out]
    assert get_bot("beginner").choose(obs, acts, random.Random(0))[0] == out
    assert get_bot("club").choose(obs, acts, random.Random(0))[0] != out


def test_club_freezes_the_pile_against_a_side_close_to_going_out():
    obs = obs_of("2C 8H 9S JD QC", "5H 6D 7C 10S KD JH", melds=["4H 4S 4D"],
                 opponents=["AH AS AD AC AH AS AD", "QH QS QD"], hand_sizes=(5, 2, 8, 3))
    acts = [Action(DISCARD, cards=cards(c)) for c in ("2C", "8H", "9S", "JD", "QC")]
    action, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert action.cards == cards("2C")
    assert why.startswith("I freeze the pile with 2♣: the other side is close to going out")
    # the beginner keeps its wild card
    assert get_bot("beginner").choose(obs, acts, random.Random(0))[0].cards != cards("2C")


def test_club_does_not_give_the_pile_away_with_a_rank_the_other_side_has_melded():
    obs = obs_of("QC 8H 8S 5D", "6D 7C 9H", melds=["4H 4S 4D"], opponents=["QH QS QD"])
    acts = [Action(DISCARD, cards=cards(c)) for c in ("QC", "8H", "8S", "5D")]
    club, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert club.cards == cards("5D")
    beginner, _ = get_bot("beginner").choose(obs, acts, random.Random(0))
    assert beginner.cards == cards("QC")   # the lone high card, as a beginner would
    assert explain_difference(obs, beginner, club) == \
        "Your Q♣ fits a meld of the other side, so they may take the pile with it; 5♦ was safer."


@pytest.mark.parametrize("name", BOTS)
def test_discards_a_black_three_and_keeps_wild_cards(name):
    obs = obs_of("3S 2C JK 8H 8S", "5H 6D")
    acts = [Action(DISCARD, cards=cards(c)) for c in ("3S", "2C", "JK", "8H", "8S")]
    action, why = get_bot(name).choose(obs, acts, random.Random(0))
    assert action.cards == cards("3S")
    assert why == "I discard 3♠: with a black three on top nobody may take the pile."


def test_club_keeps_wild_cards_off_melds_unless_they_make_a_canasta():
    obs = obs_of("2C 2D 8H 9S", "5H", melds=["KH KS KD KC KH KS", "4H 4S 4D"])
    onto_kings = Action(LAY_OFF, cards=cards("2C"), target=0)
    onto_fours = Action(LAY_OFF, cards=cards("2D"), target=1)
    acts = [onto_fours, onto_kings, Action(DISCARD, cards=cards("8H"))]
    assert get_bot("club").choose(obs, acts, random.Random(0))[0] == onto_kings
    acts = [onto_fours, Action(DISCARD, cards=cards("8H")), Action(DISCARD, cards=cards("9S"))]
    assert get_bot("club").choose(obs, acts, random.Random(0))[0].kind == DISCARD


def test_the_coach_sentence_names_the_pile_it_could_have_taken():
    obs = obs_of("9H 9S 4C", "5H 2C KD 8H 6S 7D 10C 4H JS QD 9D")
    assert explain_difference(obs, Action(DRAW), Action(TAKE_PILE, cards=cards("9H 9S"))) == \
        "You could have taken the pile: eleven cards, one of them wild."
    assert explain_difference(obs, Action(DRAW), Action(DRAW)) == ""


def test_the_coach_sentences_match_what_differs_between_the_moves():
    obs = obs_of("KH KS KD 4C 2C JK", "5H 6D 7C 10S KD JH", opponents=["AH AS AD AC AH AS AD"])
    out = Action(GO_OUT, melds=(cards("KH KS KD"),), discard=cards("4C")[0])
    discard_4 = Action(DISCARD, cards=cards("4C"))
    assert explain_difference(obs, discard_4, out) == "You could have gone out: meld K♥ K♠ K♦ and discard 4♣."
    natural = Action(MELD, melds=(cards("KH KS KD"),))
    with_wild = Action(MELD, melds=(cards("KH KS 2C"),))
    assert explain_difference(obs, natural, discard_4).endswith("cards kept in hand can still take the pile.")
    assert explain_difference(obs, with_wild, discard_4).endswith("wild cards are worth more in a canasta later.")
    # both froze the pile, with different wild cards: the coach speaks of the cheaper one, not of giving one away
    joker, two = Action(DISCARD, cards=cards("JK")), Action(DISCARD, cards=cards("2C"))
    assert explain_difference(obs, joker, two).startswith("I would have frozen the pile with 2♣ instead")
    assert explain_difference(obs, joker, discard_4).startswith("Your discard of Joker gives away a wild card")


def test_club_holds_a_meld_back_while_its_side_cannot_go_out_yet():
    obs = obs_of("KH KS KD 9C 5D 7H", "6D 7C 10S", melds=["4H 4S 4D 2C"], opponents=["QH QS QD"],
                 hand_sizes=(6, 8, 8, 8), stock_left=40)
    kings = Action(MELD, melds=(cards("KH KS KD"),))
    acts = [kings] + [Action(DISCARD, cards=cards(c)) for c in ("KH", "KS", "KD", "9C", "5D", "7H")]
    action, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert action.kind == DISCARD and action.cards[0] not in cards("KH KS KD")
    assert why.startswith("I keep K♥ K♠ K♦ in hand and discard")
    assert get_bot("beginner").choose(obs, acts, random.Random(0))[0] == kings
    # with a canasta the side may go out: the club player melds
    opened = obs_of("KH KS KD 9C 5D 7H", "6D 7C 10S", melds=["4H 4S 4D 4C 4H 4S 2C"], opponents=["QH QS QD"],
                    hand_sizes=(6, 8, 8, 8), stock_left=40)
    assert get_bot("club").choose(opened, acts, random.Random(0))[0] == kings


def test_club_draws_two_instead_of_taking_back_little_more_than_its_own_black_three():
    # two cards from the stock (classic-2p): a pile of the opponent's 9 on the club's own black three brings one
    # usable card, so the club draws; the beginner takes it anyway
    obs = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "3C 9D", melds=["KH KS KD"], opponents=["QH QS QD"],
                 hand_sizes=(11, 11), rules="classic-2p")
    take = Action(TAKE_PILE, cards=cards("9H 9S"))
    acts = [Action(DRAW), take]
    action, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert action == Action(DRAW)
    assert why == ("I draw two cards from the stock instead of taking the pile (two cards): it holds only one "
                   "card the other players discarded, black threes aside, and the rest are my own discards.")
    assert get_bot("beginner").choose(obs, acts, random.Random(0))[0] == take
    # the same with a plain card of its own under the opponent's 9: still only one card from the other side
    own = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "4H 9D", melds=["KH KS KD"], opponents=["QH QS QD"],
                 hand_sizes=(11, 11), rules="classic-2p")
    assert get_bot("club").choose(own, acts, random.Random(0))[0] == Action(DRAW)
    # two of the opponent's discards (6H, 9D; 3C and 7D are the club's) are worth two unknown cards; with one card
    # from the stock (classic) any pile is
    bigger = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "3C 6H 7D 9D", melds=["KH KS KD"],
                    opponents=["QH QS QD"], hand_sizes=(11, 11), rules="classic-2p")
    assert get_bot("club").choose(bigger, acts, random.Random(0))[0] == take
    classic = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "3C 9D", melds=["KH KS KD"], opponents=["QH QS QD"])
    assert get_bot("club").choose(classic, acts, random.Random(0))[0] == take
    # three players: the club's own black three is the third card from the top; 7D and 9D are the others'
    three = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "3C 7D 9D", melds=["KH KS KD"], opponents=["QH QS QD"],
                   hand_sizes=(11, 11, 11), rules="classic-3p")
    assert get_bot("club").choose(three, acts, random.Random(0))[0] == take



@pytest.mark.parametrize("name", BOTS)
def test_lone_hand_the_first_pile_is_left_unless_it_is_big(name):
    # classic-3p (rules.lone_hand): nobody has taken the pile yet (three sides of one), so whoever takes it plays
    # alone against two for the rest of the hand; eight cards are not worth that, lone_pile_min cards are
    alone = ((0,), (1,), (2,))
    take = Action(TAKE_PILE, cards=cards("9H 9S"))
    acts = [Action(DRAW), take]
    eight = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "5H KD 8H 6S 7D 10C 4H 9D", hand_sizes=(11, 11, 11),
                   rules="classic-3p", sides=alone)
    action, why = get_bot(name).choose(eight, acts, random.Random(0))
    assert action == Action(DRAW)
    assert why == ("I draw from the stock instead of taking the pile (eight cards): whoever takes the pile first "
                   "plays alone against the other two for the rest of the hand, and eight cards are not worth "
                   "that.")
    one = eight.replace(pile=cards("9D"))  # a one-card pile: the sentence agrees with it (the club: too few cards)
    assert get_bot(name).choose(one, acts, random.Random(0))[1].endswith(
        {"beginner": "for the rest of the hand, and one card is not worth that.",
         "club": "it holds only one card the other players discarded, black threes aside."}[name])
    # a pile of lone_pile_min cards (15 for the beginner, 30 for the club) is taken
    deck = cards("5H KD 8H 6S 7D 10C 4H JS QD 5C 6C 7C 8D 10D 4S 5S 6H 7H 8C 4D 5D 6D 7S 8S 10H JH QS KC AD")
    big = eight.replace(pile=deck[:get_bot(name).lone_pile_min - 1] + cards("9D"))
    assert len(big.pile) == {"beginner": 15, "club": 30}[name]
    assert get_bot(name).choose(big, acts, random.Random(0))[0] == take
    assert get_bot(name).choose(big.replace(pile=big.pile[1:]), acts, random.Random(0))[0] == Action(DRAW)
    # once the pile has been taken (a lone hand against two partners) the first-take rule is over
    formed = eight.replace(sides=((0, 1), (2,)))
    assert get_bot(name).choose(formed, acts, random.Random(0))[0] == take
    # without the rule data (classic: fixed teams) the bot takes it
    assert get_bot(name).choose(eight.replace(rules="classic", sides=((0, 2), (1, 3)),
                                              hand_sizes=(11, 11, 11, 11)), acts, random.Random(0))[0] == take
    # the stock used up: no draw is offered, so it takes the pile
    assert get_bot(name).choose(eight, [take], random.Random(0))[0] == take



def test_lone_hand_the_club_waits_longer_than_the_beginner_for_the_first_pile():
    # twenty cards: the beginner takes the first pile (and plays alone), the club leaves it to the others
    pile = "5H KD 8H 6S 7D 10C 4H JS QD 5C 6C 7C 8D 10D 4S 5S 6H 7H 8C 9D"
    obs = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", pile, hand_sizes=(11, 11, 11), rules="classic-3p",
                 sides=((0,), (1,), (2,)))
    take = Action(TAKE_PILE, cards=cards("9H 9S"))
    acts = [Action(DRAW), take]
    assert len(obs.pile) == 20
    assert get_bot("beginner").choose(obs, acts, random.Random(0))[0] == take
    action, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert action == Action(DRAW)
    assert why == ("I draw from the stock instead of taking the pile (20 cards): whoever takes the pile first "
                   "plays alone against the other two for the rest of the hand, and 20 cards are not worth that.")


def test_club_puts_wild_cards_into_new_melds_while_its_side_lacks_the_two_canastas_it_needs():
    hand = "KH KS 2C 9C 5D 7H 8S JD"
    wild_kings = Action(MELD, melds=(cards("KH KS 2C"),))
    acts = [wild_kings] + [Action(DISCARD, cards=cards(c)) for c in ("9C", "5D", "7H", "8S", "JD")]
    obs = obs_of(hand, "6D 7C 10S", melds=["4H 4S 4D 4C 4H 4S 4D", "QH QS QD"], opponents=["AH AS AD"],
                 hand_sizes=(8, 11), stock_left=60, rules="classic-2p")
    action, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert action == wild_kings
    assert why == ("I put down K♥ K♠ 2♣ with one wild card: we have one of the two canastas we need to go out, "
                   "so every new meld is a canasta begun.")
    # one canasta is enough in classic: the club keeps the wild card for a canasta and discards
    classic = obs_of(hand, "6D 7C 10S", melds=["QH QS QD"], opponents=["AH AS AD"], stock_left=60)
    assert get_bot("club").choose(classic, acts, random.Random(0))[0].kind == DISCARD
    # with both canastas made, the side may go out: the pair and the wild card go down to empty the hand
    done = obs_of(hand, "6D 7C 10S", melds=["4H 4S 4D 4C 4H 4S 4D", "QH QS QD QC QH QS QD"],
                  opponents=["AH AS AD"], hand_sizes=(8, 11), stock_left=60, rules="classic-2p")
    action, why = get_bot("club").choose(done, acts, random.Random(0))
    assert action == wild_kings
    assert why == ("I put down K♥ K♠ 2♣ with one wild card: we have the two canastas we need to go out, so I "
                   "empty my hand to go out.")
    # the same in classic once its one canasta is made
    classic_done = obs_of(hand, "6D 7C 10S", melds=["QH QS QD QC QH QS QD"], opponents=["AH AS AD"],
                          stock_left=60)
    assert get_bot("club").choose(classic_done, acts, random.Random(0))[0] == wild_kings


def test_club_lays_a_wild_card_off_where_it_may_be_swapped_back_and_its_wild_cards_finish_a_canasta():
    # samba (wild_swap): five queens and two wild cards in hand make a canasta; the side still lacks both
    obs = obs_of("2C JK 9C 5D 7H 8S", "6D 7C 10S", melds=["QH QS QD QC QH", "4H 4S 4D"],
                 opponents=["AH AS AD"], stock_left=60, hand_sizes=(6, 15, 15, 15), rules="samba")
    onto_queens = Action(LAY_OFF, cards=cards("2C"), target=0)
    onto_fours = Action(LAY_OFF, cards=cards("2C"), target=1)
    acts = [onto_fours, onto_queens] + [Action(DISCARD, cards=cards(c)) for c in ("9C", "5D", "7H", "8S")]
    action, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert action == onto_queens
    assert why == ("I lay off 2♣ on Q♥ Q♠ Q♦ Q♣ Q♥: my wild cards can make it a canasta, we have none of the two "
                   "canastas we need to go out, and a wild card can be swapped back later.")
    # without the swap (classic-2p), or with one wild card too few, the club keeps its wild cards
    no_swap = obs_of("2C JK 9C 5D 7H 8S", "6D 7C 10S", melds=["QH QS QD QC QH", "4H 4S 4D"],
                     opponents=["AH AS AD"], stock_left=60, hand_sizes=(6, 15), rules="classic-2p")
    assert get_bot("club").choose(no_swap, acts, random.Random(0))[0].kind == DISCARD
    short = obs_of("2C 9C 5D 7H 8S", "6D 7C 10S", melds=["QH QS QD QC QH", "4H 4S 4D"],
                   opponents=["AH AS AD"], stock_left=60, hand_sizes=(5, 15, 15, 15), rules="samba")
    assert get_bot("club").choose(short, acts[:2] + acts[3:], random.Random(0))[0].kind == DISCARD


def test_club_reads_from_the_rules_what_freezes_the_pile_and_onto_which_melds_it_may_be_taken():
    # classic: the opponents' canasta of aces takes the pile with a discarded ace
    acts = [Action(DISCARD, cards=cards(c)) for c in ("AC", "8H", "8S")]
    classic = obs_of("AC 8H 8S", "6D 7C 9H", melds=["4H 4S 4D"], opponents=["AH AS AD AC AH AS AD"])
    assert get_bot("club").choose(classic, acts, random.Random(0))[0].cards != cards("AC")
    # samba: no taking the pile onto a finished canasta, so the lone ace goes and the pair stays
    samba = obs_of("AC 8H 8S", "6D 7C 9H", melds=["4H 4S 4D"], opponents=["AH AS AD AC AH AS AD"],
                   rules="samba")
    assert get_bot("club").choose(samba, acts, random.Random(0))[0].cards == cards("AC")
    # samba: a black three in the pile freezes it, so an unfinished meld of aces cannot take it either
    frozen = obs_of("AC 8H 8S", "6D 3C 9H", melds=["4H 4S 4D"], opponents=["AH AS AD"], rules="samba")
    assert get_bot("club").choose(frozen, acts, random.Random(0))[0].cards == cards("AC")
    open_pile = obs_of("AC 8H 8S", "6D 7C 9H", melds=["4H 4S 4D"], opponents=["AH AS AD"], rules="samba")
    assert get_bot("club").choose(open_pile, acts, random.Random(0))[0].cards != cards("AC")


def test_the_coach_says_why_drawing_beat_a_small_pile():
    obs = obs_of("9H 9S 4C 5D 6D 7S 8C JD QH KS AC", "3C 9D", melds=["KH KS KD"], opponents=["QH QS QD"],
                 hand_sizes=(11, 11), rules="classic-2p")
    take = Action(TAKE_PILE, cards=cards("9H 9S"))
    club, _ = get_bot("club").choose(obs, [Action(DRAW), take], random.Random(0))
    assert explain_difference(obs, take, club) == ("I would have drawn two cards from the stock: this pile (two "
                                                   "cards) is mostly your own discards and black threes.")


SIX = (13, 13, 13, 13, 13, 13)


def test_club_draws_instead_of_taking_back_a_black_three_once_its_side_may_go_out():
    # classic-6p, three to a side: the pile is the side's own black three under the opponent's 9; with the two
    # canastas made, taking it would only bring the black three back to be discarded again
    ready = ["KH KS KD KC KH KS KD", "7H 7S 7D 7C 7H 7S 7D", "9H 9S 9D"]
    obs = obs_of("5D AH 8C", "3C 9C", melds=ready, opponents=["QH QS QD"], hand_sizes=SIX, rules="classic-6p")
    take = Action(TAKE_PILE, cards=(), target=2)
    acts = [Action(DRAW), take]
    action, why = get_bot("club").choose(obs, acts, random.Random(0))
    assert action == Action(DRAW)
    assert why == ("I draw one card from the stock instead of taking the pile (two cards): we have the canastas we "
                   "need to go out, and the pile would give me one card and one black three I would only discard "
                   "again, so my hand would stay as it is; a card from the stock may let me go out.")
    assert get_bot("beginner").choose(obs, acts, random.Random(0))[0] == take
    assert explain_difference(obs, take, action) == (
        "I would have drawn one card from the stock: your side has the canastas it needs to go out, and this pile "
        "(two cards) gives back one black three you would only discard again; a card from the stock may let you "
        "go out.")
    # one canasta short, the 9 is worth taking even with the black three: it builds the side's melds
    short = obs_of("5D AH 8C", "3C 9C", melds=ready[1:], opponents=["QH QS QD"], hand_sizes=SIX,
                   rules="classic-6p")
    assert get_bot("club").choose(short, [Action(DRAW), Action(TAKE_PILE, cards=(), target=1)],
                                  random.Random(0))[0].kind == TAKE_PILE
    # more of the others' cards than black threes: taken, ready or not
    bigger = obs_of("5D AH 8C", "3C 4H 6S 9C", melds=ready, opponents=["QH QS QD"], hand_sizes=SIX,
                    rules="classic-6p")
    assert get_bot("club").choose(bigger, acts, random.Random(0))[0] == take
    # no black three in the pile: a pile of one card is as good as the stock
    plain = obs_of("5D AH 8C", "9C", melds=ready, opponents=["QH QS QD"], hand_sizes=SIX, rules="classic-6p")
    assert get_bot("club").choose(plain, acts, random.Random(0))[0] == take


def test_the_coach_sentences_for_two_discards_follow_the_pile_and_the_better_card():
    # a frozen pile: the queen the other side has melded no longer gives the pile away
    obs = obs_of("QC 8H 8S 5D 3S 2C", "6D 2H 9H", melds=["4H 4S 4D"], opponents=["QH QS QD"])
    queen = Action(DISCARD, cards=cards("QC"))
    assert explain_difference(obs, queen, Action(DISCARD, cards=cards("5D"))) == \
        "I would have discarded 5♦: you keep more pairs that way."
    assert explain_difference(obs, queen, Action(DISCARD, cards=cards("3S"))) == \
        "A black three (3♠) was the safer discard: nobody may take the pile on it."
    assert explain_difference(obs, queen, Action(DISCARD, cards=cards("2C"))) == \
        "I would have frozen the pile with 2♣: the other side is close to going out."


def test_the_coach_sentences_for_a_take_a_way_out_and_a_meld_it_would_not_have_made():
    obs = obs_of("QC 8H 8S 5D", "6D 7C 8D", melds=["4H 4S 4D"], opponents=["QH QS QD"])
    assert explain_difference(obs, Action(TAKE_PILE, cards=cards("8H 8S")), Action(DRAW)) == \
        "I would have drawn one card from the stock: your side has the canastas it needs to go out, and this " \
        "pile (three cards) gives back no black three you would only discard again; a card from the stock may " \
        "let you go out."
    two = obs_of("8H 8S 5D", "9D 8D", hand_sizes=(15, 15), rules="classic-2p")
    assert explain_difference(two, Action(TAKE_PILE, cards=cards("8H 8S")), Action(DRAW)) == \
        "I would have drawn two cards from the stock: this pile (two cards) is mostly your own discards and " \
        "black threes."
    assert explain_difference(obs, Action(TAKE_PILE, cards=cards("8H 8S")), Action(TAKE_PILE, cards=cards("8H"))) == \
        "I would have chosen: Take the pile with 8♥ from your hand."
    out = Action(GO_OUT, melds=(cards("8H 8S 8C"),), discard=cards("5D")[0])
    assert explain_difference(obs, out, Action(DISCARD, cards=cards("5D"))) == \
        "I would have waited before going out: the other side's melds are worth more than ours, and going out " \
        "now ends the hand while they are ahead."
    lay_off = Action(LAY_OFF, cards=cards("4C"), target=0)
    assert explain_difference(obs, Action(DISCARD, cards=cards("5D")), lay_off) == \
        "You could have put more cards down first: lay off 4♣ on 4♥ 4♠ 4♦."
    assert explain_difference(obs, lay_off, Action(MELD, melds=(cards("8H 8S 8D"),))) == \
        "I would have chosen: Meld 8♥ 8♠ 8♦."
