"""``canasta-tutor serve``: the lessons as a web app, with Voilà.

* the landing page (``lessons/index.ipynb``) comes first: ``/`` redirects to it;
* everything is served from this machine: our ``canasta`` template is Voilà's
  ``lab`` template without its CDN stylesheets;
* learners see no source code and no traceback (``strip_sources``, ``show_tracebacks`` off), no notebook
  through Voilà's contents API (removed), and their kernels accept only the widget messages
  (``allowed_message_types``): a page cannot run code of its own;
* kernels are preheated: one kernel per notebook runs the notebook ahead of the
  first visitor, so a lesson appears as soon as it is asked for;
* the landing page is the whole app (:mod:`canasta_tutor.widgets.app_page`): it shows any lesson inside itself,
  so a learner needs one kernel; for a class (``--class-size N``) its pool holds N kernels in all (see
  :func:`class_pools`) and the other pages start theirs on demand;
* idle kernels are culled (a class leaves tabs open); progress is saved on every
  answer, so culling loses nothing.

For a class (``--classroom``, ``--ip``; see the README's "Teaching a class"):

* learners sign in once on ``/classroom/signin`` (name, and the class code when there is one); a signed,
  HttpOnly cookie keeps who they are, and every page's kernel learns it from the server (the
  ``X-Canasta-Identity`` header, see :mod:`canasta_tutor.widgets.identity`), never from the browser;
* in classroom mode only signed-in visitors get a kernel; every visitor (a session, or an address when
  nobody is signed in) holds at most ``kernels_per_visitor`` kernels: opening one more shuts the oldest down;
* only the visitor who was given a kernel may shut it down, talk to it or delete it;
* the teacher's page (``teacher/dashboard.ipynb``), the exports and the worksheet PDFs need the teacher key.
"""

from __future__ import annotations

import asyncio
import contextvars
import html
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from ..classroom.downloads import worksheet_for  # noqa: F401 (its home was here; tests and older code import it from here)

TEMPLATE_ROOT = Path(__file__).resolve().parent / "share" / "jupyter"
DEFAULT_PORT = 8866
STATIC_CACHE_SECONDS = 3600
SESSION_COOKIE = "canasta_session"
TEACHER_COOKIE = "canasta_teacher"
IDENTITY_HEADER = "X-Canasta-Identity"
TEACHER_DIR = "teacher"  # lessons/teacher/: the teacher's pages
TEACHER_PAGE = TEACHER_DIR + "/dashboard.ipynb"
KERNELS_PER_VISITOR = 4
CLASS_LESSON_ENV = "CANASTA_CLASS_LESSON"  # the lesson a class will open together (--class-lesson)
# What a page's widgets need to say to their kernel; anything else (execute_request above all) is dropped.
WIDGET_MESSAGES = ("comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request")


def default_lessons_dir() -> Path:
    here = Path(__file__).resolve().parents[2] / "lessons"
    return here if here.is_dir() else Path.cwd() / "lessons"


def voila_arguments(lessons: Path, *, port: int, open_browser: bool, preheat: bool, cull_idle: int,
                    ip: str = "127.0.0.1", pool_size: int = 1) -> list[str]:
    args = [
        str(lessons),
        f"--port={port}",
        f"--Voila.ip={ip}",
        "--Voila.port_retries=0",
        "--template=canasta",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        f"--VoilaConfiguration.preheat_kernel={preheat}",
        f"--VoilaConfiguration.default_pool_size={pool_size}",
        f"--VoilaConfiguration.http_header_envs={IDENTITY_HEADER}",
        *(f"--MappingKernelManager.allowed_message_types={m}" for m in WIDGET_MESSAGES),
        f"--MappingKernelManager.cull_idle_timeout={cull_idle}",
        "--MappingKernelManager.cull_interval=60",
        "--MappingKernelManager.cull_connected=True",
        # Preheating runs every lesson at start-up at once; on a small machine a widget's output may take
        # longer than nbclient's default 4 s to arrive, and would then be dropped from the page.
        "--VoilaExecutor.iopub_timeout=60",
    ]
    if not open_browser:
        args.append("--no-browser")
    return args


