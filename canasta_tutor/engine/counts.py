"""The counting core: going out and the most meld points, decided by counting, for any hand a game can reach.

A hand is read as counts: its natural cards per suit and rank order (4 to 14, the ace high), its wild cards
and its black threes counted apart. One dynamic programme goes over the ranks from 4 to the ace; at each rank
every natural card of a suit either continues one of that suit's open runs (samba's sequences), starts a new
run, or goes to the rank's group (the team's group on the table, or a new one), or, for the most points, stays
in hand. The state is small: per suit the lengths of its open runs, how many wild cards the groups have taken
so far, and whether the last discard is spent. Cards of one rank and suit are alike, so no arrangement of
cards is ever searched: the work grows with the ranks and the copies, not with the ways to arrange a hand
(issue 19: at most 50 ms for any hand a game reaches).

* :func:`place_every_card` -- may the player go out (every card melded, laid off or the one last discard), and
  with how many canastas? It gives the way (a :class:`~canasta_tutor.engine.go_out_search.GoOutPlan`'s parts).
* :func:`most_meld_points` -- the most card points the player can meld from a hand in one go (an opening), with
  the pile's top card in its rank's group when taking the pile.

Without sequences the same programme runs with no runs: each rank's natural cards go to its group.

>>> from canasta_tutor.engine.cards import parse_cards
>>> from canasta_tutor.engine.rules import SAMBA
>>> most_meld_points(parse_cards("10D 10H 3C 4C 5H 5S 6H 8D 9D JC JD KC KD KS QC"), SAMBA, top=Card("JD"))
90
"""

from itertools import product

# absolute imports: _speedups/counts.pyx compiles this very text as a module of that folder
from canasta_tutor.engine.cards import SEQUENCE_ORDER, SORT_KEY, Card
from canasta_tutor.engine.melds import CANASTA_SIZE, SEQUENCE_MAX
from canasta_tutor.engine.situation import SearchTooLarge

# Cython's pure-Python mode: _speedups/counts.pyx compiles this file with these types (the flat forms at the end,
# and the arrays :func:`_groups_only_points` reads a hand into); run as Python, no Cython at run time: the shim
try:
    import cython
except ImportError:   # the pure-Python engine: the types below are names only, the decorators give the function back
    class _CArray:   # ``cython.int[n]``: an array of ``n`` ints, declared a list of ``n`` zeros
        def __getitem__(self, n):
            return n

    class cython:   # noqa: N801
        compiled = False
        int = _CArray()
        longlong = bint = p_int = None
        cfunc = staticmethod(lambda f: f)
        exceptval = staticmethod(lambda *a, **k: (lambda f: f))
        declare = staticmethod(lambda n: [0] * n)

RUN_MIN, RUN_MAX = 3, SEQUENCE_MAX   # a run of three to seven cards (004); a samba at seven
_BOTH, _NONE = [0, 1], [0]   # a last discard here or not; none
#: The most states one rank of the programme may hold: hands a game reaches stay far below (issue 19's 43-card
#: samba hand, about 2,500); a hand of a hundred cards from three decks, which no game deals, gets a clear error.
STATE_LIMIT = 60_000
ORDERS = tuple(range(4, 15))
_POINTS = {o: Card(r + "S").points for r, o in SEQUENCE_ORDER.items()}


class Cells:
    """A hand's natural cards by suit and rank order (the actual cards, in hand order), its wild cards (jokers
    first) and its black threes; ``None`` from :meth:`of` when it holds a red three (never melded)."""

    __slots__ = ("cells", "wilds", "black", "suits")

    def __init__(self, cells: dict, wilds: list, black: list):
        self.cells, self.wilds, self.black = cells, wilds, black
        self.suits = sorted({s for s, _o in cells})

    @classmethod
    def of(cls, cards) -> "Cells | None":
        cells: dict[tuple[str, int], list[Card]] = {}
        wilds, black = [], []
        for c in cards:
            if c.is_natural:
                cells.setdefault((c.suit, SEQUENCE_ORDER[c.rank]), []).append(c)
            elif c.is_wild:
                wilds.append(c)
            elif c.is_black_three:
                black.append(c)
            else:
                return None
        return cls(cells, wilds, black)

    def count(self, suit: str, order: int) -> int:
        cs = self.cells.get((suit, order))
        return len(cs) if cs else 0


def _suit_options(open_runs: tuple, c: int, sequences: bool, exact: bool = True):
    """One suit at one rank: every way its ``c`` cards continue its open runs (lengths, sorted), start new runs
    or go to the rank's group. Yields ``(open runs after, sambas closed, cards to the group, how)``; ``how`` is
    ``(runs continued per length, new runs)`` for the plan. Runs shorter than three must go on; runs of seven
    close. Not ``exact``: a run of three or more is written 3 and has no end (a chain of three or more cards
    of a suit in a row splits into runs of three to seven; no samba is counted)."""
    if not sequences:
        yield (), 0, c, ((), 0)
        return
    top = RUN_MAX if exact else RUN_MIN
    lengths = sorted(set(open_runs))
    counts = [open_runs.count(L) for L in lengths]
    choices = []
    for L, n in zip(lengths, counts):
        if L < RUN_MIN:
            choices.append((n,))
        elif L >= RUN_MAX and exact:
            choices.append((0,))
        else:
            choices.append(tuple(range(n + 1)))
    for ks in product(*choices):
        k = sum(ks)
        if k > c:
            continue
        sambas = sum(n - kk for L, n, kk in zip(lengths, counts, ks) if L >= RUN_MAX)
        kept = []
        for L, kk in zip(lengths, ks):
            kept += [min(L + 1, top)] * kk
        for x in range(c - k + 1):
            yield tuple(sorted(kept + [1] * x)), sambas, c - k - x, (tuple(zip(lengths, ks)), x)


def _rank_options(state_runs: tuple, cells: Cells, order: int, sequences: bool, exact: bool = True):
    """The four suits together at one rank: ``(runs after, sambas, cards to the group, how per suit)``, one per
    distinct ``(runs after, sambas, cards to the group)``."""
    per_suit = []
    for i, s in enumerate(cells.suits):
        per_suit.append(list(_suit_options(state_runs[i], cells.count(s, order), sequences, exact)))
    seen: dict = {}
    for combo in product(*per_suit):
        key = (tuple(o[0] for o in combo), sum(o[1] for o in combo), sum(o[2] for o in combo))
        if key not in seen:
            seen[key] = tuple(o[3] for o in combo)
    return [(*key, how) for key, how in seen.items()]


def _closing(state_runs: tuple, exact: bool = True) -> int | None:
    """Sambas made when every open run closes at the end; ``None`` if one is shorter than three."""
    sambas = 0
    for runs in state_runs:
        for L in runs:
            if L < RUN_MIN:
                return None
            sambas += exact and L >= RUN_MAX
    return sambas


