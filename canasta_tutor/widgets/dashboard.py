"""The teacher's dashboard: the class at a glance, refreshed every few seconds while the class works.

The page that shows it (``lessons/teacher.ipynb``) is served only to the teacher (see :mod:`canasta_tutor.web.app`);
the widget checks it too, and shows nothing of the class to anyone else.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import os

import ipywidgets as widgets

from ..classroom.heatmap import heatmap_svg
from ..classroom.mistakes import MistakeStore
from ..classroom.roster import Classroom
from ..classroom.words import topic_name
from ..engine.errors import CanastaError
from ..engine.i18n import LANGUAGES, ngettext
from ..engine.i18n import gettext as _
from . import identity

_BAD = "#c62828"


def _table(frame, columns, *, highlight=None) -> str:
    if frame is None or not len(frame):
        return "<p><i>" + html.escape(_("Nothing yet.")) + "</i></p>"
    head = "".join(f"<th>{html.escape(label)}</th>" for label in columns.values())
    rows = []
    for record in frame.to_dict("records"):
        cells = []
        for key in columns:
            value = record.get(key)
            if key == "accuracy" and value is not None and value == value:
                value = f"{round(float(value) * 100)} %"
            elif isinstance(value, bool):
                value = _("yes") if value else ""
            elif value is None or value != value:
                value = ""
            cells.append(f"<td>{html.escape(str(value))}</td>")
        style = (" class='ct-stuck' style='background:#fff3e0;font-weight:bold'"
                 if highlight and highlight(record) else "")
        rows.append(f"<tr{style}>{''.join(cells)}</tr>")
    return f"<table class='ct-table'><tr>{head}</tr>{''.join(rows)}</table>"


@functools.lru_cache(maxsize=1)
def _project_puzzles() -> dict:
    """The project's puzzles by (set title, id): the most-missed table shows their cards."""
    from ..puzzles.practice import set_of
    from .trainer import load_puzzles

    puzzles, _problems = load_puzzles(None)
    return {(set_of(p), p.id): p for p in puzzles}


def _question(kind: str) -> str:
    from ..puzzles.kinds import get_kind

    try:
        return _(get_kind(kind).question)
    except LookupError:
        return ""


def missed_html(per_puzzle, frame, *, limit: int = 10) -> str:
    """The most-missed puzzles: the set each is from, its question, and its cards (when it is one of the project's
    puzzles) under the question, beside the answers, misses, accuracy and the most common wrong answer."""
    from .render import situation_html

    if per_puzzle is None or not len(per_puzzle):
        return "<p><i>" + html.escape(_("Nothing yet.")) + "</i></p>"
    kinds = {(s, p): k for s, p, k in zip(frame["puzzle_set"], frame["puzzle_id"], frame["kind"])}
    known = _project_puzzles()
    rows = []
    for r in per_puzzle.head(limit).itertuples():
        key = (r.puzzle_set, r.puzzle_id)
        puzzle = known.get(key)
        kind = puzzle.kind if puzzle is not None else kinds.get(key, "")
        prompt = puzzle.prompt_text() if puzzle is not None else ""
        question = f"<b>{html.escape(_question(kind))}</b>" + (f"<br>{html.escape(prompt)}" if prompt else "")
        cards = ("<details class='ct-missed-cards'><summary>" + html.escape(_("the cards")) + "</summary>"
                 f"{situation_html(puzzle, answering=True)}</details>" if puzzle is not None else "")
        rows.append(f"<tr class='ct-missed' data-set='{html.escape(str(r.puzzle_set), quote=True)}' "
                    f"data-puzzle='{html.escape(str(r.puzzle_id), quote=True)}'>"
                    f"<td>{html.escape(str(r.puzzle_set))}</td><td>{html.escape(str(r.puzzle_id))}</td>"
                    f"<td>{question}{cards}</td><td>{html.escape(topic_name(str(r.topic)))}</td><td>{r.attempts}</td>"
                    f"<td>{r.misses}</td><td>{round(float(r.accuracy) * 100)} %</td>"
                    f"<td>{html.escape(str(r.common_wrong_answer))}</td><td>{r.times_given}</td></tr>")
    head = "".join(f"<th>{html.escape(h)}</th>" for h in (
        _("Set"), _("Puzzle"), _("Question"), _("Topic"), _("Answers"), _("Misses"), _("Accuracy"),
        _("Most common wrong answer"), _("Given")))
    return f"<table class='ct-table ct-most-missed'><tr>{head}</tr>{''.join(rows)}</table>"


