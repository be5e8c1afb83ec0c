"""The counting core (``engine/counts.py``, issue 19 §0 and §1): the most meld points and going out, by counting.

* the most meld points against the brute force of ``meld_oracle.py`` (every split of a hand into melds, judged by
  the rules as the sources write them: rule-decisions.md lines 32-36, "several melds may be combined; when taking
  the pile, its top card counts"; 002 line 57 "Je mag meerdere sets tegelijk leggen om het minimum te halen";
  samba's sequences, rule-decisions.md lines 113-115, 004 line 35);
* going out against the placement search of ``go_out_search`` (an older, different algorithm: every arrangement of
  the runs, then a programme over the wild cards), on small random hands of every preset, and every way out the
  core gives checked card by card with the engine's meld checks;
* hands far bigger than three dealt hands (issue 19: a 43-card danish hand may go out; rule-decisions.md lines
  49-52 set no bound on the hand) are answered, not refused.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from meld_oracle import KEEP, RANKS, WRITTEN, Hand, openings

from canasta_tutor.engine import counts, speedups
from canasta_tutor.engine.cards import ALL_CARDS, SEQUENCE_ORDER, SORT_KEY, Card, parse_cards
from canasta_tutor.engine.go_out_search import _find_go_out, counted_go_out
from canasta_tutor.engine.going_out import check_go_out
from canasta_tutor.engine.melds import check_add_to_meld, check_meld
from canasta_tutor.engine.opening import max_meld_points
from canasta_tutor.engine.rules import PRESETS, get_rules
from canasta_tutor.engine.situation import SearchTooLarge, ensure_possible, max_hand_cards, search_budget


def deck(rules) -> list[Card]:
    return [c for c in ALL_CARDS for _ in range(rules.jokers if c.rank == "JK" else rules.decks)
            if not c.is_red_three]


def small_hand(rng: random.Random, rules, size: int) -> list[Card]:
    """Cards of a few ranks and, under sequences, a stretch of one suit: pairs, groups and runs are common."""
    ranks = rng.sample(RANKS, rng.randint(2, 5))
    suit = rng.choice("SHDC")
    lo = rng.randint(4, 11)
    pool = [c for c in deck(rules) if c.rank in ranks or c.is_wild or c.is_black_three
            or (rules.sequences and c.suit == suit and lo <= SEQUENCE_ORDER.get(c.rank, 0) < lo + 6)]
    rng.shuffle(pool)
    return pool[:size]


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_most_meld_points_are_the_best_legal_split_of_the_hand(name):
    rules, written = get_rules(name), WRITTEN[name]
    rng = random.Random(name)
    for _ in range(150):
        hand = small_hand(rng, rules, rng.randint(3, 11))
        top = None
        if rng.random() < 0.4:
            naturals = [c for c in hand if c.is_natural]
            if not naturals:
                continue
            top = rng.choice(naturals)
            hand.remove(top)   # the top card from the pile: a copy of one in hand's rank
            if sum(1 for c in hand if c.rank == top.rank) < 2:
                continue
        keep = rng.choice((0, 1, KEEP))   # one card kept: the pile gave one (pile.check_take_pile)
        legal = openings(written, Hand.of(hand), 0, keep=keep, top=top)
        expected = max((o.points for o in legal), default=-1 if top is not None else 0)
        got = counts.most_meld_points(hand, rules, top=top, keep=keep)
        assert got == expected, (name, " ".join(c.code for c in hand), top, keep, got, expected)


def plan_is_legal(hand, melds, rules, plan, need: int) -> None:
    """Every card of the hand is placed once (or is the discard), each new meld and each lay-off is legal."""
    used = Counter()
    table = [tuple(m) for m in melds]
    for i, natural, wild in plan.swaps:
        assert wild in table[i]
        m = list(table[i])
        m[m.index(wild)] = natural
        table[i] = tuple(m)
        used[natural] += 1
        used[wild] -= 1
    for i, cards in plan.lay_offs:
        assert check_add_to_meld(table[i], cards, rules, going_out=True).ok, (table[i], cards)
        table[i] = table[i] + tuple(cards)
        used.update(cards)
    for m in plan.new_melds:
        assert check_meld(m, rules, going_out=True).ok, m
        used.update(m)
    if plan.discard is not None:
        used[plan.discard] += 1
    assert +used == Counter(hand) and not -used, (Counter(hand), used)
    assert plan.canastas >= need


@pytest.mark.parametrize("name", list(PRESETS))
def test_going_out_by_counting_agrees_with_the_placement_search(name):
    rules = get_rules(name)
    rng = random.Random(f"go {name}")
    seen = Counter()
    for _ in range(300):
        hand = small_hand(rng, rules, rng.randint(2, 12))
        rest = [c for c in deck(rules) if c.is_natural]
        for c in hand:
            if c in rest:
                rest.remove(c)
        melds = []
        for _ in range(rules.canastas_to_go_out - (rng.random() < 0.5)):   # canastas on the table, mostly
            ranks = [r for r in RANKS if sum(1 for c in rest if c.rank == r) >= 7]
            if ranks:
                rank = rng.choice(ranks)
                melds.append(tuple([c for c in rest if c.rank == rank][:7]))
                rest = [c for c in rest if c.rank != rank]
        if rng.random() < 0.6:   # a group on the table, maybe with a wild card, maybe a canasta
            in_hand = sorted({c.rank for c in hand if c.is_natural} & {c.rank for c in rest})
            rank = rng.choice(in_hand if in_hand and rng.random() < 0.5 else sorted({c.rank for c in rest}))
            group = [c for c in rest if c.rank == rank][:rng.choice((3, 4, 5, 7))]
            wild = [c for c in hand if c.is_wild][:1] if rng.random() < 0.5 else []   # samba may swap it back
            for c in wild:
                hand.remove(c)
            melds.append(tuple(group + wild))
        if rules.sequences and rng.random() < 0.5:   # a sequence on the table
            suit, lo = rng.choice("SHDC"), rng.randint(4, 10)
            run = tuple(Card(r + suit) for r, o in SEQUENCE_ORDER.items() if lo <= o < lo + rng.randint(3, 7))
            if len(run) >= 3:
                melds.append(run)
        try:
            ensure_possible(rules, hand=tuple(hand), melds=tuple(melds))
            if any(not check_meld(m, rules).ok for m in melds):
                continue
            with search_budget("test", 500_000):
                plan, _problems = _find_go_out(list(hand), melds, rules, None, True, 0, ())
        except (SearchTooLarge, ValueError):
            continue
        need = rules.canastas_to_go_out
        counted = counted_go_out(hand, melds, rules, need)
        assert (plan is None) == (counted is None), (name, " ".join(c.code for c in hand), melds, plan, counted)
        if counted is not None:
            plan_is_legal(hand, melds, rules, counted, need)
        seen[counted is not None] += 1
    assert seen[True] >= 10 and seen[False] >= 10, seen


def test_a_43_card_danish_hand_may_go_out():
    """Issue 19's example: seven queens, eight aces, seven eights and 3C 3S 3S among 43 cards; the team holds
    its canastas (danish needs two). The old cap (three dealt hands, 33) refused it."""
    rules = get_rules("danish")
    hand = parse_cards("QH QS QD QC QH QS QD AH AS AD AC AH AS AD AC 8H 8S 8D 8C 8H 8S 8D 3C 3S 3S "
                       "KH KS KD KC KH KS KD JH JS JD JC JH JS JD 10H 10S 10D 10C")
    melds = [parse_cards("9H 9S 9D 9C 9H 9S 9D"), parse_cards("5H 5S 5D 5C 5H 5S 5D")]
    assert len(hand) == 43 > 3 * rules.hand_size and max_hand_cards(rules) >= 43
    verdict = check_go_out(hand, melds, 0, rules)
    assert verdict.ok, verdict.sentence
    plan_is_legal(hand, melds, rules, verdict.plan, rules.canastas_to_go_out)


def test_a_big_samba_hand_is_answered_by_counting_not_refused():
    """Issue 19: a 43-card samba hand whose team holds two canastas, able to go out by groups, lay-offs and
    discarding 3C, was refused with "too many ways to arrange these cards (more than 20000 steps)"."""
    rules = get_rules("samba")
    melds = [parse_cards("9H 9S 9D 9C 9H 9S 9D"), parse_cards("5H 5S 5D 5C 5H 5S 5D"), parse_cards("KH KS KD")]
    hand = parse_cards("4H 5H 6H 7H 8H 4S 5S 6S 7S 8S 4D 5D 6D 7D 8D 4C 5C 6C 7C 8C 10H 10S 10D JH JS JD QH QS QD "
                       "AH AS AD KC KC 6H 7H 8H 10C JC QC AC 2C 3C")
    assert len(hand) == 43
    verdict = check_go_out(hand, melds, 0, rules)
    assert verdict.ok, verdict.sentence
    plan_is_legal(hand, melds, rules, verdict.plan, rules.canastas_to_go_out)
    assert max_meld_points(hand, rules) > 0


@pytest.mark.parametrize("name", [n for n in PRESETS if not get_rules(n).sequences])
def test_the_closed_form_without_sequences_is_the_programme_over_the_ranks(name):
    """Without sequences ``most_meld_points`` answers in closed form (``_groups_only_points``): the same as the
    programme over the ranks (``_most_points``), on hands of every size a game reaches (up to 45 cards) and on
    small hands of a few ranks with wild cards, where the melds' room for wild cards decides."""
    rules = get_rules(name)
    rng = random.Random(f"closed {name}")
    for i in range(400):
        cards = deck(rules)
        rng.shuffle(cards)
        hand = cards[:rng.randint(1, 45)] if i % 2 else small_hand(rng, rules, rng.randint(3, 12))
        naturals = [c for c in hand if c.is_natural]
        top = rng.choice(naturals) if naturals and rng.random() < 0.5 else None
        if top is not None and sum(1 for c in hand if c.rank == top.rank and c.is_natural) < 2:
            top = None
        assert counts.most_meld_points(hand, rules, top=top) == counts._most_points(hand, rules, top, 0), \
            (name, " ".join(c.code for c in hand), top)


