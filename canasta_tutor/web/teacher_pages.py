"""The teacher's pages that are not notebooks: the *Join* screen for the projector and the printable join cards.

* :class:`JoinScreenHandler` (``/classroom/join``): a large QR code of the address learners open, the address and
  the class code, in large type, and nothing else: no name, no result (the dashboard, with the results, stays on
  the teacher's own screen);
* :class:`JoinCardsHandler` (``/classroom/cards``): one card per learner of the open class, to print and hand out:
  the name, the personal code and a QR code that signs the learner in (``signin#card=CODE``: the code stays after
  the "#", which browsers never send to the server).

Both are the teacher's (``canasta-tutor serve``'s :class:`~canasta_tutor.web.visitors.TeacherKey`), configured with
``teachers``, ``room`` and ``join_urls`` (the addresses the server printed).
"""

from __future__ import annotations

import html

from ..classroom.accounts import Roster
from ..classroom.roster import qr_svg
from ..engine.errors import CanastaError
from .handlers import SIGN_IN, TeacherOnly
from .language import MENU_STYLE

JOIN_ROUTE = "classroom/join"
CARDS_ROUTE = "classroom/cards"


def _screen(title: str, style: str, body: str, lang: str = "en", menu: str = "") -> str:
    return (f"<!DOCTYPE html><html lang='{html.escape(lang, quote=True)}'><head><meta charset='utf-8'>"
            "<meta name='viewport' "
            f"content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>body{{font-family:system-ui,sans-serif;margin:0;color:#111}}{style}{MENU_STYLE}"
            ".ct-menu{padding:0 8mm}@media print{.ct-menu{display:none}}</style></head>"
            f"<body><div class='ct-menu'>{menu}</div>{body}</body></html>")


class _TeacherPage(TeacherOnly):
    def initialize(self, *, teachers, room=None, join_urls=()) -> None:
        super().initialize(teachers=teachers, room=room)
        self.join_urls = [str(u) for u in join_urls] or [f"{self.request.protocol}://{self.request.host}/"]

    def address(self) -> str:
        first = self.join_urls[0]
        return first if first.endswith("/") else first + "/"


class JoinScreenHandler(_TeacherPage):
    """The Join screen: what the projector shows while the class arrives."""

    def get(self):
        if self.refuse_unless_teacher():
            return
        try:
            code = self.classroom().current().code
        except CanastaError as e:
            self.refuse(503, "No class", "The class cannot be read", str(e))
            return
        _ = self._
        others = "".join(f"<div class='other'>{html.escape(u)}</div>" for u in self.join_urls[1:])
        code_html = ("<div class='label'>" + html.escape(_("Class code")) + f"</div>"
                     f"<div class='code ct-class-code'>{html.escape(code)}</div>"
                     if code else "")
        self.finish(_screen(
            _("Join · Learn Canasta"),
            "main{display:flex;gap:4vw;align-items:center;justify-content:center;min-height:100vh;padding:2vw;"
            "box-sizing:border-box}.qr svg{width:min(42vw,80vh);height:auto}.label{font-size:3vw;color:#444}"
            ".url{font-size:4.5vw;font-weight:bold;word-break:break-all}.code{font-size:9vw;font-weight:bold;"
            "letter-spacing:.1em}.other{font-size:2vw;color:#444}",
            f"<main class='ct-join-screen'><div class='qr'>{qr_svg(self.address(), scale=10)}</div><div>"
            f"<div class='label'>" + html.escape(_("Open")) + f"</div><div class='url ct-join-url'>"
            f"{html.escape(self.address())}</div>{others}{code_html}<div class='label'>"
            + html.escape(_("Been here before? Sign in with the code on your card.")) + "</div></div></main>",
            self.lang, self.menu()))


class JoinCardsHandler(_TeacherPage):
    """The join cards of the open class, eight to a page."""

    def get(self):
        if self.refuse_unless_teacher():
            return
        try:
            entries = Roster(self.classroom()).entries()
        except CanastaError as e:
            self.refuse(503, "No class", "The class cannot be read", str(e))
            return
        _ = self._
        sign_in = self.address() + SIGN_IN
        cards = "".join(
            f"<div class='card ct-card' data-learner='{html.escape(e['name'], quote=True)}'>"
            f"{qr_svg(sign_in + '#card=' + str(e['code']), scale=4)}<div><div class='name'>{html.escape(e['name'])}"
            f"</div><div class='label'>" + html.escape(_("Your personal code")) + f"</div>"
            f"<div class='code'>{html.escape(str(e['code']))}</div><div class='label'>"
            + html.escape(_("Open {address} and type it, or scan the square.").format(address=sign_in))
            + "</div></div></div>"
            for e in entries)
        if not cards:
            cards = "<p>" + html.escape(_("Nobody is on the class's list yet: add learners on the dashboard.")) + "</p>"
        self.finish(_screen(
            _("Join cards · Learn Canasta"),
            ".cards{display:grid;grid-template-columns:1fr 1fr;gap:6mm;padding:8mm}.card{display:flex;gap:4mm;"
            "align-items:center;border:1px dashed #888;padding:4mm;break-inside:avoid}.name{font-size:16pt;"
            "font-weight:bold}.code{font-size:22pt;font-family:monospace;letter-spacing:.15em}.label{font-size:9pt;"
            "color:#444}@media print{.noprint{display:none}}",
            "<p class='noprint' style='padding:0 8mm'>"
            + html.escape(_("Print this page (Ctrl+P) and cut out the cards. A learner who loses one: give them a new "
                            "code on the dashboard (the old card stops working)."))
            + f"</p><div class='cards'>{cards}</div>", self.lang, self.menu()))


def teacher_page_routes(*, teachers, room, join_urls) -> list[tuple]:
    config = {"teachers": teachers, "room": room, "join_urls": list(join_urls)}
    return [(JOIN_ROUTE, JoinScreenHandler, config), (CARDS_ROUTE, JoinCardsHandler, config)]
