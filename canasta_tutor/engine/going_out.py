"""Going out: can a player meld or lay off every card in hand this turn?

The answer and its reasons; the exact search that places every card (and finds the plan) is in
:mod:`~canasta_tutor.engine.go_out_search`. Under rules without sequences the common call is decided by counting
first (:func:`_most_canastas`), and only a way out that the count finds is searched for.

>>> v = check_go_out("KH KS 2C 9D", melds=["7H 7S 7D 7C 7H 7S 7D"])
>>> v.ok, v.discard
(True, Card('9D'))
>>> check_go_out("KH 9S 9D 5C", melds=["7H 7S 7D 7C 7H 7S 7D"]).ok
False
"""

from __future__ import annotations

from functools import partial
from operator import attrgetter

from . import speedups
from .cards import SORT_KEY, Card
from .go_out_search import GoOutPlan, _find_go_out, _table_info, _try_place, find_go_out
from .i18n import gettext as _
from .i18n import ngettext
from .melds import CANASTA_SIZE
from .numbers import join_words, number_word
from .situation import Situation, ensure_hand_size, ensure_no_red_three_in_hand, takes_situation
from .verdict import LazyReasons, Reason, verdict_type

_meld_rank = attrgetter("meld_rank")


class GoOutVerdict(verdict_type("GoOutVerdictBase", "plan", (None,), "")):
    """May the player go out? ``plan``: a way to do it (a :class:`GoOutPlan`) when yes.

    The compiled check (``_speedups/goout.pyx``) decides yes or no by counting and leaves the plan to be found when
    first read: its ``plan`` field then holds a :class:`LazyPlan`, which ``plan``, iteration and indexing turn into the
    :class:`GoOutPlan` (equality, hashing, ``repr`` and pickling see the plan too)."""

    __slots__ = ()

    @property
    def plan(self) -> GoOutPlan | None:
        plan = _tuple_item(self, 2)
        return plan.get() if plan.__class__ is LazyPlan else plan

    @property
    def discard(self) -> Card | None:
        plan = self.plan
        return plan.discard if plan else None

    def __iter__(self):
        return iter((self.ok, self.reasons, self.plan))

    def __getitem__(self, i):
        return (self.ok, self.reasons, self.plan)[i]


_tuple_item = tuple.__getitem__


class LazyPlan(partial):
    """A :class:`GoOutVerdict`'s plan, found when first read: ``LazyPlan(find, *args)`` stands for ``find(*args)``
    (a :class:`GoOutPlan`), computed once. It compares, hashes, prints and pickles as that plan and passes its
    attributes on (a ``functools.partial`` underneath, made in C, as
    :class:`~canasta_tutor.engine.verdict.LazyReasons`)."""

    __slots__ = ("_value",)

    def get(self) -> GoOutPlan | None:
        try:
            return self._value
        except AttributeError:
            value = self._value = self()
            return value

    def __getattr__(self, name):
        if name == "_value":
            raise AttributeError(name)
        return getattr(self.get(), name)

    def __eq__(self, other):
        if isinstance(other, LazyPlan):
            other = other.get()
        return self.get() == other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.get())

    def __bool__(self) -> bool:
        return bool(self.get())

    def __repr__(self) -> str:
        return repr(self.get())

    def __reduce__(self):
        return (_same, (self.get(),))


def _same(value):
    return value


@takes_situation("hand", "melds", "score", "rules")
def check_go_out(situation: Situation) -> GoOutVerdict:
    """May the player go out this turn (having drawn from the stock)?

    Every card in ``hand`` must be melded or laid off, with or without one final
    discard, and the team must then hold the canastas the rules ask for. A team
    that has not opened goes out concealed, which needs no opening minimum in
    any preset (``concealed_needs_no_minimum``).

    Takes a :class:`Situation` (``hand``, ``melds``, ``score``, ``rules``), or the old
    ``check_go_out(hand, melds=(), score=0, rules=CLASSIC)``.

    Where the compiled module ``_speedups/goout`` is built, ``check_go_out`` is its entry: it decides the common
    call (cards as tuples or lists of :class:`Card`, an int score, rules without sequences or wild-card swaps, a
    team that has melded or needs no minimum to go out concealed) by counting in C, and leaves the reasons and the
    ``plan`` to be written when first read (by the pure-Python search: the same sentences, the same plan). Every
    other call (notation, bad input, samba, an opening minimum...) goes to this pure-Python function
    (``speedups.pure_twin(check_go_out)``), which gives the same answers everywhere.
    """
    rules, hand, score = situation.rules, situation.hand, situation.score
    melds = list(situation.melds)
    ensure_no_red_three_in_hand(hand)
    need = rules.canastas_to_go_out
    minimum = 0
    if not melds and not rules.concealed_needs_no_minimum:
        minimum = rules.opening_minimum(score)
    if minimum or rules.sequences:
        return _explain_go_out(hand, melds, rules, need, minimum)
    # Fast path: the same search, skipping the discards that surely fail; the reasons are written when read.
    ensure_hand_size(rules, hand)
    plan = _fast_go_out(hand, melds, rules, need)
    if plan is None:
        return _GoOutVerdict_new(GoOutVerdict, (False, LazyReasons(_go_out_reasons, hand, melds, rules, need, minimum),
                                                None))
    return _GoOutVerdict_new(GoOutVerdict, (True, LazyReasons(_yes_reasons, plan, melds, rules, need, minimum), plan))


