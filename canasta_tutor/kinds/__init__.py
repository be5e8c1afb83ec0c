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

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable

from ..errors import CanastaError, SituationError, clip_repr
from ..situation import SITUATION_FIELDS, Situation

#: The answer controls a trainer knows how to show.
ANSWER_CONTROLS = ("number", "yes-no", "meld-choice")


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
    ``topic``: the generator's topic; ``yes_no``: the answer key that is yes or no (a generator balances it).
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
        object.__setattr__(self, "answers", MappingProxyType(dict(self.answers)))


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
    from .. import puzzle

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
    from ..melds import check_team_melds

    melds = list(situation.melds)
    v = check_team_melds(melds, situation.rules, going_out=going_out)
    if not v.ok:
        raise SituationError("field 'melds': " + " ".join(v.explanation))
    return melds


def hand(situation: Situation):
    if not situation.hand:
        raise SituationError("field 'hand': the hand is empty; a player always holds a card at the start of a turn")
    return situation.hand


from . import card_points, meld, opening, freeze, take_pile, go_out, score_hand  # noqa: E402,F401  (registers)

__all__ = ["ANSWER_CONTROLS", "KINDS", "PuzzleKind", "Solution", "get_kind", "register", "unregister"]
