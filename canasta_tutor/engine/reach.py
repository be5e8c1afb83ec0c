"""The counting core's quick bound: necessary conditions, read from counts, before the exact core is asked.

Random play asks at every step whether the player to move may go out or take the pile; most hands are far from
either, and the exact answer (:mod:`.counts`, ``check_go_out``, ``check_take_pile``) costs more than counting a
few cards. The functions here count the cards of a hand by rank and suit and answer ``False`` only when no way
can exist (a bound the exact core never beats); ``True`` says only *perhaps*: the caller must then ask the exact
check, which decides. They never say yes by themselves, and nothing here writes a reason (the explaining checks
do). ``tests/test_reach.py`` holds them to that: on many reachable hands of every preset, never ``False`` where
the exact check says yes.

* :func:`go_out_within_reach` -- could every card be placed (one last discard at most) with the canastas needed?
* :func:`take_within_reach` -- could the top card be melded from the hand at all (a natural pair of its rank,
  the team's group of its rank, or one natural and a wild card for a team that has opened)?

The hand comes as the caller has counted it once (:func:`count_hand`), the table as facts of its melds
(:func:`table_facts`), so that the game's enumeration reads each only once.

>>> from canasta_tutor.engine.cards import parse_cards
>>> from canasta_tutor.engine.rules import CLASSIC
>>> go_out_within_reach(count_hand(parse_cards("5H 5S 9C 8D")), table_facts([parse_cards("KC KD KS KH 2C KD KS")]),
...                     CLASSIC)
False
"""

from __future__ import annotations

from .cards import SEQUENCE_ORDER, Card
from .melds import CANASTA_SIZE, GROUP, SEQUENCE, meld_key

__all__ = ["count_hand", "go_out_within_reach", "table_facts", "take_within_reach"]


def count_hand(hand) -> tuple[dict[str, list[Card]], int, int]:
    """``(natural cards by rank (hand order), how many wild cards, how many threes)`` of ``hand``."""
    by_rank: dict[str, list[Card]] = {}
    wilds = threes = 0
    for c in hand:
        if c.is_wild:
            wilds += 1
        elif c.rank == "3":
            threes += 1
        else:
            by_rank.setdefault(c.rank, []).append(c)
    return by_rank, wilds, threes


def table_facts(melds) -> tuple[dict[str, tuple[int, int]], list[tuple[str, int, int]]]:
    """The team's melds as counts: ``(groups: rank -> (cards, wild cards), sequences: [(suit, low, high)])``."""
    groups: dict[str, tuple[int, int]] = {}
    sequences: list[tuple[str, int, int]] = []
    for m in melds:
        kind, key = meld_key(m)
        if kind == GROUP:
            groups[key] = (len(m), sum(1 for c in m if c.is_wild))
        elif kind == SEQUENCE:
            orders = [SEQUENCE_ORDER[c.rank] for c in m if c.rank in SEQUENCE_ORDER]
            sequences.append((key, min(orders), max(orders)))
    return groups, sequences


def go_out_within_reach(counted, table, rules, *, allow_discard: bool = True) -> bool:
    """``False`` when the player surely cannot go out: more than one card (the last discard) with no place to go
    (a natural card alone of its rank with no group of it on the table and, under sequences, no two cards of its
    suit beside it in hand or on a sequence; threes that make no meld), without sequences or swaps more natural
    pairs needing a wild card than there are wild cards, or fewer canastas within reach than are needed.
    ``True``: perhaps (ask the exact check). ``counted``: :func:`count_hand`; ``table``: :func:`table_facts`."""
    by_rank, wilds, black = counted
    groups, sequences = table
    lone = _cards_without_place(by_rank, groups, sequences, rules.sequences)
    if black:   # threes: one meld of three or four (two and a wild card where allowed), the rest alone
        sizes = (2, 3, 4) if rules.black_threes_with_wild else (3, 4)
        lone += min([black - v for v in sizes if v <= black] + [black])
    if lone > (1 if allow_discard else 0):
        return False
    if not rules.sequences and not rules.wild_swap:
        # each natural pair that is no group of the team needs a wild card to be a meld (a card of it discarded
        # leaves its partner alone), and so do two black threes
        pairs = sum(1 for rank, cs in by_rank.items() if len(cs) == 2 and rank not in groups) + (black == 2)
        if pairs > wilds:
            return False
    canastas = sum(1 for size, _w in groups.values() if size >= CANASTA_SIZE)
    canastas += sum(1 for _s, lo, hi in sequences if hi - lo + 1 >= 7)
    short = rules.canastas_to_go_out - canastas
    return short <= 0 or _canastas_within_reach(rules, by_rank, wilds, groups, sequences) >= short


