cdef extern from *:
    const char* CANASTA_SOURCE_SHA
SOURCE_SHA = CANASTA_SOURCE_SHA.decode()

__doc__ = """The compiled :func:`canasta_tutor.engine.pile.check_take_pile` ("may the player take the pile?"), in C.

:func:`check_take_pile` here takes the same arguments as the pure-Python function in ``pile.py`` and gives the same
verdict (a ``TakeVerdict`` with the same fields; its reasons are the explained path's, written when read, as
``verdict.LazyReasons``). What is compiled: the common, well-formed call (hand and pile tuples of the interned
``Card`` objects, ``melds`` a list or tuple of non-empty card tuples, an ``int`` score within ``MAX_SCORE``, a
``RuleSet`` without sequences, ``stock_empty`` ``True``/``False``; positionally, by keyword, or one ``Situation``):
reading and checking the arguments (card types, the score, copies against ``rules.decks``/``rules.jokers``, no
red three in hand, the hand size cap of ``situation.max_hand_cards``), then the decision of ``pile._fast_take``: a
stopped pile, the frozen pile, the first way to meld the top card (``pile._take_options``: a natural pair, a
lay-off on the team's group, a natural card and the cheapest wild card), the opening minimum of an unopened team
(``counts._groups_only_points`` and ``RuleSet.opening_minimum``) and the "keeps a card" rule.

What falls back: anything else goes to the pure-Python function, which raises the clear error or answers:
strings or lists of cards, a card that is not one of ``cards.ALL_CARDS``, a bad or out-of-range score, too many
copies of a card, a red three in hand, too big a hand, rules with sequences (samba: a bounded search), rule tables
beyond this module's sizes, other keyword arguments; and the cases that ``pile._fast_take`` hands to the explained
path (an empty pile, the one-card house rule, a turn that may end only by going out) go to
``pile._check_take_pile`` with the arguments already read.

The tables are built from ``cards.ALL_CARDS`` (``Card.index``) and from the ``RuleSet`` fields (once per rule set
object, kept in a small dict keyed by the rule set's identity): no card point or rule number is typed here. No
answer is ever kept between calls.
"""

from libc.string cimport memcpy, memset
from cpython.ref cimport PyObject

from canasta_tutor.engine.cards import ALL_CARDS, Card, sort_key
from canasta_tutor.engine.melds import CANASTA_SIZE as _CANASTA_SIZE
from canasta_tutor.engine.rules import MAX_SCORE, RuleSet, CLASSIC
from canasta_tutor.engine.situation import Situation, max_hand_cards
from canasta_tutor.engine.verdict import LazyReasons

