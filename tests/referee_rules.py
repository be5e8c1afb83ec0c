"""The referee's rules: what the player to move may do now, found by brute force from the rules as written.

The oracle of ``test_replay_referee.py``. It is written from the sources (``docs/sources/``) and
``shared/spec/rule-decisions.md`` (quoted beside each rule below; neither is read at run time), with a preset's
numbers and switches read from its :class:`~canasta_tutor.engine.rules.RuleSet` option values (``wild_limit``,
``max_wild``, ``opening_table``, ``sequences``, ``canastas_to_go_out``, ``take_with_natural_and_wild``...),
never from the engine's checks. The counting of melds and openings is ``meld_oracle.py``'s (also written from
the rules); this module adds the pile and going out.

Four questions, each answered with a *witness* (the move, in words and cards) or ``None``:

- :func:`take_witness`: may the pile be taken now, and with which cards (draw phase);
- :func:`opening_witness`: may a team that has not opened open now by melding (meld phase);
- :func:`new_meld_witnesses`: for each rank (and, under sequences, each suit) a team that has opened may start
  a new meld of now, one such meld;
- :func:`go_out_witness`: may the player go out now (every card placed, with or without a last discard).

Where a rule is unclear the referee takes the narrower reading, so that it never calls a move legal that a
reading of the rules forbids: a black-three meld is one meld of three or four (two and a wild card where the
preset allows it); a team holds one group of a rank (rule-decisions, classic) in every preset; going out, a
samba swap (004 rule 4) is a natural card laid on an unfinished group of the side giving back one of its wild
cards; the pile's top card and a pair go onto a finished canasta only where the top card alone may
(``take_onto_canasta``); with the stock used up, no last discard (000: a red three drawn as
the last card forbids it, and the referee does not look at what was drawn); a take leaves two cards in hand, one
to discard and one to keep, or else the player goes out in the same turn (rule-decisions: "then the player can
discard, or go out legally"; for a team that has not opened, only without sequences); a new meld or an opening
keeps two cards (``docs/game-model.md``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from meld_oracle import (
    KEEP,
    LONGEST_RUN,
    RUN_ORDER,
    VALUE,
    Hand,
    Written,
    cards_for,
    name_of,
    new_melds,
    run_sets,
)

from canasta_tutor.engine.cards import Card
from canasta_tutor.engine.rules import RuleSet

#: 002: "Tweeën en jokers zijn wild".
WILD = ("2", "JK")
ORDER_RANK = {o: r for r, o in RUN_ORDER.items()}
#: A group of seven or more is a canasta (002: "Zeven gelijke kaarten is een canasta"); 004: a sequence of seven
#: is a samba, and counts with the canastas for going out.
CANASTA = 7


def is_wild(c: Card) -> bool:
    return c.rank in WILD


def is_natural(c: Card) -> bool:
    """A card that can be one of a group's natural cards: 4 to ace (a three never is)."""
    return c.rank in RUN_ORDER


def is_red_three(c: Card) -> bool:
    return c.rank == "3" and c.suit in "HD"


def is_black_three(c: Card) -> bool:
    return c.rank == "3" and c.suit in "SC"


def written_of(rules: RuleSet) -> Written:
    """The preset's meld and opening rules from its option values (how each value reads is rule-decisions'):
    ``three``: at most ``max_wild`` wild cards (002 "hoogstens 3 wilde"); ``not-more-than-natural``: never more
    wild than natural (003); ``fewer-than-natural``: more natural than wild (001, 004); the opening table's rows
    as ``(lowest score, minimum)``."""
    limit, most = rules.wild_limit, rules.max_wild

    def most_wild(naturals: int) -> int:
        cap = {"three": most, "not-more-than-natural": naturals, "fewer-than-natural": naturals - 1}[limit]
        return max(0, min(cap, most))

    table = rules.opening_table

    def minimum(score: int) -> int:
        value = table[0][1]
        for lowest, row_minimum in table:
            if lowest is None or score >= lowest:
                value = row_minimum
        return value

    return Written(most_wild, minimum, runs=rules.sequences)


def codes(cards) -> str:
    return " ".join(c.code for c in cards)


