"""Our own pages and downloads: Tornado handlers at module level, each configured through ``initialize(**kwargs)``
by the route that names it (as Voilà's own ``voila/handler.py`` does), never through closures.

* :class:`SignInHandler`, :class:`SignOutHandler`, :class:`TeacherHandler`: ``canasta-tutor serve``'s sign-in
  pages (the visitors' cookies are :class:`~canasta_tutor.web.visitors.Visitors`' business), rate-limited
  (:func:`limited`); :func:`log_request`: the server's request log, without query strings;
* the teacher's Join screen and join cards are in :mod:`.teacher_pages`;
* :class:`ExportHandler`, :class:`WorksheetHandler`: the teacher's downloads, the same handlers on both servers
  (:func:`download_routes`); each server says who is its teacher with a
  :class:`~canasta_tutor.web.visitors.TeacherGate`;
* :func:`page` and :meth:`CanastaHandler.refuse`: the one way a small page, or a refusal, is written.

The Voilà handlers that ``canasta-tutor serve`` puts in place of Voilà's own are in :mod:`.voila_server`; this
module imports no Voilà, so that the hub's extension (:mod:`.hub`) can use it.
"""

from __future__ import annotations

import asyncio
import functools
import html

import tornado.web
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join

from ..classroom.downloads import class_export, send, worksheet_download
from ..classroom.names import MAX_NAME
from ..engine.errors import CanastaError
from ..engine.i18n import N_, gettext, ngettext, use_language
from .language import MENU_STYLE, language_menu, remember, request_language
from .visitors import TEACHER_PAGE

LANDING_PAGE = "voila/render/index.ipynb"
SIGN_IN = "classroom/signin"
EXPORT_ROUTE = r"classroom/export/([a-z]+\.(?:csv|xlsx))"
WORKSHEET_ROUTE = r"classroom/worksheet/(set|assignment)/([A-Za-z0-9_.-]+)\.pdf"


def page(title: str, body: str, lang: str = "en", menu: str = "") -> str:
    """A small page of ours (``body``: trusted HTML; ``title``: text, escaped here) in language ``lang``, with the
    language menu ``menu`` (trusted HTML, :func:`~canasta_tutor.web.language.language_menu`) above it."""
    return (f"<!DOCTYPE html><html lang='{html.escape(lang, quote=True)}'><head><meta charset='utf-8'>"
            "<meta name='viewport' "
            f"content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title><style>"
            "body{font-family:system-ui,sans-serif;max-width:34em;margin:3em auto;padding:0 1em;color:#222}"
            "input{font-size:1.1em;padding:.3em;margin:.2em 0 .8em;width:100%;box-sizing:border-box}"
            "button{font-size:1.1em;padding:.4em 1.2em}.error{color:#c62828}"
            "h1{overflow-wrap:anywhere;hyphens:auto}"
            f"{MENU_STYLE}</style></head><body>{menu}{body}</body></html>")


def full_page(classroom: bool, limit: int | None, lang: str = "en") -> str:
    """The page a visitor gets instead of a kernel more than the server holds (``limit``)."""
    if classroom:
        return page(gettext("The class is full", lang=lang),
                    "<h1>" + html.escape(gettext("The class is full: ask your teacher", lang=lang)) + "</h1><p>"
                    + gettext("This server holds {limit} learners' pages at once, and all of them are open. Reload "
                              "this page in a minute, when someone has closed one; your teacher can start the server "
                              "with a larger {option}.", lang=lang).format(limit=limit,
                                                                         option="<code>--class-size</code>")
                    + "</p>", lang)
    return page(gettext("Too many pages", lang=lang),
                "<h1>" + html.escape(gettext("Too many lessons are open", lang=lang)) + "</h1><p>"
                + html.escape(gettext("This computer holds {limit} lesson pages at once. Close a tab you no longer "
                                      "use, then reload this page: your answers are saved.", lang=lang)
                              .format(limit=limit))
                + "</p>", lang)


#: what a database fault means, for the page (the server's log has the whole message, with the database's name)
_FULL, _READ_ONLY, _NO_ANSWER = (N_("its disk is full"), N_("it can only be read, not written"),
                                N_("it does not answer (is its server running?)"))
FAULTS = (("no space", _FULL), ("disk is full", _FULL), ("disk full", _FULL),
          ("read-only", _READ_ONLY), ("readonly", _READ_ONLY), ("connect", _NO_ANSWER), ("refused", _NO_ANSWER))


