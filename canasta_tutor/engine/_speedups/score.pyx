cdef extern from *:
    const char* CANASTA_SOURCE_SHA
SOURCE_SHA = CANASTA_SOURCE_SHA.decode()
__doc__ = """The compiled hand score: :func:`canasta_tutor.engine.scoring.score_hand` in C for the common call.

What is compiled: ``score_hand(melds, red_threes, hands, went_out, rules)`` given positionally or by keyword, with
``melds`` and ``hands`` lists (or tuples) of tuples of :class:`~canasta_tutor.engine.cards.Card`, ``red_threes`` a tuple
(or list) of cards, ``went_out`` ``False``, ``True`` or ``'concealed'``, ``rules`` a
:class:`~canasta_tutor.engine.rules.RuleSet` (or ``None``/left out: classic) and ``concealed_canastas`` left out. In C:
reading the cards, the copies check over every field (as the :class:`~canasta_tutor.engine.situation.Situation` does), the
red-three checks (only red threes among ``red_threes``, none left in a hand, no more than the decks hold), each
meld's facts (``meld.pyx``'s classifier: rank, wild cards, black threes when going out, samba's sequences), no two
groups of one rank, the canastas needed to go out, the melded points, the canasta bonuses (natural, mixed, samba,
concealed), the red threes (bonus or penalty, all of them, from the RuleSet), the going-out bonus and the cards left
in hand. The sheet is the pure path's :class:`~canasta_tutor.engine.scoring.ScoreSheet` with the same total; its itemised
lines are written by the pure path's ``_score_items`` when first read.

What falls back to the pure-Python ``score_hand`` (which raises the clear error or answers): a ``Situation``,
notation strings, anything not a card, a rule set by name, ``concealed_canastas`` given, other keyword arguments,
and every situation the pure path refuses (impossible copies, a red three out of place, a meld that is not one, two
groups of one rank, too few canastas to go out), besides the melds ``meld.pyx`` leaves to Python.
"""

from cpython.object cimport PyObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from libc.string cimport memset

from canasta_tutor.engine._speedups.meld cimport Facts, RulesTable, card_index, card_kind, card_points, classify, rules_table

from canasta_tutor.engine.rules import CLASSIC as _CLASSIC, RuleSet as _RuleSet
from canasta_tutor.engine.speedups import NOT_USED as _NOT_USED, load as _load

# this module's melds are meld.pyx's: never use a stale one underneath (loaded as this module is: also when a test
# loads it while CANASTA_TUTOR_PURE is set)
if _load("meld", force=True) is None:
    raise ImportError(f"the compiled meld module is not used: {_NOT_USED.get('meld')}")

cdef enum:
    NCARDS = 53
    RED3 = 13
    MAXGROUPS = 64

cdef object _pure = None
cdef object _ScoreSheet = None
cdef object _new = object.__new__
cdef str _CONCEALED = "concealed"
cdef frozenset _NAMES = frozenset(("melds", "red_threes", "hands", "went_out", "rules", "concealed_canastas"))
cdef tuple _POSITIONAL = ("melds", "red_threes", "hands", "went_out", "rules")


def attach(name, pure, *, sheet_type):
    """The entry every compiled module has (called by ``canasta_tutor.engine.speedups.attach``): the compiled
    :func:`score_hand`, handed ``pure``, the pure-Python ``score_hand`` it falls back on, and the sheet type; returns
    it."""
    global _pure, _ScoreSheet
    if name != "score_hand":
        raise ValueError(f"score.pyx compiles score_hand, not {name!r}")
    _pure, _ScoreSheet = pure, sheet_type
    return score_hand


cdef inline object _groups(object value):
    """``value`` as a tuple of groups when it is a list or tuple of tuples, else ``None``."""
    cdef Py_ssize_t i, n
    if value.__class__ is list:
        value = tuple(<list>value)
    elif value.__class__ is not tuple:
        return None
    n = PyTuple_GET_SIZE(value)
    for i in range(n):
        if (<object>PyTuple_GET_ITEM(value, i)).__class__ is not tuple:
            return None
    return value


cdef inline int _count(object group, int* seen, RulesTable t, long* points, int* red) noexcept:
    """Count the cards of ``group`` (a tuple) into ``seen``; add their points and red threes. 0: not all cards, or
    more copies of a card than the decks hold."""
    cdef Py_ssize_t i, n = PyTuple_GET_SIZE(group)
    cdef int idx
    for i in range(n):
        idx = card_index(<object>PyTuple_GET_ITEM(group, i))
        if idx < 0:
            return 0
        seen[idx] += 1
        if seen[idx] > (t.jokers if idx == NCARDS - 1 else t.decks):
            return 0
        points[0] += card_points(idx)
        if card_kind(idx) == RED3:
            red[0] += 1
    return 1


