"""The classroom's pages put together: the teacher's page (tabs) and a signed-in learner's corner.

    teacher_page()      # lessons/teacher/dashboard.ipynb: Class · Live puzzle · Homework · Worksheets
    learner_corner()    # lessons/index.ipynb: the live class puzzle and "your assignments"

Who is who comes only from :func:`canasta_tutor.widgets.identity.current` (the server's signed cookie), never from
anything typed into a widget. The live puzzle and the homework of a class are kept under the class's code (what
``--class-code`` set, ``""`` when there is none), as ``canasta-tutor assign --class CODE`` does.
"""

from __future__ import annotations

import asyncio
import html
from urllib.parse import quote

import ipywidgets as widgets

from ..classroom.assignments import AssignmentBook
from ..classroom.roster import Classroom
from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from . import identity
from .dashboard import TeacherDashboard
from .homework import AssignmentProgress, MyAssignments, NewAssignment
from .language import page_language
from .live import LiveLearnerView, LiveTeacherPanel
from .trainer import default_puzzle_dir

_BAD = "#c62828"
WORKSHEET_ROUTE = "classroom/worksheet"  # the teacher-only route of canasta_tutor.web.app


def class_code(who: identity.Identity | None, room: Classroom) -> str:
    """The code of the class ``who`` signed in to (the open class for the teacher)."""
    if who is not None and who.class_id is not None and not who.teacher:
        for info in room.classes():
            if info.id == who.class_id:
                return info.code
    return room.current().code


def _problem(text: str) -> widgets.HTML:
    return widgets.HTML(f"<p style='color:{_BAD}'>{html.escape(text)}</p>")


# --- the teacher ------------------------------------------------------------------------------------------------
class HomeworkPanel(widgets.VBox):
    """Make an assignment; completion per learner of the class's roster (0 done for those who have not started)."""

    def __init__(self, class_code: str = "", *, classroom: Classroom, path=None, refresh: float = 5.0,
                 on_created=None, **kwargs):
        super().__init__(**kwargs)
        self.room = classroom
        self.class_code = class_code
        self._on_created = on_created
        self.progress = AssignmentProgress(class_code, path=path, class_id=self.class_id())
        self.progress.refresh_button.on_click(lambda _b: self.refresh())
        self.form = NewAssignment(class_code, path=path, on_created=self._created)
        self.children = [self.progress, self.form]
        self.add_class("ct-homework-panel")
        self._task = None
        if refresh:
            async def loop():
                while True:
                    await asyncio.sleep(refresh)
                    self.refresh()
            try:
                self._task = asyncio.get_event_loop().create_task(loop())
            except RuntimeError:
                self._task = None

    def class_id(self) -> int | None:
        """The open class, whose learners the table lists (each with their answers, by their id)."""
        try:
            return self.room.current().id
        except CanastaError:
            return None

    def roster(self) -> list[str]:
        """The names signed in to the open class."""
        try:
            return [row["name"] for row in self.room.learners()]
        except CanastaError:
            return []

    def refresh(self) -> None:
        self.progress.class_id = self.class_id()
        self.progress.refresh()

    def _created(self, made) -> None:
        self.refresh()
        if self._on_created is not None:
            self._on_created(made)


class WorksheetLinks(widgets.VBox):
    """Choose a puzzle set or an assignment; two links download its worksheet, and one with the answer key.

    The PDF is made by the server's teacher-only route (``/classroom/worksheet/...``), so it works offline and
    only with the teacher's key."""

    def __init__(self, class_code: str = "", *, path=None, puzzle_dir=None, **kwargs):
        super().__init__(**kwargs)
        self.class_code = class_code
        self.path = path
        self.puzzle_dir = puzzle_dir or default_puzzle_dir()
        self.choice = widgets.Dropdown(description=_("Puzzles:"), layout=widgets.Layout(width="30em", max_width="100%"))
        self.links = widgets.HTML()
        self.choice.observe(lambda _c: self._show_links(), "value")
        intro = _("Print a set of puzzles with room for the answers; the second file adds the answer key with the "
                  "engine's explanations.")
        heading = html.escape(_("Worksheet (PDF)"))
        self.children = [widgets.HTML(f"<h3 style='margin:4px 0'>{heading}</h3>"
                                      f"<p>{html.escape(intro, quote=False)}</p>"), self.choice, self.links]
        self.add_class("ct-worksheets")
        self.refresh()

    def options(self) -> list[tuple[str, str]]:
        """(label, route tail) for every puzzle set of the project and every assignment of the class."""
        out = []
        folder = self.puzzle_dir
        if folder.is_dir():
            out += [(_("Puzzle set {name}").format(name=p.name), f"set/{p.stem}")
                    for p in sorted(folder.glob("*.y*ml"))]
        try:
            book = AssignmentBook(self.path)
            out += [(_("Assignment: {title}").format(title=a.title), f"assignment/{a.id}")
                    for a in book.list(self.class_code)]
        except CanastaError:
            pass
        return out

    def refresh(self) -> None:
        keep = self.choice.value
        options = self.options()
        self.choice.options = options
        values = [v for _l, v in options]
        self.choice.value = keep if keep in values else (values[0] if values else None)
        self._show_links()

    def _show_links(self) -> None:
        tail = self.choice.value
        if not tail:
            self.links.value = "<p><i>" + html.escape(_("No puzzles to print.")) + "</i></p>"
            return
        base = identity.base_url().rstrip("/")
        url = f"{base}/{WORKSHEET_ROUTE}/{quote(tail)}.pdf"
        e = html.escape
        sheet, keyed = e(_("Worksheet (PDF)")), e(_("Worksheet with the answer key (PDF)"))
        self.links.value = (f"<p class='ct-worksheet-links'><a href='{url}' download>{sheet}</a> · "
                            f"<a href='{url}?answers=1' download>{keyed}</a></p>")