# --- the flat closed forms (counts.py's last section: what _speedups/goout.pyx and take.pyx call, compiled) ----------
# Run here as Python, on lists; compiled, the twin tests (tests/test_speedups_*.py) hold them to the pure engine.

def flat_hand(hand):
    """A hand as the flat forms read it: natural cards per rank (its order 4..14 less 4), the wild cards' points
    (highest first), the black threes."""
    count = [0] * 11
    for c in hand:
        if c.is_natural:
            count[SEQUENCE_ORDER[c.rank] - 4] += 1
    wild_values = sorted((c.points for c in hand if c.is_wild), reverse=True)
    return count, wild_values, sum(1 for c in hand if c.is_black_three)


def flat_caps(rules):
    return list(rules._wild_caps), len(rules._wild_caps)


RANK_POINTS_FLAT = [Card(r + "S").points for r, o in sorted(SEQUENCE_ORDER.items(), key=lambda x: x[1])]
BY_POINTS = sorted(range(11), key=lambda r: -RANK_POINTS_FLAT[r])


def flat_table(melds, rules):
    """The team's groups as the flat forms read them (per rank order less 4: natural cards, wild cards, size, held),
    the groups by rank order as ``place_every_card`` reads them, and the canastas on the table."""
    from canasta_tutor.engine.go_out_search import _table_info
    groups_at, _sequences, base = _table_info(melds, rules)
    tnat, twild, tsize, intable = [0] * 11, [0] * 11, [0] * 11, [0] * 11
    groups = {}
    for rank, idx in groups_at.items():
        r = SEQUENCE_ORDER[rank] - 4
        wild = tuple(c for c in melds[idx] if c.is_wild)
        tnat[r], twild[r], tsize[r], intable[r] = len(melds[idx]) - len(wild), len(wild), len(melds[idx]), 1
        groups[SEQUENCE_ORDER[rank]] = (idx, len(melds[idx]) - len(wild), wild, len(melds[idx]))
    return (tnat, twild, tsize, intable), groups, base


