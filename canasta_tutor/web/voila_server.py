"""``canasta-tutor serve``'s Voilà: the handlers that take the place of Voilà's own, who holds which kernel, and
the application that routes to them.

Each handler is configured through ``initialize(**kwargs)``: the route Voilà gives its own handler keeps its
arguments, and ours are added to them (:func:`voila_replacements`, :meth:`CanastaVoila.init_handlers`).

* :class:`GuardedVoilaHandler` (a lesson page): only for signed-in learners in classroom mode, the teacher's pages
  only for the teacher; it tells the page's kernel who the visitor is (the ``X-Canasta-Identity`` header);
  :class:`GuardedTreeHandler` (the list of lessons): only for signed-in visitors in classroom mode;
* :class:`OwnKernelHandler`, :class:`OwnKernelWebsocketHandler`, :class:`ShutdownOnLeaveHandler`: only the visitor
  who was given a kernel may talk to it, delete it or shut it down (:class:`KernelOwners`);
* :class:`CachedStaticFileHandler`: Voilà's front end stays in the browser's cache for an hour;
* :class:`Gone`: no contents API (it would hand out any notebook's source).
"""

from __future__ import annotations

import contextvars
import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import tornado.ioloop
import tornado.web
import voila.handler
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.utils import url_path_join
from traitlets import Any
from voila.app import Voila
from voila.notebook_renderer import NotebookRenderer
from voila.request_info_handler import RequestInfoSocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import MultiStaticFileHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from ..classroom.db import DB_ERRORS
from ..classroom.lesson_text import LessonTextError, translated_notebook
from ..engine.errors import CanastaError
from ..engine.i18n import LANGUAGES, N_, SOURCE_LANGUAGE, gettext
from .handlers import SIGN_IN, FaultPages, full_page, log_request, mount, page
from .kernel_gate import MAX_MESSAGE_BYTES
from .language import HEADER as LANGUAGE_HEADER
from .language import KERNEL_ENV as LANGUAGE_KERNEL_ENV
from .language import remember, request_language
from .visitors import IDENTITY_HEADER, KernelRegistry, Visitors, is_teacher_page

STATIC_CACHE_SECONDS = 3600
START_FAILED_BODY = ("<h1>Your page could not be started</h1><p>The computer could not start this page just now. "
                     "<b>Reload the page</b> in a few seconds: your answers so far are saved.</p>")
#: the end of a page whose kernel died while it was being sent (its beginning has gone out already)
START_FAILED_NOTICE = ("<div class='ct-start-failed' role='alert' style='font:1.2em system-ui,sans-serif;margin:2em'>"
                       "<b>This page could not be started.</b> Reload it in a few seconds: your answers so far are "
                       "saved.</div></body></html>")

#: the visitor whose request is being answered (set by the lesson page's handler): a kernel started or handed
#: out meanwhile is theirs
_VISITOR: contextvars.ContextVar[str | None] = contextvars.ContextVar("canasta_visitor", default=None)


class KernelStartFailed(RuntimeError):
    """A page's kernel could not be started (twice), or the preheated ones kept for it had died."""