_GoOutVerdict_new = tuple.__new__


def _go_out_reasons(hand, melds, rules, need, minimum):
    return _explain_go_out(hand, melds, rules, need, minimum).reasons


def _lazy_yes_reasons(plan: LazyPlan, melds, rules, need, minimum):
    return _yes_reasons(plan.get(), melds, rules, need, minimum)


def _fast_go_out(hand, melds, rules, need) -> GoOutPlan | None:
    """The plan :func:`find_go_out` finds (rules without sequences, no minimum), or ``None``.

    It tries the same discards in the same order, but skips the ones after which a card is surely left
    without a place (a lone natural card of a rank the team has not melded, or black threes that cannot
    form a meld), so the first plan it finds is the explained search's."""
    info = _table_info(melds, rules)
    groups = info[0]
    counts = _natural_counts(hand)
    if counts is None:  # a red three in the hand: the explained search says it cannot be melded
        return _find_go_out(list(hand), melds, rules, need, True, 0, ())[0]
    count, black = counts
    lone = [r for r, n in count.items() if n == 1 and r not in groups]
    if len(lone) > 1:
        return None
    counting = not rules.wild_swap
    if counting:  # the table's groups as numbers: rank -> (natural cards, wild cards, size)
        table = {}
        for rank, idx in groups.items():
            meld = melds[idx]
            w = list(map(_meld_rank, meld)).count("*")
            table[rank] = (len(meld) - w, w, len(meld))
        wild = len(hand) - sum(count.values()) - black
    tried: dict = {}  # what the count says after discarding a card of this rank ("*": a wild card), per rank
    for discard, b in _discards_to_try(hand, count, black, lone[0] if lone else None, groups, rules):
        if counting:
            # count first: the most canastas any placement reaches (what _try_place's search finds), and only
            # when that is enough, the placement itself; cards of one rank (all wild cards) count alike
            kind = None if discard is None else discard.meld_rank
            most = tried.get(kind, tried)
            if most is tried:
                if discard is not None and discard.is_natural:
                    count[kind] -= 1
                    most = _most_canastas(count, wild, b, table, info[2], rules)
                    count[kind] += 1
                else:
                    most = _most_canastas(count, wild - (kind == "*"), b, table, info[2], rules)
                tried[kind] = most
            if most is None or most < need:
                continue
        rest = list(hand)
        if discard is not None:
            rest.remove(discard)
        _problems, plan = _try_place(rest, melds, info, rules, need)
        if plan is not None and plan.canastas >= need:
            return plan.with_discard(discard)
    return None


def _natural_counts(hand) -> tuple[dict[str, int], int] | None:
    """``(natural cards per rank, black threes)`` of a hand; ``None`` when it holds a red three."""
    count: dict[str, int] = {}
    black = 0
    for c in hand:
        if c.is_natural:
            count[c.rank] = count.get(c.rank, 0) + 1
        elif c.is_black_three:
            black += 1
        elif c.is_red_three:
            return None
    return count, black


def _discards_to_try(hand, count: dict[str, int], black: int, lone_rank: str | None, groups, rules):
    """``(discard, black threes left)`` for each last discard of :func:`find_go_out`'s (none first, then each
    distinct card in sort order) after which no card is surely left without a place: the one lone natural card
    must be the discard, a natural pair of a rank the team has not melded must not be broken, and the black
    threes left must make a meld. A generator, as the search stops at the first way out (``count`` is read as the
    next discard is asked for)."""
    with_wild = rules.black_threes_with_wild
    for discard in [None] + sorted(set(hand), key=SORT_KEY):
        b = black
        if discard is None or not discard.is_natural:
            if lone_rank is not None:
                continue
            if discard is not None and discard.is_black_three:
                b -= 1
        else:
            r = discard.rank
            if (lone_rank is not None and lone_rank != r) or (count[r] == 2 and r not in groups):
                continue
        if b and b != 3 and b != 4 and not (b == 2 and with_wild):
            continue
        yield discard, b