def _split_chain(chain: list) -> list[tuple]:
    """A chain of three or more cards of one suit in a row as runs of three to seven (the first ones seven)."""
    out = []
    while len(chain) > RUN_MAX:
        cut = RUN_MAX if len(chain) - RUN_MAX >= RUN_MIN else len(chain) - RUN_MIN
        out.append(tuple(chain[:cut]))
        chain = chain[cut:]
    out.append(tuple(chain))
    return out


# --- going out ---------------------------------------------------------------------------------------------------

def place_every_card(hand, groups: dict, sequences: list, base: int, rules, need: int, *, allow_discard=True,
                     minimum: int = 0):
    """May every card of ``hand`` be placed (with one last discard when ``allow_discard``) so that the team then
    holds ``need`` canastas? ``groups``: the team's groups on the table, rank order -> ``(index, natural cards,
    wild cards (the cards), size)``; ``sequences``: ``(index, suit, low, high)``; ``base``: canastas on the table.
    ``minimum``: the card points the melded cards must reach (going out concealed under an opening minimum): every
    card but the last discard is melded, so the hand's points less the discard's must reach it (a red three counts
    nothing and is never in hand).

    Returns the parts of the way with the most canastas, ``(discard, lay_offs {index: cards}, new melds, swaps,
    canastas)``, when one reaches ``need``; ``None`` when none does (or no way places every card)."""
    cells = Cells.of(hand)
    if cells is None:
        return None
    slack = -1   # the most points the last discard may be worth (-1: any)
    if minimum:
        slack = sum(c.points for c in hand) - minimum
        if slack < 0:
            return None
    extensions = _sequence_extensions(cells, sequences)
    # first without counting sambas (a run's length above three forgotten: far fewer states), then, when the
    # canastas fall short, counting them (each run's length up to seven)
    for exact in ([False, True] if rules.sequences else [True]):
        placed = False
        for lay, used, sambas in extensions:
            rest = Cells({k: v[used.get(k, 0):] for k, v in cells.cells.items() if len(v) > used.get(k, 0)},
                         cells.wilds, cells.black)
            found = _place(rest, groups, base + sambas, rules, allow_discard, exact, slack)
            placed = placed or found is not None
            if found is not None and found[-1] >= need:
                discard, lay_offs, new, swaps, canastas = found
                for i, cards in lay.items():
                    lay_offs.setdefault(i, []).extend(cards)
                return discard, lay_offs, new, swaps, canastas
        if not placed:
            return None   # no way places every card: counting the sambas will not find one
    return None


def _sequence_extensions(cells: Cells, sequences: list):
    """Every way to lay natural cards off on the team's sequences (down and up, seven at most): ``(lay-offs
    {index: cards}, cards used per cell, sambas made)``, laying off nothing first."""
    options = [({}, {}, 0)]
    for idx, suit, lo, hi in sequences:
        length = hi - lo + 1
        grown = []
        for lay, used, sambas in options:
            for down in range(0, RUN_MAX - length + 1):
                if down and (lo - down < 4 or cells.count(suit, lo - down) <= used.get((suit, lo - down), 0)):
                    break
                for up in range(0, RUN_MAX - length - down + 1):
                    if up and (hi + up > 14 or cells.count(suit, hi + up) <= used.get((suit, hi + up), 0)):
                        break
                    orders = list(range(lo - down, lo)) + list(range(hi + 1, hi + up + 1))
                    u = dict(used)
                    cards = []
                    for o in orders:
                        cards.append(cells.cells[(suit, o)][u.get((suit, o), 0)])
                        u[(suit, o)] = u.get((suit, o), 0) + 1
                    made = 1 if orders and length < RUN_MAX and length + len(orders) == RUN_MAX else 0
                    grown.append(({**lay, idx: cards} if cards else lay, u, sambas + made))
        options = grown
    return options


def _group_choices(g: int, table, rules):
    """A rank's ``g`` natural cards left for its group: ``(wild cards given (negative: taken back by swaps),
    canastas made)`` for each legal choice; none when they cannot form or join a group."""
    if table is None:
        if g == 0:
            return ((0, 0),)
        if g == 1:
            return ()
        cap = rules.wild_capacity(g)
        return tuple((w, int(g + w >= CANASTA_SIZE)) for w in range(max(0, 3 - g), cap + 1))
    _idx, nat, wild_cards, size = table
    wild = len(wild_cards)
    cap = rules.wild_capacity(nat + g) - wild
    lo = -min(g, wild) if rules.wild_swap and size < CANASTA_SIZE else 0
    if g == 0 and cap < 0:
        cap = 0   # a group on the table as it is stays legal
    return tuple((w, int(size < CANASTA_SIZE <= size + g + w)) for w in range(lo, cap + 1))


def _black_wild(b: int, rules) -> int | None:
    """Wild cards a meld of ``b`` black threes takes (0 for none or three or four, 1 for two where allowed);
    ``None`` when they make no meld."""
    if b in (0, 3, 4):
        return 0
    if b == 2 and rules.black_threes_with_wild:
        return 1
    return None