@dataclass(frozen=True)
class Position:
    """What the referee looks at: the player's hand, his side's melds, his score before the hand, the pile
    (bottom first) and how many cards the stock holds."""

    rules: RuleSet
    hand: tuple
    table: tuple
    score: int
    pile: tuple
    stock: int

    def describe(self) -> str:
        table = " | ".join(codes(m) for m in self.table) or "none"
        return (f"score {self.score} (minimum {written_of(self.rules).minimum(self.score)}), hand {codes(self.hand)}"
                f", pile {codes(self.pile) or 'empty'} (bottom first), team's melds {table}, stock {self.stock}")


@dataclass
class Table:
    """A side's melds as the rules see them: groups by rank (natural cards, wild cards), sequences."""

    groups: dict          # rank -> [naturals, wilds, meld index]
    runs: list            # (suit, lowest order, highest order, meld index)

    @classmethod
    def of(cls, melds) -> Table:
        groups, runs = {}, []
        for i, m in enumerate(melds):
            name = name_of(m)
            if name[0] == "G":
                groups[name[1]] = [name[2], name[3], i]
            else:
                runs.append((name[1], name[2][0], name[2][-1], i))
        return cls(groups, runs)


# --- the pile ----------------------------------------------------------------------------------------------------

def pile_frozen(pos: Position) -> bool:
    """rule-decisions (classic): frozen "when a wild card or a red three lies in it, when the team has not
    opened, or when the preset says it always is"; 004 (samba): a black three in it freezes it too; 003
    (hoyle): a red three does not (the options ``red_three_freezes_pile``, ``black_three_freezes_pile``)."""
    r = pos.rules
    return (not pos.table or r.pile_always_frozen or any(is_wild(c) for c in pos.pile)
            or (r.red_three_freezes_pile and any(is_red_three(c) for c in pos.pile))
            or (r.black_three_freezes_pile and any(is_black_three(c) for c in pos.pile)))


def take_witness(pos: Position) -> str | None:
    """May the pile be taken, and how? rule-decisions: nobody takes it with a wild card or a black three on top;
    a frozen pile only with a natural pair from hand matching the top card (and, for a team that has not opened,
    melds reaching the minimum, the top card counting, no other pile card); an unfrozen one also with one natural
    card and a wild card (``take_with_natural_and_wild``), or by laying the top card off on the team's meld of its
    rank (on a finished canasta only with ``take_onto_canasta``). The pile's other cards come to the hand, red
    threes aside; two cards must be left in hand."""
    if not pos.pile or not is_natural(pos.pile[-1]):
        return None
    rules, top = pos.rules, pos.pile[-1]
    if rules.one_card_pile_rule and len(pos.pile) == 1:
        return None   # 000's one-card rule (an option; on in no preset): not judged here
    rest = sum(1 for c in pos.pile[:-1] if not is_red_three(c))
    written = written_of(rules)
    if not pos.table:
        found = best_opening(rules, pos.hand, written.minimum(pos.score), keep=KEEP - rest, top=top)
        if found is None:
            return _take_and_go_out_unopened(pos, top, rest)
        melds, points = found
        return f"take the pile, opening with {' | '.join(codes(m) for m in melds)} ({points} points)"
    naturals = [c for c in pos.hand if c.rank == top.rank]
    wilds = [c for c in pos.hand if is_wild(c)]
    group = Table.of(pos.table).groups.get(top.rank)
    finished = group is not None and group[0] + group[1] >= CANASTA
    onto = "onto the team's meld of that rank" if group else "as a new meld"
    ways = []   # (words, cards shown, the table after)
    if len(naturals) >= 2 and (not finished or rules.take_onto_canasta):
        after = _table_after(pos.table, group, (top,) + tuple(naturals[:2]))
        ways.append((f"take the pile with the natural pair {codes(naturals[:2])} and {top.code} {onto}",
                     naturals[:2], after))
    if not pile_frozen(pos):
        if group is None and naturals and wilds and rules.take_with_natural_and_wild and written.most_wild(2) >= 1:
            ways.append((f"take the pile with {naturals[0].code} and the wild card {wilds[0].code} and {top.code} "
                         f"as a new meld", [naturals[0], wilds[0]], pos.table + ((top, naturals[0], wilds[0]),)))
        if group is not None and (not finished or rules.take_onto_canasta):
            ways.append((f"take the pile, laying {top.code} off on the team's meld {codes(pos.table[group[2]])}", [],
                         _table_after(pos.table, group, (top,))))
    for words, shown, _after in ways:
        if len(pos.hand) - len(shown) + rest >= KEEP:
            return words
    # rule-decisions: "Taking the pile must leave a turn that can be finished legally: ... then the player can
    # discard, or go out legally": with fewer than two cards left, the take is allowed when he then goes out
    for words, shown, after in ways:
        left = list(pos.hand)
        for c in shown:
            left.remove(c)
        left += [c for c in pos.pile[:-1] if not is_red_three(c)]
        out = go_out_witness(Position(rules, tuple(left), after, pos.score, (), pos.stock))
        if out is not None:
            return f"{words}, then {out}"
    return None


