"""The openings the game offers: sets of melds a team that has not opened puts down together.

Every legal opening, named as the rules see it (how many natural cards of each rank, how many wild cards with
each, which runs of one suit): first the whole shapes (each rank's natural cards all together, samba's runs
whole, as the game offered before issue 19), then every other one (part of a rank, part of a run). The cards
of a name are chosen one way: natural cards in hand order, wild cards jokers first. Beyond :data:`OPENING_LIMIT`
whole shapes or :data:`EXTRA_LIMIT` others, the compact form (:func:`minimal_combos`): the openings from which no
meld can be left out, the others reached by the new melds offered once the team has opened.

>>> from canasta_tutor.engine.cards import format_cards, parse_cards
>>> from canasta_tutor.engine.rules import CLASSIC
>>> [" | ".join(map(format_cards, combo)) for combo in opening_combos(parse_cards("KH KS KD 7C 7D JK 4S 9C"),
...                                                                    CLASSIC, 50, keep=2)]
['K♥ K♠ K♦ Joker', '7♣ 7♦ Joker', '7♣ 7♦ Joker | K♥ K♠ K♦', 'K♥ K♠ Joker']
"""

from __future__ import annotations

from ..engine.cards import SEQUENCE_ORDER, Card, card_points
from ..engine.counts import RUN_MAX, RUN_MIN, group_wilds
from ..engine.rules import RuleSet

#: How many opening combinations of the whole shape (each rank's natural cards together, runs whole) the action
#: list offers at most.
OPENING_LIMIT = 64
#: How many other openings (part of a rank, part of a run) it offers besides, at most: beyond either limit the
#: list is offered in its compact form (:func:`minimal_combos`), which leaves no legal opening out.
EXTRA_LIMIT = 2000
#: The least meld points of no meld at all (a number above any meld's).
_NO_MELD = 1 << 30


def runs(naturals, rules: RuleSet) -> list[tuple[Card, ...]]:
    """Samba: the longest runs (at most ``counts.RUN_MAX``) of one suit in ``naturals``: a list of card tuples."""
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
            if len(run) >= RUN_MIN:
                out.append(tuple(run[-RUN_MAX:]))
            run = []
    return out


def opening_combos(hand, rules: RuleSet, minimum: int, *, keep: int, top: Card | None = None) -> list[tuple]:
    """Every set of melds an unopened team may put down together from ``hand`` (with the pile's ``top`` card in
    the first meld, when taking the pile), reaching ``minimum`` card points and leaving ``keep`` cards in hand:
    the whole shapes first (:func:`whole_combos`), then the others (:func:`other_combos`). When they are more than
    :data:`OPENING_LIMIT` whole shapes or :data:`EXTRA_LIMIT` others, the compact form instead
    (:func:`minimal_combos`): every opening from which no meld can be left out, which with the new melds offered
    once the team has opened (in the same turn) still reaches every legal opening."""
    if not rules.sequences:   # one pass: the whole shapes come in the order whole_combos gives them
        search = _EveryOpening(hand, rules, minimum, keep, top, frozenset(), split=True)
        search.run((), search.naturals)
        if not search.cut:
            return search.whole + search.out
        return minimal_combos(hand, rules, minimum, keep=keep, top=top)
    whole = whole_combos(hand, rules, minimum, keep=keep, top=top)
    seen = {meld_names(c) for c in whole}
    search = _EveryOpening(hand, rules, minimum, keep, top, seen)
    sets = _run_sets(search.naturals, rules, EXTRA_LIMIT)
    for chosen_runs, rest in sets:
        search.run(chosen_runs, rest)
    if len(whole) >= OPENING_LIMIT or search.cut or len(sets) >= EXTRA_LIMIT:
        return minimal_combos(hand, rules, minimum, keep=keep, top=top)
    return whole + search.out


#: The most openings of the compact form (far above what a hand of a game gives; a guard against runaway work).
MINIMAL_LIMIT = 100_000


def minimal_combos(hand, rules: RuleSet, minimum: int, *, keep: int, top: Card | None = None) -> list[tuple]:
    """The compact form of the openings (issue 19: "if the list is too long, offer a compact form that still
    covers every legal opening"): every legal opening from which no meld can be left out while reaching
    ``minimum`` (its points less its smallest meld's fall short; the top card's meld, which every take holds, is
    never left out). Any legal opening is one of them plus other
    melds, and those are new melds the game offers once the team has opened, in the same turn (a meld of a rank
    the team has no group of, of any legal size and wild cards; samba's runs), keeping two cards as the opening
    did; melded in one go from the hand, a canasta among them is a concealed one all the same. With the top card
    (taking the pile) its meld is in every one."""
    search = _EveryOpening(hand, rules, minimum, keep, top, frozenset(), minimal=True)
    for chosen_runs, rest in _run_sets(search.naturals, rules, MINIMAL_LIMIT, minimum=minimum):
        search.run(chosen_runs, rest)
    return search.out