def _place(cells: Cells, groups: dict, base: int, rules, allow_discard: bool, exact: bool, slack: int = -1):
    """:func:`place_every_card` once the table's sequences have taken their cards: the programme over the
    ranks, then the way back through its choices. ``slack`` (unless -1): the most points the last discard may be
    worth (a wild card discarded is the cheapest one, the way back's last in sort order)."""
    sequences = rules.sequences
    n_wild = len(cells.wilds)
    wild_discard, black_discard = allow_discard, allow_discard and bool(cells.black)
    if slack >= 0 and allow_discard:
        wild_discard = bool(cells.wilds) and min(c.points for c in cells.wilds) <= slack
        black_discard = bool(cells.black) and cells.black[0].points <= slack
    swappable = sum(len(t[2]) for t in groups.values() if t[3] < CANASTA_SIZE) if rules.wild_swap else 0
    start = (tuple(() for _ in cells.suits), 0, 0)
    layers = []
    states = {start: (0, None, None)}
    for order in ORDERS:
        table = groups.get(order)
        # the suits one after another (the cards each gives its group added up), then the rank's group
        cur = {key + (0,): (value, None, None) for key, (value, _p, _h) in states.items()}
        suit_layers = []
        for i, s in enumerate(cells.suits):
            cur = _suit_step(cur, i, cells.count(s, order), sequences, exact, True)
            suit_layers.append(cur)
        nxt: dict = {}
        canon: dict = {}   # runs -> the same runs as the next rank can use them (None: a run cannot go on)
        group_choices: dict = {}   # cards to the rank's group -> its choices (the same for every state)
        ahead = _ahead(cells, order)
        discard_here = allow_discard and (slack < 0 or _POINTS[order] <= slack)
        for key, (value, _prev, _how) in cur.items():
            runs, w_used, disc, g = key
            if runs in canon:
                runs = canon[runs]
            else:
                runs = canon[runs] = _canonical(runs, ahead, exact)
            if runs is None:
                continue
            for d in (_BOTH if discard_here and not disc and g else _NONE):
                choices = group_choices.get(g - d)
                if choices is None:
                    choices = group_choices[g - d] = _group_choices(g - d, table, rules)
                for w, made in choices:
                    w2 = w_used + w
                    if w2 > n_wild + swappable or w2 < -swappable:
                        continue
                    k2 = (runs, w2, disc or d)
                    v2 = value + made
                    old = nxt.get(k2)
                    if old is None or v2 > old[0]:
                        nxt[k2] = (v2, key, (g - d, w, d))
        layers.append((suit_layers, nxt))
        states = nxt
        if not states:
            return None
    best = None
    for key, (value, _prev, _how) in states.items():
        runs, w_used, disc = key
        closed = _closing(runs, exact)
        if closed is None:
            continue
        for b_disc, w_disc in _last_discards(disc, wild_discard, black_discard):
            bw = _black_wild(len(cells.black) - b_disc, rules)
            if bw is None or w_used + bw + w_disc != n_wild:
                continue
            total = base + value + closed
            if best is None or total > best[0]:
                best = (total, key, b_disc, w_disc, bw)
    if best is None:
        return None
    return _way_back(cells, groups, layers, best, RUN_MAX if exact else RUN_MIN, slack >= 0)


def _ahead(cells: Cells, order: int) -> tuple:
    """Per suit, its cards at the next two ranks (none above the ace)."""
    return tuple((cells.count(s, order + 1) if order < 14 else 0, cells.count(s, order + 2) if order < 13 else 0)
                 for s in cells.suits)


def _canonical(runs: tuple, ahead: tuple, exact: bool):
    """The open runs after a rank as the next rank can use them: ``None`` when a run shorter than three cannot go
    on (too few cards of its suit at the next ranks); without ``exact``, the runs of three or more beyond the next
    rank's free cards closed now (they would close there: the same ways, fewer states). Cards of one rank and suit
    are alike, so this loses no way."""
    out = []
    changed = False
    for suit_runs, (c1, c2) in zip(runs, ahead):
        short = sum(1 for L in suit_runs if L < RUN_MIN)
        if short > c1 or sum(1 for L in suit_runs if L == 1) > c2:
            return None
        if not exact:
            long = len(suit_runs) - short
            free = c1 - short
            if long > free:
                suit_runs = suit_runs[:short] + (RUN_MIN,) * free   # sorted: the short ones first
                changed = True
        out.append(suit_runs)
    return tuple(out) if changed else runs


def _too_many(states: dict) -> None:
    if len(states) > STATE_LIMIT:
        raise SearchTooLarge(f"hand: too many ways to arrange these cards in runs to count them all (more than "
                             f"{STATE_LIMIT} states at one rank); no game deals such a hand")


def _suit_step(cur: dict, i: int, c: int, sequences: bool, exact: bool, trace: bool) -> dict:
    """One suit's ``c`` cards at a rank, for every state ``(runs, ..., cards to the group so far)``: its runs
    continued or started, the rest added to the group's count; the best value per new state (with the way back
    when ``trace``: the state before and the suit's choice)."""
    nxt: dict = {}
    options: dict = {}
    for key, entry in cur.items():
        value = entry[0] if trace else entry
        runs = key[0]
        opts = options.get(runs[i])
        if opts is None:
            opts = options[runs[i]] = list(_suit_options(runs[i], c, sequences, exact))
        head, g = key[1:-1], key[-1]
        for r2, sambas, gi, how in opts:
            k2 = (runs[:i] + (r2,) + runs[i + 1:], *head, g + gi)
            v2 = value + sambas
            old = nxt.get(k2)
            if trace:
                if old is None or v2 > old[0]:
                    nxt[k2] = (v2, key, how)
            elif old is None or v2 > old:
                nxt[k2] = v2
    _too_many(nxt)
    return nxt


def _choices_back(layers: list, key) -> list:
    """The choices of each rank that led to the final state ``key``: ``(how per suit, group cards, wild cards,
    discard)``, lowest rank first."""
    choices = []
    for suit_layers, group_layer in reversed(layers):
        _value, key4, (g, w, d) = group_layer[key]
        hows = []
        for layer in reversed(suit_layers):
            _v, prev, how = layer[key4]
            hows.append(how)
            key4 = prev
        choices.append((tuple(reversed(hows)), g, w, d))
        key = key4[:-1]
    choices.reverse()
    return choices


def _last_discards(disc: int, wild: bool, black: bool):
    """``(black threes discarded, wild cards discarded)`` the last discard may still be (``wild``, ``black``: a
    wild card, a black three may be the discard)."""
    yield 0, 0
    if not disc:
        if wild:
            yield 0, 1
        if black:
            yield 1, 0


def _way_back(cells: Cells, groups: dict, layers: list, best, top: int, cheapest: bool = False):
    """The plan of the best final state: the choices made at each rank, followed back, given cards. ``cheapest``:
    a wild card discarded is the one of fewest points (the melds must reach a minimum)."""
    total, key, b_disc, w_disc, bw = best
    choices = _choices_back(layers, key)
    open_runs: dict[str, list[list[Card]]] = {s: [] for s in cells.suits}
    finished: list[tuple[Card, ...]] = []
    lay_offs: dict[int, list[Card]] = {}
    new: list[tuple[Card, ...]] = []
    swaps = []
    pool = sorted(cells.wilds, key=SORT_KEY)
    wants: list[tuple[int | None, int, list[Card]]] = []   # (table index or None, wild cards to give, cards)
    discard = None
    for order, (how, _g, w, d) in zip(ORDERS, choices):
        to_group: list[Card] = []
        for s, (per_length, x) in zip(cells.suits, how):
            cards = list(cells.cells.get((s, order), ()))
            runs = open_runs[s]
            keep_on = []
            for L, k in per_length:
                same = [r for r in runs if min(len(r), top) == L]
                for r in same[:k]:
                    r.append(cards.pop(0))
                    keep_on.append(r)
                for r in same[k:]:
                    finished.extend(_split_chain(r))
            for _ in range(x):
                keep_on.append([cards.pop(0)])
            open_runs[s] = keep_on
            to_group += cards
        if d:
            discard = to_group.pop()
        if not to_group and not w:
            continue
        table = groups.get(order)
        if table is not None and w < 0:   # swaps: natural cards in place of the wild cards, which join the pool
            for natural, wild in zip(to_group, table[2][:-w]):
                swaps.append((table[0], natural, wild))
                pool.append(wild)
            to_group = to_group[-w:] if len(to_group) > -w else []
            w = 0
        wants.append((None if table is None else table[0], w, to_group))
    for runs in open_runs.values():
        for r in runs:
            finished.extend(_split_chain(r))
    pool.sort(key=SORT_KEY)
    if w_disc and cheapest:
        discard = min(pool, key=lambda c: c.points)
        pool.remove(discard)
    elif w_disc:
        discard = pool.pop()          # the last wild card in sort order
    black = list(cells.black)
    if b_disc:
        discard = black.pop()
    wild_iter = iter(pool)
    for index, w, cards in wants:
        cards = cards + [next(wild_iter) for _ in range(w)]
        if index is None:
            new.append(tuple(cards))
        elif cards:
            lay_offs.setdefault(index, []).extend(cards)
    new.extend(finished)
    if black:
        new.append(tuple(black) + tuple(next(wild_iter) for _ in range(bw)))
    return discard, lay_offs, new, swaps, total