cdef extern from *:
    """
    /* interned cards -> their index in ALL_CARDS, by pointer (open addressing) */
    static PyObject *tk_ptr[256];
    static int tk_idx[256];

    static inline unsigned tk_hash(PyObject *o) {
        size_t p = ((size_t)o) >> 4;
        return (unsigned)((p ^ (p >> 8) ^ (p >> 16)) & 255);
    }
    static int tk_add(PyObject *o, int i) {
        unsigned h = tk_hash(o);
        while (tk_ptr[h] != NULL) { if (tk_ptr[h] == o) return 0; h = (h + 1) & 255; }
        tk_ptr[h] = o; tk_idx[h] = i; return 1;
    }
    static inline int tk_index(PyObject *o) {
        unsigned h = tk_hash(o);
        PyObject *p;
        while ((p = tk_ptr[h]) != NULL) { if (p == o) return tk_idx[h]; h = (h + 1) & 255; }
        return -1;
    }
    /* an instance of a tuple subclass (a TakeVerdict) with these six items, as tuple.__new__ makes it */
    static PyObject *tk_new6(PyObject *type, PyObject *a, PyObject *b, PyObject *c, PyObject *d, PyObject *e,
                             PyObject *f) {
        PyObject *v = ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, 6);
        if (v == NULL) return NULL;
        Py_INCREF(a); PyTuple_SET_ITEM(v, 0, a);
        Py_INCREF(b); PyTuple_SET_ITEM(v, 1, b);
        Py_INCREF(c); PyTuple_SET_ITEM(v, 2, c);
        Py_INCREF(d); PyTuple_SET_ITEM(v, 3, d);
        Py_INCREF(e); PyTuple_SET_ITEM(v, 4, e);
        Py_INCREF(f); PyTuple_SET_ITEM(v, 5, f);
        return v;
    }
    static PyObject *tk_pair(PyObject *a, PyObject *b) {
        PyObject *t = PyTuple_New(2);
        if (t == NULL) return NULL;
        Py_INCREF(a); PyTuple_SET_ITEM(t, 0, a);
        Py_INCREF(b); PyTuple_SET_ITEM(t, 1, b);
        return t;
    }
    /* group + (top,) + extra (extra: 0 or 2 cards a, b) */
    static PyObject *tk_grow(PyObject *group, PyObject *top, PyObject *a, PyObject *b) {
        Py_ssize_t n = group == NULL ? 0 : PyTuple_GET_SIZE(group), i;
        Py_ssize_t more = a == NULL ? 1 : 3;
        PyObject *t = PyTuple_New(n + more), *x;
        if (t == NULL) return NULL;
        for (i = 0; i < n; i++) { x = PyTuple_GET_ITEM(group, i); Py_INCREF(x); PyTuple_SET_ITEM(t, i, x); }
        Py_INCREF(top); PyTuple_SET_ITEM(t, n, top);
        if (a != NULL) {
            Py_INCREF(a); PyTuple_SET_ITEM(t, n + 1, a);
            Py_INCREF(b); PyTuple_SET_ITEM(t, n + 2, b);
        }
        return t;
    }
    """
    int tk_add(PyObject *o, int i)
    int tk_index(PyObject *o)
    object tk_new6(object type, object a, object b, object c, object d, object e, object f)
    object tk_pair(PyObject *a, PyObject *b)
    object tk_grow(PyObject *group, PyObject *top, PyObject *a, PyObject *b)
    Py_ssize_t PyTuple_GET_SIZE(PyObject *)
    PyObject *PyTuple_GET_ITEM(PyObject *, Py_ssize_t)
    Py_ssize_t PyList_GET_SIZE(PyObject *)
    PyObject *PyList_GET_ITEM(PyObject *, Py_ssize_t)
    long long PyLong_AsLongLongAndOverflow(object, int *) except? -1

cdef enum:
    NCARDS = 53
    MAX_HAND = 256      # larger hands: the pure path
    MAX_CAPS = 64       # longer wild-capacity tables (a house rule's huge max_wild): the pure path
    MAX_OPEN = 16       # longer opening tables: the pure path

# --- the card tables (from cards.ALL_CARDS) -----------------------------------------------------------------------
cdef int c_rank[NCARDS]        # the rank's number (its place in RANKS order, joker last)
cdef int c_points[NCARDS]
cdef int c_wild[NCARDS]
cdef int c_natural[NCARDS]
cdef int c_red3[NCARDS]
cdef int c_black3[NCARDS]
cdef int c_joker[NCARDS]
cdef int c_wild_order[NCARDS]  # order of the wild cards by (points, sort_key): the cheapest first
cdef int N_RANKS
cdef int r_points[32]        # points of a natural card of each rank
cdef int CANASTA_SIZE = _CANASTA_SIZE
cdef int JOKER_INDEX

if len(ALL_CARDS) != NCARDS:
    raise ImportError("canasta_tutor.engine.cards.ALL_CARDS changed size: rebuild the take module")
_ranks = []
for _c in ALL_CARDS:
    if _c.rank not in _ranks:
        _ranks.append(_c.rank)
N_RANKS = len(_ranks)
if N_RANKS > 32:
    raise ImportError('more ranks than the take module holds')
