"""The expert coach's review of a decision: the learner's choice against the expert's, in points of its search.

A learner's turn has two decisions: at its start, draw or take the pile (the plan is that one action), and then
the rest of the turn from the meld phase (the learner's melds, lay-offs and discard, as one plan). For each,
:func:`review_decision` runs the expert's :meth:`~canasta_tutor.bots.expert.ExpertBot.evaluate` with the
learner's plan among the plans (``also=``, searched on the same deals), takes the expert's own choice
(:meth:`~canasta_tutor.bots.expert.ExpertBot.pick`) and the paired difference between the two
(:meth:`~canasta_tutor.bots.expert.ExpertBot.difference`): the figure the coach states is that number.

Pure Python (no Jupyter import).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.cards import format_cards
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..game import DISCARD, DRAW, GO_OUT, TAKE_PILE, apply, legal_actions
from ..game import observation as observe
from ._common import pile_words
from .coaching import explain_difference
from .determinize import sample_state
from .expert import _club_turn

#: A learner's plan that loses at least this many points on the expert's estimate is a costly one: the coach
#: says so with the figure.
THRESHOLD = 30.0
#: A canasta is "in sight" when a meld has at least this many cards.
IN_SIGHT = 5


@dataclass(frozen=True)
class Decision:
    """One decision of the learner, reviewed: the ``state`` before it (the real one; never sent to a page) and the
    learner's ``obs``; ``yours`` and ``best`` (the expert's choice), each a plan (tuple of actions); ``loss``:
    points ``best`` scored more than ``yours`` on the same deals (``margin``: its 95 % half-width, ``deals``:
    how many); ``same``: the two plans end in the same position."""

    state: object
    obs: object
    yours: tuple
    best: tuple
    loss: float
    margin: float
    deals: int
    same: bool

    @property
    def costly(self) -> bool:
        return not self.same and self.loss >= THRESHOLD

    @property
    def points(self) -> int:
        """The loss as the coach says it: rounded to the nearest 10 points (5 below 50)."""
        return about(self.loss)


def about(points: float) -> int:
    """A figure as the coach says it ("about 150 points"): to the nearest 10, or 5 below 50.

    >>> about(147.2), about(33.0), about(-4)
    (150, 35, 0)
    """
    step = 10 if abs(points) >= 50 else 5
    return max(0, int(step * round(points / step)))


def _outcome(obs, plan):
    """The learner's own position after ``plan`` on a deal of the unseen cards: hand, melds and pile."""
    s = sample_state(obs, random.Random(0))
    for a in plan:
        apply(s, a)
    o = observe(s, obs.player)
    return sorted(c.code for c in o.hand), sorted(sorted(c.code for c in m) for m in o.melds), \
        [c.code for c in o.pile][-1:], o.phase


def same_plan(obs, a, b) -> bool:
    """Do the plans ``a`` and ``b`` end in the same position (the same melds in another order are the same)?"""
    if tuple(a) == tuple(b):
        return True
    if a[0].kind in (DRAW, TAKE_PILE) and len(a) == len(b) == 1:
        return False
    try:
        return _outcome(obs, a) == _outcome(obs, b)
    except Exception:   # a plan the deal does not allow: they differ
        return False


def review_decision(expert, state, yours) -> Decision:
    """Review the learner's ``yours`` (a plan from ``state``, the learner to move) with ``expert``'s search."""
    player = state.current_player
    obs = observe(state, player)
    legal = legal_actions(state)
    yours = tuple(yours)
    estimates = expert.evaluate(obs, legal, also=[yours])
    best = expert.pick(estimates).plan
    if same_plan(obs, best, yours):
        return Decision(state, obs, yours, best, 0.0, 0.0, 0, True)
    loss, margin, deals = expert.difference(best, yours)
    return Decision(state, obs, yours, best, loss, margin, deals, False)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _words(plan, obs) -> str:
    """A plan in words: its actions' sentences, without their full stops, joined."""
    steps = [_lower(a.describe(obs.melds)).rstrip(".") for a in plan]
    return _("; then ").join(steps)


def _in_sight(obs, take) -> tuple | None:
    """The meld of ``take``'s top card after taking the pile, when it has :data:`IN_SIGHT` cards or more."""
    s = sample_state(obs, random.Random(0))
    try:
        apply(s, take)
    except Exception:
        return None
    top = obs.pile[-1]
    for m in observe(s, obs.player).melds:
        if top in m and len(m) >= IN_SIGHT:
            return m
    return None