def _table_after(table: tuple, group, cards: tuple) -> tuple:
    """The side's melds after ``cards`` (the top card and those shown) go onto its group (``Table`` entry) or, with
    no group, make a new meld."""
    if group is None:
        return table + (cards,)
    i = group[2]
    return table[:i] + (table[i] + cards,) + table[i + 1:]


def _take_and_go_out_unopened(pos: Position, top: Card, rest: int) -> str | None:
    """A team that has not opened takes the pile and goes out in the same turn (rule-decisions: the turn is
    finished by going out): every card of the hand, the top card and the pile's other cards placed in new melds
    (one last discard at most), the top card's rank with a natural pair or more from hand, the minimum reached by
    the top card and the cards from hand only ("no other pile card does"). Narrow reading: without sequences
    only (where a rank's natural cards all go to its one group), and the cards from hand counted only when they
    are melded (a discarded one does not count)."""
    rules = pos.rules
    if rules.sequences or rest > 1 or sum(1 for c in pos.hand if c.rank == top.rank) < 2:
        return None
    minimum = written_of(rules).minimum(pos.score)
    pile_rest = [c for c in pos.pile[:-1] if not is_red_three(c)]
    cards = Counter(pos.hand) + Counter([top] + pile_rest)
    if any(is_red_three(c) for c in cards):
        return None
    for d in [None] + sorted(set(cards), key=lambda c: c.code) if pos.stock else [None]:
        placed = cards.copy()
        if d is not None:
            placed[d] -= 1
        placed = +placed
        from_hand = Counter(pos.hand) - Counter([d] if d is not None else [])
        if VALUE[top.rank] + sum(VALUE[c.rank] for c in from_hand.elements()) < minimum:
            continue
        empty = Position(rules, tuple(placed.elements()), (), pos.score, (), pos.stock)
        plan = _place_all(empty, placed, Table({}, []))
        if plan is not None:
            return ("take the pile and go out at once: " + "; ".join(plan + ([f"discard {d.code}"] if d is not None
                                                                            else ["no discard"])))
    return None


# --- openings and new melds --------------------------------------------------------------------------------------

def best_opening(rules: RuleSet, hand: tuple, minimum: int, *, keep: int, top: Card | None = None):
    """An opening of ``hand`` that reaches ``minimum``, as ``(melds, points)``, or ``None``: 002 "Je mag meerdere
    sets tegelijk leggen om het minimum te halen", card points only; a team holds one group of a rank
    (rule-decisions); each group two natural cards or more, its wild cards within the preset's limit; under
    sequences also runs of one suit (every set of them is tried, ``meld_oracle.run_sets``). With the pile's
    ``top`` card (taking the pile): it is in a group of its rank with a natural pair or more from hand, it counts,
    and ``keep`` already allows for the pile's other cards. Every choice of how many natural and wild cards go
    into each rank's group is counted (a table of the most points per cards and wild cards used, rank by rank),
    and ``keep`` cards stay in hand."""
    written = written_of(rules)
    counted = Hand.of(hand)
    wild_points = counted.wild_points
    room = len(hand) - keep
    for chosen, left in run_sets(counted, written):
        run_cards_used = sum(len(r[2]) for r in chosen)
        run_points = sum(VALUE[ORDER_RANK[o]] for r in chosen for o in r[2])
        by_rank = Counter()
        for (_suit, rank), n in left.items():
            by_rank[rank] += n
        table = _group_table(written, by_rank, len(wild_points), top)
        for (used, wild), (points, groups) in table.items():
            if not (groups or chosen) or run_cards_used + used > room:
                continue
            total = run_points + points + sum(wild_points[:wild])
            if total >= minimum:
                return _opening_cards(hand, chosen, groups, top), total
    return None