def is_teacher_page(path: str) -> bool:
    """Whether a path under /voila/render/ is one of the teacher's pages (however it is spelled)."""
    import posixpath

    parts = [p for p in posixpath.normpath("/" + str(path).replace("\\", "/")).split("/") if p]
    return bool(parts) and parts[0].casefold() == TEACHER_DIR


@dataclass
class ClassSettings:
    """How the server admits visitors."""

    classroom: bool = False            # sign-in required for every page
    teacher_key: str = ""
    class_code: str | None = None      # None: keep the open class's code
    kernels_per_visitor: int = KERNELS_PER_VISITOR
    join_urls: list = field(default_factory=list)


class KernelRegistry:
    """Which visitor was given which kernel (oldest first), so that each holds at most ``cap`` kernels."""

    def __init__(self, cap: int):
        self.cap = max(1, cap)
        self.by_visitor: dict[str, list[str]] = {}
        self.owner: dict[str, str] = {}

    def add(self, visitor: str, kernel_id: str, alive) -> list[str]:
        """Note the kernel; return the kernels to shut down (the visitor's oldest beyond the cap)."""
        mine = [k for k in self.by_visitor.get(visitor, []) if k in alive and k != kernel_id]
        mine.append(kernel_id)
        self.owner[kernel_id] = visitor
        excess = mine[:-self.cap] if len(mine) > self.cap else []
        self.by_visitor[visitor] = mine[len(excess):]
        for k in excess:
            self.owner.pop(k, None)
        for k in [k for k in self.owner if k not in alive and k != kernel_id]:
            self.owner.pop(k, None)
        return excess

    def forget(self, kernel_id: str) -> None:
        visitor = self.owner.pop(kernel_id, None)
        if visitor is not None:
            self.by_visitor[visitor] = [k for k in self.by_visitor.get(visitor, []) if k != kernel_id]


_VISITOR: contextvars.ContextVar[str | None] = contextvars.ContextVar("canasta_visitor", default=None)


