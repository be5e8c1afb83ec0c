"""Going out: can a player meld or lay off every card in hand this turn?

The answer is the counting core's (:func:`~canasta_tutor.engine.counts.place_every_card`); the reasons and the plan
are written when first read: from the explained search of :mod:`~canasta_tutor.engine.go_out_search`, except a no on
a big hand under sequences, whose sentences come from the core's facts (:func:`_counted_no_reasons`).

>>> v = check_go_out("KH KS 2C 9D", melds=["7H 7S 7D 7C 7H 7S 7D"])
>>> v.ok, v.discard
(True, Card('9D'))
>>> check_go_out("KH 9S 9D 5C", melds=["7H 7S 7D 7C 7H 7S 7D"]).ok
False
"""

from __future__ import annotations

from functools import partial

from . import speedups
from .cards import SEQUENCE_ORDER, Card
from .go_out_search import (
    GoOutPlan,
    _canastas_short,
    _table_info,
    black_threes_problem,
    counted_go_out,
    find_go_out,
    lone_card_reason,
    no_placement,
)
from .i18n import gettext as _
from .i18n import ngettext
from .numbers import join_words, number_word
from .situation import SearchTooLarge, Situation, ensure_hand_size, ensure_no_red_three_in_hand, takes_situation
from .verdict import LazyReasons, Reason, verdict_type


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

    The answer is the counting core's (:func:`~canasta_tutor.engine.counts.place_every_card`, any hand a game
    reaches); the reasons and the ``plan`` are the explained search's, written when first read. Where the compiled
    module ``_speedups/goout`` is built, ``check_go_out`` is its entry: it decides the common call (rules without
    sequences or wild-card swaps) in C and hands every other call to this pure-Python function
    (``speedups.pure_twin(check_go_out)``), which gives the same answers everywhere.
    """
    rules, hand, score = situation.rules, situation.hand, situation.score
    melds = list(situation.melds)
    ensure_no_red_three_in_hand(hand)
    need = rules.canastas_to_go_out
    minimum = 0
    if not melds and not rules.concealed_needs_no_minimum:
        minimum = rules.opening_minimum(score)
    # The counting core decides (engine/counts.py: any hand a game reaches, by counting; going out concealed under
    # an opening minimum too, counting the points); the reasons and the plan are the explained path's, written when
    # first read.
    ensure_hand_size(rules, hand)
    counted = counted_go_out(hand, melds, rules, need, minimum=minimum)
    if counted is None:
        return _GoOutVerdict_new(GoOutVerdict, (False, LazyReasons(_go_out_reasons, hand, melds, rules, need, minimum),
                                                None))
    plan = LazyPlan(_plan_of, hand, melds, rules, need, counted, minimum)
    return _GoOutVerdict_new(GoOutVerdict, (True, LazyReasons(_lazy_yes_reasons, plan, melds, rules, need, minimum),
                                            plan))


_GoOutVerdict_new = tuple.__new__


def _go_out_reasons(hand, melds, rules, need, minimum):
    """The reasons of a no the counting core (or its compiled closed form) decided: the explained search's where it
    is quick (rules without sequences, or a hand of at most :data:`SEARCH_REASONS_MAX` cards), else written from the
    counting core's facts (:func:`_counted_no_reasons`: the same kinds of sentence, and codes). Under an opening
    minimum the search has no small budget: a hand too big for it gets the core's plain no."""
    if rules.sequences and len(hand) > SEARCH_REASONS_MAX and not minimum:
        return _counted_no_reasons(hand, melds, rules, need)
    try:
        return _explain_go_out(hand, melds, rules, need, minimum, known_no=True).reasons
    except SearchTooLarge:
        return (_cannot_go_out(), no_placement())


def _cannot_go_out() -> Reason:
    return Reason("cannot-go-out", _("You cannot meld or lay off every card this turn, even with one final discard."))


#: The largest hand under sequences whose no is explained by the arrangement search (its work grows with the ways to
#: arrange a hand in runs: on samba's big hands bots reach it took up to 87 ms; the counting core's facts take a few).
SEARCH_REASONS_MAX = 15