def teacher_page(*, classroom: Classroom | None = None, refresh: float = 5.0, poll: float = 1.5, auto: bool = True,
                 join_urls=None):
    """The teacher's page: tabs for the class at a glance, the live puzzle, homework and worksheets.

    Anyone but the teacher gets only the dashboard's refusal."""
    page_language()
    dashboard = TeacherDashboard(classroom=classroom, refresh=refresh, join_urls=join_urls)
    if not dashboard.allowed or dashboard.room is None:
        return dashboard
    room = dashboard.room
    try:
        code = room.current().code
    except CanastaError as e:
        return _problem(str(e))
    path = room.path
    titles = [_("Class"), _("Live puzzle"), _("Homework"), _("Worksheets")]
    tabs = widgets.Tab()
    tabs.add_class("ct-teacher-tabs")
    tabs.dashboard = dashboard

    def for_class(code: str) -> None:
        """The Live, Homework and Worksheets tabs of the class with this code (made again for a new class)."""
        sheets = WorksheetLinks(code, path=path)
        live = LiveTeacherPanel(class_code=code, path=path, poll=poll, auto=auto)
        homework = HomeworkPanel(code, classroom=room, path=path, refresh=refresh if auto else 0,
                                 on_created=lambda _made: sheets.refresh())
        tabs.children = [dashboard, live, homework, sheets]
        tabs.titles = titles
        tabs.live, tabs.homework, tabs.worksheets = live, homework, sheets

    def new_class(info) -> None:
        tabs.live.stop()
        if tabs.homework._task is not None:
            tabs.homework._task.cancel()
        for old in (tabs.live, tabs.homework, tabs.worksheets):
            old.close()
        for_class(info.code)

    for_class(code)
    dashboard.new_class_listeners.append(new_class)
    return tabs


# --- the learner ------------------------------------------------------------------------------------------------
def learner_corner(*, path=None, poll: float = 1.5, auto: bool = True):
    """For the landing page of a signed-in learner: the class's live puzzle (waiting for one, or the current one
    for a late joiner) and their assignments. None (nothing shown) when nobody or the teacher is signed in."""
    who = identity.current()
    if who is None or who.teacher:
        return None
    try:
        room = Classroom(path)
        code = class_code(who, room)
    except CanastaError as e:
        return _problem(str(e))
    live = LiveLearnerView(learner=who.name, class_code=code, path=room.path, poll=poll, auto=auto,
                           learner_id=who.learner_id)
    homework = MyAssignments(learner=who.name, class_code=code, path=room.path, learner_id=who.learner_id)
    heading = html.escape(_("Class puzzle"))
    box = widgets.VBox([widgets.HTML(f"<h2 style='margin:8px 0 4px'>{heading}</h2>"), live, homework])
    box.add_class("ct-learner-corner")
    box.live, box.homework = live, homework
    if auto:
        _watch_assignments(homework, poll * 4)
    return box


def assignments_state(homework: MyAssignments) -> tuple:
    """What the learner's list shows: each assignment with the learner's progress on it."""
    if homework.book is None:
        return ()
    return tuple((a.id, a.title, a.due, str(homework.mine(a)))
                 for a in homework.assignments())


def _watch_assignments(homework: MyAssignments, seconds: float) -> None:
    """Redraw the list when the teacher adds an assignment (only then: the buttons stay put otherwise)."""
    async def loop():
        seen = assignments_state(homework)
        while True:
            await asyncio.sleep(seconds)
            try:
                now = assignments_state(homework)
            except CanastaError:
                continue
            if now != seen and homework.trainer is None:
                seen = now
                homework.refresh()

    try:
        asyncio.get_event_loop().create_task(loop())
    except RuntimeError:
        pass