# --- the most meld points (an opening) -------------------------------------------------------------------------------

def _points_suit_step(cur: dict, i: int, c: int, pts: int, sequences: bool) -> dict:
    """:func:`most_meld_points`' step for one suit's ``c`` cards at a rank: the cards in runs are melded (their
    points added), the rest go to the rank's group's count."""
    nxt: dict = {}
    options: dict = {}
    for key, value in cur.items():
        runs, w_used, kept, melded, g = key
        opts = options.get(runs[i])
        if opts is None:
            opts = options[runs[i]] = [(r2, gi, (c - gi) * pts) for r2, _s, gi, _h in
                                       _suit_options(runs[i], c, sequences, False)]
        for r2, gi, gained in opts:
            k2 = (runs[:i] + (r2,) + runs[i + 1:], w_used, kept, melded or gained > 0, g + gi)
            v2 = value + gained
            if nxt.get(k2, -1) < v2:
                nxt[k2] = v2
    return nxt


def _fewest_wild(states: dict, prefix: list) -> dict:
    """Only the states no other beats: of two with the same runs, cards kept and melded, the one with fewer wild
    cards used and at least as many points (its natural points and the best wild cards it used) wins (the wild
    cards still in hand can only add, and the best ones are used first: each further one is worth no more)."""
    by: dict = {}
    for (runs, w_used, kept, melded), value in states.items():
        by.setdefault((runs, kept, melded), []).append((w_used, value))
    out = {}
    for (runs, kept, melded), entries in by.items():
        if len(entries) == 1:
            w_used, value = entries[0]
            out[(runs, w_used, kept, melded)] = value
            continue
        entries.sort()
        best = -1
        for w_used, value in entries:
            total = value + prefix[w_used]
            if total > best:
                best = total
                out[(runs, w_used, kept, melded)] = value
    return out


def most_meld_points(cards, rules, *, top: Card | None = None, keep: int = 0) -> int:
    """The most card points the player can meld from ``cards`` in one go, leaving at least ``keep`` cards in hand
    (black threes and red threes are never melded here, and count as kept); with ``top`` (the pile's top card)
    its rank's group must hold it and at least two natural cards of its rank from ``cards``. ``-1`` when no meld
    can be made that way (or none with the top card)."""
    if not rules.sequences and keep <= 2:
        if top is not None and sum(1 for c in cards if c.rank == top.rank and c.is_natural) < 2:
            return -1
        return _groups_only_points(cards, rules, top, max(0, keep))
    return _most_points(cards, rules, top, keep)


def _groups_only_points(cards, rules, top: Card | None, keep: int = 0) -> int:
    """:func:`most_meld_points` without sequences, ``keep`` (0 to 2) cards to keep: the closed forms
    :func:`flat_group_points` and :func:`flat_keep_points` decide it (the programme over the ranks comes down to
    them; tests/test_counts.py holds them to the same answers), the hand read here into its counts (natural cards
    per rank, the wild cards' points, highest first, the threes). ``top``'s rank has at least two natural cards in
    ``cards``. A hand of more wild cards, or a rule table longer, than the flat arrays hold (no game deals one) goes
    to the programme."""
    table = rules._wild_caps
    others: cython.int = 0
    ncaps: cython.int = len(table)
    rank_count = cython.declare(cython.int[11])
    wild_values = cython.declare(cython.int[64])
    nwild: cython.int = 0
    i: cython.int
    x: cython.int
    p: cython.int
    if cython.compiled:   # the tables as C arrays (run as Python, flat_group_points reads the tuples themselves)
        rank_points = cython.declare(cython.int[11])
        by_points = cython.declare(cython.int[11])
        caps = cython.declare(cython.int[64])
        if ncaps > 64:
            return _most_points(cards, rules, top, keep)
        for i in range(ncaps):
            caps[i] = table[i]
        for i in range(11):
            rank_count[i] = 0
            rank_points[i] = FLAT_POINTS[i]
            by_points[i] = FLAT_BY_POINTS[i]
    else:
        rank_points, by_points, caps = FLAT_POINTS, FLAT_BY_POINTS, table
    for c in cards:
        if c.is_natural:
            rank_count[FLAT_RANK[c.rank]] += 1
        elif c.is_wild:
            if nwild == 64:
                return _most_points(cards, rules, top, keep)
            p = c.points
            x = nwild
            while x > 0 and wild_values[x - 1] < p:   # highest first: insertion sort, a handful
                wild_values[x] = wild_values[x - 1]
                x -= 1
            wild_values[x] = p
            nwild += 1
        else:   # a three: never melded here, kept
            others += 1
    if keep:
        best = flat_keep_points(rank_count, 11, rank_points, by_points, wild_values, nwild, others,
                                FLAT_RANK[top.rank] if top is not None else -1, top.points if top is not None else 0,
                                caps, ncaps, keep)
        return 0 if best < 0 and top is None else best
    return flat_group_points(rank_count, 11, rank_points, by_points, wild_values, nwild,
                             FLAT_RANK[top.rank] if top is not None else -1, top.points if top is not None else 0,
                             caps, ncaps, -1, -1, -1, -1)