_by_cost = sorted(ALL_CARDS, key=lambda c: (c.points, sort_key(c)))
for _c in ALL_CARDS:
    _i = _c.index
    if ALL_CARDS[_i] is not _c or not tk_add(<PyObject *>_c, _i):
        raise ImportError("canasta_tutor.engine.cards: Card.index does not give the place in ALL_CARDS")
    c_rank[_i] = _ranks.index(_c.rank)
    c_points[_i] = _c.points
    if _c.is_natural:
        r_points[c_rank[_i]] = _c.points
    c_wild[_i] = _c.is_wild
    c_natural[_i] = _c.is_natural
    c_red3[_i] = _c.is_red_three
    c_black3[_i] = _c.is_black_three
    c_joker[_i] = _c is Card("JK")
    c_wild_order[_i] = _by_cost.index(_c)
del _c, _i, _ranks, _by_cost

# --- the rule tables (from one RuleSet's fields) --------------------------------------------------------------------
cdef class _Rules:
    cdef object rules
    cdef bint covered          # False: the pure path answers under these rules
    cdef long long decks, jokers, max_hand, need
    cdef bint one_card, always_frozen, red3_freezes, black3_freezes, onto_canasta, natural_and_wild
    cdef int ncaps
    cdef int caps[MAX_CAPS]
    cdef int nopen
    cdef bint first_open_any   # the opening table's first row is for "any score below the next"
    cdef long long open_low[MAX_OPEN]
    cdef long long open_min[MAX_OPEN]

    cdef inline int cap(self, long long naturals):
        """``rules.wild_capacity(naturals)``: constant from ``max_wild + 1`` naturals on (as ``rules._wild_caps``)."""
        return self.caps[naturals if naturals < self.ncaps else self.ncaps - 1]

    cdef long long minimum(self, long long score):
        """``rules.opening_minimum(score)`` (the score is already checked)."""
        cdef long long m = self.open_min[0]
        cdef int i
        for i in range(self.nopen):
            if (i == 0 and self.first_open_any) or score >= self.open_low[i]:
                m = self.open_min[i]
            else:
                break
        return m


cdef _Rules _build(object rules):
    cdef _Rules t = _Rules.__new__(_Rules)
    cdef int i
    t.rules = rules
    t.covered = False
    if rules.sequences:
        return t
    try:
        t.decks, t.jokers, t.max_hand = rules.decks, rules.jokers, max_hand_cards(rules)
        t.need = rules.canastas_to_go_out
        t.one_card, t.always_frozen = rules.one_card_pile_rule, rules.pile_always_frozen
        t.red3_freezes, t.black3_freezes = rules.red_three_freezes_pile, rules.black_three_freezes_pile
        t.onto_canasta, t.natural_and_wild = rules.take_onto_canasta, rules.take_with_natural_and_wild
        caps = rules._wild_caps
        table = rules.opening_table
        if not 0 < len(caps) <= MAX_CAPS or not 0 < len(table) <= MAX_OPEN:
            return t
        t.ncaps = len(caps)
        for i in range(t.ncaps):
            t.caps[i] = rules.wild_capacity(i)
        t.nopen = len(table)
        for i in range(t.nopen):
            lowest, t.open_min[i] = table[i]
            if lowest is None:
                if i:
                    return t
                t.first_open_any = True
                t.open_low[i] = 0
            else:
                t.open_low[i] = lowest
    except (OverflowError, TypeError, ValueError):
        return t
    t.covered = True
    return t


cdef dict _TABLES = {}          # id(rules) -> its _Rules (which holds the rule set, so the id stays its own)
cdef object _last_rules = None
cdef _Rules _last_tables = None


cdef inline _Rules _tables(object rules):
    global _last_rules, _last_tables
    if rules is _last_rules:
        return _last_tables
    t = <_Rules>_TABLES.get(id(rules))
    if t is None or t.rules is not rules:
        if len(_TABLES) >= 32:  # rule sets made on the fly (with_options): keep the dict small
            _TABLES.clear()
        t = _build(rules)
        _TABLES[id(rules)] = t
    _last_rules, _last_tables = rules, t
    return t


