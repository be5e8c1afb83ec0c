cdef extern from *:
    const char* CANASTA_SOURCE_SHA
SOURCE_SHA = CANASTA_SOURCE_SHA.decode()

__doc__ = """The compiled fast path of :func:`canasta_tutor.engine.going_out.check_go_out` ("may the player go out now?").

What is compiled: the common well-formed call, as the game and the twin harness make it: ``check_go_out(hand, melds,
score, rules)`` positionally or by keyword (or ``check_go_out(situation)``), the hand and each meld a tuple or list of
interned :class:`~canasta_tutor.engine.cards.Card`, the score a plain int within the engine's range, the rules a
:class:`~canasta_tutor.engine.rules.RuleSet` (or a preset's name, or ``None``) without sequences or wild-card swaps, and a
team that has melded (or rules under which going out concealed needs no opening minimum). For that call this module
only reads the arguments into counts (the hand's natural cards per rank, its wild cards and black threes; the team's
legal groups per rank as natural cards, wild cards and size; its canastas) and asks the counting core, compiled:
:func:`~canasta_tutor.engine.counts.flat_go_out_discards` (``engine/counts.py``'s closed forms without sequences, compiled by
``_speedups/counts.pyx`` and called here in C through ``counts.pxd``), which tries the last discards in the order
the plan's search tries them, holds the most canastas against ``rules.canastas_to_go_out`` and stops at the first
that works; the plan's search, when the plan is read, tries only that kind of last discard. The pure path asks
:func:`~canasta_tutor.engine.counts.place_every_card`; the tests hold the two to the same answers.

What falls back to the pure-Python function (which raises the clear error, or answers with explanations): any other
argument form or type (strings, cards that are not the interned ones, a Situation subclass, other Situation fields),
a score that is not an int within range, a red three in the hand, a three in a team meld, a meld of more than 15
cards, more copies of a card than the decks hold, a hand bigger than the rules allow, rules with sequences or
wild-card swaps, and an unopened team that must reach its opening minimum when going out concealed.

The verdict is the pure path's :class:`~canasta_tutor.engine.going_out.GoOutVerdict`: the reasons are
:class:`~canasta_tutor.engine.verdict.LazyReasons` (the explained path's sentences, written when read) and the ``plan`` of
a yes is found when first read, by the pure-Python search (:func:`~canasta_tutor.engine.going_out._plan_of`). Nothing
is remembered between calls but the per-rule-set tables (wild-card capacities, deck limits), built once per
:class:`~canasta_tutor.engine.rules.RuleSet`; the card tables are built at import from :mod:`canasta_tutor.engine.cards`.
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.string cimport memset

from canasta_tutor.engine._speedups.counts cimport flat_go_out_discards, flat_legal_group
from canasta_tutor.engine.cards import ALL_CARDS, NATURAL_RANKS, WEIGHT_MAX_CARDS
from canasta_tutor.engine.melds import CANASTA_SIZE
from canasta_tutor.engine.rules import CLASSIC, MAX_SCORE, PRESETS, RuleSet
from canasta_tutor.engine.situation import Situation, max_hand_cards
from canasta_tutor.engine.verdict import LazyReasons

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* tp, Py_ssize_t n)  # a new reference
    void PyTuple_SET_ITEM(object p, Py_ssize_t pos, object o)
    bint PyTuple_CheckExact(object o)
    bint PyList_CheckExact(object o)
    bint PyLong_CheckExact(object o)
    bint PyUnicode_CheckExact(object o)
    Py_ssize_t PyTuple_GET_SIZE(object p)
    Py_ssize_t PyList_GET_SIZE(object p)
    PyObject* PyTuple_GET_ITEM(object p, Py_ssize_t pos)
    PyObject* PyList_GET_ITEM(object p, Py_ssize_t pos)
    Py_ssize_t PyDict_GET_SIZE(object p)


# --- card tables (from canasta_tutor.engine.cards) -------------------------------------------------------------------------
cdef enum:
    N_CARDS = 53          # len(ALL_CARDS), checked at import
    N_RANKS = 11          # len(NATURAL_RANKS), checked at import
    K_WILD = 11           # kinds of card: 0..10 a natural rank (place in NATURAL_RANKS), then these
    K_BLACK = 12
    K_RED = 13
    SLOTS = 256           # the pointer table (open addressing)
    N_CAPS = 64           # wild-card capacities per number of natural cards (rule sets beyond: Python)

if len(ALL_CARDS) != N_CARDS or len(NATURAL_RANKS) != N_RANKS:
    raise ImportError("canasta_tutor.engine.cards changed its card set: rebuild the go-out tables")

# The interned cards, found by address: an object not in this table is not an interned Card (Python answers).
cdef size_t _keys[SLOTS]
cdef signed char _vals[SLOTS]
cdef unsigned char _kind[N_CARDS]
cdef bint _is_joker[N_CARDS]
cdef int _canasta = CANASTA_SIZE
cdef int _max_group = WEIGHT_MAX_CARDS
cdef long long _max_score = MAX_SCORE

cdef inline size_t _slot(size_t p) noexcept nogil:
    return <size_t>((<unsigned long long>p * 0x9E3779B97F4A7C15ULL) >> 56) & (SLOTS - 1)


cdef void _build_cards():
    cdef size_t p, h
    cdef int i
    memset(_keys, 0, sizeof(_keys))
    for i in range(SLOTS):
        _vals[i] = -1
    for i, card in enumerate(ALL_CARDS):
        p = <size_t><PyObject*>card
        h = _slot(p)
        while _keys[h] != 0:
            h = (h + 1) & (SLOTS - 1)
        _keys[h] = p
        _vals[h] = i
        _is_joker[i] = card.rank == "JK"
        if card.is_natural:
            _kind[i] = NATURAL_RANKS.index(card.rank)
        elif card.is_wild:
            _kind[i] = K_WILD
        elif card.is_black_three:
            _kind[i] = K_BLACK
        elif card.is_red_three:
            _kind[i] = K_RED
        else:
            raise ImportError(f"card {card!r} is of no kind the go-out tables know")


_build_cards()


cdef inline int _index(PyObject* o) noexcept nogil:
    """The card's place in ALL_CARDS, or -1 if ``o`` is not an interned card."""
    cdef size_t p = <size_t>o
    cdef size_t h = _slot(p)
    cdef size_t k
    while True:
        k = _keys[h]
        if k == p:
            return _vals[h]
        if k == 0:
            return -1
        h = (h + 1) & (SLOTS - 1)