def _most_points(cards, rules, top: Card | None, keep: int) -> int:
    """:func:`most_meld_points` by the programme over the ranks."""
    cells = Cells.of(c for c in cards if not c.is_red_three and not c.is_black_three)
    still = max(0, keep - sum(1 for c in cards if c.is_red_three or c.is_black_three))   # cards still to keep
    wild_points = [c.points for c in sorted(cells.wilds, key=lambda c: -c.points)]
    n_wild = len(wild_points)
    prefix = [0]
    for p in wild_points:
        prefix.append(prefix[-1] + p)
    top_order = SEQUENCE_ORDER.get(top.rank) if top is not None else None
    sequences = rules.sequences
    caps = list(rules._wild_caps)   # rules.wild_capacity(n), constant from its last entry on
    caps += [caps[-1]] * (200 - len(caps))
    # (runs, wild cards used, natural cards kept so far (at most ``still``), anything melded) -> natural points
    states = {(tuple(() for _ in cells.suits), 0, 0, 0): 0}
    for order in ORDERS:
        pts = _POINTS[order]
        forced = order == top_order
        # the suits one after another: each card continues or starts a run (melded) or goes to the rank's group
        cur = {key + (0,): value for key, value in states.items()}
        for i, s in enumerate(cells.suits):
            cur = _points_suit_step(cur, i, cells.count(s, order), pts, sequences)
        nxt: dict = {}
        canon: dict = {}
        ahead = _ahead(cells, order)
        for (runs, w_used, kept, melded, g), value in cur.items():
            if runs in canon:
                runs = canon[runs]
            else:
                runs = canon[runs] = _canonical(runs, ahead, False)
            if runs is None:
                continue
            # melding fewer of the group's cards than needed to keep ``still`` only loses points: not tried
            low = max(2, g - (still - kept))
            for m in (range(low, g + 1) if forced else [0, *range(low, g + 1)]):
                n = m + forced
                k2 = min(still, kept + g - m)
                v2 = value + m * pts
                m2 = melded or m > 0
                for w in range(max(0, 3 - n), min(caps[n], n_wild - w_used) + 1) if m else _NONE:
                    key = (runs, w_used + w, k2, m2)
                    if nxt.get(key, -1) < v2:
                        nxt[key] = v2
        states = _fewest_wild(nxt, prefix)
        _too_many(states)
        if not states:
            return -1 if top is not None else 0
    best = -1
    for (runs, w_used, kept, melded), value in states.items():
        if not melded or _closing(runs, False) is None:
            continue
        # the wild cards not melded are kept too: the best ones melded, the rest kept
        spare = n_wild - w_used
        if kept + spare < still:
            continue
        best = max(best, value + prefix[w_used] + (top.points if top is not None else 0))
    return 0 if best < 0 and top is None else best


# --- the compiled core (_speedups/counts.pyx: this file's text compiled by Cython), where built: the public entries
# become the compiled ones; this pure-Python module is their twin (speedups.pure_twin gives it back)
if __name__ == "canasta_tutor.engine.counts":
    from canasta_tutor.engine import speedups

    place_every_card = speedups.compiled("counts", place_every_card)
    most_meld_points = speedups.compiled("counts", most_meld_points)


# --- the closed forms without sequences, on flat counts ---------------------------------------------------------------
# Rules without sequences (and, for going out, without wild-card swaps) decided on counts held in flat int arrays:
# _speedups/counts.pyx compiles these lines with the rest of this file into C functions (typed by Cython's pure
# Python mode; _speedups/counts.pxd declares them), which _speedups/goout.pyx and take.pyx call once they have read
# their arguments into counts: one text of each rule, the compiled modules only read and convert. Run as Python
# (no Cython at run time: the shim at the top), they take lists; tests/test_counts.py holds them to the programme above.
# A rank is a place in the caller's table of ranks; ``caps[n]``: the wild cards a group of ``n`` natural cards may
# take (``rules.wild_capacity``), constant from ``ncaps - 1`` on.

#: the codes of :func:`flat_take_way`: how the top card is melded, or who answers
TAKE_NO, TAKE_PAIR, TAKE_LAY_OFF, TAKE_NATURAL_AND_WILD, TAKE_EXPLAIN = 0, 1, 2, 3, -1
#: :func:`take_rule_flags`' bits (a rule set's pile rules) and :func:`flat_take_way`'s pile bits
(ONE_CARD_RULE, ALWAYS_FROZEN, RED_THREE_FREEZES, BLACK_THREE_FREEZES, ONTO_CANASTA,
 NATURAL_AND_WILD) = (1, 2, 4, 8, 16, 32)
PILE_WILD, PILE_RED_THREE, PILE_BLACK_THREE = 1, 2, 4
FLAT_CANASTA = CANASTA_SIZE   # a C int where compiled (counts.pxd)
#: the flat forms' table of the natural ranks: a rank's place (its order 4..14 less 4), the points of each place, the
#: places by points (highest first)
FLAT_RANK = {r: o - 4 for r, o in SEQUENCE_ORDER.items()}
FLAT_POINTS = tuple(_POINTS[o] for o in ORDERS)
FLAT_BY_POINTS = tuple(sorted(range(len(FLAT_POINTS)), key=lambda r: -FLAT_POINTS[r]))


def take_rule_flags(rules) -> int:
    """The pile rules of ``rules`` as :func:`flat_take_way`'s bits."""
    return ((ONE_CARD_RULE if rules.one_card_pile_rule else 0) | (ALWAYS_FROZEN if rules.pile_always_frozen else 0)
            | (RED_THREE_FREEZES if rules.red_three_freezes_pile else 0)
            | (BLACK_THREE_FREEZES if rules.black_three_freezes_pile else 0)
            | (ONTO_CANASTA if rules.take_onto_canasta else 0)
            | (NATURAL_AND_WILD if rules.take_with_natural_and_wild else 0))


#: :func:`flat_frozen`'s bits: why the pile is frozen for a team
FROZEN_WILD, FROZEN_RED_THREE, FROZEN_BLACK_THREE, FROZEN_UNOPENED, FROZEN_ALWAYS = 1, 2, 4, 8, 16


@cython.cfunc
@cython.exceptval(check=False)
def flat_frozen(pile_bits: cython.int, flags: cython.int, nm: cython.int) -> cython.int:
    """Why the pile is frozen for a team with ``nm`` melds (``pile_bits``: what lies in the pile, ``flags``:
    :func:`take_rule_flags`): the :data:`FROZEN_WILD` ... :data:`FROZEN_ALWAYS` bits that hold, 0 when it is not
    frozen. The one text of the rule: :func:`flat_take_way` asks it, ``pile.check_frozen`` writes a sentence for
    each bit, the bots ask it through ``pile.frozen_for_everyone``."""
    why: cython.int = 0
    if pile_bits & PILE_WILD:
        why |= FROZEN_WILD
    if flags & RED_THREE_FREEZES and pile_bits & PILE_RED_THREE:
        why |= FROZEN_RED_THREE
    if flags & BLACK_THREE_FREEZES and pile_bits & PILE_BLACK_THREE:
        why |= FROZEN_BLACK_THREE
    if nm == 0:
        why |= FROZEN_UNOPENED
    if flags & ALWAYS_FROZEN:
        why |= FROZEN_ALWAYS
    return why