def flat_go_out(hand, melds, rules, *first):
    """``counts.flat_go_out`` on ``hand`` and ``melds`` (``counts.flat_go_out_discards`` when ``first`` is given):
    its answer, the groups as ``place_every_card`` reads them and the canastas on the table."""
    count, wild_values, black = flat_hand(hand)
    (tnat, twild, tsize, intable), groups, base = flat_table(melds, rules)
    caps, ncaps = flat_caps(rules)
    before = list(count)
    form = counts.flat_go_out_discards if first else counts.flat_go_out
    yes = form(count, 11, len(wild_values), black, tnat, twild, tsize, intable, base, rules.canastas_to_go_out, caps,
               ncaps, rules.black_threes_with_wild, *first)
    assert count == before   # given back as it was
    return yes, groups, base


def table_near(rng, rules, hand):
    """Up to three legal groups of ranks the hand holds few of (some with a wild card), as a team melds them."""
    rest = [c for c in deck(rules) if c.is_natural]
    for c in hand:
        if c in rest:
            rest.remove(c)
    melds = []
    for _ in range(rng.randint(0, 3)):
        ranks = sorted({c.rank for c in rest if sum(1 for d in rest if d.rank == c.rank) >= 3})
        if not ranks:
            break
        rank = rng.choice(ranks)
        group = [c for c in rest if c.rank == rank][:rng.choice((3, 4, 5, 6, 7, 7))]
        rest = [c for c in rest if c.rank != rank]
        melds.append(tuple(group + [Card("2C")] * rng.choice((0, 0, 1))))
    return melds


