cdef extern from *:
    const char* CANASTA_SOURCE_SHA
SOURCE_SHA = CANASTA_SOURCE_SHA.decode()
__doc__ = """The compiled meld check: :func:`canasta_tutor.engine.melds.check_meld` (and its sentence-free twin ``meld_facts``) in C
for the common call.

What is compiled: a call ``check_meld(cards, rules, going_out=...)`` with ``cards`` a tuple (or list) of
:class:`~canasta_tutor.engine.cards.Card`, ``rules`` a :class:`~canasta_tutor.engine.rules.RuleSet` (or left out) and
``going_out`` ``True``/``False``. Reading the cards (each card's place in ``cards.ALL_CARDS`` found from its
address: the cards are interned), the copies check against the rule set's decks, the rank/wild/three decision, the
wild-card limit of the rule set, black threes, and samba's sequences are done in C; the verdict is the pure path's
``MeldVerdict`` with the same fields, its reasons a :class:`~canasta_tutor.engine.verdict.LazyReasons` that asks the
explained path (``melds._explain_meld``) when first read.

What falls back to the pure-Python ``check_meld`` (which raises the clear error or answers with its explanation):
anything not a tuple/list of cards (notation strings, a bad card), a rule set given by name, ``going_out`` not a
bool, a card seen more often than the decks hold (the explained path names it), threes under a rule set with
sequences, and samba's two-card groups (the explained path's "low sequence" case).

The tables are built at import from ``canasta_tutor.engine.cards`` and, once per rule set, from the ``RuleSet``
(:func:`rules_table`, a table cache keyed by the rule set's identity that keeps the rule set alive; never an
answer cache). ``meld_facts`` is compiled for a tuple of cards, a RuleSet and a bool ``going_out`` alike (a card
seen more often than the decks hold goes to the pure function, which may skip that check: ``copies_checked``).
``score.pyx`` uses :func:`classify` for the melds of a score sheet.
"""

cimport cython
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM
from libc.stdint cimport uintptr_t
from libc.string cimport memset

from canasta_tutor.engine.cards import ALL_CARDS, NATURAL_RANKS, SEQUENCE_ORDER, SUITS, Card as _Card
from canasta_tutor.engine.rules import CLASSIC as _CLASSIC, WILD_LIMITS, RuleSet as _RuleSet

cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject* type, Py_ssize_t nitems)
    object PySequence_Tuple(object o)

# --- the cards ------------------------------------------------------------------------------------------------
cdef enum:
    NCARDS = 53
    HASH = 256
    TWO = 11
    JOKER = 12
    RED3 = 13
    BLACK3 = 14
cdef PyObject* _card_ptr[NCARDS]
cdef int _slot[HASH]           # open addressing: the card's address -> its index (-1: empty)
cdef int _kind[NCARDS]         # 0..10 natural rank (NATURAL_RANKS), 11 two, 12 joker, 13 red three, 14 black three
cdef int _points[NCARDS]
cdef int _suit[NCARDS]         # 0..3 (SUITS), 4 for the joker
cdef int _order[NCARDS]        # a natural card's place in a sequence (SEQUENCE_ORDER), 0 otherwise
_CARDS = ALL_CARDS  # keeps the cards (and so their addresses) alive


cdef inline size_t _hash(PyObject* p) noexcept:
    return ((<uintptr_t>p) >> 4) & (HASH - 1)


cdef int card_index(object card) noexcept:
    """The card's index 0..52, or -1 when ``card`` is not one of the interned cards."""
    return _card_index(<PyObject*>card)


cdef inline int _card_index(PyObject* p) noexcept:
    cdef size_t h = _hash(p)
    cdef int i
    while True:
        i = _slot[h]
        if i < 0:
            return -1
        if _card_ptr[i] == p:
            return i
        h = (h + 1) & (HASH - 1)


cdef int card_kind(int index) noexcept:
    return _kind[index]


