"""Learn from your mistakes: a learner's costly decision in a coached hand, made into a puzzle ("Your turn: what do
you do?").

A :class:`DecisionPuzzle` holds what the learner saw at that point (their observation: their own hand, the table,
the pile; the other hands and the stock only as counts, never a hidden card), the legal moves, the expert's best
plan and the learner's plan (each the actions of the rest of the turn) and the loss the coach stated. It is JSON
(:meth:`DecisionPuzzle.to_json`, :func:`puzzle_from_json`) so that the progress store can keep it.

An answer is judged by the expert's search (:func:`judge`) at a fixed seed and a fixed number of deals
(``think=None``: deterministic, the same answer always gets the same verdict): the chosen plan is right when the
search's estimate of it is within :data:`MARGIN` points of the search's best. The figures said are the search's.

Pure Python (no Jupyter import).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, fields

from ..bots.determinize import sample_state
from ..bots.expert import ExpertBot
from ..bots.review import about, same_plan
from ..engine.cards import Card
from ..engine.errors import CanastaError, clip_repr
from ..engine.i18n import gettext as _
from ..engine.rules import PRESETS, get_rules
from ..game import DISCARD, GO_OUT, Action, legal_actions
from ..game.view import Observation

#: A chosen plan within this many points of the search's best counts as right.
MARGIN = 20.0
#: The judge's search: this many deals (no clock), at this seed: the same answer always gets the same verdict.
JUDGE_PLAYOUTS = 40
JUDGE_SEED = 20
#: The record's format (a stored puzzle of another version is refused with a message).
VERSION = 1

_CARD_FIELDS = {"hand", "pile", "cards", "red_threes", "melds", "opponents_melds", "hands", "table",
                "table_red_threes"}


def _codes(cards) -> list[str]:
    return [c.code for c in cards]


def _deep_codes(value):
    """Cards as their codes, at any depth of tuples."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, (tuple, list)):
        return [_deep_codes(v) for v in value]
    return value


def _deep_cards(value):
    if isinstance(value, str):
        return Card(value)
    return tuple(_deep_cards(v) for v in value)


def _deep_tuple(value):
    return tuple(_deep_tuple(v) for v in value) if isinstance(value, list) else value


def observation_to_json(obs) -> dict:
    """What the learner saw, as JSON: every field of the observation (cards as codes, the rules by name). An
    observation holds no hidden card (the other hands and the stock are counts)."""
    if obs.rules.name not in PRESETS:
        raise CanastaError(f"rules: {clip_repr(obs.rules.name)} is not a preset; a decision puzzle keeps the rules "
                           f"by name ({', '.join(PRESETS)})")
    out = {}
    for f in fields(obs):
        value = getattr(obs, f.name)
        out[f.name] = obs.rules.name if f.name == "rules" else _deep_codes(value)
    return out