# --- per-rule-set tables (a table cache keyed by the RuleSet, never an answer cache) ----------------------------------
cdef class _Rules:
    cdef object rules          # held, so that its id is not reused while the entry lives
    cdef bint fast             # rules this module decides (no sequences, no wild-card swaps, capacities fit)
    cdef bint concealed_free   # concealed_needs_no_minimum
    cdef bint black_wild       # black_threes_with_wild
    cdef long long decks, jokers, need, max_hand
    cdef int caps[N_CAPS]


cdef dict _tables = {}
cdef object _last_rules = None
cdef _Rules _last_table = None


cdef _Rules _table(object rules):
    global _last_rules, _last_table
    cdef _Rules t = _tables.get(id(rules))
    cdef int n
    if t is None or t.rules is not rules:
        t = _Rules.__new__(_Rules)
        t.rules = rules
        caps = rules._wild_caps
        t.fast = (not rules.sequences and not rules.wild_swap and len(caps) <= N_CAPS
                  and 0 < rules.decks < 1 << 30 and 0 <= rules.jokers < 1 << 30
                  and 0 <= rules.canastas_to_go_out < 1 << 30 and -(1 << 30) < max_hand_cards(rules) < 1 << 30)
        if t.fast:
            t.concealed_free = rules.concealed_needs_no_minimum
            t.black_wild = rules.black_threes_with_wild
            t.decks = rules.decks
            t.jokers = rules.jokers
            t.need = rules.canastas_to_go_out
            t.max_hand = max_hand_cards(rules)
            for n in range(N_CAPS):
                t.caps[n] = caps[n] if n < len(caps) else caps[-1]
        if len(_tables) >= 64:
            _tables.clear()
        _tables[id(rules)] = t
    _last_rules = rules
    _last_table = t
    return t