def whole_combos(hand, rules: RuleSet, minimum: int, *, keep: int, top: Card | None = None) -> list[tuple]:
    """The openings of the whole shape: each rank's natural cards all together, with as many wild cards as
    the rules allow (jokers first), sambas' runs whole. At most :data:`OPENING_LIMIT` of them."""
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
        for w in group_wilds(n, self.rules._wild_caps, len(wilds) - used_wild):
            cards = tuple(lead + group) + tuple(wilds[used_wild:used_wild + w])
            self.extend(i + 1, used_wild + w, melds + [cards], points + card_points(cards), used + len(group) + w)


# --- every other opening: part of a rank, part of a run ---------------------------------------------------------

def meld_names(melds) -> frozenset:
    """What the rules look at in a set of melds: ``("G", rank, natural cards, wild cards)`` per group,
    ``("R", suit, first rank order, length)`` per run, with how often each appears."""
    out: dict = {}
    for m in melds:
        naturals = [c for c in m if c.is_natural]
        ranks = {c.rank for c in naturals}
        if len(ranks) == 1:
            key = ("G", naturals[0].rank, len(naturals), len(m) - len(naturals))
        else:
            key = ("R", naturals[0].suit, min(SEQUENCE_ORDER[c.rank] for c in m), len(m))
        out[key] = out.get(key, 0) + 1
    return frozenset(out.items())


def all_runs(naturals, rules: RuleSet) -> list[tuple[Card, ...]]:
    """Samba: every run of three to seven cards of one suit in ``naturals`` (one card of each rank: the first in
    hand order), by suit, lowest first, shortest first."""
    if not rules.sequences:
        return []
    by_suit: dict[str, dict[int, Card]] = {}
    for c in naturals:
        by_suit.setdefault(c.suit, {}).setdefault(SEQUENCE_ORDER[c.rank], c)
    out = []
    for suit in sorted(by_suit):
        ranks = by_suit[suit]
        for start in sorted(ranks):
            end = start
            while end + 1 in ranks and end + 1 < start + RUN_MAX:
                end += 1
            for last in range(start + RUN_MIN - 1, end + 1):
                out.append(tuple(ranks[o] for o in range(start, last + 1)))
    return out


def _run_sets(naturals: list[Card], rules: RuleSet, limit: int, *, minimum: int | None = None):
    """Every set of runs the natural cards make at once (no card used twice; a run twice where the decks give
    the copies), with the natural cards left: ``(runs, rest)``, the empty set first. With ``minimum``: only the
    sets from which no run can be left out while reaching it (the compact form)."""
    candidates = all_runs(naturals, rules)
    out: list = []

    def choose(i: int, chosen: tuple, rest: list) -> None:
        if len(out) >= limit:
            return
        if minimum is not None and chosen:
            points = sum(card_points(r) for r in chosen)
            if points - min(card_points(r) for r in chosen) >= minimum:
                return   # a run could be left out: no set with these runs is minimal
        out.append((chosen, rest))
        for j in range(i, len(candidates)):
            left = _without(rest, (candidates[j],))
            if left is not None:
                choose(j, chosen + (candidates[j],), left)

    choose(0, (), list(naturals))
    return out


def other_combos(hand, rules: RuleSet, minimum: int, *, keep: int, top: Card | None = None, seen=frozenset()):
    """The openings :func:`whole_combos` does not give (their names not in ``seen``): for each set of runs,
    every choice per rank of none or two or more of its natural cards (the top card's rank at least a pair from
    hand), each with 0 to the allowed number of wild cards, jokers first; at most :data:`EXTRA_LIMIT`."""
    search = _EveryOpening(hand, rules, minimum, keep, top, seen)
    for chosen_runs, rest in _run_sets(search.naturals, rules, EXTRA_LIMIT):
        search.run(chosen_runs, rest)
    return search.out


