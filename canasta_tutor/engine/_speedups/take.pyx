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
red three in hand, the hand size cap of ``situation.max_hand_cards``) into counts (what lies in the pile, the natural
cards of the top card's rank, the team's group of that rank and its canastas, the hand per rank and its wild cards'
points), then the decision, which is the counting core's, compiled: :func:`~canasta_tutor.engine.counts.flat_take_way`
(``engine/counts.py``'s closed forms without sequences, compiled by ``_speedups/counts.pyx`` and called here in C
through ``counts.pxd``: a stopped pile, the frozen pile, the first way to meld the top card as
``pile._take_options`` orders them, the opening minimum of an unopened team and the "keeps a card" rule). This module
then builds the verdict's cards for the way it names.

What falls back: anything else goes to the pure-Python function, which raises the clear error or answers:
strings or lists of cards, a card that is not one of ``cards.ALL_CARDS``, a bad or out-of-range score, too many
copies of a card, a red three in hand, too big a hand, rules with sequences (samba: a bounded search), rule tables
beyond this module's sizes, other keyword arguments; and the cases that the counting core hands to the explained
path (an empty pile, the one-card house rule, a turn that may end only by going out) go to
``pile._check_take_pile`` with the arguments already read.

The tables are built from ``cards.ALL_CARDS`` (``Card.index``) and from the ``RuleSet`` fields (once per rule set
object, kept in a small dict keyed by the rule set's identity): no card point or rule number is typed here. No
answer is ever kept between calls.
"""

from libc.string cimport memset
from cpython.ref cimport PyObject

from canasta_tutor.engine._speedups.counts cimport flat_cap, flat_legal_group, flat_take_way
from canasta_tutor.engine.cards import ALL_CARDS, Card, sort_key
from canasta_tutor.engine.counts import (PILE_BLACK_THREE, PILE_RED_THREE, PILE_WILD, TAKE_LAY_OFF,
                                         TAKE_NATURAL_AND_WILD, TAKE_EXPLAIN, TAKE_NO, TAKE_PAIR, take_rule_flags)
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
cdef int r_by_points[32]     # the ranks, the highest natural points first (counts.flat_group_points)
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
for _i, _r in enumerate(sorted(range(N_RANKS), key=lambda r: -r_points[r])):
    r_by_points[_i] = _r
del _c, _i, _r, _ranks, _by_cost
cdef int W_NO = TAKE_NO, W_PAIR = TAKE_PAIR, W_LAY_OFF = TAKE_LAY_OFF, W_NATURAL_AND_WILD = TAKE_NATURAL_AND_WILD
cdef int W_EXPLAIN = TAKE_EXPLAIN
cdef int P_WILD = PILE_WILD, P_RED_THREE = PILE_RED_THREE, P_BLACK_THREE = PILE_BLACK_THREE

# --- the rule tables (from one RuleSet's fields) --------------------------------------------------------------------
cdef class _Rules:
    cdef object rules
    cdef bint covered          # False: the pure path answers under these rules
    cdef long long decks, jokers, max_hand, need
    cdef int copies[NCARDS]    # how many of each card the decks hold (checked as each card is counted)
    cdef int flags             # counts.take_rule_flags: the pile rules
    cdef int ncaps
    cdef int caps[MAX_CAPS]
    cdef int nopen
    cdef bint first_open_any   # the opening table's first row is for "any score below the next"
    cdef long long open_low[MAX_OPEN]
    cdef long long open_min[MAX_OPEN]

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
        if t.decks > 1 << 20 or t.jokers > 1 << 20:
            return t
        for i in range(NCARDS):
            t.copies[i] = t.jokers if c_joker[i] else t.decks
        t.need = rules.canastas_to_go_out
        t.flags = take_rule_flags(rules)
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


cdef object _decide(object hand, object melds, object score, object pile, object rules, object stock_empty):
    """The verdict, or _PURE (the pure function answers the call), or _EXPLAIN (the explained path answers): the
    arguments read into counts here, the rule decided by the counting core (counts.flat_take_way)."""
    cdef int counts[NCARDS]
    cdef int hidx[MAX_HAND]
    cdef int rank_count[32]
    cdef int wild_values[MAX_HAND]
    cdef int overflow = 0
    cdef long long s, minimum = 0
    cdef Py_ssize_t nh, np, nm, ng, i, j
    cdef int k, x, tk = -1, rank = -1, red_in_pile = 0, pile_bits = 0, way
    cdef bint mlist, unopened
    cdef int team = -1, team_n = 0, team_nat = 0, team_wild = 0, g_rank, g_wild, g_other, g_first
    cdef int canastas = 0, team_canasta = 0, g_canasta
    cdef int nat_count = 0, first = -1, second = -1, wild_pick = -1, nwild = 0, others = 0
    cdef bint g_group
    cdef PyObject *g
    cdef PyObject *h = <PyObject *>hand
    cdef PyObject *p = <PyObject *>pile
    cdef PyObject *m = <PyObject *>melds
    cdef PyObject *team_group = NULL
    cdef PyObject *top_card = NULL
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

    # the pile: its top card, what lies in it, its red threes
    for i in range(np):
        k = tk_index(PyTuple_GET_ITEM(p, i))
        if k < 0:
            return _PURE
        counts[k] += 1
        if counts[k] > t.copies[k]:
            return _PURE
        if c_wild[k]:
            pile_bits |= P_WILD
        elif c_red3[k]:
            pile_bits |= P_RED_THREE
            red_in_pile += 1
        elif c_black3[k]:
            pile_bits |= P_BLACK_THREE
    if np:
        top_card = PyTuple_GET_ITEM(p, np - 1)
        tk = k
        rank = c_rank[tk]

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
            if counts[k] > t.copies[k]:   # more copies than the decks hold: the pure path names it
                return _PURE
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
        g_canasta = g_group and ng >= CANASTA_SIZE and flat_legal_group(ng - g_wild, g_wild, t.caps, t.ncaps)
        canastas += g_canasta
        if team < 0 and g_rank and not g_other:
            team, team_group, team_n, team_nat, team_wild, team_canasta = j, g, ng, g_rank, g_wild, g_canasta

    # the hand (no red three: the pure path raises): the natural cards of the top card's rank, the cheapest wild
    # card; for an unopened team also the hand by rank and its wild cards' values (highest first: insertion sort, a
    # handful) and its black threes
    unopened = nm == 0
    if unopened:
        memset(rank_count, 0, sizeof(rank_count))
    for i in range(nh):
        k = tk_index(PyTuple_GET_ITEM(h, i))
        if k < 0 or c_red3[k]:
            return _PURE
        counts[k] += 1
        if counts[k] > t.copies[k]:
            return _PURE
        hidx[i] = k
        if c_natural[k]:
            if unopened:
                rank_count[c_rank[k]] += 1
            if c_rank[k] == rank:
                nat_count += 1
                if first < 0:
                    first = i
                elif second < 0:
                    second = i
        elif c_wild[k]:
            if wild_pick < 0 or c_wild_order[k] < c_wild_order[hidx[wild_pick]]:
                wild_pick = i
            if unopened:
                x = nwild
                while x > 0 and wild_values[x - 1] < c_points[k]:
                    wild_values[x] = wild_values[x - 1]
                    x -= 1
                wild_values[x] = c_points[k]
                nwild += 1
        else:
            others += 1


    # --- the counting core decides ----------------------------------------------------------------------------------
    if unopened:
        minimum = t.minimum(s)
    way = flat_take_way(np > 0 and (c_wild[tk] or c_black3[tk] or c_red3[tk]), <int>np, <int>nh, <int>nm,
                        stock_empty is True, pile_bits, red_in_pile, nat_count, wild_pick >= 0, team >= 0, team_n,
                        team_nat, team_wild, team_canasta, canastas, t.flags, <int>t.need, minimum, t.caps, t.ncaps,
                        rank_count, N_RANKS, r_points, r_by_points, wild_values, nwild, others, rank,
                        c_points[tk] if np else 0)
    if way == W_EXPLAIN:
        return _EXPLAIN
    top = <object>top_card
    if way == W_NO:
        return _no(hand, melds, score, pile, rules, stock_empty, top)
    if way == W_PAIR:
        used = tk_pair(PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, second))
        meld = tk_grow(team_group, top_card, PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, second))
        method = "pair"
    elif way == W_LAY_OFF:
        used, meld, method = (), tk_grow(team_group, top_card, NULL, NULL), "lay-off"
    else:
        used = tk_pair(PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, wild_pick))
        meld = tk_grow(NULL, top_card, PyTuple_GET_ITEM(h, first), PyTuple_GET_ITEM(h, wild_pick))
        method = "natural-and-wild"
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