def group_wilds(nat: int, caps, most: int = 1 << 30) -> range:
    """How many wild cards ``nat`` natural cards of one rank may take to make a legal group, ``most`` at most
    (the wild cards at hand): the counts for which :func:`flat_legal_group` says yes (``caps``: the rule set's
    table of wild-card capacities), as a range; empty with fewer than two natural cards. The game's enumerations
    (new groups, lay-offs, openings, larger takes) offer these."""
    if nat < 2:
        return range(0)
    return range(max(0, 3 - nat), min(caps[nat if nat < len(caps) else len(caps) - 1], most) + 1)


@cython.cfunc
@cython.exceptval(check=False)
def flat_cap(caps: cython.p_int, ncaps: cython.int, n: cython.longlong) -> cython.int:
    """``rules.wild_capacity(n)`` from its table."""
    return caps[n if n < ncaps else ncaps - 1]


@cython.cfunc
@cython.exceptval(check=False)
def flat_legal_group(nat: cython.int, wild: cython.int, caps: cython.p_int, ncaps: cython.int) -> cython.bint:
    """Is a group of ``nat`` natural cards of one rank and ``wild`` wild cards a legal meld (what ``meld_facts``
    accepts of a group)?"""
    return nat >= 2 and nat + wild >= 3 and wild <= flat_cap(caps, ncaps, nat)


@cython.cfunc
@cython.exceptval(check=False)
def flat_most_canastas(count: cython.p_int, nranks: cython.int, wild: cython.int, black: cython.int,
                       tnat: cython.p_int, twild: cython.p_int, tsize: cython.p_int, intable: cython.p_int,
                       base: cython.int, caps: cython.p_int, ncaps: cython.int, black_wild: cython.bint) -> cython.int:
    """:func:`place_every_card` without runs, wild-card swaps or a last discard, in closed form: the most canastas
    the team holds after melding or laying off every card (``count`` natural cards per rank, ``wild`` wild cards,
    ``black`` black threes; the team's group per rank where ``intable``: its natural and wild cards and size;
    ``base`` canastas on the table), or -1 when some card finds no place. Every meld takes between its least and
    its most wild cards; the spare ones go to the melds closest to a canasta first."""
    least: cython.int = 0
    room: cython.int = 0
    made: cython.int = 0
    r: cython.int
    k: cython.int
    cap: cython.int
    gap: cython.int
    lo: cython.int
    n: cython.int
    spare: cython.int
    one: cython.longlong = 1
    short: cython.longlong = 0   # how many melds lack 1, 2, ... cards to a canasta: four bits each, 1 lowest
    for r in range(nranks):
        k = count[r]
        if intable[r]:
            cap = flat_cap(caps, ncaps, tnat[r] + k) - twild[r]
            if cap < 0:
                cap = 0
            if k or cap:
                room += cap
                if tsize[r] < FLAT_CANASTA:
                    gap = FLAT_CANASTA - tsize[r] - k
                    if gap <= 0:
                        made += 1
                    elif gap <= cap:
                        short += one << (4 * gap - 4)
        elif k:
            if k == 1:
                return -1
            lo = 1 if k == 2 else 0
            cap = flat_cap(caps, ncaps, k)
            if cap < lo:
                return -1
            least += lo
            room += cap
            gap = FLAT_CANASTA - k - lo
            if gap <= 0:
                made += 1
            elif gap <= cap - lo:
                short += one << (4 * gap - 4)
    if not flat_black_placed(black, black_wild):
        return -1
    if black == 2:   # two black threes take a wild card (where the rules let them)
        least += 1
        room += 1
    if wild < least or wild > room:
        return -1
    spare = wild - least
    gap = 1
    while short and spare >= gap:   # the spare wild cards to the melds closest to a canasta first
        n = short & 15
        while n and spare >= gap:
            spare -= gap
            made += 1
            n -= 1
        short >>= 4
        gap += 1
    return base + made


@cython.cfunc
@cython.exceptval(check=False)
def flat_go_out(count: cython.p_int, nranks: cython.int, wild: cython.int, black: cython.int, tnat: cython.p_int,
                twild: cython.p_int, tsize: cython.p_int, intable: cython.p_int, base: cython.int, need: cython.int,
                caps: cython.p_int, ncaps: cython.int, black_wild: cython.bint) -> cython.bint:
    """May the player go out (rules without sequences or wild-card swaps): with no last discard, or one of a rank
    held, a black three or a wild card, every other card placed and ``need`` canastas held? Some last discard
    works (:func:`flat_go_out_discards`, which stops at the first)."""
    return flat_go_out_discards(count, nranks, wild, black, tnat, twild, tsize, intable, base, need, caps, ncaps,
                                black_wild, True) != 0


@cython.cfunc
@cython.exceptval(check=False)
def flat_go_out_discards(count: cython.p_int, nranks: cython.int, wild: cython.int, black: cython.int,
                         tnat: cython.p_int, twild: cython.p_int, tsize: cython.p_int, intable: cython.p_int,
                         base: cython.int, need: cython.int, caps: cython.p_int, ncaps: cython.int,
                         black_wild: cython.bint, first: cython.bint) -> cython.int:
    """The last discards with which the player goes out (rules without sequences or wild-card swaps), as bits: bit
    ``r`` a natural card of rank ``r``, bit ``nranks`` a wild card, ``nranks + 1`` a black three, ``nranks + 2`` no
    discard; each where every other card is placed and ``need`` canastas are held (:func:`flat_most_canastas`;
    cards of one kind are alike to it). With ``first``, only the first that works in the order the plan's search
    tries them (:func:`~canasta_tutor.engine.go_out_search.find_go_out`: no discard, a black three, the natural
    ranks, a wild card): a yes needs no more, and the search finds the same plan with that kind alone. ``count`` is
    changed while counting and given back as it was.

    Only the discards that may leave every card a place are counted: a lone natural card of a rank the team has no
    group of, or black threes that make no meld (one, two where they take no wild card, five or more), find none.
    A natural card that is not alone is counted only where the player goes out with no discard: a card fewer of a
    rank never gives a wild card more room, never makes a group a canasta and never lets a pair or more do without
    a wild card, so its discard works only where keeping it works too (and with ``first`` no discard comes first)."""
    r: cython.int
    bits: cython.int = 0
    one: cython.int = 1
    lone: cython.int = 0   # natural cards alone of their rank, with no group of it on the table
    lone_rank: cython.int = -1
    placed: cython.bint
    for r in range(nranks):
        if count[r] == 1 and not intable[r]:
            lone += 1
            lone_rank = r
    if lone > 1:
        return 0
    if lone == 1:   # only its discard may leave the others a place
        if not flat_black_placed(black, black_wild):
            return 0
        count[lone_rank] -= 1
        r = flat_most_canastas(count, nranks, wild, black, tnat, twild, tsize, intable, base, caps, ncaps,
                               black_wild)
        count[lone_rank] += 1
        return (one << lone_rank) if r >= need else 0
    placed = flat_black_placed(black, black_wild)
    if placed and flat_most_canastas(count, nranks, wild, black, tnat, twild, tsize, intable, base, caps, ncaps,
                                     black_wild) >= need:
        bits |= one << (nranks + 2)
        if first:
            return bits
        for r in range(nranks):
            if count[r] and (intable[r] or count[r] != 2):   # a pair's discard would leave its other card alone
                count[r] -= 1
                if flat_most_canastas(count, nranks, wild, black, tnat, twild, tsize, intable, base, caps, ncaps,
                                      black_wild) >= need:
                    bits |= one << r
                count[r] += 1
    if black > 0 and flat_black_placed(black - 1, black_wild) and flat_most_canastas(
            count, nranks, wild, black - 1, tnat, twild, tsize, intable, base, caps, ncaps, black_wild) >= need:
        bits |= one << (nranks + 1)
        if first:
            return bits
    if placed and wild > 0 and flat_most_canastas(count, nranks, wild - 1, black, tnat, twild, tsize, intable, base,
                                                  caps, ncaps, black_wild) >= need:
        bits |= one << nranks
    return bits