def _group_table(written: Written, by_rank: Counter, wilds: int, top: Card | None) -> dict:
    """``(cards from hand, wild cards) -> (most natural-card points, the groups)`` over every choice of groups:
    per rank none or one group of ``n`` natural cards (two or more from hand) with ``w`` wild cards."""
    ranks = sorted(by_rank) if top is None else [top.rank] + sorted(r for r in by_rank if r != top.rank)
    table = {(0, 0): (0, ())}
    for i, rank in enumerate(ranks):
        forced = top is not None and i == 0
        step = {} if forced else dict(table)
        for (used, wild), (points, groups) in table.items():
            for n in range(2, by_rank[rank] + 1):
                natural = n + forced
                for w in range(0, wilds - wild + 1):
                    if natural + w < 3 or w > written.most_wild(natural):
                        continue
                    key = (used + n + w, wild + w)
                    value = points + VALUE[rank] * natural
                    if key not in step or step[key][0] < value:
                        step[key] = (value, groups + ((rank, n, w),))
        table = step
    return table


def _opening_cards(hand: tuple, runs: tuple, groups: tuple, top: Card | None) -> list:
    """The cards of an opening: runs, then groups (the top card first in its group), wild cards jokers first."""
    left = list(hand)
    melds = []
    for _r, suit, orders in runs:
        meld = [next(c for c in left if c.suit == suit and c.rank == ORDER_RANK[o]) for o in orders]
        for c in meld:
            left.remove(c)
        melds.append(meld)
    wilds = sorted((c for c in left if is_wild(c)), key=lambda c: -VALUE[c.rank])
    for i, (rank, n, w) in enumerate(groups):
        meld = [c for c in left if c.rank == rank][:n]
        for c in meld:
            left.remove(c)
        if top is not None and i == 0:   # the top card's group comes first (_group_table)
            meld = [top] + meld
        melds.append(meld + wilds[:w])
        wilds = wilds[w:]
    return melds


def opening_witness(pos: Position) -> str | None:
    """A team that has not opened: melds from hand reaching the minimum (:func:`best_opening`), keeping two
    cards."""
    found = best_opening(pos.rules, pos.hand, written_of(pos.rules).minimum(pos.score), keep=KEEP)
    if found is None:
        return None
    melds, points = found
    return f"open with {' | '.join(codes(m) for m in melds)} ({points} points)"


def meld_key(meld) -> tuple:
    """What a new meld starts: ``("G", rank)`` for a group, ``("R", suit)`` for a sequence."""
    name = name_of(meld)
    return name[:2]


def new_meld_witnesses(pos: Position) -> dict:
    """A team that has opened: for each rank it has no group of (and, under sequences, each suit), one legal new
    meld from hand of that rank (suit) that keeps two cards."""
    written = written_of(pos.rules)
    hand = Hand.of(pos.hand)
    out = {}
    for o in new_melds(written, hand, set(Table.of(pos.table).groups)):
        ((name, _times),) = o.melds
        key = name[:2]
        if key not in out:
            (meld,) = cards_for(hand, o.melds, random.Random(0))
            out[key] = f"meld {codes(meld)}"
    return out


# --- going out ---------------------------------------------------------------------------------------------------

def go_out_witness(pos: Position) -> str | None:
    """May the player go out now? rule-decisions: every card of the hand is melded or laid off, with or without
    a final discard; the team's side then holds ``canastas_to_go_out`` canastas (with sambas under sequences),
    which may be completed in this turn; black threes only as three or four together with no wild card (001:
    two and a wild card, ``black_threes_with_wild``); a team that has not opened needs its minimum unless going
    out concealed needs none (``concealed_needs_no_minimum``; going out without melds before is concealed)."""
    rules = pos.rules
    hand = Counter(pos.hand)
    if any(is_red_three(c) for c in hand):
        return None
    table = Table.of(pos.table)
    minimum = written_of(rules).minimum(pos.score) if not pos.table and not rules.concealed_needs_no_minimum else 0
    for d in _discards(pos, hand, table):
        rest = hand.copy()
        if d is not None:
            rest[d] -= 1
        rest = +rest
        if minimum and sum(VALUE[c.rank] for c in rest.elements()) < minimum:
            continue   # every card left is melded: their points are the opening's
        plan = _place_all(pos, rest, table)
        if plan is not None:
            return "go out: " + "; ".join(plan + ([f"discard {d.code}"] if d is not None else ["no discard"]))
    return None