def fault_page(problem: str, lang: str = "en") -> str:
    """The short page every route answers while the class's database is out of reach (``problem``: its error)."""
    lowered = problem.lower()
    what = next((meaning for words, meaning in FAULTS if words in lowered), N_("it cannot be read just now"))
    return page(gettext("The class's results are out of reach", lang=lang),
                "<h1>" + html.escape(gettext("The class's results are out of reach just now", lang=lang)) + "</h1>"
                "<p>" + html.escape(gettext("The progress database cannot be used: {problem}.", lang=lang)
                                    .format(problem=gettext(what, lang=lang))) + "</p>"
                "<p>" + html.escape(gettext("Nothing is lost: every answer saved so far is kept in it. Tell your "
                                            "teacher, and reload this page in a minute.", lang=lang)) + "</p>", lang)


class FaultPages:
    """A database fault while answering (a :class:`CanastaError`, e.g. PostgreSQL stopped, a read-only file or a
    full disk) is answered with :func:`fault_page` (503), never a bare error 500."""

    def write_error(self, status_code: int, **kwargs) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, CanastaError) or type(error).__module__.startswith("sqlalchemy"):
            self.log.warning("The progress database is out of reach: %s", error)
            self.set_status(503)
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.set_header("Retry-After", "60")
            self.finish(fault_page(str(error), request_language(self)))
            return
        super().write_error(status_code, **kwargs)


def error_line(message: str) -> str:
    """A form's error message (text, escaped here), or nothing."""
    return f"<p class='error' role='alert'>{html.escape(message)}</p>" if message else ""


class CanastaHandler(FaultPages, JupyterHandler):
    """What every page of ours does: know where the landing page is, answer with a small page, refuse."""

    def url(self, *parts: str) -> str:
        return url_path_join(self.base_url, *parts)

    def landing(self) -> str:
        return self.url(LANDING_PAGE)

    @property
    def lang(self) -> str:
        """The language this request is answered in (:func:`~canasta_tutor.web.language.request_language`)."""
        return request_language(self)

    def _(self, message: str) -> str:
        """``message`` in the request's language."""
        return gettext(message, lang=self.lang)

    def prepare(self):
        remember(self)  # a choice from the language menu (?lang=) is kept
        return super().prepare()

    def menu(self) -> str:
        """The language menu (the page's other query arguments kept, except secrets: none are in ours)."""
        return language_menu(self.lang)

    def send_page(self, status: int, title: str, body: str) -> None:
        self.set_status(status)
        self.finish(page(title, body, self.lang, self.menu()))

    def refuse(self, status: int, title: str, heading: str, detail: str = "") -> None:
        """Answer ``status`` with a small page saying why (``title``, ``heading``: English messages, translated
        here, an apostrophe kept as it is; ``detail``: plain text, escaped here)."""
        self.send_page(status, self._(title), f"<h1>{html.escape(self._(heading), quote=False)}</h1>"
                       + (f"<p>{html.escape(detail)}</p>" if detail else ""))


class LandingRedirect(tornado.web.RedirectHandler):
    """``/``: to the landing page (a permanent redirect, under the server's URL)."""

    def initialize(self, page: str = LANDING_PAGE) -> None:
        base = self.settings.get("server_url") or self.settings.get("base_url", "/")
        super().initialize(url_path_join(base, page))


# --- canasta-tutor serve's sign-in pages ------------------------------------------------------------------------
#: On the sign-in page: a join card's QR code opens ``signin#card=CODE``; the code (after "#", so never sent in an
#: address, never in a log) goes into the form, which is sent at once (also when only the "#" part of an open page
#: changes). The teacher's file link does the same with ``teacher#key=KEY``.
_FROM_FRAGMENT = ("<script>(function(){{function go(){{var m=/^#{name}=([^&]*)/.exec(location.hash);if(!m)return;"
                  "history.replaceState(null,'',location.pathname);var f=document.getElementById('{field}');"
                  "f.value=decodeURIComponent(m[1]);f.form.submit();}}go();"
                  "window.addEventListener('hashchange',go);}})();</script>")