async def start_twice(start, log, *args, **kwargs):
    """``await start(*args, **kwargs)``, once more when it raises (a new kernel: new ports); the log has one line per
    failure, never a traceback. :class:`KernelStartFailed` when the second try fails too."""
    for attempt in (1, 2):
        try:
            return await start(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - whatever stopped it (zmq, OSError, a timeout), the page must answer
            log.warning("A kernel did not start (%s: %s)%s", type(e).__name__, e,
                        ": trying once more, on new ports" if attempt == 1 else "")
    raise KernelStartFailed("the page's kernel did not start")


class KernelOwners:
    """Which visitor was given each kernel of the running server: a kernel goes to the visitor of the request
    being answered, and a visitor given one more than ``cap`` loses their oldest (shut down; None: no cap, as on
    one learner's own computer, where only idle kernels are culled). The visitors other than the teacher hold at
    most ``limit`` kernels in all: a page beyond it is refused (:meth:`admit`)."""

    def __init__(self, cap: int | None, limit: int | None = None):
        self.registry = KernelRegistry(cap, limit)
        self.kernel_manager = None
        self._start_kernel = None

    def attach(self, kernel_manager) -> None:
        """Note every kernel that ``kernel_manager`` starts for a request (when no ready kernel is left)."""
        self.kernel_manager = kernel_manager
        self._start_kernel = kernel_manager.start_kernel
        kernel_manager.start_kernel = self.start_kernel

    async def start_kernel(self, *args, **kwargs) -> str:
        """Start a kernel for the request being answered; one that fails to start (e.g. ``ZMQError: Address already
        in use``: a port taken between its choice and the kernel's bind) is tried once more, on new ports; a second
        failure is :class:`KernelStartFailed` (the page says so, never a traceback)."""
        kernel_id = await start_twice(self._start_kernel, self.kernel_manager.log, *args, **kwargs)
        self.hand_out(kernel_id)
        return kernel_id

    @staticmethod
    def visiting(visitor: str) -> None:
        """The request being answered is ``visitor``'s (a :meth:`Visitors.key`)."""
        _VISITOR.set(visitor)

    def hand_out(self, kernel_id: str) -> None:
        """The kernel goes to the visitor of the request being answered (none: nobody's, e.g. a pool's refill)."""
        visitor = _VISITOR.get()
        if visitor is None:
            return
        km = self.kernel_manager
        for old in self.registry.add(visitor, kernel_id, set(km.list_kernel_ids()) | {kernel_id}):
            if old in km:
                km.log.info("Visitor %s holds more than %d kernels: shutting down %s", visitor, self.registry.cap,
                            old)
                tornado.ioloop.IOLoop.current().add_callback(km.shutdown_kernel, old)

    def owner(self, kernel_id: str) -> str | None:
        return self.registry.owner.get(kernel_id)

    def _alive(self) -> set:
        return set(self.kernel_manager.list_kernel_ids()) if self.kernel_manager is not None else set()

    def admit(self, visitor: str):
        """A ticket for ``visitor``'s page (see :meth:`KernelRegistry.admit`), or None: the server is full."""
        return self.registry.admit(visitor, self._alive())

    def leave(self, ticket) -> None:
        self.registry.leave(ticket)

    def replaced_for(self, kernel_id: str) -> str | None:
        """The visitor whose kernel this was, when it was shut down because they opened more than ``cap`` pages."""
        return self.registry.replaced.get(kernel_id)

    def forget(self, kernel_id: str) -> None:
        self.registry.forget(kernel_id)


class RegisteringRequestInfo(RequestInfoSocketHandler):
    """Voilà hands a preheated kernel to a visitor when it sends the kernel its request: note who got it
    (``kernels``, set by :meth:`install`)."""

    kernels: KernelOwners | None = None

    @classmethod
    def send_updates(cls, msg) -> None:
        if cls.kernels is not None:
            cls.kernels.hand_out(msg["kernel_id"])
        RequestInfoSocketHandler.send_updates(msg)

    @classmethod
    def install(cls, kernels: KernelOwners) -> None:
        """Voilà's page handler sends the request through ``voila.handler.RequestInfoSocketHandler``: ours."""
        voila.handler.RequestInfoSocketHandler = type(cls.__name__, (cls,), {"kernels": kernels})


class TranslatingRenderer(NotebookRenderer):
    """Voilà's renderer of a page, whose notebook's markdown cells are read in the page's language
    (``lessons/i18n/<lang>/<stem>.yaml``, :mod:`canasta_tutor.classroom.lesson_text`) before they are rendered.

    The language is the one the page's handler decided (``ct_language``); a preheated kernel's page is rendered
    before its visitor comes, in the pool's language (:attr:`pool_language`: the class's language, or ``serve
    --lang``, else English), and handed only to a visitor of that language; a visitor of another language gets a
    page rendered for them (:meth:`GuardedVoilaHandler.should_use_rendered_notebook`)."""

    pool_language = SOURCE_LANGUAGE

    async def load_notebook(self, path):
        notebook = await super().load_notebook(path)
        lang = getattr(self.request_handler, "ct_language", None) or self.pool_language
        if lang == SOURCE_LANGUAGE or not str(path).endswith(".ipynb"):
            return notebook
        full = Path(self.contents_manager.root_dir) / path
        try:
            return translated_notebook(notebook, full.parent, lang, full.stem)
        except LessonTextError as e:  # the page in English, and the reason in the server's log
            self.log.warning("%s", e)
            return notebook

    @classmethod
    def install(cls, pool_language: str = SOURCE_LANGUAGE) -> None:
        """Voilà's page handler makes its renderer as ``voila.handler.NotebookRenderer``, its pool of preheated
        kernels as ``voila.voila_kernel_manager.NotebookRenderer``: ours, the pool's in ``pool_language``."""
        import voila.voila_kernel_manager

        cls.pool_language = pool_language
        voila.handler.NotebookRenderer = cls
        voila.voila_kernel_manager.NotebookRenderer = cls


class GuardedVoilaHandler(FaultPages, TornadoVoilaHandler):
    """A lesson page: only for signed-in learners when ``sign_in_required`` (classroom mode); the teacher's pages only
    for the teacher. The kernel learns who the visitor is from the header set here, never from what the browser sent.
    A page beyond the server's limit on kernels is a short page that says so (503), not a kernel more.
    Configured with ``visitors``, ``kernels`` and ``sign_in_required``, besides Voilà's own arguments."""

    def initialize(self, *, visitors: Visitors, kernels: KernelOwners, sign_in_required: bool,
                   **voila_kwargs) -> None:
        self.visitors = visitors
        self.kernel_owners = kernels
        self.sign_in_required = sign_in_required
        self.ticket = None
        self._page_started = False
        self._head = ""
        super().initialize(**voila_kwargs)

    def write(self, chunk):
        """The page's first chunk gets the request's language: ``<html lang>`` (Voilà's template writes "en"; a
        preheated page was rendered before its visitor came) and the template script's texts in that language."""
        if not self._page_started and isinstance(chunk, str):
            # a page rendered for its visitor comes token by token ('<html lang="', 'en', '">'): held until its head
            self._head += chunk
            if "<head>" not in self._head.lower() and len(self._head) < 8192:
                return None
            self._page_started = True
            chunk, self._head = localise_page(self._head, request_language(self)), ""
        return super().write(chunk)

    def finish(self, chunk=None):
        if chunk is not None:
            self.write(chunk)
        if self._head:  # a page that ended before its head: nothing is ever held back for good
            head, self._head = self._head, ""
            super().write(head)
        self._page_started = True
        return super().finish()

    async def prepare(self):
        await super().prepare()
        path = (self.path_args[0] if self.path_args else "") or ""
        teacher = self.visitors.teacher(self)
        session = None if teacher else self.visitors.session(self)
        remember(self)  # a choice from the language menu (?lang=) is kept: cookie, and the learner's row
        lang = self.ct_language = request_language(self)
        self.request.headers[LANGUAGE_HEADER] = lang  # the page's kernel: HTTP_X_CANASTA_LANGUAGE
        if is_teacher_page(path) and not teacher:
            self.set_status(403)
            sign_in = (f"<a href='{url_path_join(self.base_url, 'teacher')}'>"
                       + html.escape(gettext("the teacher's sign-in", lang=lang)) + "</a>")
            self.finish(page(gettext("Teacher only", lang=lang),
                             "<h1>" + html.escape(gettext("This page is for the teacher", lang=lang)) + "</h1><p>"
                             + gettext("Open {sign_in} with the key printed by {command}.", lang=lang)
                             .format(sign_in=sign_in, command="<code>canasta-tutor serve</code>") + "</p>", lang))
            return
        if self.sign_in_required and not teacher and not session:
            self.redirect(url_path_join(self.base_url, SIGN_IN))
            return
        if teacher:
            identity = {"name": "teacher", "teacher": True}
        elif session:
            identity = {"name": session["name"], "learner_id": session["learner_id"], "class_id": session["class_id"]}
        else:
            identity = None
        self.request.headers[IDENTITY_HEADER] = json.dumps(identity) if identity else ""
        visitor = self.visitors.key(self)
        self.ticket = self.kernel_owners.admit(visitor)
        if self.ticket is None:
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.finish(full_page(self.sign_in_required, self.kernel_owners.registry.limit, lang))
            return
        KernelOwners.visiting(visitor)

    def should_use_rendered_notebook(self, *args, **kwargs) -> bool:
        """A preheated kernel's page is in the pool's language (rendered before its visitor came): a page in another
        language is rendered for its visitor, with a kernel of its own; so is a page whose preheated kernels failed
        it."""
        if (getattr(self, "ct_language", SOURCE_LANGUAGE) != TranslatingRenderer.pool_language
                or getattr(self, "_skip_pool", False)):
            return False
        return super().should_use_rendered_notebook(*args, **kwargs)

    def on_finish(self):
        self.kernel_owners.leave(self.ticket)
        super().on_finish()

    @tornado.web.authenticated
    async def get(self, path=None):
        """Voilà's page; when its kernel cannot be started (or the preheated ones died), a kernel of its own is tried
        (preheated ones failed), else a short page says to reload: never a traceback, and the request ends (its
        place in the server's limit is freed)."""
        for attempt in (1, 2):
            try:
                async for html in self.get_generator(path=path):
                    self.write(html)
                    self.flush()
                return
            except Exception as e:  # noqa: BLE001 - the visitor gets a page whatever went wrong
                if isinstance(e, tornado.web.HTTPError) or isinstance(e, (CanastaError, *DB_ERRORS)):
                    raise  # Voilà's own answers (404...) and database faults (FaultPages) as before
                self.log.warning("The page %s could not be started: %s: %s", self.request.path, type(e).__name__, e)
                if self._headers_written:  # part of the page has gone out: end it with the notice
                    self.finish(START_FAILED_NOTICE)
                    return
                if attempt == 1 and not getattr(self, "_skip_pool", False):
                    self._skip_pool = True
                    continue
                self.clear()
                self.set_status(503)
                self.set_header("Retry-After", "5")
                self.finish(page("Reload this page", START_FAILED_BODY))
                return


#: The template script's own texts (canasta_tutor/web/share/.../index.html.j2 reads them from #ct-texts)
PAGE_TEXTS = {
    "idle": N_("This page has been idle; reload it to go on. Your answers so far are saved."),
    "replaced": N_("This page was closed because you opened more pages than each learner may keep; use your newest "
                   "one, or reload this one. Your answers so far are saved."),
    "reload": N_("Reload"),
    "wide": N_("The table is wider than the screen: scroll it sideways →"),
    "wide_region": N_("a table that scrolls sideways"),
    "deck": N_("deck: tap a card to add it"),
    "chosen": N_("chosen cards: tap one to take it out"),
    "target": N_("cards go to"),
    "language": N_("Language"),
}
_HTML_TAG = re.compile(r"<html\b[^>]*>", re.IGNORECASE)


def page_texts(lang: str) -> dict:
    """The template script's texts in ``lang``, and the languages for its menu (each named in itself)."""
    return {**{key: gettext(message, lang=lang) for key, message in PAGE_TEXTS.items()}, "lang": lang,
            "languages": LANGUAGES}


def localise_page(chunk: str, lang: str) -> str:
    """A Voilà page's first chunk with ``<html lang="LANG">`` and its texts (a JSON script) after ``<head>``."""
    texts = json.dumps(page_texts(lang), ensure_ascii=False).replace("</", "<\\/")
    chunk = _HTML_TAG.sub(f'<html lang="{lang}">', chunk, count=1)
    return re.sub(r"<head>", f'<head><script id="ct-texts" type="application/json">{texts}</script>', chunk,
                  count=1, flags=re.IGNORECASE)


class GuardedTreeHandler(TornadoVoilaTreeHandler):
    """Voilà's list of the lessons (``/voila/tree``): when ``sign_in_required`` (classroom mode), only for signed-in
    learners and the teacher; anyone else is sent to the sign-in page. Configured with ``visitors`` and
    ``sign_in_required``, besides Voilà's own arguments."""

    def initialize(self, *, visitors: Visitors, sign_in_required: bool, **voila_kwargs) -> None:
        self.visitors = visitors
        self.sign_in_required = sign_in_required
        super().initialize(**voila_kwargs)

    async def prepare(self):
        await super().prepare()
        if self.sign_in_required and not self.visitors.teacher(self) and not self.visitors.session(self):
            self.redirect(url_path_join(self.base_url, SIGN_IN))


class OwnerOnly:
    """Only the visitor who was given a kernel may shut it down, delete it or talk to it. Configured with
    ``visitors`` and ``kernels`` (the server's :class:`KernelOwners`), besides the handler's own arguments."""

    def initialize(self, *, visitors: Visitors, kernels: KernelOwners, **kwargs) -> None:
        self.visitors = visitors
        self.kernel_owners = kernels
        super().initialize(**kwargs)

    def owns(self, kernel_id: str) -> bool:
        return self.kernel_owners.owner(kernel_id) == self.visitors.key(self)

    def requested_kernel(self) -> str:
        # Jupyter's kernel routes name their group (kernel_id); Voilà's shutdown route does not.
        return str(self.path_kwargs.get("kernel_id") or (self.path_args[0] if self.path_args else ""))


class ShutdownOnLeaveHandler(OwnerOnly, VoilaShutdownKernelHandler):
    """Voilà's page asks, as it closes, for its kernel to be shut down, with a beacon that carries no
    XSRF token. Instead of skipping the check for everyone, the request must come with the cookies of the
    visitor the kernel was given to (SameSite=Lax cookies: another site's page cannot send them)."""

    def check_xsrf_cookie(self):
        return None

    async def post(self, kernel_id):
        if not self.owns(kernel_id):
            raise tornado.web.HTTPError(403, "not your kernel")
        self.kernel_owners.forget(kernel_id)
        await super().post(kernel_id)


class OwnKernelHandler(OwnerOnly, KernelHandler):
    """A kernel's model (the page asks now and then whether its kernel is still there) and its deletion."""

    async def prepare(self):
        await super().prepare()
        kernel_id = self.requested_kernel()
        if self.kernel_owners.replaced_for(kernel_id) == self.visitors.key(self):
            # shut down because its visitor opened more pages than each may hold: the page says so (not "idle")
            raise tornado.web.HTTPError(410, "replaced by a newer page")
        if kernel_id not in self.kernel_manager:
            # A culled or closed kernel is gone for its owner too: the page asks, and tells the learner.
            raise tornado.web.HTTPError(404, "no such kernel")
        if not self.owns(kernel_id):
            raise tornado.web.HTTPError(403, "not your kernel")


class OwnKernelWebsocketHandler(OwnerOnly, VoilaKernelWebsocketHandler):
    """A page's connection to its kernel (through the gate, :mod:`.kernel_gate`); a message larger than the gate
    takes closes the connection before it is read whole."""

    @property
    def max_message_size(self) -> int:
        return MAX_MESSAGE_BYTES

    async def prepare(self):
        if not self.owns(self.requested_kernel()):
            raise tornado.web.HTTPError(403, "not your kernel")
        await super().prepare()


class CachedStaticFileHandler(MultiStaticFileHandler):
    """Voilà's front-end bundle (about 10 MB in 90 files) may stay in the browser's cache for an
    hour, so that going from lesson to lesson does not ask for every file again."""

    def get_cache_time(self, path, modified, mime_type):
        return STATIC_CACHE_SECONDS


class Gone(tornado.web.RequestHandler):
    """Voilà's contents API would hand out any notebook's source: not here."""

    def initialize(self, **_kwargs):
        pass

    def get(self, *args, **kwargs):
        self.set_status(404)
        self.finish("Not found")


def voila_replacements(visitors: Visitors, kernels: KernelOwners, *, sign_in_required: bool) -> dict:
    """Voilà's handlers that ours replace: ``{Voilà's: (ours, the arguments ours needs besides Voilà's)}``."""
    guarded = {"visitors": visitors, "kernels": kernels}
    return {MultiStaticFileHandler: (CachedStaticFileHandler, {}),
            VoilaShutdownKernelHandler: (ShutdownOnLeaveHandler, guarded),
            TornadoVoilaHandler: (GuardedVoilaHandler, {**guarded, "sign_in_required": sign_in_required}),
            TornadoVoilaTreeHandler: (GuardedTreeHandler, {"visitors": visitors, "sign_in_required": sign_in_required}),
            KernelHandler: (OwnKernelHandler, guarded),
            VoilaKernelWebsocketHandler: (OwnKernelWebsocketHandler, guarded),
            VoilaContentsHandler: (Gone, {})}


def replaced(route: tuple, replacements: dict) -> tuple:
    """Voilà's ``route`` with our handler in place of Voilà's (its arguments and ours), when we have one."""
    pattern, handler, *rest = route
    if handler not in replacements:
        return route
    ours, extra = replacements[handler]
    if not extra:
        return (pattern, ours, *rest)
    return (pattern, ours, {**(rest[0] if rest else {}), **extra}, *rest[1:])


@dataclass
class Plan:
    """What :class:`CanastaVoila` adds to Voilà."""

    routes: list                 # our routes: (path under the server's URL, handler, its arguments)
    replacements: dict           # see voila_replacements
    kernels: KernelOwners
    pools: dict = field(default_factory=dict)  # notebook -> kernels kept ready for a class (see class_pools)
    preheat: bool = True
    pool_language: str = SOURCE_LANGUAGE  # the preheated kernels' pages (a class's language: see TranslatingRenderer)
    cookie_secret: bytes | None = None  # the one kept beside the database (Voilà's own is new at every start)


class CanastaVoila(Voila):
    """Voilà whose root page is the lessons' landing page, with our routes and handlers (``plan``)."""

    plan = Any(None, allow_none=True, help="what canasta-tutor serve adds to Voilà (a Plan)")

    def init_settings(self):
        if self.plan is not None and self.plan.pool_language != SOURCE_LANGUAGE:
            # the preheated kernels draw their pages in the pool's language from the first cell (widgets/language.py)
            self.config.VoilaKernelManager.default_env_variables = {LANGUAGE_KERNEL_ENV: self.plan.pool_language}
        settings = super().init_settings()
        if self.plan is not None and self.plan.cookie_secret:
            settings["cookie_secret"] = self.plan.cookie_secret  # sessions outlast a restart
        settings["log_function"] = log_request  # no query string (whatever a visitor put there) in the log
        return settings

    def init_handlers(self):
        plan, km = self.plan, self.kernel_manager
        plan.kernels.attach(km)  # a kernel started for one request (no pool left)
        RegisteringRequestInfo.install(plan.kernels)  # a preheated kernel handed out
        TranslatingRenderer.install(plan.pool_language)  # a page's prose in its language
        if plan.preheat and plan.pools and hasattr(km, "get_rendered_notebook"):
            class_pools(km, plan.pools)
        if plan.preheat and hasattr(km, "get_rendered_notebook"):
            pass_over_failed(km)
        if plan.preheat and hasattr(km, "kernel_pools_config"):
            # A class arrives at once: more kernels kept ready for the pages it opens together.
            for notebook, size in plan.pools.items():
                km.kernel_pools_config[notebook] = {"pool_size": int(size)}
                km.fill_if_needed(delay=0, notebook_name=notebook)
        voila_routes = [replaced(route, plan.replacements) for route in super().init_handlers()]
        return mount(self.server_url, plan.routes) + voila_routes


def class_pools(km, pools: dict) -> None:
    """A class's pool of N kernels for a page counts the kernels it has handed out: N in all, learners' and ready
    ones together (Voilà's own pool would start N more as the class arrives, and hold 2N kernels). A learner who
    leaves frees a place, which the next arrival's refill takes up; one kernel is always kept ready."""
    given: dict[str, str] = {}  # kernel id -> page it was handed out for
    fill, get = km.fill_if_needed, km.get_rendered_notebook

    def in_use(notebook: str) -> int:
        alive = set(km.list_kernel_ids())
        for k in [k for k in given if k not in alive]:
            given.pop(k, None)
        return sum(1 for nb in given.values() if nb == notebook)

    def fill_if_needed(delay=None, notebook_name=None, **kwargs):
        if notebook_name in pools:
            size = max(1, int(pools[notebook_name]) - in_use(notebook_name))
            km.kernel_pools_config[notebook_name] = {**km.kernel_pools_config.get(notebook_name, {}),
                                                     "pool_size": size}
        return fill(delay=delay, notebook_name=notebook_name, **kwargs)

    async def get_rendered_notebook(notebook_name, *args, **kwargs):
        task, cache, kernel_id = await get(notebook_name, *args, **kwargs)
        given[kernel_id] = notebook_name
        return task, cache, kernel_id

    km.fill_if_needed = fill_if_needed  # (Voilà's get_rendered_notebook refills through it, before it returns:
    km.get_rendered_notebook = get_rendered_notebook  # the first arrival starts one kernel more than N)
    km.class_pools_in_use = in_use


def pass_over_failed(km) -> None:
    """Voilà's preheated kernels, without the ones that failed: a pool's kernel that did not start is started once
    more (new ports); one whose start failed, or that died before its page was asked for (its first run failed), is
    never handed to a visitor: it is shut down (no restarts on ports still taken) and the pool's next kernel is
    taken; when none is left, :class:`KernelStartFailed` (the page then starts a kernel of its own)."""
    initialize, get = km._initialize, km.get_rendered_notebook

    async def _initialize(notebook_path, kernel_id=None, **kwargs):
        if kernel_id is not None:  # a restart of a kernel that exists: as Voilà does
            return await initialize(notebook_path, kernel_id, **kwargs)
        return await start_twice(initialize, km.log, notebook_path, None, **kwargs)

    async def get_rendered_notebook(notebook_name, *args, **kwargs):
        while km.get_pool_size(notebook_name):
            pool = km._pools[notebook_name]
            first = pool[0]
            problem = None
            if first.done() and first.exception() is not None:
                problem = first.exception()
            elif first.done():
                content = first.result()
                task, kernel_id = content["task"], content["kernel_id"]
                if task.done() and task.exception() is not None:
                    problem = task.exception()
                elif kernel_id not in km:
                    problem = RuntimeError("its kernel is gone")
            if problem is None:
                return await get(notebook_name, *args, **kwargs)
            pool.pop(0)
            km.log.warning("A preheated kernel for %s failed (%s: %s): passed over", notebook_name,
                           type(problem).__name__, problem)
            if first.done() and first.exception() is None:
                dead = first.result()["kernel_id"]
                if dead in km:
                    tornado.ioloop.IOLoop.current().add_callback(_shut_down_quietly, km, dead)
            km.fill_if_needed(delay=0, notebook_name=notebook_name)
        raise KernelStartFailed(f"no preheated kernel for {notebook_name} started")

    km._initialize = _initialize
    km.get_rendered_notebook = get_rendered_notebook


async def _shut_down_quietly(km, kernel_id: str) -> None:
    try:
        await km.shutdown_kernel(kernel_id, now=True)
    except Exception as e:  # noqa: BLE001 - it may be gone meanwhile
        km.log.info("The failed kernel %s is gone: %s", kernel_id, e)
