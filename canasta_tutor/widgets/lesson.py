"""One-line helpers for the lesson notebooks: worked examples drawn as cards, puzzles to try.

Every worked example in every lesson is drawn by :func:`example`: the
situation as cards, the question, and the engine's verdict with its reasons.
The rule is decided by the engine (:mod:`canasta_tutor.puzzles.solver`), the drawing
by :mod:`canasta_tutor.widgets.render`, the short answer by the kind's record; nothing
here knows a rule or a kind.

>>> ex = example("meld", cards="KH KS KD", question="Three kings: a meld?")
>>> ex.question, ex.answer
('Three kings: a meld?', 'A meld.')
>>> "ct-card" in ex._repr_html_() and ex.reasons[0] in repr(ex)
True
"""

from __future__ import annotations

import html
from collections import Counter, defaultdict

import ipywidgets as widgets

from ..classroom.lesson_text import LessonTextError, translated_string
from ..engine.errors import CanastaError, PuzzleError
from ..engine.i18n import get_language
from ..engine.i18n import gettext as _
from ..engine.rules import CLASSIC, PRESETS
from ..puzzles.format import Puzzle, puzzle_from_mapping
from ..puzzles.kinds import KINDS, get_kind
from ..puzzles.solver import Solution, solve
from . import language
from .render import situation_html
from .trainer import Trainer, load_puzzles
from .variants import PARTNERSHIP_PRESETS, presets_html, short_title, sources_html

_VERDICT = "#0d47a1"  # one colour for yes and no: a "no" is an answer, not a mistake


if language.told_language():  # a lesson page's kernel: its worked examples and puzzles read the page's language
    language.page_language()


def page_language() -> str:
    """The language the page this kernel serves was told (:func:`canasta_tutor.widgets.language.told_language`),
    else (no page: a notebook in JupyterLab, a test) the current language."""
    return language.told_language() or get_language()


def lesson_string(english: str, lang: str | None = None) -> str:
    """A question or title a lesson passes to a call, in the page's language (``lessons/i18n/<lang>/*.yaml``)."""
    from ..web.folders import default_lessons_dir

    try:
        return translated_string(english, default_lessons_dir(), lang or page_language())
    except LessonTextError:
        return english


class Example:
    """A worked example: a situation, its question and the engine's verdict (shown as HTML in a notebook)."""

    def __init__(self, puzzle: Puzzle, question: str, solution: Solution):
        self.puzzle = puzzle
        self.question = question
        self.solution = solution
        self.ok, self.answer = get_kind(puzzle.kind).example_answer(solution.answer, puzzle.rules)

    @property
    def reasons(self) -> list[str]:
        return list(self.solution.explanation)

    def __repr__(self) -> str:  # what nbval compares, and what a terminal shows
        return f"{self.question}\n{self.answer} {' '.join(self.reasons)}".rstrip()

    def _repr_html_(self) -> str:
        if get_kind(self.puzzle.kind).reasons_as_list and len(self.reasons) > 1:
            why = "<ul style='margin:4px 0'>" + "".join(f"<li>{html.escape(r)}</li>" for r in self.reasons) + "</ul>"
        else:
            why = " ".join(html.escape(r) for r in self.reasons)
        return (f"<div class='ct-example' style='border-left:4px solid #90a4ae;padding:4px 10px;margin:10px 0;"
                f"max-width:100%;overflow-wrap:anywhere'>"
                f"<div class='ct-question' style='font-weight:bold;margin-bottom:4px'>"
                f"{html.escape(self.question)}</div>"
                f"{situation_html(self.puzzle)}"
                f"<div class='ct-verdict' style='color:{_VERDICT}'><b>{html.escape(self.answer)}</b> {why}</div></div>")