def serve(lessons: str | os.PathLike | None = None, *, port: int = DEFAULT_PORT, open_browser: bool = True,
          preheat: bool = True, cull_idle: int = 1800, ip: str = "127.0.0.1",
          settings: ClassSettings | None = None, pool_size: int = 1, pools: dict | None = None,
          class_lesson: str | None = None) -> None:
    """Start Voilà on the lessons (blocks until stopped)."""
    lessons = Path(lessons) if lessons else default_lessons_dir()
    if not (lessons / "index.ipynb").is_file():
        raise FileNotFoundError(f"no lessons found: {lessons / 'index.ipynb'} does not exist")
    settings = settings or ClassSettings()
    pools = dict(pools or {})
    if pools:
        # A class uses one page (the landing page shows every lesson inside itself): its pool holds the class's
        # kernels; the other pages start a kernel when asked (old links), except the teacher's, kept ready.
        pool_size = 0
        pools.setdefault(TEACHER_PAGE, 1)
    for notebook in [*pools, *([class_lesson] if class_lesson else [])]:
        if not (lessons / notebook).is_file():
            raise FileNotFoundError(f"--class-lesson: there is no lesson {notebook} in {lessons}")
    if class_lesson:
        os.environ[CLASS_LESSON_ENV] = Path(class_lesson).stem  # the landing page's kernels prepare it
    paths = [str(TEMPLATE_ROOT)] + [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(paths)
    # A preheated kernel asks the server for its visitor's request at this address (Voilà's default is
    # 127.0.0.1, which a server listening on one other address does not answer).
    os.environ["VOILA_APP_IP"] = "127.0.0.1" if ip in ("0.0.0.0", "", "*") else ip
    os.environ["CANASTA_JOIN_URLS"] = json.dumps(settings.join_urls)

    import tornado.web
    import voila.handler
    from jupyter_server.base.handlers import JupyterHandler
    from jupyter_server.services.kernels.handlers import KernelHandler
    from jupyter_server.utils import url_path_join
    from voila.app import Voila
    from voila.request_info_handler import RequestInfoSocketHandler
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.static_file_handler import MultiStaticFileHandler
    from voila.tornado.contentshandler import VoilaContentsHandler
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    from ..classroom.downloads import class_export, send, worksheet_download
    from ..classroom.roster import Classroom
    from ..engine.errors import CanastaError

    room = Classroom()
    if settings.class_code is not None and room.current().code != settings.class_code:
        room.set_code(settings.class_code)
    registry = KernelRegistry(settings.kernels_per_visitor)
    state: dict = {}

    class Visitor:
        """Who a request comes from, read from the signed cookies."""

        @staticmethod
        def session(handler) -> dict | None:
            raw = handler.get_secure_cookie(SESSION_COOKIE, max_age_days=2)
            if not raw:
                return None
            try:
                data = json.loads(raw)
            except ValueError:
                return None
            learner = room.learner(data.get("learner_id", -1))
            if learner is None or learner["name"] != data.get("name"):
                return None  # signed in to a class that has been closed since
            return {**learner, "sid": data.get("sid", "")}

        @staticmethod
        def teacher(handler) -> str | None:
            raw = handler.get_secure_cookie(TEACHER_COOKIE, max_age_days=2)
            if not raw or not settings.teacher_key:
                return None
            try:
                data = json.loads(raw)
            except ValueError:
                return None
            if not secrets.compare_digest(str(data.get("key", "")), settings.teacher_key):
                return None
            return str(data.get("sid", ""))

        @classmethod
        def key(cls, handler) -> str:
            teacher = cls.teacher(handler)
            if teacher:
                return "teacher:" + teacher
            session = cls.session(handler)
            if session:
                return f"learner:{session['learner_id']}:{session['sid']}"
            return "anonymous:" + str(handler.request.remote_ip)

    def register(kernel_id: str) -> None:
        visitor = _VISITOR.get()
        if visitor is None:
            return
        km = state["kernel_manager"]
        for old in registry.add(visitor, kernel_id, set(km.list_kernel_ids()) | {kernel_id}):
            if old in km:
                km.log.info("Visitor %s holds more than %d kernels: shutting down %s", visitor, registry.cap, old)
                tornado.ioloop.IOLoop.current().add_callback(km.shutdown_kernel, old)

    class RegisteringRequestInfo(RequestInfoSocketHandler):
        """Voilà hands a preheated kernel to a visitor here: note who got it."""

        @classmethod
        def send_updates(cls, msg) -> None:
            register(msg["kernel_id"])
            RequestInfoSocketHandler.send_updates(msg)

    voila.handler.RequestInfoSocketHandler = RegisteringRequestInfo

    def page(title: str, body: str) -> str:
        return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
                f"content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title><style>"
                "body{font-family:system-ui,sans-serif;max-width:34em;margin:3em auto;padding:0 1em;color:#222}"
                "input{font-size:1.1em;padding:.3em;margin:.2em 0 .8em;width:100%;box-sizing:border-box}"
                "button{font-size:1.1em;padding:.4em 1.2em}.error{color:#c62828}</style></head>"
                f"<body>{body}</body></html>")

    class ClassHandler(JupyterHandler):
        def landing(self) -> str:
            return url_path_join(self.base_url, "voila/render/index.ipynb")

        def refuse(self, status: int, title: str, heading: str, detail: str = "") -> None:
            """Answer ``status`` with a small page saying why (``detail``: plain text, escaped here)."""
            self.set_status(status)
            self.finish(page(title, f"<h1>{heading}</h1>" + (f"<p>{html.escape(detail)}</p>" if detail else "")))

        def refuse_unless_teacher(self) -> bool:
            """True (and a 403 page sent) when the visitor is not the teacher."""
            if Visitor.teacher(self):
                return False
            self.refuse(403, "Teacher only", "The teacher key is needed")
            return True

    class SignInHandler(ClassHandler):
        """The sign-in page: a name (and the class code, when the teacher set one), once."""

        def form(self, message: str = "", name: str = "") -> str:
            code_field = ""
            if room.current().code:
                code_field = ("<label for='code'>Class code (your teacher shows it)</label>"
                              "<input id='code' name='code' autocomplete='off' required>")
            error = f"<p class='error' role='alert'>{html.escape(message)}</p>" if message else ""
            return page("Sign in · Learn Canasta",
                        "<h1>Learn Canasta</h1><p>Type your name once: every lesson and puzzle will know it, and "
                        f"your progress is kept under it.</p>{error}<form method='post'>"
                        f"{self.xsrf_form_html()}<label for='name'>Your name</label>"
                        f"<input id='name' name='name' maxlength='60' required autofocus "
                        f"value='{html.escape(name, quote=True)}'>{code_field}"
                        "<button type='submit'>Start</button></form>")

        def get(self):
            if Visitor.session(self):
                self.redirect(self.landing())
                return
            self.finish(self.form())

        def post(self):
            self.check_xsrf_cookie()
            name = self.get_body_argument("name", "")
            verdict = room.join(name, self.get_body_argument("code", ""))
            if not verdict:
                self.set_status(409 if verdict.has("name-taken") else 400)
                self.finish(self.form(verdict.reasons[0].text, name))
                return
            cookie = dict(verdict.learner, sid=secrets.token_urlsafe(12))
            self.set_secure_cookie(SESSION_COOKIE, json.dumps(cookie), expires_days=1, httponly=True,
                                   samesite="Lax")
            self.redirect(self.landing())

        def check_xsrf_cookie(self):
            return JupyterHandler.check_xsrf_cookie(self)

    class SignOutHandler(ClassHandler):
        def get(self):
            self.clear_cookie(SESSION_COOKIE)
            self.clear_cookie(TEACHER_COOKIE)
            self.redirect(url_path_join(self.base_url, "classroom/signin"))

    class TeacherHandler(ClassHandler):
        """``/teacher?key=KEY`` (or the form it shows) lets the teacher in to the dashboard."""

        def form(self, message: str = "") -> str:
            error = f"<p class='error' role='alert'>{html.escape(message)}</p>" if message else ""
            return page("Teacher · Learn Canasta",
                        f"<h1>Teacher's dashboard</h1>{error}<form method='post'>{self.xsrf_form_html()}"
                        "<label for='key'>Teacher key (printed by canasta-tutor serve)</label>"
                        "<input id='key' name='key' type='password' required autofocus>"
                        "<button type='submit'>Open</button></form>")

        def _enter(self, key: str) -> None:
            if not settings.teacher_key or not secrets.compare_digest(key.strip(), settings.teacher_key):
                self.set_status(403)
                self.finish(self.form("That is not the teacher key." if key else ""))
                return
            self.set_secure_cookie(TEACHER_COOKIE, json.dumps({"key": settings.teacher_key,
                                                               "sid": secrets.token_urlsafe(12)}),
                                   expires_days=1, httponly=True, samesite="Lax")
            self.redirect(url_path_join(self.base_url, "voila/render", TEACHER_PAGE))

        def get(self):
            key = self.get_query_argument("key", "")
            if key:
                self._enter(key)
            elif Visitor.teacher(self):
                self.redirect(url_path_join(self.base_url, "voila/render", TEACHER_PAGE))
            else:
                self.finish(self.form())

        def post(self):
            JupyterHandler.check_xsrf_cookie(self)
            self._enter(self.get_body_argument("key", ""))

    class ExportHandler(ClassHandler):
        """The class's results for a gradebook: learners.csv, puzzles.csv, gradebook.xlsx (teacher only)."""

        def get(self, name):
            if self.refuse_unless_teacher():
                return
            try:
                download = class_export(room, name)
            except LookupError as e:
                self.refuse(404, "Not found", "No such download", str(e))
                return
            except CanastaError as e:
                self.refuse(503, "No results", "The class's results cannot be read", str(e))
                return
            send(self, download)

    class WorksheetHandler(ClassHandler):
        """A worksheet PDF (``?answers=1``: with the answer key) of a project puzzle set or an assignment, made on
        request (teacher only): ``/classroom/worksheet/set/05-take-pile.pdf``, ``.../assignment/3.pdf``."""

        async def get(self, kind, name):
            if self.refuse_unless_teacher():
                return
            answers = self.get_query_argument("answers", "") == "1"
            try:
                # up to a second of work: in a thread, so that the learners' pages are not held up meanwhile
                download = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: worksheet_download(kind, name, answers=answers, path=room.path))
            except LookupError as e:
                self.refuse(404, "Not found", "No such worksheet", str(e))
                return
            except CanastaError as e:
                self.refuse(422, "No worksheet", "This worksheet cannot be made", str(e))
                return
            send(self, download)

    class GuardedVoilaHandler(TornadoVoilaHandler):
        """A lesson page: only for signed-in learners in classroom mode; the dashboard only for the teacher.
        The kernel learns who the visitor is from the header set here, never from what the browser sent."""

        async def prepare(self):
            await super().prepare()
            path = (self.path_args[0] if self.path_args else "") or ""
            teacher = Visitor.teacher(self)
            session = None if teacher else Visitor.session(self)
            if is_teacher_page(path) and not teacher:
                self.set_status(403)
                self.finish(page("Teacher only", "<h1>This page is for the teacher</h1><p>Open "
                                 f"<a href='{url_path_join(self.base_url, 'teacher')}'>the teacher's sign-in</a> "
                                 "with the key printed by <code>canasta-tutor serve</code>.</p>"))
                return
            if settings.classroom and not teacher and not session:
                self.redirect(url_path_join(self.base_url, "classroom/signin"))
                return
            if teacher:
                identity = {"name": "teacher", "teacher": True}
            elif session:
                identity = {"name": session["name"], "learner_id": session["learner_id"],
                            "class_id": session["class_id"]}
            else:
                identity = None
            self.request.headers[IDENTITY_HEADER] = json.dumps(identity) if identity else ""
            _VISITOR.set(Visitor.key(self))

    class OwnerOnly:
        """Only the visitor who was given a kernel may shut it down, delete it or talk to it."""

        def owns(self, kernel_id: str) -> bool:
            return registry.owner.get(kernel_id) == Visitor.key(self)

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
            registry.forget(kernel_id)
            await super().post(kernel_id)

    class OwnKernelHandler(OwnerOnly, KernelHandler):
        async def prepare(self):
            await super().prepare()
            kernel_id = self.requested_kernel()
            if kernel_id not in self.kernel_manager:
                # A culled or closed kernel is gone for its owner too: the page asks, and tells the learner.
                raise tornado.web.HTTPError(404, "no such kernel")
            if not self.owns(kernel_id):
                raise tornado.web.HTTPError(403, "not your kernel")

    class OwnKernelWebsocketHandler(OwnerOnly, VoilaKernelWebsocketHandler):
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

    replacements = {MultiStaticFileHandler: CachedStaticFileHandler,
                    VoilaShutdownKernelHandler: ShutdownOnLeaveHandler,
                    TornadoVoilaHandler: GuardedVoilaHandler,
                    KernelHandler: OwnKernelHandler,
                    VoilaKernelWebsocketHandler: OwnKernelWebsocketHandler,
                    VoilaContentsHandler: Gone}

    class CanastaVoila(Voila):
        """Voilà whose root page is the lessons' landing page, with the classroom's pages."""

        def init_handlers(self):
            km = self.kernel_manager
            state["kernel_manager"] = km
            start_kernel = km.start_kernel

            async def start_and_register(*args, **kwargs):  # a kernel started for one request (no pool left)
                kernel_id = await start_kernel(*args, **kwargs)
                register(kernel_id)
                return kernel_id

            km.start_kernel = start_and_register
            if preheat and pools and hasattr(km, "get_rendered_notebook"):
                class_pools(km, pools)
            if preheat and hasattr(km, "kernel_pools_config"):
                # A class arrives at once: more kernels kept ready for the pages it opens together.
                for notebook, size in (pools or {}).items():
                    km.kernel_pools_config[notebook] = {"pool_size": int(size)}
                    km.fill_if_needed(delay=0, notebook_name=notebook)
            handlers = []
            for handler in super().init_handlers():
                if handler[1] in replacements:
                    handler = (handler[0], replacements[handler[1]]) + tuple(handler[2:])
                handlers.append(handler)
            base = self.server_url
            landing = url_path_join(base, "voila/render/index.ipynb")
            ours = [(base, tornado.web.RedirectHandler, {"url": landing}),
                    (url_path_join(base, "classroom/signin"), SignInHandler),
                    (url_path_join(base, "classroom/signout"), SignOutHandler),
                    (url_path_join(base, "teacher"), TeacherHandler),
                    (url_path_join(base, r"classroom/export/([a-z]+\.(?:csv|xlsx))"), ExportHandler),
                    (url_path_join(base, r"classroom/worksheet/(set|assignment)/([A-Za-z0-9_.-]+)\.pdf"),
                     WorksheetHandler)]
            return ours + handlers

    CanastaVoila.launch_instance(argv=voila_arguments(lessons.resolve(), port=port, open_browser=open_browser,
                                                      preheat=preheat, cull_idle=cull_idle, ip=ip,
                                                      pool_size=pool_size))


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


