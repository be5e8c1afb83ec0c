"""The registry of puzzle kinds: one :class:`PuzzleKind` record per kind, one module per kind.

A record holds everything the loader, solver, generator, trainer, lessons, variants table and CLI need
to know about a kind: its situation fields (required and optional), its answer keys and their types, how
the engine solves it, its hints, the trainer's question, the answer control, how an answer reads, and
its generator. Adding a kind is one module here that calls :func:`register` (or a call to
:func:`register` anywhere, e.g. in a test).

>>> list(KINDS)
['card-points', 'meld', 'opening', 'freeze', 'take-pile', 'go-out', 'score-hand']
>>> dict(KINDS["take-pile"].answers), KINDS["take-pile"].answer_control
({'take': <class 'bool'>}, 'yes-no')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from ...engine.errors import CanastaError, SituationError, clip_repr
from ...engine.situation import SITUATION_FIELDS, Situation

#: The answer controls a trainer knows how to show: a number box, Yes and No, or one button per :class:`Choice`
#: of the kind (``meld-choice``; the name is kept for stored data, any kind with ``choices`` may use it).
ANSWER_CONTROLS = ("number", "yes-no", "meld-choice")
#: What a situation view can leave out while a learner answers, because it would give the answer away: the frozen
#: marker on the pile, and the opening minimum beside the score.
HIDEABLE = ("frozen", "minimum")
#: Second questions a trainer knows: "which cards from your hand do you show?" (after a right yes on taking the pile).
FOLLOWUPS = ("shown-cards",)


class Choice(NamedTuple):
    """One answer button: its ``label``, the ``answer`` it gives (the contract's keys) and how that answer reads
    in a sentence (``words``: "a natural canasta")."""

    label: str
    answer: dict
    words: str


@dataclass(frozen=True)
class Solution:
    """The engine's answer to a puzzle in the contract's shape, its explanation, and the verdict behind it."""

    answer: dict[str, Any]
    explanation: list[str]
    verdict: Any = None


@dataclass(frozen=True, kw_only=True)
class PuzzleKind:
    """One puzzle kind.

    ``fields``: the situation fields a puzzle of this kind may give, in the order the format lists them;
    ``required``: those it must give; ``answers``: the keys of ``expect`` and their types (``bool``, ``int``
    or ``str``, or a tuple of the values allowed); ``solve(situation) -> Solution``;
    ``hints(situation) -> list[str]`` (gentlest first, never
    the answer); ``question``: the trainer's question; ``answer_control``: one of :data:`ANSWER_CONTROLS`;
    ``describe(answer) -> str``: the answer in a few words (the variants table, worksheets);
    ``generate(rng, rules, difficulty, want) -> dict | None``: a candidate situation in notation, or ``None``;
    ``topic``: the generator's topic; ``yes_no``: the answer key that is yes or no (a generator balances it);
    ``choices(rules) -> [Choice, ...]``: the buttons of a ``meld-choice`` kind under these rules;
    ``layout``: the situation fields a learner sees, in order (default: ``fields``); ``labels``: a heading per
    field where the default one would mislead; ``hides``: what the view leaves out while the learner answers
    (of :data:`HIDEABLE`); ``followup``: a second question the trainer asks after a right yes (of
    :data:`FOLLOWUPS`).
    """

    name: str
    fields: tuple[str, ...]
    required: tuple[str, ...]
    answers: dict[str, type]
    solve: Callable[[Situation], Solution]
    hints: Callable[[Situation], list[str]]
    question: str
    answer_control: str
    describe: Callable[[dict], str]
    generate: Callable[..., dict | None] | None = None
    topic: str = ""
    yes_no: str | None = None
    choices: Callable[[Any], list[Choice]] | None = None
    layout: tuple[str, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    hides: tuple[str, ...] = ()
    followup: str | None = None

    def __post_init__(self):
        unknown = [f for f in self.fields if f not in SITUATION_FIELDS or f == "rules"]
        if unknown:
            raise CanastaError(f"kind {self.name!r}: {unknown[0]!r} is not a field of a Situation "
                               f"(those are {', '.join(f for f in SITUATION_FIELDS if f != 'rules')})")
        if not set(self.required) <= set(self.fields):
            raise CanastaError(f"kind {self.name!r}: a required field is not among its fields")
        if self.answer_control not in ANSWER_CONTROLS:
            raise CanastaError(f"kind {self.name!r}: answer control {self.answer_control!r} is not one of "
                               f"{', '.join(ANSWER_CONTROLS)}")
        if self.answer_control == "yes-no" and (self.yes_no is None or self.answers.get(self.yes_no) is not bool):
            raise CanastaError(f"kind {self.name!r}: a yes-no kind names its yes-or-no answer key in yes_no")
        if self.answer_control == "number" and not self.answers:
            raise CanastaError(f"kind {self.name!r}: a number kind needs an answer key")
        if self.answer_control == "meld-choice" and self.choices is None:
            raise CanastaError(f"kind {self.name!r}: a choice kind needs its choices")
        if self.followup is not None and (self.followup not in FOLLOWUPS or self.yes_no is None):
            raise CanastaError(f"kind {self.name!r}: follow-up {self.followup!r} is not one of {', '.join(FOLLOWUPS)}"
                               f" (and needs a yes-or-no answer)")
        stray = [f for f in self.layout if f not in self.fields] + [h for h in self.hides if h not in HIDEABLE]
        if stray:
            raise CanastaError(f"kind {self.name!r}: {stray[0]!r} in layout or hides is not one of its fields "
                               f"({', '.join(self.fields)}) or of {', '.join(HIDEABLE)}")
        object.__setattr__(self, "answers", MappingProxyType(dict(self.answers)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))
        object.__setattr__(self, "layout", tuple(self.layout or self.fields))

    # --- what a trainer, a live class or a worksheet needs to ask and read an answer ---------------------------
    @property
    def number_key(self) -> str | None:
        """The answer key a number box fills (``None`` unless the control is ``number``)."""
        return next(iter(self.answers)) if self.answer_control == "number" else None

    def options(self, rules) -> list[Choice]:
        """The answer buttons under ``rules``: the kind's choices, or Yes and No; none for a number."""
        if self.answer_control == "number":
            return []
        if self.answer_control == "yes-no":
            return [Choice("Yes", {self.yes_no: True}, "Yes"), Choice("No", {self.yes_no: False}, "No")]
        return list(self.choices(rules))

    def read(self, value, rules) -> tuple[dict | None, str]:
        """A learner's answer as the contract's keys, or ``(None, what is wrong)``: a number kind takes text
        such as ``"-120"``; a choice kind takes an answer mapping, a button's label, or the words of the
        answer; a yes-no kind also ``True``/``False``."""
        if self.answer_control == "number":
            text = str(value).strip().replace("\u2212", "-").replace(" ", "")
            if not text:
                return None, "Type your answer in the box first."
            try:
                return {self.number_key: int(text.lstrip("+"))}, ""
            except ValueError:
                return None, f"Please type a whole number, like 65 or -120: '{str(value).strip()}' is not one."
        choices = self.options(rules)
        if isinstance(value, bool) and self.answer_control == "yes-no":
            return {self.yes_no: value}, ""
        for choice in choices:
            if value == choice.answer or (isinstance(value, str) and value.strip().lower() in
                                          (choice.label.lower(), choice.words.lower())):
                return dict(choice.answer), ""
        if isinstance(value, str):  # a choice named by one value of its answer that no other choice has ("samba")
            hits = [c for c in choices if value.strip().lower() in
                    {str(v).lower() for v in c.answer.values() if not isinstance(v, bool)}]
            if len(hits) == 1:
                return dict(hits[0].answer), ""
        return None, ("Answer with Yes or No." if self.answer_control == "yes-no" else "Choose one of the buttons.")

    def words(self, answer: dict, rules=None) -> str:
        """An answer (the learner's or the engine's) in the words of the buttons."""
        if self.answer_control == "number":
            return str(answer[self.number_key])
        if self.answer_control == "yes-no":
            return "Yes" if answer[self.yes_no] else "No"
        for choice in self.choices(rules) if rules is not None else ():
            if all(answer.get(k) == v for k, v in choice.answer.items()):
                return choice.words
        return self.describe(answer)


_KINDS: dict[str, PuzzleKind] = {}
#: Every registered kind by name, in the order registered (a read-only view).
KINDS = MappingProxyType(_KINDS)


def register(kind: PuzzleKind) -> PuzzleKind:
    """Add ``kind`` to :data:`KINDS` (replacing a kind of the same name)."""
    _KINDS[kind.name] = kind
    _changed()
    return kind


def unregister(name: str) -> None:
    """Remove a kind (tests that register a kind of their own remove it again)."""
    _KINDS.pop(name, None)
    _changed()


def _changed() -> None:
    from .. import format as puzzle

    puzzle.registry_changed()


def get_kind(name) -> PuzzleKind:
    """The record of kind ``name``, or a clear error listing the kinds."""
    try:
        return _KINDS[name]
    except (KeyError, TypeError):
        raise CanastaError(f"unknown puzzle kind {clip_repr(name)}: the kinds are {', '.join(_KINDS)}") from None


# --- helpers the kinds share -----------------------------------------------------------------------------------
def yes_no(answer: dict) -> str:
    return "yes" if next(iter(answer.values())) else "no"


def first_value(answer: dict) -> str:
    return str(next(iter(answer.values())))


def table(situation: Situation, *, going_out: bool = False):
    """The team's melds, checked as a legal table (a puzzle's melds must be)."""
    from ...engine.melds import check_team_melds

    melds = list(situation.melds)
    v = check_team_melds(melds, situation.rules, going_out=going_out)
    if not v.ok:
        raise SituationError("field 'melds': " + " ".join(v.explanation))
    return melds


def hand(situation: Situation):
    if not situation.hand:
        raise SituationError("field 'hand': the hand is empty; a player always holds a card at the start of a turn")
    return situation.hand


# isort: off
# the kinds register in this order, the order lessons, menus and the schema list them
from . import card_points, meld, opening, freeze, take_pile, go_out, score_hand  # noqa: E402,F401  (registers)
# isort: on

__all__ = ["ANSWER_CONTROLS", "Choice", "HIDEABLE", "KINDS", "PuzzleKind", "Solution", "get_kind", "register",
           "unregister"]