def example(kind: str, *, question: str, rules: str = "classic", **situation) -> Example:
    """A worked example of ``kind`` (a puzzle kind: ``meld``, ``take-pile``...) drawn as cards, with its
    ``question`` and the engine's verdict.

    The question is the lesson's own, about this situation: the trainer's question for the kind belongs to the
    puzzles the learner answers, so that a worked example never looks like a puzzle waiting for an answer.

    The situation's fields are those of a puzzle of that kind (``puzzle-format.md``): ``cards``, ``hand``,
    ``melds``, ``pile``, ``score``, ``going_out``, ``red_threes``, ``hands``, ``went_out``.

    >>> example("meld", cards="5H 5Z", question="A meld?")
    Traceback (most recent call last):
    ...
    canasta_tutor.engine.errors.PuzzleError: example('meld', cards='5H 5Z'): field 'cards': ...
    """
    call = "example(" + ", ".join([repr(kind)] + [f"{k}={v!r}" for k, v in situation.items()] +
                                  ([f"rules={rules!r}"] if rules != CLASSIC.name else [])) + ")"
    if kind not in KINDS:
        raise PuzzleError(f"{call}: unknown kind {kind!r}; the kinds are {', '.join(KINDS)}")
    if not question or not question.strip() or question.strip() == KINDS[kind].question:
        raise PuzzleError(f"{call}: give the example its own question about this situation (not the puzzles' "
                          f"{KINDS[kind].question!r})")
    try:
        puzzle = puzzle_from_mapping({"id": "example", "kind": kind, **situation}, rules=rules, file=call)
        solution = solve(puzzle)
    except PuzzleError as e:
        raise PuzzleError(f"{call}: " + (f"field '{e.field}': " if e.field else "") + e.detail) from None
    except CanastaError as e:
        raise PuzzleError(f"{call}: {e}") from None
    return Example(puzzle, lesson_string(question.strip()), solution)


def lesson_puzzles(*ids: str, title: str = "Try it yourself") -> Trainer:
    """A trainer with these puzzles from the project's puzzle sets, in this order.

    An id that no puzzle has, or that more than one puzzle file uses, or that is asked for twice, is an error.
    """
    call = "lesson_puzzles(" + ", ".join(map(repr, ids)) + ")"
    if not ids:
        raise PuzzleError(f"{call}: name at least one puzzle id")
    twice = [i for i, n in Counter(ids).items() if n > 1]
    if twice:
        raise PuzzleError(f"{call}: the id '{twice[0]}' is asked for twice")
    puzzles, problems = load_puzzles()
    by_id: dict[str, list[Puzzle]] = defaultdict(list)
    for p in puzzles:
        by_id[p.id].append(p)
    for i in ids:
        found = by_id.get(i, [])
        if not found:
            broken = [m for m in problems if f"puzzle '{i}'" in m]
            raise PuzzleError(f"{call}: no puzzle has the id '{i}'" +
                              (f" (it failed to load: {broken[0]})" if broken else ""))
        if len(found) > 1:
            files = ", ".join(sorted(p.file for p in found))
            raise PuzzleError(f"{call}: the id '{i}' is used by {len(found)} puzzles ({files}); a lesson's ids "
                              f"must name one puzzle")
    return Trainer([by_id[i][0] for i in ids], ids=list(ids), title=lesson_string(title), resume=False)


class PresetsTable(widgets.VBox):
    """Lesson 9: the rule sets side by side in plain words, and where each rule comes from.

    The four-player partnership presets are shown first; a tick box per preset adds or removes a column.
    """

    def __init__(self, presets=PARTNERSHIP_PRESETS, **kwargs):
        super().__init__(**kwargs)
        self.boxes = {name: widgets.Checkbox(value=name in presets, description=short_title(rules), indent=False,
                                             layout=widgets.Layout(width="auto", margin="0 14px 0 0"))
                      for name, rules in PRESETS.items()}
        for box in self.boxes.values():
            box.observe(lambda _c: self.update(), "value")
        self.table = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.sources = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        pick = widgets.HBox(list(self.boxes.values()), layout=widgets.Layout(flex_flow="row wrap", max_width="100%"))
        compare = _("Rule sets to compare:")
        self.children = [widgets.HTML(f"<b>{html.escape(compare)}</b>"), pick, self.table, self.sources]
        self.update()

    @property
    def chosen(self) -> list[str]:
        return [name for name, box in self.boxes.items() if box.value]

    def update(self) -> None:
        chosen = self.chosen
        if not chosen:
            tick = html.escape(_("Tick at least one rule set."))
            self.table.value = f"<i>{tick}</i>"
            self.sources.value = ""
            return
        self.table.value = presets_html(chosen)
        self.sources.value = sources_html(chosen)


from .explorers import (  # noqa: E402
    CardCounter,
    FreezeExplorer,
    GoOutExplorer,
    MeldBuilder,
    OpeningExplorer,
    RedThreeExplorer,
    ScoreExplorer,
    TakePileExplorer,
    VariantsExplorer,
)
from .trainer import PracticeRoom  # noqa: E402

__all__ = ["example", "lesson_puzzles", "PresetsTable",
           "CardCounter", "MeldBuilder", "RedThreeExplorer", "TakePileExplorer", "FreezeExplorer", "OpeningExplorer",
           "GoOutExplorer", "ScoreExplorer", "VariantsExplorer", "PracticeRoom", "Trainer"]
