"""Dealing a candidate situation: what each kind's generator draws its cards from.

Every situation is dealt from a :class:`Pool`, a shuffled copy of the rule set's decks, so that no card appears
more often than the decks hold. The helpers deal the parts most kinds need (a group of one rank with some wild
cards, a team's legal melds, a score a game reaches) and write cards in notation for a puzzle file.

>>> import random
>>> from canasta_tutor.engine.rules import CLASSIC
>>> pool = Pool(CLASSIC, random.Random(1))
>>> meld = group(pool, CLASSIC, "K", 3, 1)
>>> len(meld), [c.is_wild for c in meld], codes(meld[-1:]) in ("2S", "2H", "2D", "2C", "JK")
(4, [False, False, False, True], True)
"""

from __future__ import annotations

import random
from collections import Counter

from ..engine.cards import ALL_CARDS, Card, format_cards
from ..engine.melds import check_meld
from ..engine.rules import RuleSet

#: The ranks a generator melds, in the order it draws them from.
NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
WILD = (Card("2S"), Card("2H"), Card("2D"), Card("2C"), Card("JK"))


class Pool:
    """What is left of the decks while a situation is dealt."""

    def __init__(self, rules: RuleSet, rng: random.Random):
        self.rng = rng
        self.left = Counter({c: (rules.jokers if c.rank == "JK" else rules.decks) for c in ALL_CARDS})

    def take(self, card: Card) -> bool:
        """Take this card if the decks still hold one."""
        if self.left[card] > 0:
            self.left[card] -= 1
            return True
        return False

    def naturals(self, rank: str, n: int) -> list[Card]:
        """Up to ``n`` cards of ``rank``, of random suits."""
        suits = [s for s in "SHDC" for _ in range(self.left[Card(rank + s)])]
        self.rng.shuffle(suits)
        out = [Card(rank + s) for s in suits[:n]]
        for c in out:
            self.left[c] -= 1
        return out

    def wild(self, n: int) -> list[Card]:
        """Up to ``n`` wild cards (twos and jokers)."""
        out = []
        for _ in range(n):
            choices = [c for c in WILD if self.left[c] > 0]
            if not choices:
                break
            card = self.rng.choice(choices)
            self.left[card] -= 1
            out.append(card)
        return out

    def draw(self, n: int, *, allow=lambda c: True) -> list[Card]:
        """Up to ``n`` cards that ``allow`` accepts, each as likely as the copies left of it."""
        out = []
        for _ in range(n):
            choices = [c for c, k in self.left.items() if k > 0 and allow(c)]
            if not choices:
                break
            weights = [self.left[c] for c in choices]
            card = self.rng.choices(choices, weights)[0]
            self.left[card] -= 1
            out.append(card)
        return out


def codes(cards) -> str:
    """Cards in a puzzle file's notation (``"KH 2C"``)."""
    return format_cards(cards, symbols=False)


def not_red_three(c: Card) -> bool:
    return not c.is_red_three


def plain(c: Card) -> bool:
    """A natural card (no wild card)."""
    return c.is_natural


def group(pool: Pool, rules: RuleSet, rank: str, naturals: int, wild: int) -> list[Card]:
    """``naturals`` cards of ``rank`` and as many of ``wild`` wild cards as the rules let them hold."""
    cards = pool.naturals(rank, naturals)
    cap = rules.wild_capacity(len(cards))
    return cards + pool.wild(min(wild, cap))


def team_melds(pool: Pool, rules: RuleSet, rng: random.Random, count: int, d: int, *, avoid=()) -> list[list[Card]]:
    """Up to ``count`` legal melds of different ranks (none of ``avoid``), bigger and wilder from level ``d`` 3."""
    melds = []
    ranks = [r for r in NATURAL_RANKS if r not in avoid]
    rng.shuffle(ranks)
    for rank in ranks[:count]:
        size = rng.choice([3, 3, 4, 5] + ([6, 7, 7] if d >= 3 else []))
        wild = rng.choice([0, 0, 1] + ([1, 2] if d >= 2 else []))
        meld = group(pool, rules, rank, max(2, size - wild), wild)
        if check_meld(meld, rules).ok:
            melds.append(meld)
    return melds


def deal_score(rng: random.Random, rules: RuleSet, d: int) -> int:
    """A team's score, a multiple of 5 that a game reaches; from level 3 often on a step of the opening table."""
    if d >= 3 and rng.random() < 0.6:
        edges = []
        for lowest, _ in rules.opening_table:
            if lowest is not None:
                edges += [lowest - 5, lowest]
        return rng.choice(edges)
    if rng.random() < 0.1 * d:
        return -5 * rng.randint(1, 100)
    return 5 * rng.randint(0, (rules.target_score - 5) // 5)


def team_size(rules: RuleSet) -> int:
    """How many players a side has: one alone with two players, two with three (the partnership) or four,
    three with six (two teams of three, or three of two)."""
    return {2: 1, 3: 2, 4: 2, 6: 3}.get(rules.players, 2)


__all__ = ["NATURAL_RANKS", "Pool", "WILD", "codes", "deal_score", "group", "not_red_three", "plain", "team_melds",
           "team_size"]