@cython.cfunc
@cython.exceptval(check=False)
def flat_black_placed(black: cython.int, black_wild: cython.bint) -> cython.bint:
    """Can ``black`` black threes all be melded (:func:`flat_most_canastas`' rule): none, three or four, or two
    with a wild card where the rules let them take one?"""
    return black == 0 or black == 3 or black == 4 or (black == 2 and black_wild)


@cython.cfunc
@cython.exceptval(check=False)
def flat_wild_sum(wild_values: cython.p_int, nwild: cython.int, used: cython.longlong, skip_a: cython.int,
                  skip_b: cython.int) -> cython.longlong:
    """The points of the first ``used`` wild cards of ``wild_values`` (highest first), those at ``skip_a`` and
    ``skip_b`` left out."""
    total: cython.longlong = 0
    i: cython.int
    for i in range(nwild):
        if used <= 0:
            break
        if i != skip_a and i != skip_b:
            total += wild_values[i]
            used -= 1
    return total


@cython.cfunc
@cython.exceptval(check=False)
def flat_group_points(rank_count: cython.p_int, nranks: cython.int, rank_points: cython.p_int,
                      by_points: cython.p_int, wild_values: cython.p_int, nwild: cython.int, rank: cython.int,
                      top_points: cython.int, caps: cython.p_int, ncaps: cython.int, drop_a: cython.int,
                      drop_b: cython.int, skip_a: cython.int, skip_b: cython.int) -> cython.longlong:
    """The most points from groups of the natural cards in hand (``rank_count`` per rank; the rule of
    :func:`most_meld_points` without sequences and cards to keep, which :func:`_groups_only_points` reads into these
    counts), with the top card (of ``rank``, worth ``top_points``; -1: none) in its rank's group and the
    wild cards (``wild_values``, highest first), one card of rank ``drop_a`` and of ``drop_b`` and the wild cards
    at ``skip_a`` and ``skip_b`` left out (-1: none); -1 when fewer than two natural cards of ``rank`` are left.
    ``by_points``: the ranks, the highest natural card points first (pairs take a wild card each, the best first)."""
    base: cython.longlong
    capacity: cython.longlong
    best: cython.longlong
    total: cython.longlong
    pairs_sum: cython.longlong = 0
    n: cython.int
    r: cython.int
    i: cython.int
    kk: cython.int = 0
    nw: cython.int = nwild - (skip_a >= 0) - (skip_b >= 0)
    pair_cap: cython.int = flat_cap(caps, ncaps, 2)
    if rank >= 0:
        n = rank_count[rank] - (drop_a == rank) - (drop_b == rank)
        if n < 2:
            return -1
        base = n * rank_points[rank] + top_points
        capacity = flat_cap(caps, ncaps, n + 1)
    else:
        base = capacity = 0
    for r in range(nranks):
        n = rank_count[r] - (drop_a == r) - (drop_b == r)
        if r != rank and n >= 3:
            base += n * rank_points[r]
            capacity += flat_cap(caps, ncaps, n)
    best = base + flat_wild_sum(wild_values, nwild, min(nw, capacity), skip_a, skip_b)
    if pair_cap:
        for i in range(nranks):
            if kk >= nw:
                break
            r = by_points[i]
            if r == rank or rank_count[r] - (drop_a == r) - (drop_b == r) != 2:
                continue
            kk += 1
            pairs_sum += 2 * rank_points[r]
            total = base + pairs_sum + flat_wild_sum(wild_values, nwild, min(nw, capacity + kk * pair_cap), skip_a,
                                                     skip_b)
            if total > best:
                best = total
    return best


@cython.cfunc
@cython.exceptval(check=False)
def flat_keep_points(rank_count: cython.p_int, nranks: cython.int, rank_points: cython.p_int,
                     by_points: cython.p_int, wild_values: cython.p_int, nwild: cython.int, others: cython.int,
                     rank: cython.int, top_points: cython.int, caps: cython.p_int, ncaps: cython.int,
                     keep: cython.int) -> cython.longlong:
    """The most points an unopened team melds with the top card (of ``rank``; -1: none) and cards from hand while
    ``keep`` (one or two) cards of the hand stay out of the opening (:func:`most_meld_points` with ``keep``, without
    sequences), -1 when no such opening holds the top card: the best of :func:`flat_group_points` over the cards
    left out. The cards count by kind (a natural rank, a wild card's value, one of the ``others``: threes, never
    melded), each choice of kinds tried once."""
    best: cython.longlong = -1
    v: cython.longlong
    kinds: cython.int = nranks + nwild + 1   # the ranks, then the wild cards (the first of each value), the others
    a: cython.int
    b: cython.int
    da: cython.int
    db: cython.int
    sa: cython.int
    sb: cython.int
    for a in range(kinds):
        if a < nranks:
            if not rank_count[a]:
                continue
        elif a < nranks + nwild:
            if a > nranks and wild_values[a - nranks] == wild_values[a - nranks - 1]:
                continue
        elif not others:
            continue
        for b in range(a if keep == 2 else 0, kinds if keep == 2 else 0):
            if b < nranks:
                if not rank_count[b] or (b == a and rank_count[b] < 2):
                    continue
            elif b < nranks + nwild:
                if b > nranks and wild_values[b - nranks] == wild_values[b - nranks - 1]:
                    continue
                if b == a and (b + 1 >= nranks + nwild or wild_values[b + 1 - nranks] != wild_values[b - nranks]):
                    continue
            elif others < 1 + (b == a):
                continue
            da = a if a < nranks else -1
            db = b if 0 <= b < nranks else -1
            sa = a - nranks if nranks <= a < nranks + nwild else -1
            sb = b - nranks if nranks <= b < nranks + nwild else -1
            if b == a and sa >= 0:
                sb = sa + 1
            v = flat_group_points(rank_count, nranks, rank_points, by_points, wild_values, nwild, rank, top_points,
                                  caps, ncaps, da, db, sa, sb)
            if v > best:
                best = v
        if keep != 2:
            da = a if a < nranks else -1
            sa = a - nranks if nranks <= a < nranks + nwild else -1
            v = flat_group_points(rank_count, nranks, rank_points, by_points, wild_values, nwild, rank, top_points,
                                  caps, ncaps, da, -1, sa, -1)
            if v > best:
                best = v
    return best