# --- what pile.py gives (attach) ----------------------------------------------------------------------------------
cdef object _pure = None         # the pure-Python check_take_pile: every call this module does not decide
cdef object _explained = None    # pile._check_take_pile: the explained path
cdef object _reasons = None      # pile._take_reasons: the lazy reasons' writer
cdef object TakeVerdict = None
cdef object _PURE = object()     # _decide's answers when it does not decide
cdef object _EXPLAIN = object()
cdef long long _MAX_SCORE = MAX_SCORE


def attach(name, pure, *, verdict_type, explained, reasons):
    """The entry every compiled module has (called by ``canasta_tutor.engine.speedups.attach``): the compiled
    :func:`check_take_pile`, handed ``pure``, the pure-Python check it falls back on, and ``pile.py``'s
    ``TakeVerdict``, explained path and reasons writer; returns it."""
    global _pure, _explained, _reasons, TakeVerdict
    if name != "check_take_pile":
        raise ValueError(f"take.pyx compiles check_take_pile, not {name!r}")
    _pure, _explained, _reasons, TakeVerdict = pure, explained, reasons, verdict_type
    return check_take_pile


cdef object _no(object hand, object melds, object score, object pile, object rules, object stock_empty, object top):
    return tk_new6(TakeVerdict, False, LazyReasons(_reasons, hand, list(melds), score, pile, rules, stock_empty),
                   "", (), (), top)


cdef long long _max_groups(int *rank_count, int *wild_values, int nwild, int rank, int top_points, _Rules t):
    """counts._groups_only_points: the most points from groups, the top card's rank (``rank``) included;
    ``rank_count``: the natural cards in hand per rank; ``wild_values``: the wild cards' points, highest first."""
    cdef long long base, capacity, best, total, pairs_sum, wild_sum
    cdef int pair_points[32]
    cdef int npairs = 0, r, x, kk, used, n, pair_cap = t.cap(2)
    n = rank_count[rank]
    base = n * r_points[rank] + top_points
    capacity = t.cap(n + 1)
    for r in range(N_RANKS):
        n = rank_count[r]
        if r == rank or n < 2:
            continue
        if n >= 3:
            base += n * r_points[r]
            capacity += t.cap(n)
        else:
            x = npairs
            while x > 0 and pair_points[x - 1] < 2 * r_points[r]:
                pair_points[x] = pair_points[x - 1]
                x -= 1
            pair_points[x] = 2 * r_points[r]
            npairs += 1
    best = base
    if pair_cap:
        pairs_sum = 0
        for kk in range(1, min(npairs, nwild) + 1):
            pairs_sum += pair_points[kk - 1]
            used = <int>min(<long long>nwild, capacity + kk * pair_cap)
            wild_sum = 0
            for x in range(used):
                wild_sum += wild_values[x]
            total = base + pairs_sum + wild_sum
            if total > best:
                best = total
    used = <int>min(<long long>nwild, capacity)
    wild_sum = 0
    for x in range(used):
        wild_sum += wild_values[x]
    return base + wild_sum if base + wild_sum > best else best


cdef long long _left_out_value(int *rank_count, int *wild_values, int nwild, int rank, int top_points, _Rules t,
                               int *kind_type, int *kind_key, int a, int b):
    """counts.most_meld_points of the hand without one card of kind ``a`` (and one of kind ``b`` unless -1): -1
    when fewer than two natural cards of the top card's rank are left."""
    cdef int counts[32]
    cdef int values[MAX_HAND]
    cdef int nv = 0, i, j, drop_a = -1, drop_b = -1, kind
    memcpy(counts, rank_count, sizeof(counts))
    for kind in (a, b):
        if kind < 0:
            continue
        if kind_type[kind] == 0:
            counts[kind_key[kind]] -= 1
        elif kind_type[kind] == 1:
            for j in range(nwild):  # the first wild card of this value not yet dropped
                if wild_values[j] == kind_key[kind] and j != drop_a:
                    if drop_a < 0:
                        drop_a = j
                    else:
                        drop_b = j
                    break
    if counts[rank] < 2:
        return -1
    for i in range(nwild):
        if i != drop_a and i != drop_b:
            values[nv] = wild_values[i]
            nv += 1
    return _max_groups(counts, values, nv, rank, top_points, t)


