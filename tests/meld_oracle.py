"""The rules of melds and openings as the sources write them, and a brute force over a hand's melds.

The oracle of ``test_game_openings.py``: written from the sources (``docs/rule-decisions.md``, which
cites them; not read here), not from the engine's code. A meld is named by what the rules look at: ``("G",
rank, natural cards, wild cards)`` for a group, ``("R", suit, rank orders)`` for a run; :func:`openings` and
:func:`new_melds` count every way to split a hand into such melds and keep the legal ones.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from canasta_tutor.engine.cards import Card

#: Card values: 002's table (every source agrees once 003's swapped threes are put right).
VALUE = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
         "7": 5, "6": 5, "5": 5, "4": 5, "3": 5}
#: 002: "Tweeën en jokers zijn wild"; a joker "Vervangt elke kaart van 4 tot en met aas": a group's rank is 4 to
#: ace. Threes are never natural: red ones are bonus cards, black ones are melded only by a player going out.
WILD_RANKS = ("2", "JK")
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: 004 (samba) sequences: "opeenvolgende kaarten van dezelfde kleur, zonder jokers"; twos and threes never in
#: one, the ace high only; seven make a samba, closed (rule-decisions).
RUN_ORDER = {r: i for i, r in enumerate(RANKS, start=4)}
SHORTEST_RUN, LONGEST_RUN = 3, 7


def classic_minimum(score: int) -> int:
    """002, 'De eerste uitleg': below 0: 15; 0 to 1495: 50; 1500 to 2995: 90; 3000 or more: 120."""
    return 15 if score < 0 else 50 if score < 1500 else 90 if score < 3000 else 120


def samba_minimum(score: int) -> int:
    """004: 'minimaal 50 als jouw team minder dan 1.500 punten heeft, 90 bij 1.500 tot 6.999, en 150 vanaf 7.000'."""
    return 50 if score < 1500 else 90 if score < 7000 else 150


@dataclass(frozen=True)
class Written:
    """A preset's rules for melds and openings, as its source writes them."""

    most_wild: Callable[[int], int]           # natural cards -> the most wild cards a group of them may hold
    minimum: Callable[[int], int] = classic_minimum   # the team's score -> its opening minimum
    runs: bool = False                        # same-suit sequences (samba)


CLASSIC_RULES = Written(lambda n: 3)   # 002: "minstens 2 gewone kaarten en hoogstens 3 wilde" (5-5-2-2-2 is a meld)
WRITTEN = {
    "classic": CLASSIC_RULES,
    # rule-decisions, player counts: "classic rules otherwise"
    "classic-2p": CLASSIC_RULES, "classic-3p": CLASSIC_RULES, "classic-6p": CLASSIC_RULES,
    # 001: "der skal dog altid være flere ægte kort end vilde kort" (and at most three, as classic)
    "danish": Written(lambda n: min(3, n - 1)),
    # 003: "kan nooit meer wilde kaarte as natuurlike kaarte (en dus meer as drie wildkaarte) hê nie"
    "hoyle": Written(lambda n: min(3, n)),
    # 004: "maximaal twee per groep, en de groep moet altijd meer gewone kaarten dan jokers bevatten"
    "samba": Written(lambda n: min(2, n - 1), samba_minimum, runs=True),
}
#: The game model's own rule (docs/game-model.md): a meld leaves two cards in hand, one to discard, one to keep.
KEEP = 2


def is_wild(c: Card) -> bool:
    return c.rank in WILD_RANKS


def group_is_legal(written: Written, naturals: int, wild: int) -> bool:
    """002: "sets van minstens 3 gelijke kaarten", at least two natural; wild cards within the preset's limit."""
    return naturals >= 2 and naturals + wild >= 3 and wild <= written.most_wild(naturals)


def is_legal_meld(written: Written, cards) -> bool:
    """A group (one rank, with wild cards) or, under sequences, a run of one suit: the rules above, on cards."""
    if not cards or any(c.rank == "3" for c in cards):
        return False
    naturals = [c for c in cards if not is_wild(c)]
    if len({c.rank for c in naturals}) == 1:
        return group_is_legal(written, len(naturals), len(cards) - len(naturals))
    orders = sorted(RUN_ORDER[c.rank] for c in naturals)
    return (written.runs and len(naturals) == len(cards) and len({c.suit for c in cards}) == 1
            and SHORTEST_RUN <= len(cards) <= LONGEST_RUN and orders == list(range(orders[0], orders[0] + len(cards))))