@cython.cfunc
@cython.exceptval(check=False)
def flat_opening_keeps(rank_count: cython.p_int, nranks: cython.int, rank_points: cython.p_int,
                       by_points: cython.p_int, wild_values: cython.p_int, nwild: cython.int, others: cython.int,
                       rank: cython.int, top_points: cython.int, caps: cython.p_int, ncaps: cython.int,
                       keep: cython.int, minimum: cython.longlong) -> cython.bint:
    """May an unopened team reach ``minimum`` with the top card and cards from hand while ``keep`` (one or two)
    cards of the hand stay out of the opening? (:func:`flat_keep_points` reaches it.)"""
    return flat_keep_points(rank_count, nranks, rank_points, by_points, wild_values, nwild, others, rank,
                            top_points, caps, ncaps, keep) >= minimum


@cython.cfunc
@cython.exceptval(check=False)
def flat_take_way(stopped: cython.bint, np: cython.int, nh: cython.int, nm: cython.int, stock_empty: cython.bint,
                  pile_bits: cython.int, red_in_pile: cython.int, nat_count: cython.int, wild_pick: cython.bint,
                  team: cython.bint, team_n: cython.int, team_nat: cython.int, team_wild: cython.int,
                  team_canasta: cython.bint, canastas: cython.int, flags: cython.int, need: cython.int,
                  minimum: cython.longlong, caps: cython.p_int, ncaps: cython.int, rank_count: cython.p_int,
                  nranks: cython.int, rank_points: cython.p_int, by_points: cython.p_int, wild_values: cython.p_int,
                  nwild: cython.int, others: cython.int, rank: cython.int, top_points: cython.int) -> cython.int:
    """May the player take the pile (rules without sequences), decided on counts: how the top card is melded
    (:data:`TAKE_PAIR`, :data:`TAKE_LAY_OFF`, :data:`TAKE_NATURAL_AND_WILD`: the first way of ``pile._take_options``),
    :data:`TAKE_NO`, or :data:`TAKE_EXPLAIN` when only the explained path can answer (an empty pile, the one-card
    house rule, a turn that may end only by going out and needs a search).

    ``stopped``: the top card is a wild card or a three; ``np``, ``nh``, ``nm``: the cards in the pile and in hand
    and the team's melds; ``pile_bits``: :data:`PILE_WILD` and the others, what lies in the pile; ``red_in_pile``:
    its red threes; ``nat_count``: natural cards of the top card's rank in hand, ``wild_pick``: a wild card in hand;
    ``team``: the team's group of that rank (its cards ``team_n``, natural ``team_nat``, wild ``team_wild``, a
    canasta ``team_canasta``); ``canastas`` on the table; ``flags``: :func:`take_rule_flags`; ``need``: canastas to go
    out; ``minimum``: the opening minimum (an unopened team); then the hand as :func:`flat_group_points` reads it,
    ``others`` its black threes."""
    frozen: cython.bint
    team_valid: cython.bint
    grows: cython.bint
    way: cython.int = TAKE_NO
    pile_kept: cython.int
    if np == 0:
        return TAKE_EXPLAIN
    if stopped:
        return TAKE_NO
    if flags & ONE_CARD_RULE and not stock_empty and nh == 1 and np == 1:
        return TAKE_EXPLAIN
    frozen = flat_frozen(pile_bits, flags, nm) != 0
    team_valid = team and flat_legal_group(team_nat, team_wild, caps, ncaps)
    if nat_count >= 2 and (not team or (team_valid and team_wild <= flat_cap(caps, ncaps, team_nat + 3))):
        way = TAKE_PAIR
    elif not frozen:
        if team:
            if team_valid and (flags & ONTO_CANASTA or team_n < FLAT_CANASTA) and \
                    team_wild <= flat_cap(caps, ncaps, team_nat + 1):
                way = TAKE_LAY_OFF
        elif flags & NATURAL_AND_WILD and nat_count and wild_pick and flat_cap(caps, ncaps, 2) >= 1:
            way = TAKE_NATURAL_AND_WILD
    if way == TAKE_NO:
        return TAKE_NO
    pile_kept = np - 1 - red_in_pile   # the pile's cards under the top card the player keeps (red threes laid down)
    if nm == 0:
        # an unopened team: its best first meld with the top card must reach the minimum; when fewer than two pile
        # cards are kept, also while keeping cards of the hand out of it (to discard one and keep one), else only
        # going out at once finishes the turn (a search: the explained path)
        if flat_group_points(rank_count, nranks, rank_points, by_points, wild_values, nwild, rank, top_points, caps,
                             ncaps, -1, -1, -1, -1) < minimum:
            return TAKE_NO
        if pile_kept < 2 and not flat_opening_keeps(rank_count, nranks, rank_points, by_points, wild_values, nwild,
                                                    others, rank, top_points, caps, ncaps, 2 - pile_kept, minimum):
            return TAKE_EXPLAIN
    elif nh - (0 if way == TAKE_LAY_OFF else 2) + pile_kept < 2:
        # the turn may end only by going out with the card left (or none): sure when the team's melds after taking
        # hold the canastas the rules ask for (discard the last card); else the explained path searches
        grows = team and way != TAKE_NATURAL_AND_WILD
        if canastas - (team_canasta if grows else 0) + (
                1 if grows and team_n + (1 if way == TAKE_LAY_OFF else 3) >= FLAT_CANASTA else 0) < need:
            return TAKE_EXPLAIN
    return way