def serve_options(args, out=None) -> dict:
    """``serve``'s class options (from the command line) as keyword arguments of :func:`serve`; prints the
    addresses learners type, and the teacher's key and address."""
    import ipaddress
    import sys

    from ..classroom.roster import Classroom, network_addresses, new_key
    from ..engine.errors import CanastaError

    out = out or sys.stdout
    ip = args.ip or ("0.0.0.0" if args.classroom else "127.0.0.1")
    try:
        ipaddress.ip_address(ip)
    except ValueError:
        raise CanastaError(f"--ip {ip!r} is not an IP address (e.g. 192.168.1.20, or 0.0.0.0 for all)") from None
    if args.class_size < 0:
        raise CanastaError("--class-size must be 0 or more")
    classroom = bool(args.classroom or (args.ip and not ipaddress.ip_address(ip).is_loopback))
    key = (args.teacher_key or "").strip() or new_key()
    if args.new_class:
        Classroom().new_class(args.class_code or "")
    if ip == "0.0.0.0":
        hosts = network_addresses() or ["127.0.0.1"]
    else:
        hosts = [ip]
    urls = [f"http://{h}:{args.port}/" for h in hosts]
    if classroom:
        out.write("Learners open one of:\n" + "".join(f"    {u}\n" for u in urls))
    if args.class_code:
        out.write(f"Class code: {args.class_code}\n")
    out.write(f"Teacher's dashboard: {urls[0]}teacher?key={key}\n    (teacher key: {key})\n")
    out.flush()
    pools = {}
    if args.class_size:
        pools = {"index.ipynb": args.class_size}
    # The one-page app: the class's kernels are the landing page's; the lesson the class will open together is
    # prepared in each learner's kernel as they arrive (see widgets.app_page), not given kernels of its own.
    return {"ip": ip, "pools": pools, "class_lesson": args.class_lesson or None,
            "settings": ClassSettings(classroom=classroom, teacher_key=key, class_code=args.class_code,
                                      join_urls=urls)}