def say_decision(d: Decision) -> list[str]:
    """The coach's sentences for a costly decision (``[]`` otherwise): the figure, the move that mattered."""
    if not d.costly:
        return []
    obs = d.obs
    best, yours = d.best[0], d.yours[0]
    if best.kind == TAKE_PILE and yours.kind == DRAW:
        meld = _in_sight(obs, best)
        count = len(obs.pile)
        if meld is not None:
            text = ngettext(
                "Taking the pile here was worth about {points} points more than drawing: it gives your team "
                "{count} card and a canasta in sight ({meld}).",
                "Taking the pile here was worth about {points} points more than drawing: it gives your team "
                "{count} cards and a canasta in sight ({meld}).", count)
        else:
            text = ngettext(
                "Taking the pile here was worth about {points} points more than drawing: it gives your team "
                "{count} card ({pile}).",
                "Taking the pile here was worth about {points} points more than drawing: it gives your team "
                "{count} cards ({pile}).", count)
        return [text.format(points=d.points, count=count, meld=format_cards(meld or ()), pile=pile_words(obs.pile))]
    if best.kind == DRAW and yours.kind == TAKE_PILE:
        head = _("Drawing here was worth about {points} points more than taking the pile ({pile}).").format(
            points=d.points, pile=pile_words(obs.pile))
    else:
        head = _("My plan, {better}, was worth about {points} points more than yours, {yours}.").format(
            better=_words(d.best, obs), points=d.points, yours=_words(d.yours, obs))
    why = _why(d)
    return [head] + ([why] if why else [])


def _why(d: Decision) -> str:
    """The move that mattered: the first where the two plans part, in the rules of thumb's words (which name the
    card or the meld)."""
    s = sample_state(d.obs, random.Random(0))
    try:
        for a, b in zip(d.best, d.yours):
            if a != b:
                text = explain_difference(observe(s, d.obs.player), b, a)
                return text[:1].upper() + text[1:]
            apply(s, a)
    except Exception:
        return ""
    if len(d.best) != len(d.yours):
        longer = d.best if len(d.best) > len(d.yours) else d.yours
        extra = longer[min(len(d.best), len(d.yours))]
        if longer is d.best:
            return _("I would also have played: {move}").format(move=extra.describe(d.obs.melds))
    return ""


def say_handed_over(name: str, discard, take, taker_obs, went_out: bool, d: Decision | None) -> list[str]:
    """What happened when the learner's ``discard`` let the next player (``name``), an opponent, take the pile
    with ``take`` (``taker_obs``: what the taker saw), and why; and whether the expert would have discarded the
    same (``d``: the review of the learner's meld phase)."""
    pile_size = len(taker_obs.pile)
    shown = list(take.melds[0][1:]) + [c for m in take.melds[1:] for c in m] if take.melds else list(take.cards)
    if went_out:
        text = ngettext("{who} then took the pile on your {card} ({count} card) and went out.",
                        "{who} then took the pile on your {card} ({count} cards) and went out.", pile_size)
    else:
        text = ngettext("{who} then took the pile on your {card} ({count} card).",
                        "{who} then took the pile on your {card} ({count} cards).", pile_size)
    out = [text.format(who=name, card=format_cards([discard]), count=pile_size)]
    if shown:
        out.append(_("Why: the pile was not frozen and {card} matched the {cards} they held.").format(
            card=format_cards([discard]), cards=format_cards(shown)))
    elif take.target is not None and take.target < len(taker_obs.melds):
        out.append(_("Why: the pile was not frozen and {card} fitted their meld {meld}.").format(
            card=format_cards([discard]), meld=format_cards(taker_obs.melds[take.target])))
    if d is not None:
        mine = [a for a in d.best if a.kind in (DISCARD, GO_OUT)]
        if d.same or (mine and mine[-1].kind == DISCARD and mine[-1].cards == discard_cards(d.yours)):
            out.append(_("I would have discarded the same card: on my estimate every other discard was "
                         "costlier."))
        elif mine and mine[-1].kind == DISCARD:
            out.append(_("I would have discarded {card} instead.").format(card=format_cards(mine[-1].cards)))
    return out


def discard_cards(plan) -> tuple:
    last = [a for a in plan if a.kind == DISCARD]
    return tuple(last[-1].cards) if last else ()


def better_replay(d: Decision, seed: int = 0) -> tuple[object, list]:
    """*Show me*: a deal consistent with what the learner saw (the cards to be drawn are a guess, never the real
    stock's) and the actions of the better plan on it, finished by the club's play of the rest of the turn:
    ``(state, actions)`` for :func:`~canasta_tutor.widgets.table_model.replay_views`."""
    from .club import ClubBot

    state = sample_state(d.obs, random.Random(seed))
    me = d.obs.player
    s = state.clone()
    actions = []
    for a in d.best:
        apply(s, a)
        actions.append(a)
    if s.phase != "hand-over" and s.current_player == me and actions[-1].kind not in (DISCARD, GO_OUT):
        rest = _club_turn(s, me, ClubBot()) or []
        actions += rest
    return state, actions


__all__ = ["THRESHOLD", "Decision", "about", "better_replay", "review_decision", "say_decision",
           "say_handed_over", "same_plan"]
