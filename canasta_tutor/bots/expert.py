"""The ``expert`` bot: determinized Monte Carlo search over whole turns, with the club bot as the playout policy.

What it may know is what its seat sees (:func:`~canasta_tutor.game.observation`) and what it remembers of earlier
turns: the cards it saw a player take with the pile (:class:`PileMemory`). For each decision it

1. lists **plans** for the rest of its turn, not single small actions: at the start of a turn, drawing and each
   way of taking the pile; in the meld phase, the club's whole turn, the club's melds followed by each sensible
   discard, keeping every meld back and discarding at once, going out, and each other first meld or lay-off
   followed by the club's play (:func:`turn_plans`);
2. deals the unseen cards again consistently with the observation (:mod:`.determinize`), plays every plan on
   the *same* deal and lets the club bot play the hand out for every seat from there (common random numbers: the
   plans differ only by what the plan does, so a few dozen deals separate them where independent ones would not);
3. scores each playout by the hand's score margin (its side's hand score minus the other side's; with three
   sides, minus their mean) when the hand ends, or, past ``horizon`` turns, by the margin the hand would score if
   it ended there plus what the pile is worth to the side that may take it next (:func:`position_value`);
4. keeps the club's plan unless another beats it *on the same deals* by more than its standard error (the paired
   difference's) and ``min_gain`` points: a noisy maximum over many plans otherwise picks the luckiest, not the
   best (why plain flat Monte Carlo lost to the club it plays out with); plans clearly behind are dropped as the
   deals come in (successive elimination), so the time goes to the close ones.

Its budget is ``think`` seconds a decision (a deadline checked between playouts) and at most ``playouts`` deals;
``seed`` makes it reproducible: with ``think=None`` the number of deals is fixed and the same observation (and
memory) gives the same choice and the same estimates. :meth:`ExpertBot.stop` (from another thread) ends a search
early: it answers with what it has. :meth:`ExpertBot.evaluate` gives every plan's estimate for the coach.

A chosen plan is remembered: the turn's next decisions follow it without searching again, as long as the table
is what the plan expected.
"""

from __future__ import annotations

import copy
import math
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass

from ..engine.cards import format_cards
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..engine.melds import SEQUENCE, meld_key
from ..engine.numbers import join_words
from ..game import DISCARD, DRAW, DRAW_PHASE, END, GO_OUT, LAY_OFF, MELD, SWAP, TAKE_PILE, apply, legal_actions
from ..game import observation as observe
from ._common import discard_keep_value
from ._registry import register
from .club import ClubBot
from .determinize import sample_state

#: The default time a decision may take, in seconds (the median move stays under 1 s, the slowest under 3 s:
#: most moves follow a plan made earlier in the turn or have one legal choice).
THINK = 0.8
#: At most this many deals per decision.
PLAYOUTS = 400
#: A playout stops after this many turns (of all players) and is scored by :func:`position_value`.
HORIZON = 12
#: A plan other than the club's must beat it by this many points (and by its standard error) on the same deals.
MIN_GAIN = 10.0
#: A plan other than the club's is chosen only when compared on at least this many deals.
MIN_DEALS = 6
#: When the first deal took more than half the time, only the club's plan and this many in all go on.
KEEP_WHEN_SLOW = 4
#: How many discards (the cards the club would most like to throw) a meld-phase plan tries.
DISCARDS_TRIED = 5
#: How many other first melds or lay-offs are tried, each followed by the club's play.
DEVIATIONS = 6


@dataclass(frozen=True)
class Estimate:
    """One plan's value as the search found it: ``action`` (what the bot would play now), ``plan`` (the actions
    of the rest of the turn), ``mean`` (points for the seat's side, the hand's margin), ``low``/``high`` (95 %
    interval of the mean), ``gain`` (paired difference against the club's plan, points), ``deals`` (how many)."""

    action: object
    plan: tuple
    mean: float
    low: float
    high: float
    gain: float
    deals: int


