"""Homework on screen: a learner's assignments, the teacher's completion table and new-assignment form.

    MyAssignments(learner="ana", class_code="7B")
    AssignmentProgress(class_code="7B")
    NewAssignment(class_code="7B")
"""

from __future__ import annotations

import html
from datetime import date

import ipywidgets as widgets

from ..classroom.assignments import Assignment, AssignmentBook
from ..classroom.words import kind_name
from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..engine.rules import PRESETS
from ..puzzles.generator import KINDS
from .trainer import Trainer, default_puzzle_dir

_BAD = "#c62828"
_OK = "#2e7d32"


def _heading(text: str) -> widgets.HTML:
    return widgets.HTML(f"<h3 style='margin:4px 0'>{html.escape(text)}</h3>")


def kind_options() -> list[tuple[str, str]]:
    """The generator's kinds for a dropdown, each named in the current language."""
    return [(kind_name(kind), kind) for kind in KINDS]


def _problem(text: str) -> str:
    return f"<div style='color:{_BAD}'>{html.escape(text)}</div>"


def _open_book(path):
    try:
        return AssignmentBook(path), ""
    except CanastaError as e:
        return None, str(e)


class MyAssignments(widgets.VBox):
    """A learner's assignments with their progress; a button opens the trainer on an assignment's puzzles.
    ``learner_id``: the signed-in learner of a class, whose progress it is (by their id, not their name)."""

    def __init__(self, learner: str, class_code: str = "", *, path=None, today: date | None = None,
                 learner_id: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.learner = (learner or "").strip() or "learner"
        self.learner_id = learner_id
        self.class_code = class_code or ""
        self.today = today
        self.book, problem = _open_book(path)
        self.list_box = widgets.VBox()
        self.message = widgets.HTML(_problem(problem) if problem else "")
        self.area = widgets.VBox()
        self.trainer: Trainer | None = None
        self.open_buttons: dict[int, widgets.Button] = {}
        self.children = [_heading(_("Your assignments")), self.list_box,
                         self.message, self.area]
        self.add_class("ct-my-assignments")
        self.refresh()

    def assignments(self) -> list[Assignment]:
        return self.book.list(self.class_code) if self.book is not None else []

    def mine(self, assignment: Assignment):
        """This learner's progress on ``assignment``."""
        return self.book.progress(self.learner, assignment, learner_id=self.learner_id)

    def refresh(self) -> None:
        """Re-read the assignments and this learner's progress on each."""
        if self.book is None:
            return
        rows = []
        self.open_buttons = {}
        today = (self.today or date.today()).isoformat()
        try:
            chosen = self.assignments()
        except CanastaError as e:
            self.message.value = _problem(str(e))
            return
        for a in chosen:
            p = self.mine(a)
            right = html.escape(ngettext("{count} right", "{count} right", p.right).format(count=p.right))
            if p.complete:
                done = html.escape(_("done"))
                state = f"<span style='color:{_OK}'>✔ {done}</span> · {right}"
            else:
                state = html.escape(_("{done} of {total} done").format(done=p.done, total=p.total)) + f" · {right}"
            due = ""
            if a.due:
                late = a.due < today and not p.complete
                when = (_("due {date} (late)") if late else _("due {date}")).format(date=a.due)
                due = f" · <span style='color:{_BAD if late else '#555'}'>{html.escape(when)}</span>"
            count = html.escape(ngettext("{count} puzzles", "{count} puzzles", a.count).format(count=a.count))
            label = widgets.HTML(f"<div class='ct-assignment' data-id='{a.id}'><b>{html.escape(a.title)}</b> · "
                                 f"{count}{due}<br><small>{state}</small></div>",
                                 layout=widgets.Layout(width="30em", max_width="100%"))
            button = widgets.Button(description=_("Review") if p.complete else (_("Go on") if p.done else _("Start")),
                                    button_style="" if p.complete else "primary")
            button.on_click(lambda _b, number=a.id: self.open_assignment(number))
            self.open_buttons[a.id] = button
            rows.append(widgets.HBox([label, button]))
        if not rows:
            rows.append(widgets.HTML("<i>" + html.escape(_("No assignments yet.")) + "</i>"))
        self.list_box.children = rows

    def open_assignment(self, number: int) -> Trainer | None:
        """Open the trainer on assignment ``number``: its puzzles in order, the ones not yet answered first."""
        try:
            a = self.book.get(number)
            puzzles = a.puzzles()
        except CanastaError as e:
            self.message.value = _problem(_("This assignment cannot be opened: {problem}").format(problem=e))
            return None
        self.message.value = ""
        done = self.mine(a).complete
        self.trainer = Trainer(puzzles, ids=[p.id for p in puzzles], learner=self.learner, store=self.book.store,
                               endless=False, ask_name=False, title=a.title, resume=not done)
        close = widgets.Button(description=_("Back to my assignments"), layout=widgets.Layout(width="auto"))
        close.on_click(lambda _b: self.close_trainer())
        self.area.children = [self.trainer, close]
        return self.trainer

    def close_trainer(self) -> None:
        self.area.children = []
        self.trainer = None
        self.refresh()


class AssignmentProgress(widgets.VBox):
    """The teacher's table: learners down, assignments across; in each cell the puzzles done of the total and,
    beside them, how many were answered right (each puzzle's last answer). ``class_id``: the class whose learners
    are listed, each with their own answers by id (else ``learners``, names)."""

    def __init__(self, class_code: str = "", *, path=None, learners=None, class_id: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.class_code = class_code or ""
        self.learners = learners
        self.class_id = class_id
        self.book, problem = _open_book(path)
        self.table = widgets.HTML()
        self.refresh_button = widgets.Button(description=_("Refresh"))
        self.refresh_button.on_click(lambda _b: self.refresh())
        self.message = widgets.HTML(_problem(problem) if problem else "")
        self.children = [_heading(_("Homework")), self.refresh_button, self.table,
                         self.message]
        self.add_class("ct-assignment-progress")
        self.refresh()

    def frame(self):
        """The completion table as a pandas DataFrame (``done/total`` strings)."""
        return self.book.completion(self.class_code, self.learners, class_id=self.class_id)

    def refresh(self) -> None:
        if self.book is None:
            return
        try:
            chosen = self.book.list(self.class_code)
            results = self.book.results(self.class_code, self.learners, class_id=self.class_id)
        except CanastaError as e:
            self.message.value = _problem(str(e))
            return
        if not chosen:
            self.table.value = ("<i>" + html.escape(_("No assignments yet: make one below or with {command}.")
                                                    .format(command="canasta-tutor assign")) + "</i>")
            return
        if results.empty:
            self.table.value = "<i>" + html.escape(_("Nobody has started an assignment yet.")) + "</i>"
            return
        e = html.escape
        due, done_right, learner_heading = _("due {date}"), e(_("done · right")), e(_("learner"))
        head = "".join(f"<th style='padding:2px 8px'>{e(a.title)}"
                       f"{'<br><small>' + e(due.format(date=a.due)) + '</small>' if a.due else ''}"
                       f"<br><small>{done_right}</small></th>" for a in chosen)
        cells = {(r.learner, r.assignment): r for r in results.itertuples()}
        body = []
        for learner in dict.fromkeys(results["learner"]):
            row = []
            for a in chosen:
                r = cells[(learner, a.title)]
                colour = "#c8e6c9" if r.done >= r.puzzles else "#fff9c4" if r.done else "#ffffff"
                row.append(f"<td class='ct-cell' data-learner='{html.escape(str(learner))}' "
                           f"data-assignment='{a.id}' data-done='{r.done}' data-right='{r.right}' "
                           f"style='padding:2px 8px;text-align:center;background:{colour}'>"
                           f"<span class='ct-done'>{r.done}/{r.puzzles}</span> · "
                           f"<span class='ct-right' style='color:{_OK}'>"
                           + e(ngettext("{count} right", "{count} right", r.right).format(count=r.right))
                           + "</span></td>")
            body.append(f"<tr><th style='text-align:left;padding:2px 8px'>{html.escape(str(learner))}</th>"
                        f"{''.join(row)}</tr>")
        self.table.value = ("<table class='ct-completion' style='border-collapse:collapse'>"
                            f"<tr><th>{learner_heading}</th>{head}</tr>{''.join(body)}</table>")


class NewAssignment(widgets.VBox):
    """The teacher's form: a title, a due date, and puzzles from the project's files or the generator."""

    def __init__(self, class_code: str = "", *, path=None, puzzle_dir=None, on_created=None, **kwargs):
        super().__init__(**kwargs)
        self.class_code = class_code or ""
        self.on_created = on_created
        self.book, problem = _open_book(path)
        folder = puzzle_dir or default_puzzle_dir()
        files = sorted(p for p in folder.glob("*.y*ml")) if folder.is_dir() else []
        self.title = widgets.Text(description=_("Title:"), placeholder=_("Week 3: taking the pile"),
                                  layout=widgets.Layout(width="30em"))
        self.due = widgets.DatePicker(description=_("Due (optional):"), style={"description_width": "initial"})
        self.source = widgets.ToggleButtons(options=[(_("From puzzle files"), "files"),
                                                     (_("Made by the generator"), "gen")],
                                            value="files", style={"button_width": "auto"})  # never cut
        self.files = widgets.SelectMultiple(options=[(p.name, str(p)) for p in files], description=_("Files:"),
                                            rows=min(8, max(3, len(files))), layout=widgets.Layout(width="30em"))
        self.kind = widgets.Dropdown(options=kind_options(), value="take-pile", description=_("Kind:"))
        self.count = widgets.BoundedIntText(value=10, min=1, max=100, description=_("How many:"))
        self.seed = widgets.Text(value="1", description=_("Seed:"), layout=widgets.Layout(width="14em"))
        self.difficulty = widgets.IntSlider(value=1, min=1, max=5, description=_("Difficulty:"))
        self.rules = widgets.Dropdown(options=list(PRESETS), value="classic", description=_("Rules:"))
        self.generator_box = widgets.VBox([self.kind, self.count, self.seed, self.difficulty, self.rules])
        self.create_button = widgets.Button(description=_("Make the assignment"), button_style="primary",
                                            layout=widgets.Layout(width="auto"))
        self.create_button.on_click(lambda _b: self.create())
        self.message = widgets.HTML(_problem(problem) if problem else "")
        self.source.observe(lambda _c: self._show_source(), "value")
        self.children = [_heading(_("New assignment")), self.title, self.due,
                         self.source, self.files, self.generator_box, self.create_button, self.message]
        self._show_source()
        self.add_class("ct-new-assignment")

    def _show_source(self) -> None:
        files = self.source.value == "files"
        self.files.layout.display = "" if files else "none"
        self.generator_box.layout.display = "none" if files else ""

    def create(self) -> Assignment | None:
        """Make the assignment from the form; the message says what was made, or what is wrong."""
        if self.book is None:
            return None
        try:
            if self.source.value == "files":
                if not self.files.value:
                    raise CanastaError(_("choose at least one puzzle file"))
                made = self.book.create(self.title.value, sources=list(self.files.value), class_code=self.class_code,
                                        due=self.due.value)
            else:
                made = self.book.create(self.title.value, class_code=self.class_code, due=self.due.value,
                                        generate={"kind": self.kind.value, "count": self.count.value,
                                                  "seed": self.seed.value, "difficulty": self.difficulty.value,
                                                  "rules": self.rules.value})
        except CanastaError as e:
            self.message.value = _problem(str(e))
            return None
        # (English has one form for both, as these sentences always read; the other languages their own)
        said = (ngettext("Made “{title}”: {count} puzzles, due {due}.", "Made “{title}”: {count} puzzles, due {due}.",
                         made.count) if made.due else
                ngettext("Made “{title}”: {count} puzzles.", "Made “{title}”: {count} puzzles.", made.count))
        said = said.format(title=made.title, count=made.count, due=made.due)
        where = _("The file is {path}.").format(path=made.path)
        self.message.value = f"<div style='color:{_OK}'>{html.escape(said)} {html.escape(where)}</div>"
        if self.on_created is not None:
            self.on_created(made)
        return made