cdef object _decide(object hand, object melds, object score, object pile, object rules, object stock_empty):
    """The verdict, or _PURE (the pure function answers the call), or _EXPLAIN (the explained path answers)."""
    cdef int counts[NCARDS]
    cdef int hidx[MAX_HAND]
    cdef int rank_count[32]
    cdef int wild_values[MAX_HAND]
    cdef int overflow = 0
    cdef long long s
    cdef Py_ssize_t nh, np, nm, ng, i, j
    cdef int k, tk = -1, rank = -1, red_in_pile = 0
    cdef bint wild_in_pile = False, red3_in_pile = False, black3_in_pile = False, frozen, mlist
    cdef int team = -1, team_n = 0, team_nat = 0, team_wild = 0, g_rank, g_wild, g_other, g_first
    cdef int canastas = 0, team_canasta = 0, g_canasta
    cdef bint g_group
    cdef PyObject *g
    cdef PyObject *h = <PyObject *>hand
    cdef PyObject *p = <PyObject *>pile
    cdef PyObject *m = <PyObject *>melds
    cdef PyObject *team_group = NULL
    cdef PyObject *top_card
    cdef _Rules t

    if type(rules) is not RuleSet:
        return _PURE
    t = _tables(rules)
    if not t.covered:
        return _PURE
    if type(score) is not int:
        return _PURE
    s = PyLong_AsLongLongAndOverflow(score, &overflow)
    if overflow or s > _MAX_SCORE or s < -_MAX_SCORE:
        return _PURE
    if stock_empty is not True and stock_empty is not False:
        return _PURE
    if type(hand) is not tuple or type(pile) is not tuple:
        return _PURE
    if type(melds) is list:
        mlist = True
    elif type(melds) is tuple:
        mlist = False
    else:
        return _PURE
    nh = PyTuple_GET_SIZE(h)
    np = PyTuple_GET_SIZE(p)
    if nh > t.max_hand or nh >= MAX_HAND:
        return _PURE
    memset(counts, 0, sizeof(counts))

    # the pile: its top card, what freezes it, the red threes under the top card
    for i in range(np):
        k = tk_index(PyTuple_GET_ITEM(p, i))
        if k < 0:
            return _PURE
        counts[k] += 1
        if c_wild[k]:
            wild_in_pile = True
        elif c_red3[k]:
            red3_in_pile = True
            red_in_pile += 1
        elif c_black3[k]:
            black3_in_pile = True
    if np:
        top_card = PyTuple_GET_ITEM(p, np - 1)
        tk = k
        rank = c_rank[tk]

    # the hand (no red three: the pure path raises)
    for i in range(nh):
        k = tk_index(PyTuple_GET_ITEM(h, i))
        if k < 0 or c_red3[k]:
            return _PURE
        counts[k] += 1
        hidx[i] = k

    # the team's melds, and its group of the top card's rank (the first meld holding that rank and no other)
    nm = PyList_GET_SIZE(m) if mlist else PyTuple_GET_SIZE(m)
    for j in range(nm):
        g = PyList_GET_ITEM(m, j) if mlist else PyTuple_GET_ITEM(m, j)
        if type(<object>g) is not tuple:
            return _PURE
        ng = PyTuple_GET_SIZE(g)
        if ng == 0:
            return _PURE
        g_rank = g_wild = g_other = 0
        g_first = -1
        g_group = True
        for i in range(ng):
            k = tk_index(PyTuple_GET_ITEM(g, i))
            if k < 0:
                return _PURE
            counts[k] += 1
            if c_wild[k]:
                g_wild += 1
                continue
            if c_rank[k] == rank:
                g_rank += 1
            else:
                g_other += 1
            if not c_natural[k] or (g_first >= 0 and c_rank[k] != g_first):
                g_group = False
            g_first = c_rank[k]
        # a canasta on the table (as going_out._table_info counts them: a legal group of seven or more)
        g_canasta = (g_group and ng >= CANASTA_SIZE and ng - g_wild >= 2 and g_wild <= t.cap(ng - g_wild))
        canastas += g_canasta
        if team < 0 and g_rank and not g_other:
            team, team_group, team_n, team_nat, team_wild, team_canasta = j, g, ng, g_rank, g_wild, g_canasta

    # copies: no card more often than the decks hold (else the pure path names it)
    for k in range(NCARDS):
        if counts[k] > (t.jokers if c_joker[k] else t.decks):
            return _PURE

    # --- pile._fast_take ------------------------------------------------------------------------------------------
    if np == 0:
        return _EXPLAIN
    top = <object>top_card
    if c_wild[tk] or c_black3[tk] or c_red3[tk]:
        return _no(hand, melds, score, pile, rules, stock_empty, top)
    if t.one_card and stock_empty is False and nh == 1 and np == 1:
        return _EXPLAIN
    frozen = (t.always_frozen or nm == 0 or wild_in_pile or (t.red3_freezes and red3_in_pile)
              or (t.black3_freezes and black3_in_pile))

    # pile._take_options: the first way to meld the top card
    cdef int nat_count = 0, first = -1, second = -1, wild_pick = -1
    for i in range(nh):
        k = hidx[i]
        if c_rank[k] == rank:  # the top card is natural here: so is every card of its rank
            nat_count += 1
            if first < 0:
                first = i
            elif second < 0:
                second = i
        elif c_wild[k] and (wild_pick < 0 or c_wild_order[k] < c_wild_order[hidx[wild_pick]]):
            wild_pick = i
    cdef bint team_valid = False
    if team >= 0:
        team_valid = team_n >= 3 and team_nat >= 2 and team_wild <= t.cap(team_nat)
    method = None
    if nat_count >= 2:
        if team < 0:
            method, used, meld = "pair", tk_pair(PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, second)), None
        elif team_valid and team_wild <= t.cap(team_nat + 3):
            method, used, meld = "pair", tk_pair(PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, second)), None
    if method is None and not frozen:
        if team >= 0:
            if not (not t.onto_canasta and team_valid and team_n >= 7) and team_valid and \
                    team_wild <= t.cap(team_nat + 1):
                method, used, meld = "lay-off", (), tk_grow(team_group, top_card, NULL, NULL)
        elif t.natural_and_wild and nat_count and wild_pick >= 0 and t.cap(2) >= 1:
            used = tk_pair(PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, wild_pick))
            meld = tk_grow(NULL, top_card, PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, wild_pick))
            method = "natural-and-wild"
    if method is None:
        return _no(hand, melds, score, pile, rules, stock_empty, top)

    # the pile's cards under the top card that the player keeps (red threes are laid down)
    cdef Py_ssize_t pile_kept = np - 1 - red_in_pile
    cdef int nwild = 0, x, a, b, keep, nkinds = 0
    cdef bint found
    cdef long long minimum
    cdef int kind_type[32]
    cdef int kind_key[32]
    cdef int kind_count[32]
    if nm == 0:
        # an unopened team: its best first meld (counts._groups_only_points of the natural and wild cards in hand, with
        # the top card) must reach the minimum
        memset(rank_count, 0, sizeof(rank_count))
        for i in range(nh):
            k = hidx[i]
            if c_natural[k]:
                rank_count[c_rank[k]] += 1
            elif c_wild[k]:  # the values, highest first (insertion sort: a handful)
                x = nwild
                while x > 0 and wild_values[x - 1] < c_points[k]:
                    wild_values[x] = wild_values[x - 1]
                    x -= 1
                wild_values[x] = c_points[k]
                nwild += 1
        minimum = t.minimum(s)
        if _max_groups(rank_count, wild_values, nwild, rank, c_points[tk], t) < minimum:
            return _no(hand, melds, score, pile, rules, stock_empty, top)
        if pile_kept < 2:
            # pile._finish_unopened: leave `keep` cards of the hand out of the opening (to discard one and keep
            # one) and still reach the minimum; the cards count by kind (a natural rank, a wild card's value, a
            # black three), so each choice of kinds is tried once
            keep = <int>(2 - pile_kept)
            for r in range(N_RANKS):
                if rank_count[r] > 0:
                    kind_type[nkinds], kind_key[nkinds], kind_count[nkinds] = 0, r, rank_count[r]
                    nkinds += 1
            for i in range(nwild):
                if i == 0 or wild_values[i] != wild_values[i - 1]:
                    kind_type[nkinds], kind_key[nkinds], kind_count[nkinds] = 1, wild_values[i], 0
                    nkinds += 1
                kind_count[nkinds - 1] += 1
            x = 0
            for i in range(nh):
                if not c_natural[hidx[i]] and not c_wild[hidx[i]]:
                    x += 1
            if x:
                kind_type[nkinds], kind_key[nkinds], kind_count[nkinds] = 2, 0, x
                nkinds += 1
            found = False
            for a in range(nkinds):
                for b in range(a if keep == 2 else -1, nkinds if keep == 2 else 0):
                    if b == a and kind_count[a] < 2:
                        continue
                    if _left_out_value(rank_count, wild_values, nwild, rank, c_points[tk], t, kind_type, kind_key,
                                       a, b) >= minimum:
                        found = True
                        break
                if found:
                    break
            if not found:
                return _EXPLAIN  # no such choice: only going out at once finishes the turn (a search)
    elif nh - len(used) + pile_kept < 2:
        # the turn may end only by going out with the card left (or none): sure when the team's melds after taking
        # hold the canastas the rules ask for (discard the last card); else the explained path searches
        if canastas - (team_canasta if method != "natural-and-wild" and team >= 0 else 0) + \
                (1 if method != "natural-and-wild" and team >= 0 and
                 team_n + (1 if method == "lay-off" else 3) >= CANASTA_SIZE else 0) < t.need:
            return _EXPLAIN
    if meld is None:  # the pair: a new meld, or the team's group grown
        meld = tk_grow(team_group, top_card, PyTuple_GET_ITEM(<PyObject *>used, 0),
                       PyTuple_GET_ITEM(<PyObject *>used, 1))
    return tk_new6(TakeVerdict, True, LazyReasons(_reasons, hand, list(melds), score, pile, rules, stock_empty),
                   method, used, meld, top)


