"""Going out: can a player meld or lay off every card in hand this turn?

The answer is the counting core's (:func:`~canasta_tutor.engine.counts.place_every_card`); the reasons and the plan
are written from the explained search of :mod:`~canasta_tutor.engine.go_out_search` when first read.

>>> v = check_go_out("KH KS 2C 9D", melds=["7H 7S 7D 7C 7H 7S 7D"])
>>> v.ok, v.discard
(True, Card('9D'))
>>> check_go_out("KH 9S 9D 5C", melds=["7H 7S 7D 7C 7H 7S 7D"]).ok
False
"""

from __future__ import annotations

from functools import partial

from . import speedups
from .cards import Card
from .go_out_search import GoOutPlan, counted_go_out, find_go_out, no_placement
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
    """The reasons of a no the counting core (or its compiled closed form) decided: the explained path's (under an
    opening minimum its search has no small budget: a hand too big for it gets the core's plain no)."""
    try:
        return _explain_go_out(hand, melds, rules, need, minimum, known_no=True).reasons
    except SearchTooLarge:
        return (_cannot_go_out(), no_placement())


def _cannot_go_out() -> Reason:
    return Reason("cannot-go-out", _("You cannot meld or lay off every card this turn, even with one final discard."))


def _lazy_yes_reasons(plan: LazyPlan, melds, rules, need, minimum):
    return _yes_reasons(plan.get(), melds, rules, need, minimum)


def _plan_of(hand, melds, rules, need, counted: GoOutPlan | None = None, minimum: int = 0) -> GoOutPlan:
    """The plan of a way out the counting core found: the explained search's (the plan it has always shown), or,
    when that finds none within its budget, the core's own (``counted``, found again when not given)."""
    try:
        plan = find_go_out(hand, melds, rules, need=need, counted=counted, minimum=minimum)[0]
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