@pytest.mark.parametrize("name", [n for n in PRESETS if not get_rules(n).sequences and not get_rules(n).wild_swap])
def test_the_flat_going_out_is_the_programme_over_the_ranks(name):
    """``flat_go_out`` (goout.pyx's core) against ``place_every_card`` on small hands near going out and on big
    ones, with canastas and groups on the table."""
    rules = get_rules(name)
    rng = random.Random(f"flat go {name}")
    seen = Counter()
    for i in range(400):
        cards = deck(rules)
        rng.shuffle(cards)
        hand = small_hand(rng, rules, rng.randint(1, 12)) if i % 2 else cards[:rng.randint(1, 45)]
        melds = table_near(rng, rules, hand)
        if any(not check_meld(m, rules).ok for m in melds):
            continue
        yes, groups, base = flat_go_out(hand, melds, rules)
        way = speedups.pure_twin(counts.place_every_card)(hand, groups, [], base, rules, rules.canastas_to_go_out)
        assert yes == (way is not None), (name, " ".join(c.code for c in hand), melds)
        seen[yes] += 1
    assert seen[True] >= 20 and seen[False] >= 20, seen


@pytest.mark.parametrize("name", [n for n in PRESETS if not get_rules(n).sequences and not get_rules(n).wild_swap])
def test_the_flat_going_out_names_every_last_discard_that_works(name):
    """``flat_go_out_discards`` (the last discards goout.pyx hands to the plan's search, which tries only those): one
    bit per kind of last discard (a natural card of a rank, a wild card, a black three; none), each set exactly when
    ``place_every_card`` places every other card with no discard and the canastas needed (rule-decisions.md: "every
    card melded or laid off, with or without one final discard")."""
    rules = get_rules(name)
    need = rules.canastas_to_go_out
    place = speedups.pure_twin(counts.place_every_card)
    rng = random.Random(f"flat discards {name}")
    seen = Counter()
    for i in range(300):
        hand = small_hand(rng, rules, rng.randint(1, 12))
        melds = table_near(rng, rules, hand) + [tuple(parse_cards("7H 7S 7D 7C 7H 7S 7D"))] * (i % 3 == 0)
        if any(not check_meld(m, rules).ok for m in melds) or sum(c.rank == "7" for m in melds for c in m) > 7:
            continue
        bits, groups, base = flat_go_out(hand, melds, rules, False)
        expected = 0
        if place(hand, groups, [], base, rules, need, allow_discard=False) is not None:
            expected |= 1 << 13
        bit = {None: 13}
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            bit[card] = SEQUENCE_ORDER[card.rank] - 4 if card.is_natural else 11 if card.is_wild else 12
            if place(rest, groups, [], base, rules, need, allow_discard=False) is not None:
                expected |= 1 << bit[card]
        assert bits == expected, (name, " ".join(c.code for c in hand), melds, bin(bits), bin(expected))
        assert (bits != 0) == flat_go_out(hand, melds, rules)[0]
        # asked for the first only (goout.pyx): the kind of the first card the plan's search tries that works
        tried = [None] + sorted(set(hand), key=SORT_KEY)
        first = next((1 << bit[c] for c in tried if 1 << bit[c] & expected), 0)
        assert flat_go_out(hand, melds, rules, True)[0] == first, (name, " ".join(c.code for c in hand), melds)
        seen["first is not the lowest bit"] += first != expected & -expected
        seen.update(("none" if b == 13 else "wild" if b == 11 else "black" if b == 12 else "natural")
                    for b in range(14) if bits >> b & 1)
        seen["no"] += not bits
    assert seen["none"] >= 10 and seen["natural"] >= 20 and seen["black"] >= 3 and seen["no"] >= 20, seen
    assert seen["first is not the lowest bit"] >= 3, seen