def check_take_pile(*args, **kwargs):
    cdef Py_ssize_t n = len(args)
    hand, melds, score, pile, rules, stock_empty = (), (), 0, (), CLASSIC, False
    if not kwargs:
        if n == 5:
            hand, melds, score, pile, rules = args
        elif n == 1 and type(args[0]) is Situation:
            d = args[0].__dict__
            hand, melds, score, pile, rules, stock_empty = (d["hand"], d["melds"], d["score"], d["pile"],
                                                            d["rules"], d["stock_empty"])
        elif n == 4:
            hand, melds, score, pile = args
        elif n == 3:
            hand, melds, score = args
        elif n == 2:
            hand, melds = args
        elif n == 1:
            hand = args[0]
        else:
            return _pure(*args, **kwargs)
    else:
        if n > 5 or (n and type(args[0]) is Situation):
            return _pure(*args, **kwargs)
        if n > 0: hand = args[0]
        if n > 1: melds = args[1]
        if n > 2: score = args[2]
        if n > 3: pile = args[3]
        if n > 4: rules = args[4]
        for key, value in (<dict>kwargs).items():
            if key == "hand" and n < 1:
                hand = value
            elif key == "melds" and n < 2:
                melds = value
            elif key == "score" and n < 3:
                score = value
            elif key == "pile" and n < 4:
                pile = value
            elif key == "rules" and n < 5:
                rules = value
            elif key == "stock_empty":
                stock_empty = value
            else:
                return _pure(*args, **kwargs)
    if rules is None:
        rules = CLASSIC
    verdict = _decide(hand, melds, score, pile, rules, stock_empty)
    if verdict is _PURE:
        return _pure(*args, **kwargs)
    if verdict is _EXPLAIN:
        return _explained(hand, list(melds), score, pile, rules, stock_empty)
    return verdict