cdef object _score(object melds, object red_threes, object hands, object went_out, object rules):
    """The sheet, or ``None`` when the pure path must answer."""
    cdef RulesTable t
    cdef int seen[NCARDS]
    cdef int red_in_threes = 0, red_in_hands = 0, red_in_melds = 0, canastas = 0, going_out, concealed
    cdef long meld_points = 0, red_points_unused = 0, hand_points = 0, total, bonus = 0, n_red
    cdef Py_ssize_t i, n_melds
    cdef Facts f
    cdef unsigned int ranks = 0
    if rules is None:
        rules = _CLASSIC
    elif rules.__class__ is not _RuleSet:
        return None
    if went_out is False or went_out is True:
        concealed = 0
    elif went_out.__class__ is str and went_out == _CONCEALED:
        went_out = _CONCEALED
        concealed = 1
    else:
        return None
    going_out = went_out is not False
    melds = _groups(melds)
    hands = _groups(hands)
    if melds is None or hands is None:
        return None
    if red_threes.__class__ is list:
        red_threes = tuple(<list>red_threes)
    elif red_threes.__class__ is not tuple:
        return None
    t = rules_table(rules)
    if not t.fits:  # a house rule's number too big for C: the pure path answers with Python's ints
        return None
    # the copies check over every field, and the red threes (Situation and the pure score_hand refuse these)
    memset(seen, 0, sizeof(seen))
    if not _count(red_threes, seen, t, &red_points_unused, &red_in_threes):
        return None
    n_red = PyTuple_GET_SIZE(red_threes)
    if red_in_threes != n_red or n_red > t.red_threes_in_game:
        return None
    n_melds = PyTuple_GET_SIZE(melds)
    for i in range(n_melds):
        if not _count(<object>PyTuple_GET_ITEM(melds, i), seen, t, &red_points_unused, &red_in_melds):
            return None
    for i in range(PyTuple_GET_SIZE(hands)):
        if not _count(<object>PyTuple_GET_ITEM(hands, i), seen, t, &hand_points, &red_in_hands):
            return None
    if red_in_hands:
        return None
    # each meld's facts; no two groups (or black-three melds) of one rank
    for i in range(n_melds):
        if not classify(<object>PyTuple_GET_ITEM(melds, i), t, going_out, &f) or not f.ok:
            return None
        meld_points += f.points
        if f.canasta:
            canastas += 1
            bonus += t.natural_bonus if f.canasta == 1 else t.mixed_bonus if f.canasta == 2 else t.samba_bonus
        if f.kind != 3:
            if ranks & (1u << f.rank):
                return None
            ranks |= 1u << f.rank
    if going_out and canastas < t.canastas_to_go_out:
        return None
    total = meld_points + bonus
    if concealed and t.concealed_canasta_bonus:
        total += canastas * t.concealed_canasta_bonus
    if n_red:
        if n_melds:
            total += t.all_red_threes_bonus if n_red == t.red_threes_in_game else n_red * t.red_three_bonus
        else:
            total -= t.all_red_threes_penalty if n_red == t.red_threes_in_game else n_red * t.red_three_penalty
    if going_out:
        total += t.concealed_going_out_bonus if concealed else t.going_out_bonus
    total -= hand_points
    sheet = _new(_ScoreSheet)
    d = sheet.__dict__
    d["rules_name"] = rules.name
    d["_total"] = total
    # the lines, written when read (scoring._score_items; the melds' facts are looked up again then)
    d["_build"] = (melds, None, canastas if concealed else 0, red_threes, went_out, hands, rules)
    return sheet


def score_hand(*args, **kwargs):
    cdef Py_ssize_t n = len(args)
    if not kwargs:
        if 1 <= n <= 5:
            sheet = _score(args[0], args[1] if n > 1 else (), args[2] if n > 2 else (),
                           args[3] if n > 3 else False, args[4] if n > 4 else _CLASSIC)
            if sheet is not None:
                return sheet
        return _pure(*args, **kwargs)
    if n > 5 or not _NAMES.issuperset(kwargs) or kwargs.get("concealed_canastas") is not None:
        return _pure(*args, **kwargs)
    values = dict(zip(_POSITIONAL, args))
    for key in kwargs:
        if key in values:
            return _pure(*args, **kwargs)  # a value given twice: the pure path says so
    values.update(kwargs)
    sheet = _score(values.get("melds", ()), values.get("red_threes", ()), values.get("hands", ()),
                   values.get("went_out", False), values.get("rules", _CLASSIC))
    return _pure(*args, **kwargs) if sheet is None else sheet