@pytest.mark.parametrize("name", [n for n in PRESETS if not get_rules(n).sequences])
def test_the_flat_opening_with_the_top_card_is_the_programme_over_the_ranks(name):
    """``flat_group_points`` and ``flat_opening_keeps`` (take.pyx's core: an unopened team taking the pile) against
    ``_most_points``, with the pile's top card and one or two cards kept, on hands of every size."""
    rules = get_rules(name)
    rng = random.Random(f"flat open {name}")
    caps, ncaps = flat_caps(rules)
    for _ in range(300):
        cards = [c for c in deck(rules) if not c.is_red_three]
        rng.shuffle(cards)
        hand = cards[:rng.randint(2, 40)]
        tops = [c for c in hand if c.is_natural and sum(1 for d in hand if d.rank == c.rank and d.is_natural) >= 2]
        if not tops:
            continue
        top = rng.choice(tops)
        count, wild_values, black = flat_hand(hand)
        rank = SEQUENCE_ORDER[top.rank] - 4
        best = counts.flat_group_points(count, 11, RANK_POINTS_FLAT, BY_POINTS, wild_values, len(wild_values), rank,
                                        top.points, caps, ncaps, -1, -1, -1, -1)
        assert best == counts._most_points(hand, rules, top, 0), (name, " ".join(c.code for c in hand), top)
        for keep in (1, 2):
            kept = counts._most_points(hand, rules, top, keep)
            for minimum in (15, 50, 90, 120, kept, kept + 1):
                yes = counts.flat_opening_keeps(count, 11, RANK_POINTS_FLAT, BY_POINTS, wild_values,
                                                len(wild_values), black, rank, top.points, caps, ncaps, keep, minimum)
                assert yes == (kept >= minimum), (name, " ".join(c.code for c in hand), top, keep, minimum)


# --- the core's small rules the game and the bots read (issue 19 §0: one counting core decides each rule) ----------

