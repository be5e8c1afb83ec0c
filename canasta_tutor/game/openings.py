"""The openings the game offers: sets of melds a team that has not opened puts down together.

A practical list, not every legal opening (``apply`` accepts the others): each rank's natural cards all
together, with 0 to the allowed number of wild cards (jokers first), samba's runs whole, reaching the minimum
and keeping cards in hand; at most :data:`OPENING_LIMIT` of them.

>>> from canasta_tutor.engine.cards import format_cards, parse_cards
>>> from canasta_tutor.engine.rules import CLASSIC
>>> [" | ".join(map(format_cards, combo)) for combo in opening_combos(parse_cards("KH KS KD 7C 7D JK 4S 9C"),
...                                                                    CLASSIC, 50, keep=2)]
['K♥ K♠ K♦ Joker', '7♣ 7♦ Joker', '7♣ 7♦ Joker | K♥ K♠ K♦']
"""

from __future__ import annotations

from ..engine.cards import SEQUENCE_ORDER, Card, card_points
from ..engine.rules import RuleSet

#: How many opening combinations (sets of melds put down together) the action list offers at most.
OPENING_LIMIT = 64


def runs(naturals, rules: RuleSet) -> list[tuple[Card, ...]]:
    """Samba: the longest runs (at most seven) of one suit in ``naturals``: a list of card tuples."""
    if not rules.sequences:
        return []
    by_suit: dict[str, dict[int, Card]] = {}
    for c in naturals:
        by_suit.setdefault(c.suit, {})[SEQUENCE_ORDER[c.rank]] = c
    out = []
    for suit in sorted(by_suit):
        ranks = by_suit[suit]
        run: list[Card] = []
        for order in range(4, 16):
            if order in ranks:
                run.append(ranks[order])
                continue
            if len(run) >= 3:
                out.append(tuple(run[-7:]))
            run = []
    return out


def opening_combos(hand, rules: RuleSet, minimum: int, *, keep: int, top: Card | None = None) -> list[tuple]:
    """Sets of melds an unopened team may put down together from ``hand`` (with the pile's ``top`` card in the
    first meld, when taking the pile): each rank's natural cards all together, with as many wild cards as
    the rules allow (jokers first), sambas' runs whole; reaching ``minimum`` card points and leaving ``keep``
    cards in hand. At most :data:`OPENING_LIMIT` of them."""
    naturals = [c for c in hand if c.is_natural]
    wilds = sorted((c for c in hand if c.is_wild), key=lambda c: -c.points)
    search = _OpeningSearch(rules, wilds, minimum, keep, len(hand), top)
    for chosen_runs in _subsets(runs(naturals, rules)):
        rest = _without(naturals, chosen_runs)
        if rest is None:
            continue
        by_rank: dict[str, list[Card]] = {}
        for c in rest:
            by_rank.setdefault(c.rank, []).append(c)
        ranks = sorted(by_rank, key=lambda r: SEQUENCE_ORDER[r])
        if top is not None:   # the top card's rank first, with at least a natural pair from hand
            if len(by_rank.get(top.rank, ())) < 2:
                continue
            ranks.remove(top.rank)
            ranks.insert(0, top.rank)
        search.run(chosen_runs, by_rank, ranks)
    return search.out


def _subsets(items: list) -> list[tuple]:
    """Every subset of ``items``, as tuples in their order: ``()`` first, then those with the first item..."""
    choices: list[tuple] = [()]
    for item in items:
        choices += [prev + (item,) for prev in choices]
    return choices


def _without(cards: list[Card], melds) -> list[Card] | None:
    """``cards`` less those of ``melds`` (one copy each), or ``None`` when a card of ``melds`` is not there."""
    rest = list(cards)
    for m in melds:
        for c in m:
            if c not in rest:
                return None
            rest.remove(c)
    return rest


class _OpeningSearch:
    """Depth first over the ranks of the natural cards left after the runs: each rank's group left out (unless
    it holds the top card) or put down with 0 to the allowed number of the wild cards still unused."""

    __slots__ = ("rules", "wilds", "minimum", "keep", "n_hand", "top", "out", "runs", "by_rank", "ranks")

    def __init__(self, rules: RuleSet, wilds: list[Card], minimum: int, keep: int, n_hand: int, top: Card | None):
        self.rules, self.wilds, self.minimum, self.keep, self.n_hand, self.top = rules, wilds, minimum, keep, \
            n_hand, top
        self.out: list[tuple] = []

    def run(self, chosen_runs: tuple, by_rank: dict[str, list[Card]], ranks: list[str]) -> None:
        """Add the openings that put down ``chosen_runs`` and groups of ``ranks``."""
        self.runs, self.by_rank, self.ranks = chosen_runs, by_rank, ranks
        self.extend(0, 0, [], sum(card_points(r) for r in chosen_runs), sum(len(r) for r in chosen_runs))

    def extend(self, i: int, used_wild: int, melds: list, points: int, used: int) -> None:
        if len(self.out) >= OPENING_LIMIT:
            return
        if i == len(self.ranks):
            if (melds or self.runs) and points >= self.minimum and self.n_hand - used >= self.keep:
                self.out.append(tuple(melds) + self.runs)   # the top card's meld first
            return
        group = self.by_rank[self.ranks[i]]
        forced = self.top is not None and i == 0
        lead = [self.top] if forced else []
        n = len(group) + len(lead)
        if not forced:
            self.extend(i + 1, used_wild, melds, points, used)
        if n < 2:
            return
        wilds = self.wilds
        cap = min(self.rules.wild_capacity(n), len(wilds) - used_wild)
        for w in range(max(0, 3 - n), cap + 1):
            cards = tuple(lead + group) + tuple(wilds[used_wild:used_wild + w])
            self.extend(i + 1, used_wild + w, melds + [cards], points + card_points(cards), used + len(group) + w)
