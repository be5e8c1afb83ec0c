"""Homework: assignments are puzzle sets with a title, an optional due date and a class.

An assignment is a YAML puzzle set like any other (``canasta-tutor check``
validates it, and a teacher can share the file), written into an
``assignments`` folder next to the progress database and recorded in the
``assignments`` table of that database. A learner's progress on it comes
from the attempts table: an attempt belongs to the assignment when its
``puzzle_set`` is the assignment's set title and its ``puzzle_id`` one of
the assignment's puzzles. Set titles are therefore unique.

>>> import tempfile, os
>>> book = AssignmentBook(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
>>> a = book.create("Week 1", generate={"kind": "meld", "count": 3, "seed": 1}, class_code="7B", due="2030-01-31")
>>> a.title, a.count, a.due, a.path.name
('Week 1', 3, '2030-01-31', '0001-week-1.yaml')
>>> book.progress("ana", a).done
0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import sqlalchemy as sa

from ..engine.cards import format_cards
from ..engine.errors import CanastaError, PuzzleError
from ..engine.i18n import gettext as _
from ..engine.rules import PRESETS, RuleSet
from ..puzzles.format import GROUP_FIELDS, LIST_FIELDS, Puzzle, load_puzzle_set, parse_puzzle_set, puzzle_files
from ..puzzles.kinds import get_kind
from . import db


# --- puzzles back to the file format -------------------------------------------------
def rules_value(rules: RuleSet):
    """A rule set as a puzzle file writes it: a preset name, or ``{preset: NAME, OPTION: VALUE}``."""
    if PRESETS.get(rules.name) == rules:
        return rules.name
    base = PRESETS[rules.name.split("+")[0]]
    out: dict = {"preset": base.name}
    for option, value in rules.options().items():
        if getattr(base, option) != value:
            out[option] = [list(pair) for pair in value] if option == "opening_table" else value
    return out


def puzzle_to_mapping(puzzle: Puzzle, *, rules: bool = True) -> dict:
    """A puzzle as the mapping a puzzle file holds (cards as codes), so that it can be written and read back.

    >>> from canasta_tutor.puzzles.format import puzzle_from_mapping
    >>> puzzle_to_mapping(puzzle_from_mapping({"id": "a", "kind": "freeze", "pile": "5H 2C", "melds": ["KH KS KD"]}))
    {'id': 'a', 'kind': 'freeze', 'difficulty': 1, 'rules': 'classic', 'pile': '5H 2C', 'melds': ['KH KS KD']}
    """
    raw: dict = {"id": puzzle.id, "kind": puzzle.kind, "difficulty": puzzle.difficulty}
    if puzzle.topic:
        raw["topic"] = puzzle.topic
    if puzzle.prompt:
        raw["prompt"] = puzzle.prompt
    if puzzle.i18n:
        raw["i18n"] = puzzle.i18n
    if rules:
        raw["rules"] = rules_value(puzzle.rules)
    record, given = get_kind(puzzle.kind), puzzle.situation.given()
    # the kind's fields in the format's order; a required one is written even when empty
    fields = {key: getattr(puzzle.situation, key) for key in record.fields if key in given or key in record.required}
    for key, value in fields.items():
        if key in GROUP_FIELDS:
            raw[key] = format_cards(value, symbols=False)
        elif key in LIST_FIELDS:
            raw[key] = [format_cards(group, symbols=False) for group in value]
        else:
            raw[key] = value
    if puzzle.expect is not None:
        raw["expect"] = dict(puzzle.expect)
    return raw


def set_to_yaml(title: str, puzzles, *, extra: dict | None = None) -> str:
    """Puzzles (from any files and rules) as one puzzle-set YAML text; ids made unique by a suffix."""
    from ..puzzles.generator import to_yaml

    seen: set[str] = set()
    items = []
    for puzzle in puzzles:
        raw = puzzle_to_mapping(puzzle)
        base, n = raw["id"], 1
        while raw["id"] in seen:
            n += 1
            raw["id"] = f"{base}-{n}"
        seen.add(raw["id"])
        items.append(raw)
    data = {"title": title, **(extra or {}), "puzzles": items}
    return to_yaml(data)


# --- assignments -----------------------------------------------------------------------
@dataclass(frozen=True)
class Assignment:
    id: int
    class_code: str
    title: str
    set_title: str
    due: str | None
    path: Path
    puzzle_ids: tuple[str, ...]
    created: str

    @property
    def count(self) -> int:
        return len(self.puzzle_ids)

    def puzzles(self) -> list[Puzzle]:
        """The assignment's puzzles, read from its file."""
        pset = load_puzzle_set(self.path)
        if pset.errors:
            raise pset.errors[0]
        return pset.puzzles