def decisions_html(rows, *, limit: int = 20) -> str:
    """Each learner's costliest decisions in coached hands (:meth:`~canasta_tutor.classroom.mistakes.MistakeStore
    .costliest`), costliest first: learner, hand, what they did, the better move, points lost, put right since."""
    rows = sorted(rows, key=lambda r: -r["points"])[:limit]
    if not rows:
        return "<p><i>" + html.escape(_("No costly decisions yet.")) + "</i></p>"
    head = "".join(f"<th>{html.escape(label)}</th>" for label in (
        _("Learner"), _("Hand"), _("What they did"), _("The better move"), _("Points lost"), _("Put right")))
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
            r["learner"], r["hand"], r["yours"], r["better"], r["points"], _("yes") if r["solved"] else ""))
        + "</tr>" for r in rows)
    return f"<div class='ct-scroll'><table class='ct-table ct-decisions'><tr>{head}</tr>{body}</table></div>"


class TeacherDashboard(widgets.VBox):
    """Learners x topics heat map, who is stuck, the most-missed puzzles, exports, a new class."""

    def __init__(self, *, refresh: float = 5.0, classroom: Classroom | None = None, teacher: bool | None = None,
                 join_urls=None, **kwargs):
        super().__init__(**kwargs)
        self.refresh_seconds = refresh
        who = identity.current() if teacher is None else None
        self.allowed = bool(teacher) if teacher is not None else bool(who and who.teacher)
        self.room = None
        self.join = widgets.HTML()
        self.summary = widgets.HTML()
        self.heatmap = widgets.HTML()
        self.learners = widgets.HTML()
        self.missed = widgets.HTML()
        self.decisions = widgets.HTML()
        self.exports = widgets.HTML()
        self.message = widgets.HTML()
        self.code_box = widgets.Text(description=_("New code:"), placeholder=_("(none)"),
                                     layout=widgets.Layout(width="18em"))
        self.new_button = widgets.Button(description=_("Start a new class"), button_style="warning",
                                         layout=widgets.Layout(width="auto"))
        #: the class's default language: for a learner who chose none (their own choice, or their browser's, wins)
        self.language_box = widgets.Dropdown(
            options=[(_("(each browser's own)"), "")] + [(name, code) for code, name in LANGUAGES.items()],
            value="", description=_("Class language:"), style={"description_width": "initial"},
            layout=widgets.Layout(width="auto", max_width="100%"))
        self.language_box.add_class("ct-class-language")
        self.new_button.on_click(lambda _b: self.new_class(self.code_box.value))
        self._confirming = False
        self._task = None
        self.new_class_listeners: list = []  # called with the new class's info (the teacher's other tabs follow)
        self.add_class("ct-dashboard")
        if not self.allowed:
            refusal = (_("This page is for teachers: the hub's administrator adds teachers to the hub's group "
                         "{group}.").format(group="<i>teachers</i>") if identity.hub_user()
                       else html.escape(_("This page is for the teacher: open it with the teacher key.")))
            self.children = [widgets.HTML(f"<p class='ct-refused'>{refusal}</p>")]
            return
        try:
            self.room = classroom or Classroom()
        except CanastaError as e:
            self.children = [widgets.HTML(f"<p style='color:{_BAD}'>{html.escape(str(e))}</p>")]
            return
        urls = join_urls if join_urls is not None else json.loads(os.environ.get("CANASTA_JOIN_URLS", "[]") or "[]")
        self.join.value = self._join_html(urls)
        base = identity.base_url().rstrip("/")
        export = f"{base}/classroom/export"
        e = html.escape
        self.exports.value = (
            "<p class='ct-exports'>"
            + _("{export} (for a gradebook; live-puzzle answers are listed but not counted in accuracy):")
            .format(export="<b>" + e(_("Export")) + "</b>") + " "
            f"<a href='{export}/learners.csv' download>" + e(_("learners, homework and topics (CSV)")) + f"</a> · "
            f"<a href='{export}/puzzles.csv' download>" + e(_("puzzles (CSV)")) + f"</a> · "
            f"<a href='{export}/gradebook.xlsx' download>" + e(_("everything, with every answer (Excel)")) + "</a><br>"
            "" + e(_("Counting live-puzzle answers too:")) + f" "
            f"<a href='{export}/learners.csv?live=1' download>" + e(_("learners (CSV)")) + f"</a>"
            f" · <a href='{export}/gradebook.xlsx?live=1' download>" + e(_("everything (Excel)")) + "</a></p>")
        try:
            self.language_box.value = self.room.class_language() or ""
        except CanastaError:
            pass
        self.language_box.observe(lambda change: self.set_language(change["new"]), "value")
        self.roster = self._roster_panel()
        def h3(text):
            return widgets.HTML(f"<h3>{html.escape(text)}</h3>")

        self.children = [self.join, self.summary, self.language_box, h3(_("Accuracy per learner and topic")),
                         self.heatmap, h3(_("Learners")), self.learners, self.roster,
                         h3(_("Most-missed puzzles")), self.missed,
                         h3(_("Costliest decisions in played hands")), self.decisions, self.exports,
                         widgets.HBox([self.code_box, self.new_button]), self.message]
        self.update()
        if refresh:
            self.start()

    def _join_html(self, urls) -> str:
        """Where learners go, and the Join screen for the projector (the QR code is there: this page, with the
        results, stays on the teacher's own screen)."""
        base = identity.base_url().rstrip("/")
        first = (" " + _("Learners open {address}.").format(
            address=f"<code class='ct-join-url'>{html.escape(urls[0])}</code>")) if urls else ""
        if identity.hub_user():  # the hub signs learners in: no Join screen there
            return f"<p class='ct-join'>{first}</p>" if first else ""
        link = (f"<a class='ct-join-link' href='{base}/classroom/join' target='_blank'>"
                f"<b>" + html.escape(_("Open the Join screen")) + "</b></a>")
        return (f"<p class='ct-join'>{first} "
                + _("{link} for the projector (a large QR code, the address and the class code, no results).")
                .format(link=link) + "</p>")

    def set_language(self, code: str) -> None:
        """The class's default language ("": none); said on the page, kept in the progress database."""
        try:
            self.room.set_class_language(code or None)
        except CanastaError as e:
            self.message.value = f"<p style='color:{_BAD}'>{html.escape(str(e))}</p>"
            return
        text = (_("The class's language is now {language}: learners who chose none read it from their next page.")
                .format(language=LANGUAGES[code]) if code
                else _("The class has no language of its own now: each browser's language is used."))
        self.message.value = f"<p role='status'>{html.escape(text)}</p>"

    def _roster_panel(self):
        """The class's list and the teacher's changes to it (widgets.roster_panel); a change redraws the page."""
        from .roster_panel import RosterPanel

        panel = RosterPanel(self.room)
        panel.message.observe(lambda _change: self.update(), "value")
        return panel

    def update(self) -> None:
        """Read the class's results again and redraw."""
        if self.room is None:
            return
        try:
            info = self.room.current()
            report = self.room.report(info.id)
        except CanastaError as e:
            self.message.value = f"<p style='color:{_BAD}'>{html.escape(str(e))}</p>"
            return
        per_learner = report.per_learner()
        stuck = per_learner[per_learner["stuck"]]["learner"].tolist() if len(per_learner) else []
        code = (" · " + _("class code {code}").format(code=f"<b>{html.escape(info.code)}</b>")) if info.code else ""
        stuck_text = (f" · <span style='color:{_BAD}'>"
                      + html.escape(_("stuck: {names}").format(names=", ".join(stuck))) + "</span>"
                      if stuck else "")
        learners = ngettext("{count} learner", "{count} learners", len(report.names)).format(
            count=f"<b>{len(report.names)}</b>")
        answers = ngettext("{count} answer", "{count} answers", len(report.frame)).format(
            count=f"<b>{len(report.frame)}</b>")
        self.summary.value = ("<p class='ct-summary'>"
                              + _("Class {number} (since {date})").format(number=info.id,
                                                                          date=html.escape(info.created))
                              + f"{code} · {learners} · {answers}{stuck_text}</p>")
        self.heatmap.value = f"<div class='ct-scroll'>{heatmap_svg(report)}</div>"
        self.learners.value = _table(per_learner, {"learner": _("Learner"), "attempts": _("Answers"),
                                                   "correct": _("Right"), "accuracy": _("Accuracy"),
                                                   "topics": _("Topics"), "last_activity": _("Last answer"),
                                                   "misses_in_a_row": _("Misses in a row"), "stuck": _("Stuck")},
                                     highlight=lambda r: r["stuck"])
        self.missed.value = missed_html(report.per_puzzle(), report.frame)
        try:
            self.decisions.value = decisions_html(MistakeStore(self.room.store).costliest(info.id))
        except CanastaError as e:
            self.decisions.value = f"<p style='color:{_BAD}'>{html.escape(str(e))}</p>"
        if getattr(self, "roster", None) is not None:
            self.roster.refresh()  # learners who signed in meanwhile

    def start(self) -> None:
        """Refresh every ``refresh_seconds`` on the kernel's event loop (stops when the kernel does)."""
        async def loop():
            while True:
                await asyncio.sleep(self.refresh_seconds)
                self.update()

        try:
            self._task = asyncio.get_event_loop().create_task(loop())
        except RuntimeError:
            self._task = None

    def new_class(self, code: str = "") -> bool:
        """Archive the class and start a new one (asks once for confirmation through the button)."""
        if self.room is None:
            return False
        if not self._confirming:
            self._confirming = True
            self.new_button.description = _("Really? Press again")
            self.message.value = ("<p>" + html.escape(_("Starting a new class archives this one (its results stay in "
                                                        "the database) and signs every learner out. Press again to "
                                                        "do it.")) + "</p>")
            return False
        self._confirming = False
        self.new_button.description = _("Start a new class")
        info = self.room.new_class(code)
        self.message.value = "<p>" + html.escape(_("Class {number} started.").format(number=info.id)) + "</p>"
        self.update()
        for listener in list(self.new_class_listeners):
            listener(info)
        return True
