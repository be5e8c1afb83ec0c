"""The record of a puzzle kind (:class:`PuzzleKind`) and the registry of kinds (:data:`KINDS`).

The package :mod:`canasta_tutor.puzzles.kinds` gives every name here; each kind's module builds its record and
calls :func:`register`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from ...engine.errors import CanastaError, SituationError, clip_repr
from ...engine.i18n import N_
from ...engine.melds import check_team_melds
from ...engine.situation import SITUATION_FIELDS, Situation
from .. import paper
from ..measures import shown_cards

#: The answer controls a trainer knows how to show: a number box, Yes and No, or one button per :class:`Choice`
#: of the kind (``meld-choice``; the name is kept for stored data, any kind with ``choices`` may use it).
ANSWER_CONTROLS = ("number", "yes-no", "meld-choice")
#: What a situation view can leave out while a learner answers, because it would give the answer away: the frozen
#: marker on the pile, and the opening minimum beside the score.
HIDEABLE = ("frozen", "minimum")
#: Second questions a trainer knows: "which cards from your hand do you show?" (after a right yes on taking the pile).
FOLLOWUPS = ("shown-cards",)
#: The moments of a bot game at which a position can be cut: the start of a turn before the draw, after the draw
#: (before the first meld), and the end of the hand.
CUT_MOMENTS = ("turn", "drawn", "end")
#: How a widget colours a verdict (each tone has its colour and symbol there).
TONES = ("good", "bad", "frozen", "neutral")


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


def _no_problems(situation: Situation) -> list[str]:
    return []


@dataclass(frozen=True, kw_only=True)
class PuzzleKind:
    """One puzzle kind: everything the loader, solver, generator, trainer, worksheets and lessons know about it.

    What a puzzle is: ``fields``, the situation fields a puzzle of this kind may give, in the order the format
    lists them; ``required``, those it must give; ``answers``, the keys of ``expect`` and their types (``bool``,
    ``int`` or ``str``, or a tuple of the values allowed); ``solve(situation) -> Solution``;
    ``hints(situation) -> list[str]`` (gentlest first, never the answer); ``describe(answer) -> str``, the answer
    in a few words (the variants table, worksheets).

    Asking it (the trainer, a live class): ``question``; ``answer_control``, one of :data:`ANSWER_CONTROLS`;
    ``choices(rules) -> [Choice, ...]``, the buttons of a ``meld-choice`` kind under these rules; ``layout``, the
    situation fields a learner sees, in order (default: ``fields``); ``labels``, a heading per field where the
    default one would mislead; ``hides``, what the view leaves out while the learner answers (of
    :data:`HIDEABLE`); ``followup``, a second question after a right yes (of :data:`FOLLOWUPS`).

    Making it (the generator): ``generate(rng, rules, difficulty, want) -> dict | None``, a candidate situation in
    notation, or ``None``; ``topic``; ``yes_no``, the answer key that is yes or no (a generator balances it);
    ``features(situation) -> {measure: number}``, what makes a position hard, more meaning harder (default: the
    cards it shows, :func:`~canasta_tutor.puzzles.measures.shown_cards`); ``problems(situation) -> [str, ...]``,
    why a position could not occur in a real hand (default: none); ``cut_moments``, the moments of
    :data:`CUT_MOMENTS` at which ``cut(view, rng) -> [situation, ...]`` cuts positions from a bot game: at
    ``turn`` and ``drawn`` the view is what the player to move sees (a Situation), at ``end`` the finished
    hand's game state.

    Showing it on paper and in lessons: ``paper_question``, the worksheet's question (default: ``question``);
    ``worksheet(situation) -> [Row, ...]``, the rows a worksheet prints (default: the ``layout``, see
    :func:`~canasta_tutor.puzzles.paper.layout_rows`); ``headline(answer) -> str``, a worked example's short
    answer (default: the answer's words, as a sentence); ``reasons_as_list``, a worked example lists its reasons
    one per line; ``tones``, the tone of a yes and of a no (of :data:`TONES`).
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
    features: Callable[[Situation], dict[str, float]] = shown_cards
    problems: Callable[[Situation], list[str]] = _no_problems
    cut_moments: tuple[str, ...] = ()
    cut: Callable[[Any, Any], list[dict]] | None = None
    paper_question: str = ""
    worksheet: Callable[[Situation], list] | None = None
    headline: Callable[[dict], str] | None = None
    reasons_as_list: bool = False
    tones: tuple[str, str] = ("good", "bad")

    def __post_init__(self):
        for check in (self._fields_problem, self._control_problem, self._followup_problem, self._view_problem,
                      self._play_problem):
            problem = check()
            if problem:
                raise CanastaError(f"kind {self.name!r}: {problem}")
        object.__setattr__(self, "answers", MappingProxyType(dict(self.answers)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))
        object.__setattr__(self, "layout", tuple(self.layout or self.fields))
        object.__setattr__(self, "paper_question", self.paper_question or self.question)

    # --- the checks of a record, each the problem it finds or "" -----------------------------------------------
    def _fields_problem(self) -> str:
        unknown = [f for f in self.fields if f not in SITUATION_FIELDS or f == "rules"]
        if unknown:
            return (f"{unknown[0]!r} is not a field of a Situation "
                    f"(those are {', '.join(f for f in SITUATION_FIELDS if f != 'rules')})")
        if not set(self.required) <= set(self.fields):
            return "a required field is not among its fields"
        return ""

    def _control_problem(self) -> str:
        control = self.answer_control
        if control not in ANSWER_CONTROLS:
            return f"answer control {control!r} is not one of {', '.join(ANSWER_CONTROLS)}"
        if control == "yes-no" and (self.yes_no is None or self.answers.get(self.yes_no) is not bool):
            return "a yes-no kind names its yes-or-no answer key in yes_no"
        if control == "number" and not self.answers:
            return "a number kind needs an answer key"
        if control == "meld-choice" and self.choices is None:
            return "a choice kind needs its choices"
        return ""

    def _followup_problem(self) -> str:
        if self.followup is not None and (self.followup not in FOLLOWUPS or self.yes_no is None):
            return f"follow-up {self.followup!r} is not one of {', '.join(FOLLOWUPS)} (and needs a yes-or-no answer)"
        return ""

    def _view_problem(self) -> str:
        stray = [f for f in self.layout if f not in self.fields] + [h for h in self.hides if h not in HIDEABLE]
        if stray:
            return (f"{stray[0]!r} in layout or hides is not one of its fields ({', '.join(self.fields)}) or of "
                    f"{', '.join(HIDEABLE)}")
        odd = [t for t in self.tones if t not in TONES]
        if len(self.tones) != 2 or odd:
            return f"tones {self.tones!r} are not a yes and a no tone of {', '.join(TONES)}"
        return ""

    def _play_problem(self) -> str:
        odd = [m for m in self.cut_moments if m not in CUT_MOMENTS]
        if odd:
            return f"cut moment {odd[0]!r} is not one of {', '.join(CUT_MOMENTS)}"
        if bool(self.cut_moments) != (self.cut is not None):
            return "a kind cut from play names both its cut_moments and its cut"
        return ""

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
            return [Choice(N_("Yes"), {self.yes_no: True}, N_("Yes")), Choice(N_("No"), {self.yes_no: False}, N_("No"))]
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
            return N_("Yes") if answer[self.yes_no] else N_("No")
        for choice in self.choices(rules) if rules is not None else ():
            if all(answer.get(k) == v for k, v in choice.answer.items()):
                return choice.words
        return self.describe(answer)

    # --- what a worksheet and a worked example show ----------------------------------------------------------
    def worksheet_rows(self, situation: Situation) -> list[paper.Row]:
        """The rows a worksheet prints for ``situation`` (see :mod:`canasta_tutor.puzzles.paper`)."""
        if self.worksheet is not None:
            return self.worksheet(situation)
        return paper.layout_rows(self, situation)

    def example_answer(self, answer: dict, rules=None) -> tuple[bool | None, str]:
        """A worked example's answer: ``(yes or no, or None when the answer is not yes or no, short answer)``."""
        ok = bool(answer[self.yes_no]) if self.yes_no is not None else None
        if self.headline is not None:
            return ok, self.headline(answer)
        words = self.words(answer, rules)
        return ok, f"{words[:1].upper()}{words[1:]}."

    def tone(self, yes: bool) -> str:
        """The tone of the engine's yes (or no) to this kind's question (of :data:`TONES`)."""
        return self.tones[0] if yes else self.tones[1]


_KINDS: dict[str, PuzzleKind] = {}
#: Every registered kind by name, in the order registered (a read-only view).
KINDS = MappingProxyType(_KINDS)


_version = 0  # how often the registry has changed


def register(kind: PuzzleKind) -> PuzzleKind:
    """Add ``kind`` to :data:`KINDS` (replacing a kind of the same name)."""
    global _version
    _KINDS[kind.name] = kind
    _version += 1
    return kind


def unregister(name: str) -> None:
    """Remove a kind (tests that register a kind of their own remove it again)."""
    global _version
    _KINDS.pop(name, None)
    _version += 1


def registry_version() -> int:
    """How often the registry has changed: what is made from it (the loader's schema) is made again when this
    number has moved."""
    return _version


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
    melds = list(situation.melds)
    v = check_team_melds(melds, situation.rules, going_out=going_out)
    if not v.ok:
        raise SituationError("field 'melds': " + " ".join(v.explanation))
    return melds


def hand(situation: Situation):
    if not situation.hand:
        raise SituationError("field 'hand': the hand is empty; a player always holds a card at the start of a turn")
    return situation.hand


def unopened_hand_problems(situation: Situation) -> list[str]:
    """A player whose team has not melded holds at least the cards dealt (every turn draws before it discards,
    and red threes are replaced)."""
    rules = situation.rules
    if not situation.melds and len(situation.hand) < rules.hand_size:
        return [f"the hand holds {len(situation.hand)} cards, but a player whose team has not melded holds at "
                f"least the {rules.hand_size} dealt"]
    return []