# --- the entry point --------------------------------------------------------------------------------------------------
cdef object _pure = None            # the pure-Python check_go_out (also every fallback)
cdef object _verdict_type = None    # GoOutVerdict
cdef object _no_reasons = None      # going_out._go_out_reasons
cdef object _yes_reasons = None     # going_out._lazy_yes_reasons
cdef object _lazy_plan = None       # going_out.LazyPlan
cdef object _find_plan = None       # going_out._plan_of
cdef object _MISSING = object()
cdef dict _FIELDS = {"hand": 0, "melds": 1, "score": 2, "rules": 3}


def attach(name, pure, *, verdict_type, no_reasons, yes_reasons, lazy_plan, find_plan):
    """The entry every compiled module has (called by ``canasta_tutor.engine.speedups.attach``): the compiled
    :func:`check_go_out`, handed ``pure``, the pure-Python check it falls back on, and the pieces it needs from
    ``canasta_tutor.engine.going_out`` (the verdict type, the lazy reasons of a no and of a yes, the lazy plan and
    the search that finds it); returns it."""
    global _pure, _verdict_type, _no_reasons, _yes_reasons, _lazy_plan, _find_plan
    if name != "check_go_out":
        raise ValueError(f"goout.pyx compiles check_go_out, not {name!r}")
    _pure, _verdict_type, _no_reasons, _yes_reasons = pure, verdict_type, no_reasons, yes_reasons
    _lazy_plan, _find_plan = lazy_plan, find_plan
    return check_go_out


cdef inline object _verdict(object ok, object reasons, object plan):
    """``GoOutVerdict(ok, reasons, plan)`` made as ``tuple.__new__`` makes it (without the namedtuple's __new__)."""
    cdef object v = PyType_GenericAlloc(<PyTypeObject*>_verdict_type, 3)
    Py_INCREF(ok)
    PyTuple_SET_ITEM(v, 0, ok)
    Py_INCREF(reasons)
    PyTuple_SET_ITEM(v, 1, reasons)
    Py_INCREF(plan)
    PyTuple_SET_ITEM(v, 2, plan)
    return v


cdef inline object _group(object g, Py_ssize_t* size):
    """A group given as a tuple or list: its item array's owner (the group), its size; None otherwise."""
    if PyTuple_CheckExact(g):
        size[0] = PyTuple_GET_SIZE(g)
        return g
    if PyList_CheckExact(g):
        size[0] = PyList_GET_SIZE(g)
        return g
    return None


cdef inline PyObject* _item(object g, Py_ssize_t i) noexcept:
    if PyTuple_CheckExact(g):
        return PyTuple_GET_ITEM(g, i)
    return PyList_GET_ITEM(g, i)