cdef int card_points(int index) noexcept:
    return _points[index]


def _build_card_tables():
    cdef int i, k
    cdef size_t h
    assert len(ALL_CARDS) == NCARDS
    for h in range(HASH):
        _slot[h] = -1
    for i, c in enumerate(ALL_CARDS):
        assert c.index == i
        _card_ptr[i] = <PyObject*>c
        h = _hash(<PyObject*>c)
        while _slot[h] >= 0:
            h = (h + 1) & (HASH - 1)
        _slot[h] = i
        _points[i] = c.points
        _suit[i] = SUITS.index(c.suit) if c.suit else 4
        _order[i] = SEQUENCE_ORDER.get(c.rank, 0) if c.is_natural else 0
        if c.is_natural:
            k = NATURAL_RANKS.index(c.rank)
        elif c.is_wild:
            k = JOKER if c.suit == "" else TWO
        elif c.is_red_three:
            k = RED3
        elif c.is_black_three:
            k = BLACK3
        else:
            raise AssertionError(f"{c!r} is of no kind the compiled meld check knows")
        _kind[i] = k


_build_card_tables()


# --- the rule sets --------------------------------------------------------------------------------------------
cdef class RulesTable:
    """The numbers of one RuleSet that the compiled checks read, as C ints."""

    def __init__(self, rules):
        self.rules = rules
        # house rules may hold any int (with_options("classic", going_out_bonus=2**70)): a number beyond these
        # bounds leaves the table unused (fits False), so that no C int overflows and sums of up to a few thousand
        # bonuses stay far inside a C long; the pure path then answers with Python's ints
        counts = (rules.decks, rules.jokers, rules.max_wild, rules.canastas_to_go_out, rules.red_threes_in_game)
        points = (rules.natural_canasta_bonus, rules.mixed_canasta_bonus, rules.samba_bonus,
                  rules.concealed_canasta_bonus, rules.red_three_bonus, rules.all_red_threes_bonus,
                  rules.red_three_penalty, rules.all_red_threes_penalty, rules.going_out_bonus,
                  rules.concealed_going_out_bonus)
        self.fits = (all(-(1 << 20) <= x <= 1 << 20 for x in counts)
                     and all(-(1 << 40) <= x <= 1 << 40 for x in points))
        if not self.fits:
            return
        self.decks = rules.decks
        self.jokers = rules.jokers
        self.wild_limit = WILD_LIMITS.index(rules.wild_limit)
        self.max_wild = rules.max_wild
        self.sequences = rules.sequences
        self.black_threes_with_wild = rules.black_threes_with_wild
        self.natural_bonus = rules.natural_canasta_bonus
        self.mixed_bonus = rules.mixed_canasta_bonus
        self.samba_bonus = rules.samba_bonus
        self.concealed_canasta_bonus = rules.concealed_canasta_bonus
        self.red_three_bonus = rules.red_three_bonus
        self.all_red_threes_bonus = rules.all_red_threes_bonus
        self.red_three_penalty = rules.red_three_penalty
        self.all_red_threes_penalty = rules.all_red_threes_penalty
        self.going_out_bonus = rules.going_out_bonus
        self.concealed_going_out_bonus = rules.concealed_going_out_bonus
        self.canastas_to_go_out = rules.canastas_to_go_out
        self.red_threes_in_game = rules.red_threes_in_game


cdef dict _tables = {}           # id(rules) -> RulesTable (which holds the rules: the id is never reused meanwhile)
cdef RulesTable _last = None


cdef RulesTable rules_table(object rules):
    """The table of ``rules`` (an exact RuleSet), made on first use."""
    global _last
    if _last is not None and _last.rules is rules:
        return _last
    key = id(rules)
    t = _tables.get(key)
    if t is None:
        if len(_tables) >= 64:  # house rules made on the fly: keep the cache small
            _tables.clear()
        t = RulesTable(rules)
        _tables[key] = t
    _last = <RulesTable>t
    return _last