def _discards(pos: Position, hand: Counter, table: Table) -> list:
    """The last discards worth trying (``None``: none; with the stock used up, none only). A natural card that
    has no place (the only one of its rank, no group of it on the table and, under sequences, no two cards of its
    suit beside it in hand or on a sequence) can only be the discard: two such cards, and there is no way out.
    Without sequences a card's suit changes nothing, so one card per rank is tried."""
    if not pos.stock:
        return [None]
    by_rank = Counter(c.rank for c in hand.elements() if is_natural(c))
    beside = set()
    if pos.rules.sequences:
        beside = {(c.suit, RUN_ORDER[c.rank]) for c in hand if is_natural(c)}
        beside |= {(suit, o) for suit, lo, hi, _i in table.runs for o in range(lo, hi + 1)}

    def has_place(c: Card) -> bool:
        if by_rank[c.rank] > 1 or c.rank in table.groups:
            return True
        o = RUN_ORDER[c.rank]
        return any((c.suit, o + a) in beside and (c.suit, o + b) in beside for a, b in ((-2, -1), (-1, 1), (1, 2)))

    lone = [c for c in hand.elements() if is_natural(c) and not has_place(c)]
    if len(lone) > 1:
        return []
    if lone:
        return lone
    cards = sorted(hand, key=lambda c: c.code)
    if not pos.rules.sequences:
        cards = list({c.rank: c for c in reversed(cards)}.values())
    return [None] + cards


def _place_all(pos: Position, rest: Counter, table: Table) -> list | None:
    """A way to meld or lay off every card of ``rest`` that leaves the side its canastas, in words, or None."""
    naturals = Counter({(c.suit, c.rank): n for c, n in rest.items() if is_natural(c)})
    wilds = sorted((c for c in rest.elements() if is_wild(c)), key=lambda c: c.code)
    black = sorted((c for c in rest.elements() if is_black_three(c)), key=lambda c: c.code)
    if len(black) in (0, 3, 4):
        black_wild = 0
    elif len(black) == 2 and pos.rules.black_threes_with_wild:
        black_wild = 1
    else:
        return None
    if black_wild > len(wilds):
        return None
    for extended, left in _run_extensions(pos, table, naturals):
        for new_runs, left2 in (run_sets(Hand((), Counter(), left, ()), written_of(pos.rules))
                                if pos.rules.sequences else [((), left)]):
            plan = _groups_and_wilds(pos, table, left2, wilds[black_wild:], extended, new_runs)
            if plan is not None:
                if black:
                    plan.append(f"meld {codes(black + wilds[:black_wild])}")
                return plan
    return None


def _run_extensions(pos: Position, table: Table, naturals: Counter):
    """Every way to lay natural cards off at the ends of the side's sequences (004: a sequence of seven is
    closed): ``([(meld index, cards added, length after)], naturals left)``."""
    if not pos.rules.sequences or not table.runs:
        yield [], naturals
        return

    def extend(i, done, left):
        if i == len(table.runs):
            yield done, left
            return
        suit, lo, hi, index = table.runs[i]
        length = hi - lo + 1
        for below in range(0, LONGEST_RUN - length + 1):
            if lo - below < min(ORDER_RANK):
                break
            down = [(suit, ORDER_RANK[o]) for o in range(lo - below, lo)]
            if any(left[k] < 1 for k in down):
                break
            for above in range(0, LONGEST_RUN - length - below + 1):
                if hi + above > max(ORDER_RANK):
                    break
                up = [(suit, ORDER_RANK[o]) for o in range(hi + 1, hi + above + 1)]
                if any(left[k] < 1 for k in up):
                    break
                added = down + up
                yield from extend(i + 1, done + [(index, added, length + len(added))], left - Counter(added))

    yield from extend(0, [], naturals)