class SignInHandler(CanastaHandler):
    """The sign-in page: a name (and the class code, when the teacher set one) the first time; the learner's
    personal code (their join card) to come back, on any device. A name on the class's list is never given without
    its code. Tries are rate-limited (the visitors' ``limits["sign-in"]``).
    Configured with ``visitors`` (:class:`~canasta_tutor.web.visitors.Visitors`: the class is its ``room``)."""

    def initialize(self, *, visitors) -> None:
        self.visitors = visitors

    def form(self, message: str = "", name: str = "") -> str:
        _ = self._
        code_field = ""
        if self.visitors.room.current().code:
            code_field = ("<label for='code'>" + html.escape(_("Class code (your teacher shows it)")) + "</label>"
                          "<input id='code' name='code' autocomplete='off'>")
        return page(_("Sign in · Learn Canasta"),
                    "<h1>" + html.escape(_("Learn Canasta")) + "</h1><p>"
                    + html.escape(_("The first time, type your name: every lesson and puzzle will know it, and your "
                                    "progress is kept under it. Coming back, on this or any other device? Type your "
                                    "personal code (on your card) instead."))
                    + f"</p>{error_line(message)}<form method='post'>"
                    f"{self.xsrf_form_html()}<label for='name'>" + html.escape(_("Your name")) + f"</label>"
                    f"<input id='name' name='name' maxlength='{MAX_NAME}' autofocus "
                    f"value='{html.escape(name, quote=True)}'>{code_field}"
                    f"<label for='personal'>" + html.escape(_("Your personal code (if you have one)")) + "</label>"
                    "<input id='personal' name='personal' autocomplete='off' autocapitalize='characters' "
                    "maxlength='20'><button type='submit'>" + html.escape(_("Start")) + "</button></form>"
                    + _FROM_FRAGMENT.format(name="card", field="personal"), self.lang, self.menu())

    def get(self):
        if self.visitors.session(self):
            self.redirect(self.landing())
            return
        self.finish(self.form())

    def post(self):
        self.check_xsrf_cookie()
        if limited(self, "sign-in"):
            return
        name = self.get_body_argument("name", "")
        with use_language(self.lang):  # the verdict's sentence in the page's language
            verdict = self.visitors.room.join(name, self.get_body_argument("code", ""),
                                              personal=self.get_body_argument("personal", ""))
        if not verdict:
            status = {"name-taken": 409, "wrong-personal-code": 403}.get(verdict.reasons[0].code, 400)
            self.set_status(status)
            self.finish(self.form(verdict.reasons[0].text, name))
            return
        self.visitors.sign_in_learner(self, verdict.learner)
        self.redirect(self.landing())


def limited(handler: CanastaHandler, what: str, *, count: bool = True) -> bool:
    """True (and a 429 page sent) when the visitor's address, or everyone together, has tried ``what`` too often;
    otherwise this try is counted (unless not ``count``)."""
    wait = handler.visitors.limits[what].wait(str(handler.request.remote_ip), count=count)
    if not wait:
        return False
    handler.set_header("Retry-After", str(max(1, round(wait))))
    seconds = max(1, round(wait))
    handler.refuse(429, N_("Wait a moment"), N_("Too many tries"),
                   ngettext("Too many tries from this device, or from the whole class at once: wait {seconds} second, "
                            "then try again. If it keeps happening, ask your teacher.",
                            "Too many tries from this device, or from the whole class at once: wait {seconds} "
                            "seconds, then try again. If it keeps happening, ask your teacher.",
                            seconds, lang=handler.lang).format(seconds=seconds))
    return True


class SignOutHandler(CanastaHandler):
    """Forget the learner and the teacher in this browser (their sessions end); back to the sign-in page."""

    def initialize(self, *, visitors) -> None:
        self.visitors = visitors

    def get(self):
        self.visitors.sign_out(self)
        self.redirect(self.url(SIGN_IN))


class TeacherHandler(CanastaHandler):
    """``/teacher``: the form where the teacher types the key (or that the link in the teacher's file fills in,
    from after the "#": a key is never in an address the server sees, so never in a log); a cookie then holds a
    session id, never the key. Key tries are rate-limited. Configured with ``visitors``."""

    def initialize(self, *, visitors) -> None:
        self.visitors = visitors

    def form(self, message: str = "") -> str:
        _ = self._
        heading = html.escape(_("Teacher's dashboard"))
        return page(_("Teacher · Learn Canasta"),
                    f"<h1>{heading}</h1>{error_line(message)}<form method='post'>"
                    f"{self.xsrf_form_html()}<label for='key'>"
                    + html.escape(_("Teacher key (canasta-tutor serve says where it is)")) + "</label>"
                    "<input id='key' name='key' type='password' required autofocus>"
                    "<button type='submit'>" + html.escape(_("Open")) + "</button></form>"
                    + _FROM_FRAGMENT.format(name="key", field="key"), self.lang, self.menu())

    def dashboard(self) -> str:
        return self.url("voila/render", TEACHER_PAGE)

    def get(self):
        if self.get_query_argument("key", ""):
            self.set_status(400)
            self.finish(self.form(self._("A key in the address is not accepted (it would stay in the browser's "
                                         "history and in logs): type it here.")))
        elif self.visitors.teacher(self):
            self.redirect(self.dashboard())
        else:
            self.finish(self.form())

    def post(self):
        self.check_xsrf_cookie()
        if limited(self, "teacher-key", count=False):
            return
        key = self.get_body_argument("key", "")
        if not self.visitors.is_teacher_key(key):
            self.visitors.limits["teacher-key"].wait(str(self.request.remote_ip))  # a wrong key counts
            self.set_status(403)
            self.finish(self.form(self._("That is not the teacher key.") if key else ""))
            return
        self.visitors.sign_in_teacher(self)
        self.redirect(self.dashboard())