class PileMemory:
    """What one seat remembers between its turns: the cards each player took with the pile and has not shown
    since (:attr:`known`, player -> cards). :meth:`update` reads each observation of the seat (at the start of a
    turn it compares the pile and the table with what they were when the seat last discarded); :meth:`note`
    records the seat's own discard. Reading the same observation twice changes nothing. It sees only its own
    turns: when the pile was taken more than once between them (the stock went down by fewer draws than turns
    less one), it forgets what the others held, as it does not know whose pile went where."""

    def __init__(self):
        self.known: dict[int, list] = {}
        self.hand_number = None
        self.left: list | None = None
        self.table = None
        self.stock = self.reds = 0
        self._seen = None

    def update(self, obs) -> None:
        seen = (obs.hand_number, tuple(obs.pile), obs.stock_left, obs.table, obs.table_red_threes, obs.phase,
                tuple(obs.hand_sizes))
        if seen == self._seen:
            return   # the same observation again: the stock has not gone down since, yet nobody took the pile
        self._seen = seen
        if self.hand_number != obs.hand_number or self.left is None or self.table is None:
            if self.hand_number != obs.hand_number:
                self.known = {}
            self.hand_number = obs.hand_number
            self._mark(obs, list(obs.pile))
            return
        if obs.phase != DRAW_PHASE:
            return
        n, me = len(obs.hand_sizes), obs.player
        now, left = list(obs.pile), self.left
        reds = sum(len(r) for r in obs.table_red_threes) - self.reds
        drew = (self.stock - obs.stock_left - reds) / max(1, obs.rules.draw_count)
        takes = n - 1 - round(drew)   # each other player drew from the stock or took the pile
        j = n - len(now)   # after one take, the taker's discard is at the bottom of the pile, the others' on it
        if takes == 0 and now[:len(left)] == left:
            for k, c in enumerate(now[len(left):]):
                self._shown((me + 1 + k) % n, [c])
        elif takes == 1 and 1 <= j < n:
            taker = (me + j) % n
            for k in range(1, j):   # their discards went with the pile, unseen: forget what they held
                self.known.pop((me + k) % n, None)
            cards = left[:-1] if j == 1 else left
            self.known.setdefault(taker, []).extend(c for c in cards if not c.is_red_three)
            for k, c in enumerate(now):
                self._shown((taker + k) % n, [c])
        else:   # more than one take: whose pile went where is not known
            self.known = {}
        for t, melds in enumerate(obs.table):
            added = Counter(c for m in melds for c in m)
            if t < len(self.table):
                added.subtract(c for m in self.table[t] for c in m)
            # a side's melds are at the lowest of its seats (``State.team_of``)
            players = [q for side in obs.sides if min(side) == t for q in side] or \
                [q for q in range(n) if q % max(1, len(obs.table)) == t]
            for q in players:
                self._shown(q, list((+added).elements()))
        for q in list(self.known):
            self.known[q] = self.known[q][:obs.hand_sizes[q]]
        self._mark(obs, now)

    def _mark(self, obs, pile) -> None:
        self.left, self.table, self.stock = pile, obs.table, obs.stock_left
        self.reds = sum(len(r) for r in obs.table_red_threes)

    def _shown(self, q: int, cards) -> None:
        have = self.known.get(q)
        if not have:
            return
        for c in cards:
            if c in have:
                have.remove(c)

    def note(self, obs, action) -> None:
        """The seat plays ``action``: a discard tops the pile it leaves."""
        if action.kind == DISCARD:
            self._mark(obs, list(obs.pile) + [action.cards[0]])


def _margin(state, me: int) -> float:
    """The hand's score margin of ``me``'s side (score columns): its score minus the other columns' mean."""
    scores = state.hand_scores()
    game = state.game
    mine = game.team_of(me)
    if state.rules.lone_hand:
        sides = {p: side for side in state.sides() for p in side}
        others = [game.team_of(q) for q in range(game.num_players) if q not in sides[me]]
        if not others:
            others = [t for t in range(len(scores)) if t != mine]
    else:
        others = [t for t in range(len(scores)) if t != mine]
    return scores[mine] - sum(scores[t] for t in others) / len(others)


#: What an unfinished sequence (samba's runs of one suit) of each length counts at the horizon, as a share of the
#: samba bonus (``rules.samba_bonus``, 1500): a run that only its team can build on is on its way to a samba, the
#: largest bonus of the game, and its worth grows with its length (six cards: one card from either end is missing).
#: Without it a playout cut at the horizon sees a six-card run as its card points only.
SEQUENCE_PROGRESS = {3: 0.10, 4: 0.20, 5: 0.35, 6: 0.55}