# --- every way to split a hand into melds, counted ---------------------------------------------------------------
# A meld is named by what the rules look at: ("G", rank, natural cards, wild cards) for a group, ("R", suit, rank
# orders) for a run. Which two of three 7s, or which of two twos, changes no rule: a set of such names is an
# opening, and it is legal when its best choice of cards is (the points of the wild cards are the most the
# hand's wild cards give for that many).

@dataclass(frozen=True)
class Hand:
    """A hand's cards counted as the rules see them."""

    cards: tuple
    naturals: Counter          # rank -> natural cards
    by_suit: Counter           # (suit, rank) -> natural cards
    wild_points: tuple         # the wild cards' points, highest first

    @classmethod
    def of(cls, cards) -> Hand:
        cards = tuple(cards)
        naturals = Counter(c.rank for c in cards if c.rank in RUN_ORDER)
        by_suit = Counter((c.suit, c.rank) for c in cards if c.rank in RUN_ORDER)
        return cls(cards, naturals, by_suit, tuple(sorted((VALUE[c.rank] for c in cards if is_wild(c)),
                                                          reverse=True)))

    def best_wild_points(self, n: int) -> int:
        return sum(self.wild_points[:n])


def all_runs(hand: Hand) -> list[tuple]:
    """Every run of three to seven the hand's natural cards make: ("R", suit, orders)."""
    out = []
    for suit in "SHDC":
        present = [o for r, o in RUN_ORDER.items() if hand.by_suit[(suit, r)]]
        for start in present:
            for length in range(SHORTEST_RUN, LONGEST_RUN + 1):
                orders = tuple(range(start, start + length))
                if all(o in present for o in orders):
                    out.append(("R", suit, orders))
    return out


def whole_runs(hand: Hand) -> set[tuple]:
    """The runs the game documents (``game/openings.py``: "the longest runs (at most seven) of one suit"): each
    block of consecutive ranks of a suit in hand, whole, or its highest seven."""
    out = set()
    for suit in "SHDC":
        present = {o for r, o in RUN_ORDER.items() if hand.by_suit[(suit, r)]}
        for o in present:
            if o - 1 in present:
                continue
            block = []
            while o in present:
                block.append(o)
                o += 1
            if len(block) >= SHORTEST_RUN:
                out.add(("R", suit, tuple(block[-LONGEST_RUN:])))
    return out


def run_cards(run: tuple) -> Counter:
    _, suit, orders = run
    rank = {o: r for r, o in RUN_ORDER.items()}
    return Counter((suit, rank[o]) for o in orders)


def run_sets(hand: Hand, written: Written) -> list[tuple[tuple, Counter]]:
    """Every set of runs the hand can put down at once (no card used twice), with the natural cards left."""
    if not written.runs:
        return [((), hand.by_suit)]
    candidates = all_runs(hand)
    out = []

    def choose(i, chosen, left):
        out.append((tuple(chosen), left))
        for j in range(i, len(candidates)):
            need = run_cards(candidates[j])
            if all(left[k] >= v for k, v in need.items()):
                choose(j, chosen + [candidates[j]], left - need)   # j again: the same run twice, from three decks

    choose(0, [], Counter(hand.by_suit))
    return out


@dataclass(frozen=True)
class Opening:
    """A way to put melds down: its melds' names, its card points at best, the cards it takes from hand, and
    whether it has the documented shape: each group all of its rank's natural cards (those the runs leave),
    each run a whole one."""

    melds: frozenset
    points: int
    used: int
    all_of_rank: bool
    runs_whole: bool

    @property
    def whole(self) -> bool:
        return self.all_of_rank and self.runs_whole