def log_request(handler) -> None:
    """Tornado's request log line, without the query string's values (nothing secret in a log, whatever a
    visitor put in an address)."""
    import logging

    status = handler.get_status()
    log = logging.getLogger("tornado.access")
    level = logging.INFO if status < 400 else logging.WARNING if status < 500 else logging.ERROR
    request = handler.request
    shown = request.path + ("?[query not logged]" if request.query else "")
    log.log(level, "%d %s %s (%s) %.2fms", status, request.method, shown, request.remote_ip,
            1000.0 * request.request_time())


# --- the teacher's downloads, on both servers --------------------------------------------------------------------
class TeacherOnly(CanastaHandler):
    """A route for the teacher only. Configured with ``teachers`` (the server's
    :class:`~canasta_tutor.web.visitors.TeacherGate`) and ``room``: the class
    (a :class:`~canasta_tutor.classroom.roster.Classroom`), or None to open the progress database's for each
    request (a hub server: the database may be out of reach when the server starts)."""

    def initialize(self, *, teachers, room=None) -> None:
        self.teachers = teachers
        self.room = room

    def refuse_unless_teacher(self) -> bool:
        """True (and a 403 page sent) when the visitor is not the teacher."""
        if self.teachers.is_teacher(self):
            return False
        self.send_page(403, self._("Teacher only"), self.teachers.refusal)
        return True

    def classroom(self):
        if self.room is not None:
            return self.room
        from ..classroom.roster import Classroom

        return Classroom()


class ExportHandler(TeacherOnly):
    """The open class's results for a gradebook: learners.csv, puzzles.csv, gradebook.xlsx (``?live=1``: live
    answers counted in accuracy; ``?tz=Europe/Amsterdam``: the times in that zone)."""

    @tornado.web.authenticated
    def get(self, name):
        if self.refuse_unless_teacher():
            return
        try:
            with use_language(self.lang):  # the headings and words in the teacher's language
                download = class_export(self.classroom(), name, live=self.get_query_argument("live", "") == "1",
                                        tz=self.get_query_argument("tz", "") or None)
        except LookupError as e:
            self.refuse(404, N_("Not found"), N_("No such download"), str(e))
            return
        except CanastaError as e:
            self.refuse(503, N_("No results"), N_("The class's results cannot be read"), str(e))
            return
        send(self, download)


def in_language(lang: str, work, *args, **kwargs):
    """``work(*args, **kwargs)`` in ``lang`` (in an executor's thread, where the request's context is not)."""
    with use_language(lang):
        return work(*args, **kwargs)


class WorksheetHandler(TeacherOnly):
    """A worksheet PDF (``?answers=1``: with the answer key) of a project puzzle set or an assignment, made on
    request: ``classroom/worksheet/set/05-take-pile.pdf``, ``.../assignment/3.pdf``."""

    @tornado.web.authenticated
    async def get(self, kind, name):
        if self.refuse_unless_teacher():
            return
        answers = self.get_query_argument("answers", "") == "1"
        path = self.room.path if self.room is not None else None  # the class's assignments are beside its results
        try:
            # up to a second of work: in a thread, so that the learners' pages are not held up meanwhile
            download = await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(in_language, self.lang, worksheet_download, kind, name, answers=answers,
                                        path=path))
        except LookupError as e:
            self.refuse(404, N_("Not found"), N_("No such worksheet"), str(e))
            return
        except CanastaError as e:
            self.refuse(422, N_("No worksheet"), N_("This worksheet cannot be made"), str(e))
            return
        send(self, download)


def download_routes(*, teachers, room=None) -> list[tuple]:
    """The teacher's downloads, for either server (paths under its URL; the arguments: see :class:`TeacherOnly`)."""
    config = {"teachers": teachers, "room": room}
    return [(EXPORT_ROUTE, ExportHandler, config), (WORKSHEET_ROUTE, WorksheetHandler, config)]


def mount(base: str, routes: list[tuple]) -> list[tuple]:
    """``routes`` (paths under a server's URL; "": the URL itself) with their full patterns under ``base``."""
    return [(url_path_join(base, path) if path else base, *rest) for path, *rest in routes]