def _groups_and_wilds(pos: Position, table: Table, naturals: Counter, wilds: list, extended, new_runs) -> list | None:
    """The natural cards left go to groups of their rank (the side's, or a new one of two or more: a team holds
    one group of a rank); the wild cards to groups within the limit (a new group of two natural cards needs one).
    Canastas: groups of seven or more, sequences of seven."""
    written = written_of(pos.rules)
    by_rank = Counter()
    for (_suit, rank), n in naturals.items():
        by_rank[rank] += n
    groups = []   # [rank, naturals after, wild before, cards before the wild cards, least wild, most wild]
    for rank, n in by_rank.items():
        if rank in table.groups:
            nat, wild, _i = table.groups[rank]
            # 004 rule 4 (wild_swap): a natural card from hand in place of a wild card of an unfinished group, the
            # wild card back to the hand to use this turn: the group may give back one wild card per natural card
            back = min(wild, n) if pos.rules.wild_swap and nat + wild < CANASTA else 0
            groups.append([rank, nat + n, wild, nat + wild + n, -back, written.most_wild(nat + n) - wild])
        elif n >= 2:
            groups.append([rank, n, 0, n, max(0, 3 - n), written.most_wild(n)])
        else:
            return None
    for rank, (nat, wild, _i) in table.groups.items():
        if rank not in by_rank:
            groups.append([rank, nat, wild, nat + wild, 0, written.most_wild(nat) - wild])
    runs_done = sum(1 for _i, _a, length in extended if length >= CANASTA)
    runs_done += sum(1 for (_s, _suit, orders) in (r for r in new_runs) if len(orders) >= CANASTA)
    runs_done += sum(1 for (_s, lo, hi, i) in table.runs if hi - lo + 1 >= CANASTA and i not in
                     {e[0] for e in extended})
    need = pos.rules.canastas_to_go_out - runs_done
    shares = _share_wilds(groups, len(wilds), max(0, need))
    if shares is None:
        return None
    return _plan_words(pos, table, naturals, wilds, groups, shares, extended, new_runs)


def _share_wilds(groups: list, wilds: int, need: int) -> list | None:
    """How many wild cards each group takes (all of them placed, each group within its least and most) so that
    at least ``need`` groups reach seven cards; ``None`` when no sharing does."""
    best: dict = {}

    def go(i, left):
        if i == len(groups):
            return (0, ()) if left == 0 else None
        key = (i, left)
        if key in best:
            return best[key]
        _rank, _nat, _wild, before, least, most = groups[i]
        answer = None
        for x in range(least, most + 1):   # ``left`` may dip below 0 before a later swap gives wild cards back
            sub = go(i + 1, left - x)
            if sub is not None:
                count = sub[0] + (before + x >= CANASTA)
                if answer is None or count > answer[0]:
                    answer = (count, (x,) + sub[1])
        best[key] = answer
        return answer

    result = go(0, wilds)
    return None if result is None or result[0] < need else list(result[1])


def _plan_words(pos, table, naturals, wilds, groups, shares, extended, new_runs) -> list:
    """The way out in words: each meld or lay-off with its cards."""
    cards = {}
    for (suit, rank), n in naturals.items():
        cards.setdefault(rank, []).extend([Card(rank + suit)] * n)
    out = []
    w = list(wilds)
    for (rank, _nat, _wild, _before, _least, _most), x in zip(groups, shares):
        if x < 0:   # wild cards swapped out of a group come to the hand first
            w += [c for c in pos.table[table.groups[rank][2]] if is_wild(c)][:-x]
    for (rank, _nat, _wild, _before, _least, _most), x in zip(groups, shares):
        mine = cards.get(rank, []) + [w.pop() for _ in range(max(0, x))]
        if not mine:
            continue
        if rank in table.groups:
            back = f", swapping {-x} of them for its wild cards first" if x < 0 else ""
            out.append(f"lay off {codes(mine)} on {codes(pos.table[table.groups[rank][2]])}{back}")
        else:
            out.append(f"meld {codes(mine)}")
    for index, added, _length in extended:
        if added:
            out.append(f"lay off {codes(Card(r + s) for s, r in added)} on {codes(pos.table[index])}")
    for _r, suit, orders in new_runs:
        out.append(f"meld {codes(Card(ORDER_RANK[o] + suit) for o in orders)}")
    return out