def _most_canastas(count: dict, wild: int, black: int, table: dict, base: int, rules) -> int | None:
    """The most canastas the team holds after placing every card, counted: ``count`` natural cards per rank in
    hand, ``wild`` wild cards, ``black`` black threes; ``table``: the team's groups, rank -> (natural cards, wild
    cards, size); ``base``: canastas already on the table. ``None`` if some card finds no place. The same answer
    as :func:`_place_groups` and :func:`_wild_dp` (rules without sequences or swaps): every meld takes between its
    least and its most wild cards; the wild cards left after the least go first to the melds closest to a
    canasta."""
    caps = rules._wild_caps
    least = room = made = 0
    short = []
    for rank, (nat, on_table, size) in table.items():
        k = count.get(rank, 0)
        n = nat + k
        cap = (caps[n] if n < len(caps) else caps[-1]) - on_table
        if cap < 0 or rank == "3":  # (a meld of black threes takes no wild card)
            cap = 0
        if k or cap:
            room += cap
            if size < CANASTA_SIZE and rank != "3":  # (a meld of black threes is never a canasta)
                gap = CANASTA_SIZE - size - k
                if gap <= 0:
                    made += 1
                elif gap <= cap:
                    short.append(gap)
    for rank, k in count.items():
        if k == 0 or rank in table:
            continue
        if k == 1:
            return None
        lo = 1 if k == 2 else 0
        cap = caps[k] if k < len(caps) else caps[-1]
        if cap < lo:
            return None
        least += lo
        room += cap
        gap = CANASTA_SIZE - k - lo
        if gap <= 0:
            made += 1
        elif gap <= cap - lo:
            short.append(gap)
    if black:
        if black == 2:
            if not rules.black_threes_with_wild:
                return None
            least += 1
            room += 1
        elif black != 3 and black != 4:
            return None
    if not least <= wild <= room:
        return None
    spare = wild - least
    for gap in sorted(short):
        if gap > spare:
            break
        spare -= gap
        made += 1
    return base + made


def _explain_go_out(hand, melds, rules, need, minimum) -> GoOutVerdict:
    """:func:`check_go_out` with every sentence written at once: the explained path."""
    plan, problems = find_go_out(hand, melds, rules, need=need, minimum=minimum)
    if plan is not None:
        return GoOutVerdict(True, _yes_reasons(plan, melds, rules, need, minimum), plan=plan)
    if problems and problems[0].code == "places-every-card":
        return GoOutVerdict(False, tuple(problems))
    lead = Reason("cannot-go-out", _("You cannot meld or lay off every card this turn, even with one final "
                                     "discard."))
    return GoOutVerdict(False, (lead,) + tuple(problems))


def _yes_reasons(plan, melds, rules, need, minimum) -> tuple:
    steps = plan.describe(melds)
    placed = len(steps) > (plan.discard is not None)  # a step besides the last discard (the discard is last)
    if placed:
        text = _("Every card finds a place: {steps}.").format(steps=join_words(steps))
    elif plan.discard is not None:
        text = _("Discard {card} as your last card.").format(card=plan.discard)
    else:
        text = _("Your hand is already empty.")
    reasons = [Reason("can-go-out", text)]
    has = (ngettext("Your team then has {count} canasta", "Your team then has {count} canastas",
                    plan.canastas).format(count=number_word(plan.canastas)) if plan.canastas
           else _("Your team then has no canasta"))
    reasons.append(Reason("canastas", ngettext("{has}; {need} is needed to go out.",
                                               "{has}; {need} are needed to go out.", need).format(
                                                   has=has, need=number_word(need))))
    if not melds:
        if rules.concealed_needs_no_minimum:
            reasons.append(Reason("concealed", _("Your team has not melded yet, so this is going out concealed: "
                                                 "it needs no opening minimum, only the canastas.")))
        else:
            reasons.append(Reason("concealed", _("Your team has not melded yet, so this is going out concealed; "
                                                 "under these rules it must still reach the opening minimum "
                                                 "({minimum}), and it does.").format(minimum=minimum)))
    return tuple(reasons)


# --- the compiled twin (_speedups/goout.pyx), where built: it decides the common call in C and hands every other to
# the pure-Python check_go_out above (speedups.pure_twin gives it back)
check_go_out = speedups.compiled("goout", check_go_out, verdict_type=GoOutVerdict, no_reasons=_go_out_reasons,
                                 yes_reasons=_lazy_yes_reasons, lazy_plan=LazyPlan, find_plan=_fast_go_out)
