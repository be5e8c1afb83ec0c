"""The teacher's list of the class, on the dashboard: add learners before the lesson, rename, merge two names
(every answer kept), free a name, give a learner a new code, print the join cards.

The changes are :class:`~canasta_tutor.classroom.accounts.Roster`'s; this widget shows its list and says what each
change did (the verdict's sentence). Part of :class:`~canasta_tutor.widgets.dashboard.TeacherDashboard`, which
shows it only to the teacher.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..classroom.accounts import Roster
from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from . import identity

_BAD, _GOOD = "#c62828", "#2e7d32"


class RosterPanel(widgets.VBox):
    """The open class's learners with their codes, and the teacher's changes to the list (``room``: a
    :class:`~canasta_tutor.classroom.roster.Classroom`)."""

    def __init__(self, room, **kwargs):
        super().__init__(**kwargs)
        self.roster = Roster(room)
        self.table = widgets.HTML()
        self.names = widgets.Textarea(placeholder=_("One name a line"), description=_("Add:"),
                                      layout=widgets.Layout(width="24em", height="5em"))
        self.add_button = widgets.Button(description=_("Add to the list"), layout=widgets.Layout(width="auto"))
        self.who = widgets.Dropdown(description=_("Learner:"), options=[], layout=widgets.Layout(width="20em"))
        self.new_name = widgets.Text(description=_("New name:"), layout=widgets.Layout(width="20em"))
        self.rename_button = widgets.Button(description=_("Rename"), layout=widgets.Layout(width="auto"))
        self.into = widgets.Dropdown(description=_("Into:"), options=[], layout=widgets.Layout(width="20em"))
        self.merge_button = widgets.Button(description=_("Merge into"), button_style="warning",
                                           layout=widgets.Layout(width="auto"))
        self.free_button = widgets.Button(description=_("Free the name"), layout=widgets.Layout(width="auto"))
        self.code_button = widgets.Button(description=_("New code"), layout=widgets.Layout(width="auto"))
        self.message = widgets.HTML()
        self.add_button.on_click(lambda _b: self.add(self.names.value.splitlines()))
        self.rename_button.on_click(lambda _b: self.rename(self.who.value, self.new_name.value))
        self.merge_button.on_click(lambda _b: self.merge(self.into.value, self.who.value))
        self.free_button.on_click(lambda _b: self.free(self.who.value))
        self.code_button.on_click(lambda _b: self.reset_code(self.who.value))
        base = identity.base_url().rstrip("/")
        self.codes = not identity.hub_user()  # under a hub, the hub signs learners in: no codes, no cards
        heading = "<h3>" + html.escape(_("The class's list"), quote=False) + "</h3>"
        cards = (f"<a class='ct-cards-link' href='{base}/classroom/cards' target='_blank'>"
                 + html.escape(_("Print the join cards")) + "</a>")
        intro = (heading + "<p>" + html.escape(_("Each learner signs in again, on any device, with their personal "
                                                 "code.")) + " "
                 + _("{cards} (a QR code each).").format(cards=cards) + "</p>" if self.codes else heading)
        if not self.codes:
            self.code_button.layout.display = "none"
        self.add_class("ct-roster")
        self.children = [
            widgets.HTML(intro),
            self.table, widgets.HBox([self.names, self.add_button]),
            widgets.HBox([self.who, self.new_name, self.rename_button]),
            widgets.HBox([self.into, self.merge_button]),
            widgets.HBox([self.free_button, self.code_button]), self.message]
        self.refresh()

    def refresh(self) -> list[dict]:
        """Read the list again (the choices keep what was chosen, when it is still there)."""
        try:
            entries = self.roster.entries()
        except CanastaError as e:
            self.message.value = f"<p style='color:{_BAD}'>{html.escape(str(e))}</p>"
            return []
        code = (lambda e: f"<td><code>{html.escape(str(e['code']))}</code></td>") if self.codes else (lambda e: "")
        rows = "".join(f"<tr class='ct-roster-row' data-learner='{html.escape(e['name'], quote=True)}'>"
                       f"<td>{html.escape(e['name'])}</td>{code(e)}<td>{e['answers']}</td></tr>" for e in entries)
        e = html.escape
        personal, learner, answers = e(_("Personal code")), e(_("Learner")), e(_("Answers"))  # (no _() in f-strings:
        head = f"<th>{personal}</th>" if self.codes else ""                                # Babel misses them)
        self.table.value = (f"<table class='ct-table ct-roster-table'><tr><th>{learner}</th>"
                            f"{head}<th>{answers}</th></tr>{rows}</table>" if entries else
                            "<p><i>" + e(_("Nobody yet: add names below, or learners add themselves as they sign "
                                           "in.")) + "</i></p>")
        options = [(e["name"], e["learner_id"]) for e in entries]
        for box in (self.who, self.into):
            if list(box.options) != options:
                kept = box.value
                box.options = options
                if kept in [value for _label, value in options]:
                    box.value = kept
        return entries

    def _said(self, verdicts) -> None:
        lines = [f"<li style='color:{_GOOD if v else _BAD}'>{html.escape(v.reasons[0].text)}</li>" for v in verdicts]
        self.message.value = f"<ul class='ct-roster-message'>{''.join(lines)}</ul>"
        self.refresh()

    def _do(self, change, *args) -> bool:
        try:
            verdict = change(*args)
        except CanastaError as e:
            self.message.value = f"<p style='color:{_BAD}'>{html.escape(str(e))}</p>"
            return False
        self._said([verdict])
        return bool(verdict)

    def add(self, names) -> list:
        """Put each name on the list (one a line); says, for each, its code or what is wrong."""
        verdicts = []
        try:
            verdicts = [self.roster.add(name) for name in names if name.strip()]
        except CanastaError as e:
            self.message.value = f"<p style='color:{_BAD}'>{html.escape(str(e))}</p>"
            return verdicts
        if verdicts and all(verdicts):
            self.names.value = ""
        self._said(verdicts)
        return verdicts

    def rename(self, learner_id, new_name: str) -> bool:
        ok = self._do(self.roster.rename, learner_id, new_name)
        if ok:
            self.new_name.value = ""
        return ok

    def merge(self, keep_id, other_id) -> bool:
        """``other_id``'s answers go to ``keep_id`` (the "Into" choice); the other name leaves the list."""
        return self._do(self.roster.merge, keep_id, other_id)

    def free(self, learner_id) -> bool:
        return self._do(self.roster.free, learner_id)

    def reset_code(self, learner_id) -> bool:
        return self._do(self.roster.reset_code, learner_id)