def openings(written: Written, hand: Hand, minimum: int, *, keep: int, top: Card | None = None) -> list[Opening]:
    """Every legal opening of ``hand`` (with the pile's ``top`` card in a group of its rank, at least a natural
    pair from hand with it, when taking the pile): 002 "Je mag meerdere sets tegelijk leggen om het minimum te
    halen", only card values counting, the top card too; a team holds one group of a rank (rule-decisions)."""
    out = []
    whole = whole_runs(hand)
    for chosen, left in run_sets(hand, written):
        run_points = sum(VALUE[r] for run in chosen for (_s, r) in run_cards(run).elements())
        run_used = sum(len(run[2]) for run in chosen)
        left_by_rank = Counter()
        for (_suit, rank), n in left.items():
            left_by_rank[rank] += n
        runs_whole = all(run in whole for run in chosen)
        for groups in _group_choices(written, left_by_rank, len(hand.wild_points), top):
            melds = frozenset(Counter(chosen).items()) | frozenset(Counter(groups).items())
            if not melds:
                continue
            wild = sum(g[3] for g in groups)
            from_hand = sum(g[2] for g in groups) - (top is not None) + wild
            points = run_points + sum(VALUE[g[1]] * g[2] for g in groups) + hand.best_wild_points(wild)
            used = run_used + from_hand
            if points >= minimum and len(hand.cards) - used >= keep:
                all_of_rank = all(g[2] == left_by_rank[g[1]] + (top is not None and g[1] == top.rank) for g in groups)
                out.append(Opening(melds, points, used, all_of_rank, runs_whole))
    return out


def _group_choices(written: Written, naturals: Counter, wild: int, top: Card | None):
    """Every choice of groups: for each rank none or one group of 2 or more of its natural cards (with the top
    card in its rank's group, which must be there), each with 0 to the allowed wild cards, within the hand's."""
    ranks = sorted(naturals) if top is None else [top.rank] + sorted(r for r in naturals if r != top.rank)

    def choose(i, wild_left, chosen):
        if i == len(ranks):
            yield tuple(chosen)
            return
        rank = ranks[i]
        forced = top is not None and i == 0
        extra = 1 if forced else 0
        if not forced:
            yield from choose(i + 1, wild_left, chosen)
        for n in range(2, naturals[rank] + 1):   # a natural pair from hand at least, with the top card too
            for w in range(0, wild_left + 1):
                if group_is_legal(written, n + extra, w):
                    yield from choose(i + 1, wild_left - w, chosen + [("G", rank, n + extra, w)])

    return choose(0, wild, [])


def new_melds(written: Written, hand: Hand, table_ranks: set) -> list[Opening]:
    """Every legal new meld of a team that has opened: a group of a rank it has no group of, or a run;
    leaving two cards in hand."""
    out = []
    wild = len(hand.wild_points)
    for rank, count in hand.naturals.items():
        if rank in table_ranks:
            continue
        for n in range(2, count + 1):
            for w in range(0, wild + 1):
                if group_is_legal(written, n, w) and len(hand.cards) - n - w >= KEEP:
                    out.append(Opening(frozenset({(("G", rank, n, w), 1)}), 0, n + w, n == count, True))
    if written.runs:
        whole = whole_runs(hand)
        for run in all_runs(hand):
            if len(hand.cards) - len(run[2]) >= KEEP:
                out.append(Opening(frozenset({(run, 1)}), 0, len(run[2]), True, run in whole))
    return out


def name_of(meld) -> tuple:
    """The rules' name of a meld of cards (see above)."""
    naturals = [c for c in meld if not is_wild(c)]
    if len({c.rank for c in naturals}) == 1:
        return ("G", naturals[0].rank, len(naturals), len(meld) - len(naturals))
    return ("R", naturals[0].suit, tuple(sorted(RUN_ORDER[c.rank] for c in naturals)))


def names(melds) -> frozenset:
    return frozenset(Counter(name_of(m) for m in melds).items())


def cards_for(hand: Hand, melds: frozenset, rng: random.Random) -> tuple | None:
    """Cards from the hand for the melds named ``melds`` (natural cards and wild cards chosen at random), or
    ``None`` if the hand has not got them."""
    left = list(hand.cards)
    rng.shuffle(left)
    out = []
    for (name, times) in sorted(melds, key=lambda item: (item[0][0] != "R", str(item[0][1]))):   # runs first
        for _ in range(times):
            cards = []
            if name[0] == "R":
                wanted = run_cards(name)
                for key in wanted.elements():
                    c = next((c for c in left if (c.suit, c.rank) == key), None)
                    if c is None:
                        return None
                    cards.append(c)
                    left.remove(c)
            else:
                _, rank, n, w = name
                naturals = [c for c in left if c.rank == rank][:n]
                wilds = [c for c in left if is_wild(c)][:w]
                if len(naturals) < n or len(wilds) < w:
                    return None
                for c in naturals + wilds:
                    left.remove(c)
                cards = naturals + wilds
            out.append(tuple(cards))
    return tuple(out)
