"""A live class puzzle: the teacher sends one puzzle to every learner's screen.

Learners' kernels share nothing but the progress database, so the live
puzzle lives there: ``live_puzzles`` holds the puzzles sent to a class (the
newest is the current one) and ``live_answers`` one answer per learner per
live puzzle: a signed-in learner's by their id in the class
(``learner_id``), whatever their name now: a later namesake is someone else.
The teacher's panel and every learner's view poll :meth:`LiveClass.current`
and :meth:`LiveClass.counts`; a learner who joins
late simply reads the current puzzle. Nothing here imports Jupyter.

>>> import tempfile, os
>>> from canasta_tutor.puzzles.format import puzzle_from_mapping
>>> db = os.path.join(tempfile.mkdtemp(), "p.sqlite3")
>>> teacher, ana = LiveClass("7B", db), LiveClass("7B", db)
>>> live = teacher.send(puzzle_from_mapping({"id": "f-1", "kind": "freeze", "pile": "5H 2C 9S", "melds": ["KH KS KD"]}))
>>> ana.current().puzzle.id
'f-1'
>>> bool(ana.answer("ana", {"frozen": True}))
True
>>> teacher.counts()
{'Yes': 1, 'No': 0}
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa

from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..puzzles.format import Puzzle, puzzle_from_mapping
from ..puzzles.kinds import get_kind
from . import db


def answer_label(kind: str, answer: dict, rules=None) -> str:
    """The bar an answer goes in: the number, or the label of the kind's button for it under ``rules``
    (``Yes``/``No``, ``Natural canasta``...: the kind record's ``options``); the answer's own words when no
    button says it."""
    record = get_kind(kind)
    if record.answer_control == "number":
        return str(answer[record.number_key])
    if rules is not None or record.answer_control == "yes-no":
        for choice in record.options(rules):
            if all(answer.get(k) == v for k, v in choice.answer.items()):
                return _(choice.label)  # the button's label, in the language of the screen that shows it
    text = record.describe(answer)
    return text[:1].upper() + text[1:]


def answer_choices(puzzle: Puzzle) -> list[str]:
    """The bars shown before any answer arrives: the labels of the kind's buttons under the puzzle's rules (none
    for number answers: they appear as they come)."""
    return [_(choice.label) for choice in get_kind(puzzle.kind).options(puzzle.rules)]


@dataclass(frozen=True)
class LivePuzzle:
    """One puzzle sent to a class."""

    id: int
    class_code: str
    puzzle: Puzzle
    sent_at: str
    revealed: bool


@dataclass(frozen=True)
class LiveAnswer:
    learner: str
    answer: dict
    correct: bool
    label: str
    learner_id: int | None = None

    def __bool__(self) -> bool:
        return self.correct


_LIVE_COLUMNS = sa.select(db.live_puzzles.c.id, db.live_puzzles.c.class_code, db.live_puzzles.c.puzzle,
                          db.live_puzzles.c.set_title, db.live_puzzles.c.sent_at, db.live_puzzles.c.revealed_at)


class LiveClass:
    """The live puzzle of one class (class code ``""`` is the class of everyone not in a class)."""

    def __init__(self, class_code: str = "", path=None):
        from .progress import ProgressStore

        self.class_code = class_code or ""
        self._store = ProgressStore(path)
        self.path = self._store.path

    def _run(self, work, *, write: bool = False):
        try:
            with self._store._begin(write=write) as conn:
                return work(conn)
        except sa.exc.IntegrityError:
            raise
        except db.DB_ERRORS as e:
            raise CanastaError(_("the live class puzzle in {database} could not be read or saved: {reason}").format(
                database=self._store.where.shown, reason=db.reason(e))) from None

    # --- the teacher -------------------------------------------------------------------
    def send(self, puzzle: Puzzle) -> LivePuzzle:
        """Make ``puzzle`` the class's current puzzle (the earlier one is closed)."""
        from ..puzzles.practice import set_of
        from ..puzzles.solver import solve
        from .assignments import puzzle_to_mapping

        solve(puzzle)  # an unsolvable puzzle is refused here, not on thirty screens
        raw = json.dumps(puzzle_to_mapping(puzzle), ensure_ascii=False)
        now = _now()
        lp = db.live_puzzles
        number = self._run(lambda conn: conn.execute(
            lp.insert().values(class_code=self.class_code, puzzle=raw, set_title=set_of(puzzle), sent_at=now)
            .returning(lp.c.id)).scalar_one(), write=True)
        return self.current_or_raise(number)

    def reveal(self) -> LivePuzzle:
        """Show the engine's explanation on every screen (of the current puzzle)."""
        live = self.current()
        if live is None:
            raise CanastaError(_("there is no live puzzle to reveal: send one first"))
        if not live.revealed:
            lp = db.live_puzzles
            self._run(lambda conn: conn.execute(lp.update().where(lp.c.id == live.id).values(revealed_at=_now())),
                      write=True)
        return self.current_or_raise(live.id)

    def counts(self, live_id: int | None = None) -> dict[str, int]:
        """Answers per choice for the current (or given) live puzzle, every choice listed."""
        live = self.current() if live_id is None else self.current_or_raise(live_id)
        if live is None:
            return {}
        out = {label: 0 for label in answer_choices(live.puzzle)}
        extra: dict[str, int] = {}
        for a in self.answers(live.id):
            if a.label in out:
                out[a.label] += 1
            else:
                extra[a.label] = extra.get(a.label, 0) + 1
        for label in sorted(extra, key=lambda x: (len(x), x)):
            out[label] = extra[label]
        return out

    def answers(self, live_id: int | None = None) -> list[LiveAnswer]:
        live = self.current() if live_id is None else self.current_or_raise(live_id)
        if live is None:
            return []
        la = db.live_answers
        rows = self._run(lambda conn: conn.execute(
            sa.select(la.c.learner, la.c.answer, la.c.correct, la.c.learner_id).where(la.c.live_id == live.id)
            .order_by(la.c.answered_at, la.c.learner)).fetchall())
        return [LiveAnswer(learner=r[0], answer=json.loads(r[1]), correct=bool(r[2]),
                           label=answer_label(live.puzzle.kind, json.loads(r[1]), live.puzzle.rules),
                           learner_id=r[3]) for r in rows]

    def all_answers(self) -> list[tuple]:
        """Every answer to this class's live puzzles, oldest first: (learner, the puzzle's id, when answered,
        the learner's id: None for an answer given without one)."""
        la, lp = db.live_answers, db.live_puzzles
        rows = self._run(lambda conn: conn.execute(
            sa.select(la.c.learner, lp.c.puzzle, la.c.answered_at, la.c.learner_id).join(lp, lp.c.id == la.c.live_id)
            .where(lp.c.class_code == self.class_code).order_by(la.c.answered_at)).fetchall())
        return [(r[0], str(json.loads(r[1]).get("id", "")), r[2], r[3]) for r in rows]

    # --- everyone ----------------------------------------------------------------------
    def current(self) -> LivePuzzle | None:
        """The class's newest live puzzle, or None if none was sent."""
        rows = self._run(lambda conn: conn.execute(
            _LIVE_COLUMNS.where(db.live_puzzles.c.class_code == self.class_code)
            .order_by(db.live_puzzles.c.id.desc()).limit(1)).fetchall())
        return self._live(rows[0]) if rows else None

    def current_or_raise(self, live_id: int) -> LivePuzzle:
        rows = self._run(lambda conn: conn.execute(
            _LIVE_COLUMNS.where(db.live_puzzles.c.id == int(live_id))).fetchall())
        if not rows:
            raise CanastaError(_("there is no live puzzle number {number}").format(number=live_id))
        return self._live(rows[0])

    @staticmethod
    def _live(row) -> LivePuzzle:
        puzzle = puzzle_from_mapping(json.loads(row[2]), file="live", set_title=row[3])
        return LivePuzzle(id=row[0], class_code=row[1], puzzle=puzzle, sent_at=row[4], revealed=row[5] is not None)

    # --- the learner ---------------------------------------------------------------------
    def answer(self, learner: str, given: dict, *, live_id: int | None = None,
               learner_id: int | None = None) -> LiveAnswer:
        """Record ``learner``'s answer to the current (or given) live puzzle; one answer each (``learner_id``: the
        signed-in learner's id in the class, whose answer it is, whatever their name; a learner merged into another
        answers as the one kept).

        Returns the answer, truthy when right. Raises :class:`CanastaError` when there is no live puzzle,
        it is no longer the current one, it was revealed, or this learner has answered already.
        """
        from ..puzzles.solver import solve

        learner = (learner or "").strip()
        if not learner:
            raise CanastaError(_("a live answer needs the learner's name"))
        live = self.current()
        if live is None:
            raise CanastaError(_("there is no live puzzle to answer"))
        if live_id is not None and live_id != live.id:
            raise CanastaError(_("the teacher has sent a new puzzle: answer that one"))
        if live.revealed:
            raise CanastaError(_("the answer has been revealed already: wait for the next puzzle"))
        solution = solve(live.puzzle)
        unknown = set(given) - set(solution.answer)
        if unknown or not given:
            said = (_("an answer to a {kind} puzzle has the keys {keys}, not {given}") if given else
                    _("an answer to a {kind} puzzle has the keys {keys}, not none"))
            raise CanastaError(said.format(kind=live.puzzle.kind, keys=", ".join(solution.answer),
                                           given=", ".join(sorted(given))))
        correct = all(solution.answer[k] == v and type(solution.answer[k]) is type(v) for k, v in given.items())
        label = answer_label(live.puzzle.kind, {**solution.answer, **given}, live.puzzle.rules)

        def insert(conn):
            m, lr = db.merged, db.learners
            whose = learner_id
            if whose is not None:
                whose = conn.execute(sa.select(m.c.new_id).where(m.c.old_id == int(whose))).scalar() or int(whose)
                learner_now = conn.execute(sa.select(lr.c.name).where(lr.c.id == whose)).scalar()
            else:
                learner_now = None
            conn.execute(db.live_answers.insert().values(live_id=live.id, learner=learner_now or learner,
                                                         answer=json.dumps(given), correct=int(correct),
                                                         answered_at=_now(), learner_id=whose))

        try:
            self._run(insert, write=True)
        except sa.exc.IntegrityError:
            raise CanastaError(_("{learner} has answered this puzzle already: one answer each").format(
                learner=learner)) from None
        return LiveAnswer(learner=learner, answer=dict(given), correct=correct, label=label, learner_id=learner_id)

    def answer_of(self, learner: str, live_id: int | None = None, *, learner_id: int | None = None
                  ) -> LiveAnswer | None:
        """``learner``'s answer to the current (or given) live puzzle, if any: with ``learner_id``, that learner's
        (by id, whatever the name), else the answer given under that name without an id."""
        if learner_id is not None:
            m = db.merged
            kept = self._run(lambda conn: conn.execute(sa.select(m.c.new_id).where(m.c.old_id == int(learner_id)))
                             .scalar())
            ids = {int(learner_id)} | ({kept} if kept is not None else set())
            return next((a for a in self.answers(live_id) if a.learner_id in ids), None)
        return next((a for a in self.answers(live_id) if a.learner_id is None and a.learner == learner), None)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


#: The live chart's type, in px: read from the back of a classroom on a projector.
CHART_FONT = 30


def bar_chart_html(counts: dict[str, int], *, right: str | None = None, width: int = 520,
                   font: int = CHART_FONT) -> str:
    """Answers as horizontal bars with counts (inline SVG, nothing fetched); ``right`` marks the right one. The
    type is large (``font`` px, the labels' column as wide as the longest label), for a projector.

    >>> '>3<' in bar_chart_html({"Yes": 3, "No": 1})
    True
    """
    if not counts:
        return "<div style='color:#595959;font-style:italic'>" + html.escape(_("No answers yet.")) + "</div>"
    row = round(font * 1.7)
    label_w = round(max(len(label) + 2 for label in counts) * font * 0.62) + 12   # room for the label and " ✔"
    bar_w = width
    top = max(counts.values()) or 1
    total = sum(counts.values())
    parts = []
    for i, (label, n) in enumerate(counts.items()):
        y = i * row
        colour = "#2e7d32" if right is not None and label == right else "#1565c0"
        length = bar_w * n / top if n else 0
        mark = " ✔" if right is not None and label == right else ""
        base = y + round(row * 0.68)
        parts.append(
            f"<text x='{label_w - 10}' y='{base}' text-anchor='end' font-size='{font}'>{html.escape(label)}{mark}"
            f"</text><rect class='ct-bar' data-label='{html.escape(label)}' data-count='{n}' x='{label_w}' "
            f"y='{y + 5}' width='{length:.1f}' height='{row - 10}' fill='{colour}' rx='4'/>"
            f"<text x='{label_w + length + 10:.1f}' y='{base}' font-size='{font}' font-weight='bold'>{n}</text>")
    h = row * len(counts)
    full = label_w + bar_w + 3 * font
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{full}' height='{h}' viewBox='0 0 {full} {h}' "
           f"style='max-width:100%;height:auto' font-family='DejaVu Sans, Arial, sans-serif'>{''.join(parts)}</svg>")
    said = html.escape(ngettext("{count} answer", "{count} answers", total).format(count=total))
    return f"<div class='ct-live-chart'>{svg}<div style='color:#333;font-size:{round(font * 0.7)}px'>{said}</div></div>"
