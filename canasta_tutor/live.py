"""A live class puzzle: the teacher sends one puzzle to every learner's screen.

Learners' kernels share nothing but the progress database, so the live
puzzle lives there: ``live_puzzles`` holds the puzzles sent to a class (the
newest is the current one) and ``live_answers`` one answer per learner per
live puzzle. The teacher's panel and every learner's view poll
:meth:`LiveClass.current` and :meth:`LiveClass.counts`; a learner who joins
late simply reads the current puzzle. Nothing here imports Jupyter.

>>> import tempfile, os
>>> from canasta_tutor.puzzle import puzzle_from_mapping
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
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone

from .errors import CanastaError
from .kinds import get_kind
from .melds import MIXED, NATURAL, NONE, SAMBA
from .puzzle import Puzzle, puzzle_from_mapping

_SCHEMA = """
CREATE TABLE IF NOT EXISTS live_puzzles (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    class_code  TEXT    NOT NULL,
    puzzle      TEXT    NOT NULL,
    set_title   TEXT    NOT NULL,
    sent_at     TEXT    NOT NULL,
    revealed_at TEXT
);
CREATE INDEX IF NOT EXISTS live_puzzles_by_class ON live_puzzles (class_code, id);
CREATE TABLE IF NOT EXISTS live_answers (
    live_id     INTEGER NOT NULL REFERENCES live_puzzles (id),
    learner     TEXT    NOT NULL,
    answer      TEXT    NOT NULL,
    correct     INTEGER NOT NULL CHECK (correct IN (0, 1)),
    answered_at TEXT    NOT NULL,
    PRIMARY KEY (live_id, learner)
);
"""
MELD_LABELS = (((False, NONE), "Not a meld"), ((True, NONE), "A meld, no canasta"),
               ((True, NATURAL), "Natural canasta"), ((True, MIXED), "Mixed canasta"),
               ((True, SAMBA), "Samba"))


def answer_label(kind: str, answer: dict) -> str:
    """The bar an answer goes in: ``Yes``/``No``, the number, or the kind of meld."""
    record = get_kind(kind)
    if record.answer_control == "number":
        return str(answer[next(iter(record.answers))])
    if record.answer_control == "meld-choice":
        return dict(MELD_LABELS)[(bool(answer["valid"]), answer["canasta"])]
    return "Yes" if answer[record.yes_no] else "No"


def answer_choices(puzzle: Puzzle) -> list[str]:
    """The bars shown before any answer arrives (none for number answers: they appear as they come)."""
    control = get_kind(puzzle.kind).answer_control
    if control == "number":
        return []
    if control == "meld-choice":
        return [label for (_v, canasta), label in MELD_LABELS if canasta != SAMBA or puzzle.rules.sequences]
    return ["Yes", "No"]


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

    def __bool__(self) -> bool:
        return self.correct


class LiveClass:
    """The live puzzle of one class (class code ``""`` is the class of everyone not in a class)."""

    def __init__(self, class_code: str = "", path=None):
        from .progress import ProgressStore

        self.class_code = class_code or ""
        self._store = ProgressStore(path)
        self.path = self._store.path
        self._run(lambda conn: conn.executescript(_SCHEMA))

    def _run(self, work, *, write: bool = False):
        try:
            conn = self._store._connect()
        except sqlite3.Error as e:
            raise CanastaError(f"cannot open the live class puzzle in {self.path}: {e}") from None
        try:
            with conn:
                if write:
                    conn.execute("BEGIN IMMEDIATE")
                return work(conn)
        except sqlite3.Error as e:
            raise CanastaError(f"the live class puzzle in {self.path} could not be read or saved: {e}") from None
        finally:
            conn.close()

    # --- the teacher -------------------------------------------------------------------
    def send(self, puzzle: Puzzle) -> LivePuzzle:
        """Make ``puzzle`` the class's current puzzle (the earlier one is closed)."""
        from .assignments import puzzle_to_mapping
        from .practice import set_of
        from .solver import solve

        solve(puzzle)  # an unsolvable puzzle is refused here, not on thirty screens
        raw = json.dumps(puzzle_to_mapping(puzzle), ensure_ascii=False)
        now = _now()
        number = self._run(lambda conn: conn.execute(
            "INSERT INTO live_puzzles (class_code, puzzle, set_title, sent_at) VALUES (?, ?, ?, ?)",
            (self.class_code, raw, set_of(puzzle), now)).lastrowid, write=True)
        return self.current_or_raise(number)

    def reveal(self) -> LivePuzzle:
        """Show the engine's explanation on every screen (of the current puzzle)."""
        live = self.current()
        if live is None:
            raise CanastaError("there is no live puzzle to reveal: send one first")
        if not live.revealed:
            self._run(lambda conn: conn.execute("UPDATE live_puzzles SET revealed_at = ? WHERE id = ?",
                                                (_now(), live.id)), write=True)
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
        rows = self._run(lambda conn: conn.execute(
            "SELECT learner, answer, correct FROM live_answers WHERE live_id = ? ORDER BY answered_at, learner",
            (live.id,)).fetchall())
        return [LiveAnswer(learner=r[0], answer=json.loads(r[1]), correct=bool(r[2]),
                           label=answer_label(live.puzzle.kind, json.loads(r[1]))) for r in rows]

    # --- everyone ----------------------------------------------------------------------
    def current(self) -> LivePuzzle | None:
        """The class's newest live puzzle, or None if none was sent."""
        rows = self._run(lambda conn: conn.execute(
            "SELECT id, class_code, puzzle, set_title, sent_at, revealed_at FROM live_puzzles WHERE class_code = ? "
            "ORDER BY id DESC LIMIT 1", (self.class_code,)).fetchall())
        return self._live(rows[0]) if rows else None

    def current_or_raise(self, live_id: int) -> LivePuzzle:
        rows = self._run(lambda conn: conn.execute(
            "SELECT id, class_code, puzzle, set_title, sent_at, revealed_at FROM live_puzzles WHERE id = ?",
            (int(live_id),)).fetchall())
        if not rows:
            raise CanastaError(f"there is no live puzzle number {live_id}")
        return self._live(rows[0])

    @staticmethod
    def _live(row) -> LivePuzzle:
        puzzle = puzzle_from_mapping(json.loads(row[2]), file="live", set_title=row[3])
        return LivePuzzle(id=row[0], class_code=row[1], puzzle=puzzle, sent_at=row[4], revealed=row[5] is not None)

    # --- the learner ---------------------------------------------------------------------
    def answer(self, learner: str, given: dict, *, live_id: int | None = None) -> LiveAnswer:
        """Record ``learner``'s answer to the current (or given) live puzzle; one answer each.

        Returns the answer, truthy when right. Raises :class:`CanastaError` when there is no live puzzle,
        it is no longer the current one, it was revealed, or this learner has answered already.
        """
        from .solver import solve

        learner = (learner or "").strip()
        if not learner:
            raise CanastaError("a live answer needs the learner's name")
        live = self.current()
        if live is None:
            raise CanastaError("there is no live puzzle to answer")
        if live_id is not None and live_id != live.id:
            raise CanastaError("the teacher has sent a new puzzle: answer that one")
        if live.revealed:
            raise CanastaError("the answer has been revealed already: wait for the next puzzle")
        solution = solve(live.puzzle)
        unknown = set(given) - set(solution.answer)
        if unknown or not given:
            raise CanastaError(f"an answer to a {live.puzzle.kind} puzzle has the keys "
                               f"{', '.join(solution.answer)}, not {', '.join(sorted(given)) or 'none'}")
        correct = all(solution.answer[k] == v and type(solution.answer[k]) is type(v) for k, v in given.items())
        label = answer_label(live.puzzle.kind, {**solution.answer, **given})

        def insert(conn):
            conn.execute("INSERT INTO live_answers (live_id, learner, answer, correct, answered_at) "
                         "VALUES (?, ?, ?, ?, ?)", (live.id, learner, json.dumps(given), int(correct), _now()))

        try:
            self._run(insert, write=True)
        except CanastaError as e:
            if "UNIQUE" in str(e):
                raise CanastaError(f"{learner} has answered this puzzle already: one answer each") from None
            raise
        return LiveAnswer(learner=learner, answer=dict(given), correct=correct, label=label)

    def answer_of(self, learner: str, live_id: int | None = None) -> LiveAnswer | None:
        """``learner``'s answer to the current (or given) live puzzle, if any."""
        for a in self.answers(live_id):
            if a.learner == learner:
                return a
        return None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def bar_chart_html(counts: dict[str, int], *, right: str | None = None, width: int = 320) -> str:
    """Answers as horizontal bars with counts (inline SVG, nothing fetched); ``right`` marks the right one.

    >>> '>3<' in bar_chart_html({"Yes": 3, "No": 1})
    True
    """
    if not counts:
        return "<div style='color:#777;font-style:italic'>No answers yet.</div>"
    row, label_w, bar_w = 26, 150, width
    top = max(counts.values()) or 1
    total = sum(counts.values())
    parts = []
    for i, (label, n) in enumerate(counts.items()):
        y = i * row
        colour = "#2e7d32" if right is not None and label == right else "#1565c0"
        length = bar_w * n / top if n else 0
        mark = " ✔" if right is not None and label == right else ""
        parts.append(
            f"<text x='{label_w - 8}' y='{y + 17}' text-anchor='end' font-size='14'>{html.escape(label)}{mark}</text>"
            f"<rect class='ct-bar' data-label='{html.escape(label)}' data-count='{n}' x='{label_w}' y='{y + 4}' "
            f"width='{length:.1f}' height='{row - 8}' fill='{colour}' rx='3'/>"
            f"<text x='{label_w + length + 6:.1f}' y='{y + 17}' font-size='14'>{n}</text>")
    h = row * len(counts)
    full = label_w + bar_w + 50
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{full}' height='{h}' viewBox='0 0 {full} {h}' "
           f"style='max-width:100%;height:auto' font-family='DejaVu Sans, Arial, sans-serif'>{''.join(parts)}</svg>")
    return (f"<div class='ct-live-chart'>{svg}<div style='color:#555;font-size:12px'>{total} answer"
            f"{'s' if total != 1 else ''}</div></div>")