def observation_from_json(data: dict) -> Observation:
    names = {f.name for f in fields(Observation)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise CanastaError(f"observation: unknown field {clip_repr(unknown[0])}")
    values = {}
    for key, value in data.items():
        if key == "rules":
            values[key] = get_rules(value)
        elif key in _CARD_FIELDS:
            values[key] = _deep_cards(value)
        else:
            values[key] = _deep_tuple(value)
    return Observation(**values)


def action_to_json(a: Action) -> dict:
    out = {"kind": a.kind}
    if a.cards:
        out["cards"] = _codes(a.cards)
    if a.target is not None:
        out["target"] = a.target
    if a.melds:
        out["melds"] = [_codes(m) for m in a.melds]
    if a.lay_offs:
        out["lay_offs"] = [[i, _codes(cs)] for i, cs in a.lay_offs]
    if a.swaps:
        out["swaps"] = [[i, n.code, w.code] for i, n, w in a.swaps]
    if a.wild is not None:
        out["wild"] = a.wild.code
    if a.discard is not None:
        out["discard"] = a.discard.code
    return out


def action_from_json(data: dict) -> Action:
    if not isinstance(data, dict) or "kind" not in data:
        raise CanastaError(f"action: {clip_repr(data)} is not an action (a mapping with a 'kind')")
    return Action(data["kind"], cards=tuple(Card(c) for c in data.get("cards", ())), target=data.get("target"),
                  melds=tuple(tuple(Card(c) for c in m) for m in data.get("melds", ())),
                  lay_offs=tuple((i, tuple(Card(c) for c in cs)) for i, cs in data.get("lay_offs", ())),
                  swaps=tuple((i, Card(n), Card(w)) for i, n, w in data.get("swaps", ())),
                  wild=Card(data["wild"]) if data.get("wild") else None,
                  discard=Card(data["discard"]) if data.get("discard") else None)


@dataclass(frozen=True)
class DecisionPuzzle:
    """A costly decision as a puzzle: ``obs`` (what the learner saw), ``legal`` (the moves legal then), ``best``
    (the expert's plan), ``yours`` (the learner's), ``loss`` (the points the coach said it cost), ``hand`` (which
    hand: its rules and number, e.g. ``11 (Classic Canasta)``) and ``move`` (how many moves had been played)."""

    obs: Observation
    legal: tuple
    best: tuple
    yours: tuple
    loss: float
    hand: str = ""
    move: int = 0

    @property
    def points(self) -> int:
        return about(self.loss)

    @property
    def key(self) -> str:
        """The puzzle's id among a learner's: the hand, the move and the position's phase."""
        return f"{self.hand}:{self.move}:{self.obs.phase}"

    def to_json(self) -> str:
        return json.dumps({"version": VERSION, "hand": self.hand, "move": self.move, "loss": self.loss,
                           "obs": observation_to_json(self.obs),
                           "legal": [action_to_json(a) for a in self.legal],
                           "best": [action_to_json(a) for a in self.best],
                           "yours": [action_to_json(a) for a in self.yours]}, ensure_ascii=False, sort_keys=True)

    def table_state(self):
        """A deal consistent with what the learner saw, to play the answer on (the unseen cards a guess, always
        the same one; the table shows them only as counts)."""
        return sample_state(self.obs, random.Random(0))


def puzzle_from_decision(decision, *, hand: str = "", move: int | None = None) -> DecisionPuzzle:
    """The puzzle of a reviewed decision (:class:`~canasta_tutor.bots.review.Decision`): its observation only, the
    legal moves (as the learner's own cards and the table allow them), both plans and the loss."""
    obs = decision.obs
    legal = tuple(legal_actions(sample_state(obs, random.Random(0))))
    return DecisionPuzzle(obs=obs, legal=legal, best=tuple(decision.best), yours=tuple(decision.yours),
                          loss=float(decision.loss), hand=hand,
                          move=len(decision.state.history) if move is None else move)


def puzzle_from_json(text: str) -> DecisionPuzzle:
    """A stored puzzle; a record that is not one raises :class:`CanastaError` saying what is wrong."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as e:
        raise CanastaError(f"decision puzzle: not JSON ({e})") from None
    if not isinstance(data, dict):
        raise CanastaError(f"decision puzzle: {clip_repr(data)} is not a mapping")
    if data.get("version") != VERSION:
        raise CanastaError(f"decision puzzle: version {clip_repr(data.get('version'))} is not {VERSION}")
    try:
        return DecisionPuzzle(obs=observation_from_json(data["obs"]),
                              legal=tuple(action_from_json(a) for a in data["legal"]),
                              best=tuple(action_from_json(a) for a in data["best"]),
                              yours=tuple(action_from_json(a) for a in data["yours"]),
                              loss=float(data["loss"]), hand=str(data.get("hand", "")), move=int(data.get("move", 0)))
    except KeyError as e:
        raise CanastaError(f"decision puzzle: no {e.args[0]!r}") from None


def is_finished(puzzle: DecisionPuzzle, plan) -> bool:
    """Is ``plan`` a whole answer? In the draw phase one action; later, the turn up to its discard or going out."""
    plan = tuple(plan)
    if not plan:
        return False
    return puzzle.obs.phase == "draw" or plan[-1].kind in (DISCARD, GO_OUT)


@dataclass(frozen=True)
class Judgement:
    """The search's verdict on an answer: ``right`` (truthy), the ``plan`` chosen, the search's ``best`` plan,
    ``loss`` (points the best scored more than the chosen plan on the same deals; negative: the chosen did better)
    and ``deals``."""

    right: bool
    plan: tuple
    best: tuple
    loss: float
    deals: int

    def __bool__(self) -> bool:
        return self.right

    @property
    def points(self) -> int:
        return about(self.loss)


def judge(puzzle: DecisionPuzzle, plan, *, playouts: int = JUDGE_PLAYOUTS, seed: int = JUDGE_SEED) -> Judgement:
    """Judge the answer ``plan`` (the actions the learner chose) with the expert's search on what the learner saw:
    right when its estimate is within :data:`MARGIN` points of the best plan's (the same deals for both)."""
    plan = tuple(plan)
    if not plan:
        raise CanastaError("judge: the answer has no move")
    expert = ExpertBot(think=None, playouts=playouts, seed=seed)
    estimates = expert.evaluate(puzzle.obs, list(puzzle.legal), also=[plan])
    best = expert.pick(estimates).plan
    if same_plan(puzzle.obs, best, plan):
        return Judgement(True, plan, best, 0.0, estimates[0].deals)
    loss, _half, deals = expert.difference(best, plan)
    return Judgement(loss <= MARGIN, plan, best, loss, deals)


def plan_words(plan, obs) -> str:
    """A plan in words: its actions' sentences joined ("Lay off 2♣ on …; then discard 5♠")."""
    steps = [a.describe(obs.melds).rstrip(".") for a in plan]
    text = _("; then ").join(s[:1].lower() + s[1:] for s in steps)
    return text[:1].upper() + text[1:]


def say_judgement(puzzle: DecisionPuzzle, j: Judgement) -> str:
    """The feedback: "Right: ..." or "The better move: ... about N points more"."""
    if j.right:
        if j.loss > 0:
            return _("Right: {plan}. My search's best is within {margin} points of it (about {points}).").format(
                plan=plan_words(j.plan, puzzle.obs), margin=int(MARGIN), points=j.points)
        return _("Right: {plan}. That is what my search would play.").format(plan=plan_words(j.plan, puzzle.obs))
    return _("The better move: {better}. Over {deals} guesses of the unseen cards it scores about {points} points "
             "more than yours ({yours}).").format(better=plan_words(j.best, puzzle.obs), deals=j.deals,
                                                  points=j.points, yours=plan_words(j.plan, puzzle.obs))


__all__ = ["JUDGE_PLAYOUTS", "JUDGE_SEED", "MARGIN", "DecisionPuzzle", "Judgement", "action_from_json",
           "action_to_json", "is_finished", "plan_words", "judge", "observation_from_json", "observation_to_json",
           "puzzle_from_decision", "puzzle_from_json", "say_judgement"]