def _counted_no_reasons(hand, melds, rules, need) -> tuple:
    """Why the counting core said no, from its facts: every card placed but the canastas short (the core's way with
    the most canastas, and how many), or the cards that certainly find no place (a natural card with no partner,
    no meld of its rank and no run it could be in; black threes that make no meld), more than the one last discard
    can take; else the plain fact that no way places every card."""
    hand = list(hand)
    melds = [tuple(m) for m in melds]
    lead = Reason("cannot-go-out", _("You cannot meld or lay off every card this turn, even with one final "
                                     "discard."))
    # first the cards that certainly find no place (counted at once), then the core's placements
    groups, sequences, _canastas = _table_info(melds, rules)
    stuck = _placeless(hand, groups, sequences, rules.sequences)
    why = [lone_card_reason(c, rules) for c in stuck]
    black = [c for c in hand if c.is_black_three]
    if black and not _black_meld(len(black), rules) and not _black_meld(len(black) - 1, rules):
        return (lead, *why, black_threes_problem(black, rules))   # no meld even with one as the last discard
    if black and not _black_meld(len(black), rules):   # one of them must be the last discard
        why.append(black_threes_problem(black, rules))
        stuck.append(black[0])
    if len(stuck) >= 2:
        return (lead, *why, Reason("one-discard", _("Only one of these cards can be your last discard.")))
    if stuck:   # the one card with no place must be the last discard: are the others placed without it?
        rest = list(hand)
        rest.remove(stuck[0])
        if counted_go_out(rest, melds, rules, 0, allow_discard=False) is None:
            return (lead, *why, Reason("rest-no-placement", _("With it as your last discard, the other cards still "
                                                              "cannot all be melded or laid off.")))
    for k in range(need - 1, -1, -1):   # the most canastas a way placing every card gives (fewer than ``need``)
        plan = counted_go_out(hand, melds, rules, k)
        if plan is not None:
            steps = plan.describe(melds)
            if len(steps) == 1 and plan.discard is not None:
                text = _("You could discard {card} as your last card, but you may not go out yet.").format(
                    card=plan.discard)
            else:
                text = _("You could place every card ({steps}), but you may not go out yet.").format(
                    steps=join_words(steps))
            return (Reason("places-every-card", text), _canastas_short(k, need))
    return (lead, Reason("no-placement", _("There is no way to meld or lay off every card of this hand (one may be "
                                           "the last discard) that gives your team the canastas it needs.")))


def _black_meld(b: int, rules) -> bool:
    """Do ``b`` black threes make a meld when going out (none at all counts as one)?"""
    return b in (0, 3, 4) or (b == 2 and rules.black_threes_with_wild)


def _placeless(hand, groups: dict, sequences, runs: bool) -> list:
    """The natural cards of ``hand`` that certainly find no place: the only one of their rank in hand, the team has
    no meld of their rank, and no run of their suit could hold them (fewer than three cards of the suit in a row
    around them in hand, and no team sequence of the suit they could reach)."""
    ranks: dict = {}
    have = set()
    for c in hand:
        if c.is_natural:
            ranks[c.rank] = ranks.get(c.rank, 0) + 1
            have.add((c.suit, SEQUENCE_ORDER[c.rank]))
    out = []
    for c in hand:
        if not c.is_natural or ranks[c.rank] != 1 or c.rank in groups:
            continue
        if not runs:
            out.append(c)
            continue
        o = SEQUENCE_ORDER[c.rank]
        lo = hi = o
        while (c.suit, lo - 1) in have:
            lo -= 1
        while (c.suit, hi + 1) in have:
            hi += 1
        if hi - lo + 1 >= 3 or any(suit == c.suit and (low == hi + 1 or high == lo - 1)
                                   for _i, suit, low, high in sequences):
            continue
        out.append(c)
    return out


def _lazy_yes_reasons(plan: LazyPlan, melds, rules, need, minimum):
    return _yes_reasons(plan.get(), melds, rules, need, minimum)


def _plan_of(hand, melds, rules, need, counted: GoOutPlan | None = None, minimum: int = 0,
             discards: int = 0) -> GoOutPlan:
    """The plan of a way out the counting core found: the explained search's (the plan it has always shown), or,
    when that finds none within its budget, the core's own (``counted``, found again when not given).
    ``discards``: the last discards the compiled core found to work (the search tries only those)."""
    try:
        plan = find_go_out(hand, melds, rules, need=need, counted=counted, minimum=minimum, discards=discards,
                           explain=False)[0]
    except SearchTooLarge:   # under a minimum the search has no small budget: the core's plan
        plan = None
    if plan is None:
        plan = counted if counted is not None else counted_go_out(hand, melds, rules, need, minimum=minimum)
    return plan


def _explain_go_out(hand, melds, rules, need, minimum, *, known_no: bool = False) -> GoOutVerdict:
    """:func:`check_go_out` with every sentence written at once: the explained path. ``known_no``: the counting
    core has said no (it is not asked again)."""
    plan, problems = find_go_out(hand, melds, rules, need=need, minimum=minimum, known=known_no)
    if plan is not None:
        return GoOutVerdict(True, _yes_reasons(plan, melds, rules, need, minimum), plan=plan)
    if problems and problems[0].code == "places-every-card":
        return GoOutVerdict(False, tuple(problems))
    return GoOutVerdict(False, (_cannot_go_out(),) + tuple(problems))


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
                                 yes_reasons=_lazy_yes_reasons, lazy_plan=LazyPlan, find_plan=_plan_of)