def _sequence_progress(melds, rules) -> float:
    """The worth of a side's unfinished sequences at the horizon (:data:`SEQUENCE_PROGRESS`)."""
    if not rules.samba_bonus:
        return 0.0
    total = 0.0
    for m in melds:
        share = SEQUENCE_PROGRESS.get(len(m))
        if share and meld_key(m)[0] == SEQUENCE:
            total += share * rules.samba_bonus
    return total


def position_value(state, me: int) -> float:
    """The margin of ``me``'s side if the hand ended now (melds, canastas, red threes, minus the cards in hand, and
    the unfinished sequences' way to a samba: :data:`SEQUENCE_PROGRESS`), plus a share of the pile's points to the
    side of the player to move (who may take it next)."""
    game = state.game
    mine_side = state.team_of(me)
    totals: dict[int, float] = {}
    for side in state.sides():
        t = state.team_of(side[0])
        if state.rules.lone_hand:
            reds = [c for p in side for c in state.red_threes[game.team_of(p)]]
            reds = reds[: len(reds) // max(1, len(side))]
        else:   # a team's red threes once, not once per partner (twice 3♦ 3♦ was an impossible sheet)
            reds = [c for t in dict.fromkeys(game.team_of(p) for p in side) for c in state.red_threes[t]]
        totals[t] = state.side_sheet(side, reds).total + _sequence_progress(state.melds[t], state.rules)
    others = [v for t, v in totals.items() if t != mine_side]
    value = totals.get(mine_side, 0) - (sum(others) / len(others) if others else 0)
    pile_points = sum(c.points for c in state.pile)
    if state.pile:
        value += (0.25 if state.team_of(state.current_player) == mine_side else -0.25) * pile_points
    return value


class OutOfTime(Exception):
    """A playout passed the search's hard stop (:meth:`ExpertBot.evaluate`: three times ``think``)."""


def playout(state, me: int, policy, horizon: int | None = HORIZON, stop_at: float | None = None) -> float:
    """Play ``state`` on with ``policy`` for every seat; the value of the end for ``me``'s side. ``stop_at``: a
    ``time.perf_counter()`` reading after which it gives up (:class:`OutOfTime`), checked at every turn."""
    turns = 0
    rng = random.Random(0)
    while state.phase != "hand-over":
        if stop_at is not None and state.phase == DRAW_PHASE and time.perf_counter() > stop_at:
            raise OutOfTime
        p = state.current_player
        acts = legal_actions(state)
        action, _ = policy.choose(observe(state, p), acts, rng)
        apply(state, action)
        if action.kind == DISCARD:
            turns += 1
            if horizon is not None and turns >= horizon:
                return position_value(state, me)
    return _margin(state, me)


def _club_turn(state, me: int, club, first=None) -> list | None:
    """The actions of the rest of ``me``'s turn: ``first`` (if given), then the club's (on a copy of ``state``)."""
    s = state.clone()
    plan = []
    rng = random.Random(0)
    try:
        if first is not None:
            apply(s, first)
            plan.append(first)
        while s.phase != "hand-over" and s.current_player == me and (not plan or plan[-1].kind not in
                                                                       (DISCARD, GO_OUT, END)):
            acts = legal_actions(s)
            action, _ = club.choose(observe(s, me), acts, rng)
            apply(s, action)
            plan.append(action)
            if action.kind in (DRAW, TAKE_PILE):
                break
    except Exception:   # a plan the sampled deal does not allow (it never happens with the seat's own cards)
        return None
    return plan


def turn_plans(state, me: int, club, legal) -> list[tuple]:
    """The plans tried for the rest of the turn, the club's first (see the module's notes). ``state`` is one
    sampled deal (the seat's own cards and the table are the observed ones, so the plans are the same on every
    deal); ``legal`` the real legal actions."""
    plans: list[tuple] = []

    def add(plan):
        if plan and tuple(plan) not in plans:
            plans.append(tuple(plan))

    if state.phase == DRAW_PHASE:
        base = _club_turn(state, me, club)
        add(base[:1] if base else [legal[0]])
        kinds = [a for a in legal if a.kind in (DRAW, END)]
        takes = [a for a in legal if a.kind == TAKE_PILE]
        # the takes that show fewest cards, and the club's: more variants of one take rarely differ
        takes.sort(key=lambda a: (len(a.cards) + sum(len(m) for m in a.melds), a.to_text()))
        for a in kinds + takes[:4]:
            add([a])
        return plans
    club_plan = _club_turn(state, me, club) or [legal[0]]
    add(club_plan)
    for a in legal:
        if a.kind == GO_OUT:
            add([a])
    prefix = club_plan[:-1] if club_plan[-1].kind in (DISCARD, GO_OUT, END) else club_plan
    s = state.clone()
    for a in prefix:
        apply(s, a)
    obs = observe(s, me)
    counts = Counter(c.rank for c in obs.hand)
    discards = [a for a in legal_actions(s) if a.kind == DISCARD]
    discards.sort(key=lambda a: (discard_keep_value(a.cards[0], counts, obs, careful=True), a.cards[0].code))
    for a in discards[:DISCARDS_TRIED]:
        add(list(prefix) + [a])
    if prefix:
        now = observe(state, me)
        counts = Counter(c.rank for c in now.hand)
        held = [a for a in legal if a.kind == DISCARD]
        held.sort(key=lambda a: (discard_keep_value(a.cards[0], counts, now, careful=True), a.cards[0].code))
        for a in held[:2]:
            add([a])
    firsts = [a for a in legal if a.kind in (MELD, LAY_OFF, SWAP) and a != club_plan[0]]
    firsts.sort(key=lambda a: a.to_text())
    for a in firsts[:DEVIATIONS]:
        plan = _club_turn(state, me, club, a)
        if plan:
            add(plan)
    return plans


class ExpertBot:
    """The search bot; see the module's notes. ``think``: seconds a decision (``None``: no clock, ``playouts``
    deals exactly); ``playouts``: the most deals a decision; ``seed``: the search's random numbers; ``horizon``:
    turns before a playout is scored by :func:`position_value` (``None``: to the end of the hand)."""

    name = "expert"

    def __init__(self, think: float | None = THINK, playouts: int = PLAYOUTS, seed: int = 0,
                 horizon: int | None = HORIZON, min_gain: float = MIN_GAIN):
        self.think, self.playouts, self.seed = think, playouts, seed
        self.horizon, self.min_gain = horizon, min_gain
        self.club = ClubBot()
        self._stop = threading.Event()
        self._memory: dict[int, PileMemory] = {}
        self._plans: dict[int, tuple] = {}
        self.last_estimates: list[Estimate] = []

    def stop(self) -> None:
        """End the search under way (from another thread): it answers with the estimates it has."""
        self._stop.set()

    # --- the bot interface -----------------------------------------------------------------------------------
    def choose(self, observation, legal, rng):
        obs = observation
        memory = self._memory.setdefault(obs.player, PileMemory())
        memory.update(obs)
        if len(legal) == 1:
            action, why = legal[0], self.club.choose(obs, legal, rng)[1]
        else:
            chosen = self._follow(obs, legal)
            if chosen is None:
                estimates = self.evaluate(obs, legal)
                best = self._pick(estimates)
                self._remember(obs, best.plan)
                chosen = best.action, self._reason(obs, legal, best, estimates, rng)
            action, why = chosen
        memory.note(obs, action)
        return action, why

    @staticmethod
    def _table_key(obs):
        return (tuple(sorted(c.code for c in obs.hand)), obs.melds, obs.hand_number, obs.phase)

    def _remember(self, obs, plan) -> None:
        """Keep the plan's later steps, each with the seat's hand and melds it expects to see before it."""
        if len(plan) < 2:
            self._plans.pop(obs.player, None)
            return
        s = sample_state(obs, random.Random(0))
        steps = []
        try:
            for k, a in enumerate(plan[:-1]):
                apply(s, a)
                steps.append((self._table_key(observe(s, obs.player)), plan[k + 1]))
        except Exception:
            steps = []
        self._plans[obs.player] = (plan, steps)

    def _follow(self, obs, legal):
        held = self._plans.get(obs.player)
        if held is None:
            return None
        plan, steps = held
        key = self._table_key(obs)
        for expect, action in steps:
            if expect == key and action in legal:
                return action, _("{move} It is the plan I made for this turn: {plan}.").format(
                    move=action.describe(obs.melds), plan=_plan_words(plan, obs))
        return None

    # --- the search -------------------------------------------------------------------------------------------
    def advise(self, observation, legal, rng):
        """What :meth:`choose` plays, and why, without remembering it (the coach's hint: the learner may play
        another move, and the seat's memory must follow what was played). The turn's plan is kept: a learner who
        follows the hints is given the plan's next steps, as the bot would play them."""
        memory = copy.deepcopy(self._memory)
        try:
            return self.choose(observation, legal, rng)
        finally:
            self._memory = memory

    def see(self, observation, action=None) -> None:
        """Remember what the seat of ``observation`` sees (the cards taken with the pile), as :meth:`choose` does
        for its own seat; ``action``: the seat's move (a discard tops the pile). The coach calls it for the learner."""
        memory = self._memory.setdefault(observation.player, PileMemory())
        memory.update(observation)
        if action is not None:
            memory.note(observation, action)

    def evaluate(self, observation, legal=None, also=()) -> list[Estimate]:
        """Every plan the search tried for ``observation`` (the seat to move), best first: its first action, the
        plan, the mean margin in points with its 95 % interval, and its gain on the club's plan (paired).
        ``also``: more plans (tuples of actions, e.g. the learner's turn) searched on the same deals and never
        dropped, so that :meth:`difference` compares them with the best."""
        self._stop.clear()
        obs = observation
        me = obs.player
        memory = self._memory.get(me)
        known = memory.known if memory is not None else None
        start = time.perf_counter()
        deadline = None if self.think is None else start + self.think
        base = random.Random(f"{self.seed}:{_fingerprint(obs, known)}")
        first = sample_state(obs, random.Random(base.random()), known)
        if legal is None:
            legal = legal_actions(first)
        plans = turn_plans(first, me, self.club, legal)
        for plan in also:
            if tuple(plan) and tuple(plan) not in plans:
                plans.append(tuple(plan))
        kept = {0} | {plans.index(tuple(p)) for p in also if tuple(p)}
        values: list[list[float]] = [[] for _ in plans]
        alive = list(range(len(plans)))
        # the hard stop: three times ``think``, checked between and inside playouts, the first deal's too (a deal
        # cut short counts only when it is the first: the plans it played out keep their value, the club's first)
        hard = None if deadline is None else start + 3 * self.think
        deals = 0
        while deals < self.playouts and len(alive) > 1:
            now = time.perf_counter()
            if self._stop.is_set() or (deadline is not None and (now > deadline and deals >= 2 or now > hard)):
                break
            deal = sample_state(obs, random.Random(base.random()), known) if deals else first
            row = {}
            out_of_time = False
            for i in alive:
                s = deal.clone()
                try:
                    for a in plans[i]:
                        apply(s, a)
                    row[i] = playout(s, me, self.club, self.horizon, hard)
                except OutOfTime:
                    out_of_time = True
                    break
                except Exception:
                    row = None
                    break
                if deadline is not None and deals >= 2 and time.perf_counter() > deadline or \
                        hard is not None and time.perf_counter() > hard:
                    out_of_time = True
                    break
            if row is not None and deals == 0 and out_of_time:
                for i, v in row.items():
                    values[i].append(v)
                deals = 1
                break
            if row is None or len(row) < len(alive):
                deals += 1
                if out_of_time:
                    break
                continue
            for i, v in row.items():
                values[i].append(v)
            deals += 1
            if deals == 1 and deadline is not None and time.perf_counter() > start + self.think / 2 and \
                    len(alive) > KEEP_WHEN_SLOW:
                # slow playouts (big hands, a loaded machine): the club's plan and the best few of the first deal
                rest = sorted((i for i in alive if i not in kept), key=lambda i: -values[i][0])
                alive = sorted(kept | set(rest[:max(0, KEEP_WHEN_SLOW - len(kept))]))
            if deals >= 6 and deals % 3 == 0:
                alive = _eliminate(alive, values, kept)
        ref = values[0]
        out = []
        for i, plan in enumerate(plans):
            vs = values[i]
            if not vs:
                continue
            k = len(vs)
            mean = sum(vs) / k
            sd = _sd(vs)
            half = 1.96 * sd / math.sqrt(k) if k > 1 else float("inf")
            diffs = [v - r for v, r in zip(vs, ref)]
            gain = sum(diffs) / len(diffs) if diffs else 0.0
            out.append(Estimate(plan[0], plan, mean, mean - half, mean + half, gain, k))
        if not out:
            out = [Estimate(plans[0][0], plans[0], 0.0, float("-inf"), float("inf"), 0.0, 0)]
        out.sort(key=lambda e: (-e.deals, -e.mean))
        self.last_estimates = out
        self._values = (plans, values)
        return out

    def difference(self, better, other) -> tuple[float, float, int]:
        """Of the last :meth:`evaluate`: how many points plan ``better`` scored more than plan ``other`` on the
        same deals (the paired mean), the 95 % half-width of that mean, and the number of deals compared."""
        plans, values = self._values
        a, b = values[plans.index(tuple(better))], values[plans.index(tuple(other))]
        diffs = [x - y for x, y in zip(a, b)]
        if not diffs:
            return 0.0, float("inf"), 0
        k = len(diffs)
        return sum(diffs) / k, (1.96 * _sd(diffs) / math.sqrt(k) if k > 1 else float("inf")), k

    def pick(self, estimates: list[Estimate]) -> Estimate:
        """The plan the bot plays of the last :meth:`evaluate`'s ``estimates`` (the club's unless another beats it
        on the same deals by more than its standard error and ``min_gain``)."""
        return self._pick(estimates)

    def _pick(self, estimates: list[Estimate]) -> Estimate:
        plans, values = self._values
        club = next((e for e in estimates if e.plan == plans[0]), estimates[0])
        best = club
        for e in estimates:
            if e is club or e.deals < MIN_DEALS:
                continue
            i = plans.index(e.plan)
            diffs = [v - r for v, r in zip(values[i], values[0])]
            se = _sd(diffs) / math.sqrt(len(diffs))
            if e.gain > self.min_gain + se and (best is club or e.gain > best.gain):
                best = e
        return best

    def _reason(self, obs, legal, best: Estimate, estimates, rng) -> str:
        club_action, club_why = self.club.choose(obs, legal, rng)
        tried = len(estimates)
        if max(e.deals for e in estimates) == 0 or len(estimates) == 1:
            return club_why if best.action == club_action else \
                _("My move: {move} It is the plan I had no time to compare.").format(
                    move=best.action.describe(obs.melds))
        deals = max(e.deals for e in estimates)
        if best.action == club_action and best.gain == 0:
            return ngettext("{reason} My search agrees: over {deals} deals of the unseen cards this turn scores about "
                            "{points} points a hand for us, the best of the {tried} plan I tried.",
                            "{reason} My search agrees: over {deals} deals of the unseen cards this turn scores about "
                            "{points} points a hand for us, the best of the {tried} plans I tried.", tried).format(
                reason=club_why, deals=deals, points=f"{best.mean:+.0f}", tried=tried)
        return _("My move: {move} Over {deals} deals of the unseen cards, {plan} scores about {points} points for us, "
                 "{gain} more than the club's move ({club}).").format(
            move=best.action.describe(obs.melds), deals=deals, plan=_plan_words(best.plan, obs),
            points=f"{best.mean:+.0f}", gain=f"{best.gain:.0f}", club=_lower(club_action.describe(obs.melds))[:-1])


def _eliminate(alive, values, kept=frozenset({0})):
    """Drop the plans whose paired difference with the best is below zero by more than 2.5 standard errors
    (the club's plan, the first, and those ``kept`` stay)."""
    means = {i: sum(values[i]) / len(values[i]) for i in alive}
    top = max(alive, key=lambda i: means[i])
    keep = []
    for i in alive:
        if i == top or i == 0 or i in kept:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(values[i], values[top])]
        se = _sd(diffs) / math.sqrt(len(diffs))
        if sum(diffs) / len(diffs) + 2.5 * se >= 0:
            keep.append(i)
    return keep


def _sd(vs) -> float:
    k = len(vs)
    if k < 2:
        return 0.0
    m = sum(vs) / k
    return math.sqrt(sum((v - m) ** 2 for v in vs) / (k - 1))


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _plan_words(plan, obs) -> str:
    return join_words(_lower(a.describe(obs.melds))[:-1] for a in plan)


def _fingerprint(obs, known) -> str:
    """The observation (and what the seat remembers) as text: the search's random numbers follow from it."""
    parts = [format_cards(sorted(obs.hand, key=lambda c: c.code), symbols=False),
             format_cards(obs.pile, symbols=False), str(obs.hand_sizes), str(obs.stock_left), obs.phase,
             "|".join(format_cards(m, symbols=False) for melds in obs.table for m in melds)]
    if known:
        parts.append(str(sorted((q, sorted(c.code for c in cs)) for q, cs in known.items())))
    return "/".join(parts)


register("expert", ExpertBot)

__all__ = ["ExpertBot", "Estimate", "PileMemory", "position_value", "turn_plans", "THINK"]