@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_wild_cards_a_new_group_may_take_are_the_written_rule(name):
    # meld_oracle's WRITTEN: each preset's wild-card limit as its source writes it (002 "minstens 2 gewone kaarten
    # en hoogstens 3 wilde", 001, 003, 004); the game's enumerations offer exactly group_wilds' counts
    from meld_oracle import group_is_legal

    rules = get_rules(name)
    caps = rules._wild_caps
    for nat in range(0, 14):
        for most in (0, 1, 2, 3, 9):
            offered = list(counts.group_wilds(nat, caps, most))
            written = [w for w in range(most + 1) if group_is_legal(WRITTEN[name], nat, w)]
            assert offered == written, (name, nat, most)
            assert all(counts.flat_legal_group(nat, w, list(caps), len(caps)) for w in offered)


def _piles(rng: random.Random, rules, n: int):
    cards = [c for c in ALL_CARDS for _ in range(rules.jokers if c.rank == "JK" else rules.decks)]
    for _ in range(n):
        yield tuple(rng.sample(cards, rng.randint(0, 6)))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_pile_frozen_for_everyone_is_the_written_rule_and_the_explained_check(name):
    # rule-decisions.md lines 37-39: "frozen for a team when a wild card or a red three lies in it, when the team
    # has not opened, or when the preset says it always is. A black three does not freeze the pile" (004: in samba
    # a black three anywhere in it does, lines 119-121); the bots' question is the first and the last part
    from canasta_tutor.engine.pile import check_frozen, frozen_for_everyone

    rules = get_rules(name)
    for pile in _piles(random.Random(name), rules, 400):
        written = rules.pile_always_frozen or any(
            c.is_wild or (c.is_red_three and rules.red_three_freezes_pile)
            or (c.is_black_three and rules.black_three_freezes_pile) for c in pile)
        assert frozen_for_everyone(pile, rules) == written, pile
        used = Counter(pile)
        meld = []
        for _ in range(3):
            meld.append(_free("K", used, rules) or _free("Q", used, rules))
            used[meld[-1]] += 1
        assert check_frozen(pile, melds=[tuple(meld)], rules=rules).ok == written, pile
        assert check_frozen(pile, melds=[], rules=rules).ok, pile   # a team that has not opened


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_ranks_an_opponent_may_take_the_pile_onto_are_those_the_take_check_lays_off_on(name):
    # rule-decisions.md lines 43-45 and 116-118: the top card laid off on one of the team's groups (not a sequence,
    # not a finished canasta unless the preset allows it); what check_take_pile does with a hand of no pair
    from canasta_tutor.bots import get_bot
    from canasta_tutor.engine.pile import check_take_pile, ranks_taken_onto
    from canasta_tutor.game import Game, apply, legal_actions, observation

    rules = get_rules(name)
    game = Game(name)
    club = get_bot("club")
    rng = random.Random(name)
    compared = canastas = 0
    for seed in range(12):
        state = game.deal(seed)
        while not state.is_terminal() and not (canastas and compared >= 200):
            for melds in state.melds:
                if not melds:
                    continue
                ranks = ranks_taken_onto(melds, rules)
                canastas += sum(1 for m in melds if len(m) >= 7)
                used = Counter(c for m in melds for c in m)
                for rank in "4 5 6 7 8 9 10 J Q K A".split():
                    top = _free(rank, used, rules)
                    if top is None:
                        continue
                    hand = [_free(r, used + Counter([top]), rules) for r in ("5", "10") if r != rank]
                    hand = hand[:1] + [_free("9" if rank != "9" else "8", used + Counter([top]), rules)]
                    if None in hand:
                        continue
                    verdict = check_take_pile(hand, list(melds), score=0, pile=(top,), rules=rules)
                    assert (verdict.ok and verdict.method == "lay-off") == (rank in ranks), (melds, rank)
                compared += 1
            apply(state, club.choose(observation(state), legal_actions(state), rng)[0])
    assert compared >= 200 and canastas   # the club bot makes canastas (random play rarely does)


def _free(rank: str, used: Counter, rules) -> Card | None:
    """A card of ``rank`` of which the deck still holds a copy besides ``used``."""
    return next((Card(rank + suit) for suit in "HSDC" if used[Card(rank + suit)] < rules.decks), None)