def check_go_out(*args, **kwargs):
    cdef Py_ssize_t nargs = PyTuple_GET_SIZE(args), nh, nm, ng, i, j
    cdef int count[N_RANKS]
    cdef int tnat[N_RANKS]
    cdef int twild[N_RANKS]
    cdef int tsize[N_RANKS]
    cdef int intable[N_RANKS]
    cdef int copies[N_CARDS]
    cdef int wild = 0, black = 0, base = 0, idx, k, rank, gw, nat
    cdef int discards
    cdef bint mixed, snapshot = False
    cdef long long sc
    cdef int overflow
    cdef _Rules t
    cdef object hand, melds, score, rules, g
    # --- the call form: positional or keyword fields, or one Situation -------------------------------------------------
    if PyDict_GET_SIZE(kwargs) == 0:
        if nargs == 4:
            hand, melds, score, rules = args
        elif nargs == 3:
            hand, melds, score = args
            rules = CLASSIC
        elif nargs == 2:
            hand, melds = args
            score, rules = 0, CLASSIC
        elif nargs == 1:
            hand = args[0]
            if hand.__class__ is Situation:
                hand, melds, score, rules = hand.hand, hand.melds, hand.score, hand.rules
            else:
                melds, score, rules = (), 0, CLASSIC
        else:
            return _pure(*args, **kwargs)
    else:
        if nargs > 4 or (nargs and args[0].__class__ is Situation):
            return _pure(*args, **kwargs)
        values = [args[i] if i < nargs else _MISSING for i in range(4)]
        for key, value in kwargs.items():
            i = _FIELDS.get(key, -1)
            if i < 0 or values[i] is not _MISSING:
                return _pure(*args, **kwargs)
            values[i] = value
        hand, melds, score, rules = values
        if hand is _MISSING:
            return _pure(*args, **kwargs)
        if melds is _MISSING:
            melds = ()
        if score is _MISSING:
            score = 0
        if rules is _MISSING:
            rules = CLASSIC
    if rules is None:
        rules = CLASSIC
    elif rules.__class__ is not RuleSet:
        if not PyUnicode_CheckExact(rules) or rules not in PRESETS:
            return _pure(*args, **kwargs)
        rules = PRESETS[rules]
    t = _last_table if rules is _last_rules else _table(rules)
    if not t.fast or not PyLong_CheckExact(score):
        return _pure(*args, **kwargs)
    sc = PyLong_AsLongLongAndOverflow(score, &overflow)
    if overflow or sc > _max_score or sc < -_max_score:
        return _pure(*args, **kwargs)
    # --- read the cards: the hand as counts per rank, the team's groups per rank, copies of each card ------------------
    if _group(hand, &nh) is None or _group(melds, &nm) is None or nh > t.max_hand:
        return _pure(*args, **kwargs)
    if nm == 0 and not t.concealed_free:
        return _pure(*args, **kwargs)   # going out concealed must reach the opening minimum: explained
    memset(copies, 0, sizeof(copies))
    memset(count, 0, sizeof(count))
    memset(intable, 0, sizeof(intable))
    for i in range(nh):
        idx = _index(_item(hand, i))
        if idx < 0:
            return _pure(*args, **kwargs)
        copies[idx] += 1
        k = _kind[idx]
        if k < N_RANKS:
            count[k] += 1
        elif k == K_WILD:
            wild += 1
        elif k == K_BLACK:
            black += 1
        else:  # a red three in the hand
            return _pure(*args, **kwargs)
    for j in range(nm):
        g = <object>_item(melds, j)
        if _group(g, &ng) is None or ng > _max_group:
            return _pure(*args, **kwargs)
        if not PyTuple_CheckExact(g):
            snapshot = True
        rank = -1
        gw = 0
        mixed = False
        for i in range(ng):
            idx = _index(_item(g, i))
            if idx < 0:
                return _pure(*args, **kwargs)
            copies[idx] += 1
            k = _kind[idx]
            if k < N_RANKS:
                if rank < 0:
                    rank = k
                elif rank != k:
                    mixed = True
            elif k == K_WILD:
                gw += 1
            else:  # threes in a meld
                return _pure(*args, **kwargs)
        nat = ng - gw
        # a legal group (what meld_facts accepts); anything else on the table is ignored, as the pure path does
        if not mixed and rank >= 0 and flat_legal_group(nat, gw, t.caps, N_CAPS):
            intable[rank] = True   # the last group of a rank is the one that takes cards (as _table_info)
            tnat[rank] = nat
            twild[rank] = gw
            tsize[rank] = ng
            if ng >= _canasta:
                base += 1
    for idx in range(N_CARDS):
        if copies[idx] > (t.jokers if _is_joker[idx] else t.decks):
            return _pure(*args, **kwargs)
    # --- the counting core decides (counts.flat_go_out_discards: the first last discard, in the search's order, with
    # which every card is placed and the canastas are held) ------------------------------------------------------------
    discards = flat_go_out_discards(count, N_RANKS, wild, black, tnat, twild, tsize, intable, base, t.need, t.caps,
                                    N_CAPS, t.black_wild, True)
    # --- the verdict (the lazy pieces hold tuples: what the caller's lists held now) ------------------------------------
    if not PyTuple_CheckExact(hand):
        hand = tuple(hand)
    if snapshot:
        melds = tuple([tuple(g) for g in melds])
    elif not PyTuple_CheckExact(melds):
        melds = tuple(melds)
    if discards:   # the plan's search tries only the kind of last discard the core found first (the same first plan)
        plan = _lazy_plan(_find_plan, hand, melds, rules, t.need, None, 0, discards)
        return _verdict(True, LazyReasons(_yes_reasons, plan, melds, rules, t.need, 0), plan)
    return _verdict(False, LazyReasons(_no_reasons, hand, melds, rules, t.need, 0), None)