cdef inline int _wild_capacity(RulesTable t, int naturals) noexcept:
    cdef int cap
    if t.wild_limit == 0:
        cap = t.max_wild
    elif t.wild_limit == 1:
        cap = naturals
    else:
        cap = naturals - 1
    if cap > t.max_wild:
        cap = t.max_wild
    return cap if cap > 0 else 0


# --- the classifier -------------------------------------------------------------------------------------------
@cython.boundscheck(False)
@cython.wraparound(False)
cdef int classify(object cards, RulesTable t, bint going_out, Facts* f) noexcept:
    """The facts of the meld ``cards`` (an exact tuple) as ``check_meld`` gives them: 1 when ``f`` is filled in,
    0 when the pure-Python check must answer (not cards, impossible copies, a case listed in the module doc)."""
    cdef Py_ssize_t n = PyTuple_GET_SIZE(cards), i
    cdef unsigned char seen[NCARDS]
    cdef int idx, k, nat = 0, twos = 0, jokers = 0, red = 0, black = 0, rank = -1, mixed = 0
    cdef int suit = -1, one_suit = 1, lo = 99, hi = 0, repeat = 0, wild, o
    cdef unsigned int orders = 0
    cdef long points = 0
    if n > 200 or not t.fits:
        return 0
    memset(seen, 0, NCARDS)
    for i in range(n):
        idx = _card_index(PyTuple_GET_ITEM(cards, i))
        if idx < 0:
            return 0
        seen[idx] += 1
        if seen[idx] > (t.jokers if idx == NCARDS - 1 else t.decks):
            return 0  # more copies than the decks hold: the explained path names the card
        k = _kind[idx]
        points += _points[idx]
        if k < TWO:
            nat += 1
            if rank < 0:
                rank = k
                suit = _suit[idx]
            else:
                if rank != k:
                    mixed = 1
                if _suit[idx] != suit:
                    one_suit = 0
            o = _order[idx]
            if orders & (1u << o):
                repeat = 1
            orders |= 1u << o
            if o < lo:
                lo = o
            if o > hi:
                hi = o
        elif k == TWO:
            twos += 1
        elif k == JOKER:
            jokers += 1
        elif k == RED3:
            red += 1
        else:
            black += 1
    wild = twos + jokers
    f.points = points
    f.canasta = 0
    if red or black:
        if t.sequences:
            return 0
        if black:
            f.kind = 2
            f.rank = 11
            f.ok = (red == 0 and nat == 0 and going_out and
                    ((wild == 0 and (black == 3 or black == 4)) or
                     (wild != 0 and t.black_threes_with_wild and black == 2 and wild == 1)))
        else:
            f.ok = 0
            if nat and not mixed:
                f.kind = 1
                f.rank = rank
            else:
                f.kind = 0
                f.rank = -1
        return 1
    if t.sequences and n == 2:
        return 0  # perhaps a "low sequence" (A-2 of one suit): the explained path says so
    if nat and not mixed:
        f.kind = 1
        f.rank = rank
        f.ok = n >= 3 and nat >= 2 and wild <= _wild_capacity(t, nat)
        if f.ok and n >= 7:
            f.canasta = 2 if wild else 1
        return 1
    if nat and t.sequences and one_suit:
        f.kind = 3
        f.rank = suit
        f.ok = wild == 0 and not repeat and hi - lo == nat - 1 and 3 <= n <= 7
        if f.ok and n == 7:
            f.canasta = 3
        return 1
    f.kind = 0
    f.rank = -1
    f.ok = 0
    return 1