class _EveryOpening:
    """Depth first over the ranks left after a set of runs: each rank none (unless it holds the top card) or
    two to all of its natural cards, with 0 to the allowed number of the wild cards still unused; pruned when
    the points still to come cannot reach the minimum, or too few cards would be kept."""

    def __init__(self, hand, rules: RuleSet, minimum: int, keep: int, top: Card | None, seen, split: bool = False,
                 minimal: bool = False):
        self.rules, self.minimum, self.keep, self.top, self.seen = rules, minimum, keep, top, seen
        #: ``cut``: an opening was left out by the limits; ``minimal``: the compact form (no limit but
        #: MINIMAL_LIMIT; only the openings from which no meld can be left out)
        self.cut = False
        self.minimal = minimal
        #: ``split``: the whole shapes (each rank's natural cards all together) go to ``whole`` (at most
        #: OPENING_LIMIT), the others to ``out``; else every opening whose name is not in ``seen`` goes to ``out``
        self.split = split
        self.whole: list[tuple] = []
        self.naturals = [c for c in hand if c.is_natural]
        self.wilds = tuple(sorted((c for c in hand if c.is_wild), key=lambda c: -c.points))
        points = [c.points for c in self.wilds]
        self.wild_after = [sum(points[i:]) for i in range(len(points) + 1)]   # wild points from i on
        self.wild_before = [sum(points[:i]) for i in range(len(points) + 1)]   # the first i wild cards' points
        self.n_hand = len(hand)
        self.out: list[tuple] = []

    def run(self, chosen_runs: tuple, rest: list[Card]) -> None:
        by_rank: dict[str, list[Card]] = {}
        for c in rest:
            by_rank.setdefault(c.rank, []).append(c)
        ranks = sorted((r for r, cs in by_rank.items() if len(cs) >= 2), key=SEQUENCE_ORDER.__getitem__)
        top = self.top
        if top is not None:
            if top.rank not in ranks:
                return
            ranks.remove(top.rank)
            ranks.insert(0, top.rank)
        self.runs, self.by_rank, self.ranks = chosen_runs, by_rank, ranks
        # each rank's groups, once: (natural cards from hand, the group's cards, their points, the wild-card
        # counts it may take: the counting core's group_wilds)
        caps = self.rules._wild_caps
        self.choices = []
        for i, rank in enumerate(ranks):
            group = by_rank[rank]
            lead = (top,) if top is not None and i == 0 else ()
            cards = [lead + tuple(group[:k]) for k in range(2, len(group) + 1)]
            self.choices.append([(len(c) - len(lead), c, card_points(c), group_wilds(len(c), caps)) for c in cards])
        # the most points the ranks from i on could still add (all their natural cards, the top card)
        ahead = [0] * (len(ranks) + 1)
        for i in range(len(ranks) - 1, -1, -1):
            ahead[i] = ahead[i + 1] + card_points(by_rank[ranks[i]])
        if top is not None:
            ahead[0] += top.points
        self.ahead = ahead
        least = min((card_points(r) for r in chosen_runs), default=_NO_MELD)
        self.extend(0, 0, [], sum(card_points(r) for r in chosen_runs), sum(len(r) for r in chosen_runs), True,
                    least)

    def extend(self, i: int, used_wild: int, melds: list, points: int, used: int, whole: bool,
               least: int = 0) -> None:
        if self.n_hand - used < self.keep:
            return
        if self.minimal:
            if points - least >= self.minimum or len(self.out) >= MINIMAL_LIMIT:
                return   # a meld could be left out: no opening with these melds is minimal
        elif len(self.out) >= EXTRA_LIMIT and not (whole and len(self.whole) < OPENING_LIMIT):
            self.cut = True
            return
        if points + self.ahead[i] + self.wild_after[used_wild] < self.minimum:
            return
        if i == len(self.ranks):
            combo = tuple(melds) + self.runs
            if not combo or points < self.minimum:
                return
            if self.minimal:
                self.out.append(combo)
            elif self.split:
                if whole and len(self.whole) < OPENING_LIMIT:
                    self.whole.append(combo)
                elif len(self.out) < EXTRA_LIMIT:   # (the whole shapes beyond OPENING_LIMIT among the others)
                    self.out.append(combo)
                else:
                    self.cut = True
            elif meld_names(combo) not in self.seen:
                if len(self.out) < EXTRA_LIMIT:
                    self.out.append(combo)
                else:
                    self.cut = True
            return
        forced = self.top is not None and i == 0
        if not forced:
            self.extend(i + 1, used_wild, melds, points, used, whole, least)
        wilds = self.wilds
        before = self.wild_before
        left = len(wilds) - used_wild
        choices = self.choices[i]
        last = len(choices) + 1   # k of the rank's natural cards all together
        for k, cards, base, allowed in choices:
            for w in range(allowed.start, min(allowed.stop, left + 1)):
                meld_points = base + before[used_wild + w] - before[used_wild]
                self.extend(i + 1, used_wild + w, melds + [cards + wilds[used_wild:used_wild + w]],
                            points + meld_points, used + k + w, whole and k == last,
                            least if forced else min(least, meld_points))