@dataclass(frozen=True)
class Progress:
    """A learner's progress on one assignment: puzzles answered (at least once) and answered right (last try)."""

    done: int
    right: int
    total: int

    @property
    def complete(self) -> bool:
        return self.done >= self.total

    def __str__(self) -> str:
        return f"{self.done}/{self.total}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "assignment"


def parse_due(value) -> str | None:
    """A due date as ``YYYY-MM-DD`` (from a string, a date or None)."""
    if value in (None, ""):
        return None
    if isinstance(value, date):
        return value.isoformat()
    try:
        return date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise CanastaError(_("due date {value} is not a date like 2030-01-31 (YYYY-MM-DD)").format(
            value=repr(value))) from None


class AssignmentBook:
    """Assignments kept in the progress database (their own table); their puzzle files in ``folder``: beside an
    SQLite file, or for PostgreSQL in ``$CANASTA_TUTOR_FILES`` (default: the user's data directory)."""

    def __init__(self, path=None):
        from .progress import ProgressStore

        self.store = ProgressStore(path)       # opens the database and runs its migrations (every table)
        self.path = self.store.path
        self.folder = db.files_folder(self.store.where) / "assignments"

    def _query(self, query) -> list:
        try:
            with self.store._begin() as conn:
                return conn.execute(query).fetchall()
        except db.DB_ERRORS as e:
            raise CanastaError(_("could not read the assignments in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None

    # --- making one -----------------------------------------------------------------
    def create(self, title: str, *, sources=(), puzzles=(), generate: dict | None = None, class_code: str = "",
               due=None) -> Assignment:
        """Make an assignment from puzzle files/folders (``sources``), puzzles, and/or the generator.

        ``generate`` takes the generator's arguments: ``kind``, ``count``, ``seed``, ``difficulty``,
        ``rules``. Every puzzle must load and be solvable; the file written is checked like any other.
        """
        from ..puzzles.solver import solve

        title = (title or "").strip()
        if not title:
            raise CanastaError(_("an assignment needs a title"))
        due = parse_due(due)
        chosen: list[Puzzle] = list(puzzles)
        for path in puzzle_files(sources):
            pset = load_puzzle_set(path)
            if pset.errors:
                raise pset.errors[0]
            chosen.extend(pset.puzzles)
        if sources and not puzzle_files(sources):
            raise CanastaError(_("no puzzle files found in {paths}").format(paths=", ".join(map(str, sources))))
        if generate:
            chosen.extend(_generated(generate))
        if not chosen:
            raise CanastaError(_("an assignment needs puzzles: name puzzle files or ask the generator for some"))
        for p in chosen:
            try:
                solve(p)
            except CanastaError as e:
                raise PuzzleError(str(e), file=p.file or None, puzzle_id=p.id) from None
        set_title = title
        taken = {r[0] for r in self._query(sa.select(db.assignments.c.set_title))}
        if set_title in taken:
            raise CanastaError(_("there is already an assignment called {title}: choose another title").format(
                title=repr(title)))
        text = set_to_yaml(set_title, chosen)
        checked = parse_puzzle_set(text, f"assignment {title!r}")   # the file must be a valid puzzle set
        if checked.errors:
            raise checked.errors[0]
        created = datetime.now(UTC).isoformat(timespec="seconds")
        ids = "\n".join(p.id for p in checked.puzzles)
        a = db.assignments
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with self.store._begin(write=True) as conn:
                number = conn.execute(a.insert().values(class_code=class_code or "", title=title, set_title=set_title,
                                                        due=due, file="", puzzle_ids=ids, created=created)
                                      .returning(a.c.id)).scalar_one()
                file = self.folder / f"{number:04d}-{_slug(title)}.yaml"
                file.write_text(text, encoding="utf-8")
                conn.execute(a.update().where(a.c.id == number).values(file=str(file)))
        except sa.exc.IntegrityError:
            raise CanastaError(_("there is already an assignment called {title}: choose another title").format(
                title=repr(title))) from None
        except OSError as e:
            raise CanastaError(_("could not store the assignment in {folder}: {problem}").format(
                folder=self.folder, problem=e.strerror or e)) from None
        except db.DB_ERRORS as e:
            raise CanastaError(_("could not store the assignment in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None
        return self.get(number)

    # --- reading -------------------------------------------------------------------
    _COLUMNS = ("id", "class_code", "title", "set_title", "due", "file", "puzzle_ids", "created")

    def _select(self):
        return sa.select(*(db.assignments.c[name] for name in self._COLUMNS))

    @staticmethod
    def _row(r) -> Assignment:
        return Assignment(id=r[0], class_code=r[1], title=r[2], set_title=r[3], due=r[4], path=Path(r[5]),
                          puzzle_ids=tuple(r[6].split("\n")) if r[6] else (), created=r[7])

    def get(self, number: int) -> Assignment:
        rows = self._query(self._select().where(db.assignments.c.id == int(number)))
        if not rows:
            raise CanastaError(_("there is no assignment number {number}").format(number=number))
        return self._row(rows[0])

    def list(self, class_code: str | None = None) -> list[Assignment]:
        """Assignments of a class and those for everyone (class ``""``); all when ``class_code`` is None.

        Soonest due first (no due date last), then oldest first."""
        a = db.assignments
        query = self._select()
        if class_code is not None:
            query = query.where(a.c.class_code.in_([class_code, ""]))
        query = query.order_by(sa.case((a.c.due.is_(None), 1), else_=0), a.c.due, a.c.id)
        return [self._row(r) for r in self._query(query)]

    def progress(self, learner: str, assignment: Assignment, *, learner_id: int | None = None) -> Progress:
        """How far ``learner`` is with ``assignment`` (from the attempts table): with ``learner_id`` (a learner of a
        class), that learner's answers only, whatever their name (a namesake of another class is someone else);
        without, the answers given under that name by no learner of a class."""
        t = db.attempts
        whose = (t.c.learner_id == int(learner_id) if learner_id is not None
                 else (t.c.learner == learner) & t.c.learner_id.is_(None))
        rows = self._query(sa.select(t.c.puzzle_id, t.c.correct)
                           .where(whose, t.c.puzzle_set == assignment.set_title).order_by(t.c.id))
        wanted = set(assignment.puzzle_ids)
        last: dict[str, bool] = {}
        for pid, correct in rows:
            if pid in wanted:
                last[pid] = bool(correct)
        return Progress(done=len(last), right=sum(last.values()), total=assignment.count)

    def learners(self, class_code: str | None = None) -> list[str]:
        """Learners who have answered a puzzle of these assignments, by name."""
        titles = [a.set_title for a in self.list(class_code)]
        if not titles:
            return []
        t = db.attempts
        rows = self._query(sa.select(t.c.learner).distinct().where(t.c.puzzle_set.in_(titles)).order_by(t.c.learner))
        return [r[0] for r in rows]

    def class_learners(self, class_id: int) -> list[tuple[int, str]]:
        """(learner_id, name) of the learners of class ``class_id``, by name."""
        lr = db.learners
        return [(r[0], r[1]) for r in self._query(sa.select(lr.c.id, lr.c.name).where(lr.c.class_id == int(class_id))
                                                  .order_by(lr.c.name_key))]

    def results(self, class_code: str | None = None, learners=None, *, class_id: int | None = None):
        """Learners x assignments as a long pandas DataFrame: learner, assignment (its title), due, puzzles,
        done, right (each puzzle's last answer, as :meth:`progress`), complete; read in one query.

        ``class_id``: the learners of that class (every one, also those who have not started), each with their own
        answers by their id, whatever their name; else ``learners`` (names) or everyone who answered, by name."""
        import pandas as pd

        chosen = self.list(class_code)
        t = db.attempts
        if class_id is not None:
            who = self.class_learners(class_id)
            whose, key = t.c.learner_id.in_([i for i, _n in who]), t.c.learner_id
        else:
            names = list(learners) if learners is not None else self.learners(class_code)
            who = [(n, n) for n in names]
            whose, key = t.c.learner.in_(names), t.c.learner
        columns = ["learner", "assignment", "due", "puzzles", "done", "right", "complete"]
        if not chosen or not who:
            return pd.DataFrame(columns=columns)
        rows = self._query(sa.select(key, t.c.puzzle_set, t.c.puzzle_id, t.c.correct)
                           .where(t.c.puzzle_set.in_([a.set_title for a in chosen]), whose).order_by(t.c.id))
        last: dict[tuple, bool] = {}
        for learner, pset, pid, correct in rows:
            last[(learner, pset, pid)] = bool(correct)
        out = []
        for ident, name in who:
            for a in chosen:
                marks = [last[(ident, a.set_title, pid)] for pid in a.puzzle_ids if (ident, a.set_title, pid) in last]
                out.append({"learner": name, "assignment": a.title, "due": a.due or "", "puzzles": a.count,
                            "done": len(marks), "right": sum(marks), "complete": len(marks) >= a.count})
        return pd.DataFrame(out, columns=columns)

    def completion(self, class_code: str | None = None, learners=None, *, class_id: int | None = None):
        """Learners x assignments: ``done/total`` per cell, as a pandas DataFrame (learners as the index);
        ``class_id``: that class's learners, by id (as :meth:`results`)."""
        import pandas as pd

        chosen = self.list(class_code)
        if class_id is not None:
            who = self.class_learners(class_id)
            names = [n for _i, n in who]
            data = {a.title: [str(self.progress(n, a, learner_id=i)) for i, n in who] for a in chosen}
        else:
            names = list(learners) if learners is not None else self.learners(class_code)
            data = {a.title: [str(self._name_progress(n, a)) for n in names] for a in chosen}
        frame = pd.DataFrame(data, index=pd.Index(names, name="learner"), columns=[a.title for a in chosen])
        return frame

    def _name_progress(self, name: str, assignment: Assignment) -> Progress:
        """Every answer given under ``name`` (a table by names, as :meth:`results` without a class)."""
        t = db.attempts
        rows = self._query(sa.select(t.c.puzzle_id, t.c.correct)
                           .where(t.c.learner == name, t.c.puzzle_set == assignment.set_title).order_by(t.c.id))
        last = {pid: bool(ok) for pid, ok in rows if pid in set(assignment.puzzle_ids)}
        return Progress(done=len(last), right=sum(last.values()), total=assignment.count)


def _generated(spec: dict) -> list[Puzzle]:
    from ..engine.rules import get_rules
    from ..puzzles.format import puzzle_from_mapping
    from ..puzzles.generator import generate_puzzles

    known = {"kind", "count", "seed", "difficulty", "rules"}
    unknown = set(spec) - known
    if unknown:
        raise CanastaError(_("unknown generator option {option} (use {options})").format(
            option=repr(sorted(unknown)[0]), options=", ".join(sorted(known))))
    if "kind" not in spec:
        raise CanastaError(_("the generator needs a puzzle kind"))
    count = int(spec.get("count", 10))
    if count < 1:
        raise CanastaError(_("the generator's count must be at least 1"))
    rules = get_rules(spec.get("rules") or "classic")
    out = []
    for raw in generate_puzzles(spec["kind"], count=count, seed=spec.get("seed", 0),
                                difficulty=int(spec.get("difficulty", 1)), rules=rules):
        out.append(puzzle_from_mapping(raw, rules=rules))
    return out