# --- check_meld -----------------------------------------------------------------------------------------------
cdef object _pure = None           # melds.check_meld as written in Python
cdef object _MeldVerdict = None
cdef object _LazyReasons = None
cdef object _meld_reasons = None
cdef tuple _KINDS = ()             # '', GROUP, BLACK_THREES, SEQUENCE
cdef tuple _CANASTAS = ()          # NONE, NATURAL, MIXED, SAMBA
cdef tuple _RANK_TEXT = tuple(NATURAL_RANKS) + ("3",)
cdef tuple _SUIT_TEXT = tuple(SUITS)


def attach(name, pure, **pieces):
    """The entry every compiled module has (called by ``canasta_tutor.engine.speedups.attach``): the compiled
    function ``name``, :func:`check_meld` or :func:`meld_facts`, handed ``pure``, the pure-Python function it falls
    back on, and the ``pieces`` it needs from ``canasta_tutor.engine.melds``; returns it."""
    if name == "check_meld":
        _attach_check_meld(pure, **pieces)
        return check_meld
    if name == "meld_facts":
        _attach_meld_facts(pure, **pieces)
        return meld_facts
    raise ValueError(f"meld.pyx compiles check_meld and meld_facts, not {name!r}")


def _attach_check_meld(pure, *, verdict_type, lazy_reasons, reasons, kinds, canastas):
    """``check_meld``'s pieces: the verdict type, the lazy reasons and the explained path's reasons, the kind names
    ('', group, black threes, sequence) and the canasta names (none, natural, mixed, samba)."""
    global _pure, _MeldVerdict, _LazyReasons, _meld_reasons, _KINDS, _CANASTAS
    _pure, _MeldVerdict, _LazyReasons, _meld_reasons = pure, verdict_type, lazy_reasons, reasons
    _KINDS, _CANASTAS = tuple(kinds), tuple(canastas)


cdef inline object rank_text(int kind, int rank):
    if rank < 0:
        return ""
    return _SUIT_TEXT[rank] if kind == 3 else _RANK_TEXT[rank]


def check_meld(cards, rules=_CLASSIC, *, going_out=False):
    cdef Facts f
    cdef object given = cards
    if cards.__class__ is not tuple:
        if cards.__class__ is not list:
            return _pure(cards, rules, going_out=going_out)
        cards = PySequence_Tuple(cards)
    if rules.__class__ is not _RuleSet or (going_out is not False and going_out is not True):
        return _pure(given, rules, going_out=going_out)
    if not classify(cards, rules_table(rules), going_out is True, &f):
        return _pure(given, rules, going_out=going_out)
    v = PyType_GenericAlloc(<PyTypeObject*>_MeldVerdict, 7)
    _put(v, 0, f.ok == 1)
    _put(v, 1, _LazyReasons(_meld_reasons, cards, rules, going_out))
    _put(v, 2, _KINDS[f.kind])
    _put(v, 3, rank_text(f.kind, f.rank))
    _put(v, 4, _CANASTAS[f.canasta])
    _put(v, 5, f.points)
    _put(v, 6, cards)
    return v


cdef inline void _put(object tup, Py_ssize_t i, object o) noexcept:
    """Fill slot ``i`` of a freshly allocated tuple (subclass)."""
    Py_INCREF(o)
    PyTuple_SET_ITEM(tup, i, o)


cdef object _pure_facts = None     # melds.meld_facts as written in Python


def _attach_meld_facts(pure):
    """``meld_facts`` needs nothing but the pure-Python ``meld_facts`` to fall back on."""
    global _pure_facts
    _pure_facts = pure


def meld_facts(cards, rules, going_out=False, *, copies_checked=False):
    cdef Facts f
    if (cards.__class__ is not tuple or rules.__class__ is not _RuleSet
            or (going_out is not False and going_out is not True)
            or not classify(cards, rules_table(rules), going_out is True, &f)):
        return _pure_facts(cards, rules, going_out, copies_checked=copies_checked)
    if not f.ok:
        return None
    return (_KINDS[f.kind], rank_text(f.kind, f.rank), _CANASTAS[f.canasta], f.points)