def _cards_without_place(by_rank, groups, sequences, runs: bool) -> int:
    """How many natural cards are alone in hand with no group of their rank on the table (under sequences: nor
    two neighbours of their suit, in hand or on a sequence); counting stops at two."""
    lone = 0
    placed = None
    for rank, cs in by_rank.items():
        if len(cs) != 1 or rank in groups:
            continue
        if runs:
            if placed is None:
                placed = {(c.suit, SEQUENCE_ORDER[c.rank]) for group in by_rank.values() for c in group}
                placed.update((suit, o) for suit, lo, hi in sequences for o in range(lo, hi + 1))
            c = cs[0]
            o, su = SEQUENCE_ORDER[c.rank], c.suit
            if any((su, o + a) in placed and (su, o + b) in placed for a, b in ((-2, -1), (-1, 1), (1, 2))):
                continue   # it may be part of a run of three, from hand or with a sequence on the table
        lone += 1
        if lone > 1:
            return lone
    return lone


def _canastas_within_reach(rules, by_rank, wilds: int, groups, sequences) -> int:
    """At most how many canastas the hand and the table could still make: ranks with seven cards counting every
    wild card that could join (the hand's, and those a swap gives back), and under sequences, per suit with seven
    distinct ranks in hand and on its unfinished sequences, its cards there by sevens."""
    swappable = sum(w for size, w in groups.values() if size < CANASTA_SIZE) if rules.wild_swap else 0
    spare_wild = min(wilds + swappable, rules.max_wild)
    potential = 0
    for rank in set(by_rank) | set(groups):
        if rank in SEQUENCE_ORDER:
            size = groups.get(rank, (0, 0))[0]
            if size < CANASTA_SIZE and len(by_rank.get(rank, ())) + size + spare_wild >= CANASTA_SIZE:
                potential += 1
    if rules.sequences:   # per suit: none without seven distinct ranks, else at most one per seven of its cards
        cards: dict[str, int] = {}
        ranks: dict[str, int] = {}
        for cs in by_rank.values():
            for suit in {c.suit for c in cs}:
                ranks[suit] = ranks.get(suit, 0) + 1
            for c in cs:
                cards[c.suit] = cards.get(c.suit, 0) + 1
        for suit, lo, hi in sequences:
            if hi - lo + 1 < 7:
                cards[suit] = cards.get(suit, 0) + hi - lo + 1
                ranks[suit] = ranks.get(suit, 0) + hi - lo + 1
        potential += sum(n // 7 for suit, n in cards.items() if ranks.get(suit, 0) >= 7)
    return potential


def take_within_reach(hand, top: Card, opened: bool, group_of_top: bool) -> bool:
    """``False`` when the top card surely cannot be melded from ``hand``: no natural pair of its rank, no group of
    its rank on the team's table (``group_of_top``), and, for a team that has opened (``opened``), not one natural
    card of its rank and a wild card. ``True``: perhaps (ask ``check_take_pile``, which decides)."""
    if group_of_top:
        return True
    naturals = 0
    wild = False
    for c in hand:
        if c.rank == top.rank and not c.is_wild:
            naturals += 1
            if naturals >= 2:
                return True
        elif c.is_wild:
            wild = True
    return opened and naturals == 1 and wild
