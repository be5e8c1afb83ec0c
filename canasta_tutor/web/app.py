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
  :func:`.voila_server.class_pools`) and the other pages start theirs on demand;
* idle kernels are culled (a class leaves tabs open); progress is saved on every
  answer, so culling loses nothing.

For a class (``--classroom``, ``--ip``; see the README's "Teaching a class"):

* learners sign in once on ``/classroom/signin`` (name, and the class code when there is one); a signed,
  HttpOnly cookie keeps who they are, and every page's kernel learns it from the server (the
  ``X-Canasta-Identity`` header, see :mod:`canasta_tutor.widgets.identity`), never from the browser;
* in classroom mode only signed-in visitors get a kernel; every visitor (a session, or an address when
  nobody is signed in) holds at most ``kernels_per_visitor`` kernels: opening one more shuts the oldest down
  (its page says why); on one learner's computer (no classroom) there is no such cap, only idle kernels are culled;
* the whole server holds at most ``max_kernels`` learners' kernels (:func:`kernel_limit`: ``--max-kernels``, or
  ``--class-size`` and a fifth more, or what the machine's free memory holds): a page beyond it is a short page
  that says so ("The class is full: ask your teacher"), never a kernel more;
* only the visitor who was given a kernel may shut it down, talk to it or delete it;
* the teacher's page (``teacher/dashboard.ipynb``), the Join screen, the join cards, the exports and the worksheet
  PDFs need the teacher's session: the teacher types the key once (the server prints where to find it, never the
  key itself); sign-ins and key tries are rate-limited; sessions are kept in the database and the cookie secret
  beside it, so a restart signs nobody out.

:func:`serve` gathers the settings, builds the route table and starts Voilà; the handlers are at module level,
each configured by its route: our pages and the teacher's downloads in :mod:`.handlers` (the downloads are the
hub's too), the handlers that replace Voilà's own and the application in :mod:`.voila_server`, who the visitor is
in :mod:`.visitors`.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from ..classroom.downloads import worksheet_for  # noqa: F401 (its home was here; tests and older code import it from here)
from ..engine.i18n import SOURCE_LANGUAGE, ngettext
from ..engine.i18n import gettext as _
from .folders import default_lessons_dir
from .kernel_gate import WIDGET_MESSAGES, gate_arguments  # noqa: F401 (WIDGET_MESSAGES: the deploy's import)
from .language import HEADER as LANGUAGE_HEADER
from .visitors import IDENTITY_HEADER, KERNELS_PER_VISITOR, TEACHER_PAGE, TeacherKey, Visitors, loopback_addresses

TEMPLATE_ROOT = Path(__file__).resolve().parent / "share" / "jupyter"
DEFAULT_PORT = 8866
CLASS_LESSON_ENV = "CANASTA_CLASS_LESSON"  # the lesson a class will open together (--class-lesson)
KEEP_KEY_ENV = "CANASTA_KEEP_KEY"  # canasta_tutor.widgets.keep.KEY_ENV (not imported: no widgets in the server)


KERNEL_BYTES = 150 * 2**20  # what one learner's kernel may take, with room to grow (80-90 MB measured, README)
MEMORY_RESERVE = 2**30  # left to the rest of the machine (the server itself, the teacher's browser)


def memory_kernel_limit(available: int | None = None) -> int:
    """How many learners' kernels ``available`` bytes of memory hold (default: the machine's free memory now),
    at least 2.

    >>> memory_kernel_limit(4 * 2**30), memory_kernel_limit(24 * 2**30), memory_kernel_limit(2**29)
    (20, 157, 2)
    """
    if available is None:
        import psutil

        available = psutil.virtual_memory().available
    return max(2, int((available - MEMORY_RESERVE) // KERNEL_BYTES))


def kernel_limit(*, class_size: int = 0, max_kernels: int = 0, available: int | None = None) -> int:
    """How many learners' kernels the whole server holds at once: ``max_kernels`` when given, else a class of
    ``class_size`` and a fifth more (at least 2 more: a reload, a second tab), else what the memory holds.

    >>> kernel_limit(max_kernels=7), kernel_limit(class_size=30), kernel_limit(class_size=1)
    (7, 36, 3)
    """
    if max_kernels:
        return max_kernels
    if class_size:
        return class_size + max(2, class_size // 5)
    return memory_kernel_limit(available)


def keep_key(folder: Path) -> str:
    """The key the kernels sign the answers kept in a browser with: kept in ``folder`` (beside the database's
    waiting file, readable by the server's user only), so that an answer kept before a restart is still taken after
    it; a new one when the file cannot be read or written."""
    path = Path(folder) / "browser-keep.key"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        key = path.read_text("ascii").strip()
        if len(key) >= 32:
            return key
    key = secrets.token_hex(32)
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key)
    return key


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
        # no ?template=classic (whose page links stylesheets on a CDN) nor ?theme= from a visitor's address
        "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.allow_theme_override=NO",
        f"--VoilaConfiguration.preheat_kernel={preheat}",
        f"--VoilaConfiguration.default_pool_size={pool_size}",
        f"--VoilaConfiguration.http_header_envs={IDENTITY_HEADER}",
        f"--VoilaConfiguration.http_header_envs={LANGUAGE_HEADER}",  # (the page's language: widgets/language.py)
        *gate_arguments("Voila"),  # only the widgets' messages reach a kernel, and no traceback a page
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


@dataclass
class ClassSettings:
    """How the server admits visitors."""

    classroom: bool = False            # sign-in required for every page
    teacher_key: str = ""
    class_code: str | None = None      # None: keep the open class's code
    kernels_per_visitor: int = KERNELS_PER_VISITOR  # in classroom mode only
    max_kernels: int = 0               # learners' kernels in all (0: what the machine's free memory holds)
    join_urls: list = field(default_factory=list)


def serve(lessons: str | os.PathLike | None = None, *, port: int = DEFAULT_PORT, open_browser: bool = True,
          preheat: bool = True, cull_idle: int = 1800, ip: str = "127.0.0.1",
          settings: ClassSettings | None = None, pool_size: int = 1, pools: dict | None = None,
          class_lesson: str | None = None) -> None:
    """Start Voilà on the lessons (blocks until stopped)."""
    lessons = check_lessons(lessons)
    settings = settings or ClassSettings()
    pools = dict(pools or {})
    if pools:
        # A class uses one page (the landing page shows every lesson inside itself): its pool holds the class's
        # kernels; the other pages start a kernel when asked (old links), except the teacher's, kept ready.
        pool_size = 0
        pools.setdefault(TEACHER_PAGE, 1)
    check_lessons(lessons, [*pools, class_lesson])
    if class_lesson:
        os.environ[CLASS_LESSON_ENV] = Path(class_lesson).stem  # the landing page's kernels prepare it
    paths = [str(TEMPLATE_ROOT)] + [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(paths)
    # A preheated kernel asks the server for its visitor's request at this address (Voilà's default is
    # 127.0.0.1, which a server listening on one other address does not answer).
    os.environ["VOILA_APP_IP"] = "127.0.0.1" if ip in ("0.0.0.0", "", "*") else ip
    os.environ["CANASTA_JOIN_URLS"] = json.dumps(settings.join_urls)

    from ..classroom.roster import Classroom
    from .voila_server import CanastaVoila, KernelOwners, Plan, voila_replacements

    room = Classroom()
    if settings.class_code is not None and room.current().code != settings.class_code:
        room.set_code(settings.class_code)
    # every kernel signs the answers it leaves in a browser with this key (canasta_tutor.widgets.keep)
    os.environ.setdefault(KEEP_KEY_ENV, keep_key(room.store.journal.parent))
    visitors = Visitors(room, settings.teacher_key, exempt=loopback_addresses())
    kernels = KernelOwners(settings.kernels_per_visitor if settings.classroom else None,
                           settings.max_kernels or memory_kernel_limit())
    plan = Plan(routes=route_table(visitors, settings.join_urls), kernels=kernels, pools=pools, preheat=preheat,
                cookie_secret=visitors.secret, pool_language=pool_language(room if settings.classroom else None),
                replacements=voila_replacements(visitors, kernels, sign_in_required=settings.classroom))
    CanastaVoila.launch_instance(argv=voila_arguments(lessons.resolve(), port=port, open_browser=open_browser,
                                                      preheat=preheat, cull_idle=cull_idle, ip=ip,
                                                      pool_size=pool_size), plan=plan)


def check_lessons(lessons: str | os.PathLike | None = None, notebooks=()) -> Path:
    """The lessons' folder (default: the project's lessons/); FileNotFoundError, in the current language, when it
    has no ``index.ipynb`` or lacks one of ``notebooks`` (``None`` in it is skipped)."""
    lessons = Path(lessons) if lessons else default_lessons_dir()
    if not (lessons / "index.ipynb").is_file():
        raise FileNotFoundError(_("no lessons found: {path} does not exist").format(path=lessons / "index.ipynb"))
    for notebook in notebooks:
        if notebook and not (lessons / notebook).is_file():
            raise FileNotFoundError(_("--class-lesson: there is no lesson {notebook} in {folder}").format(
                notebook=notebook, folder=lessons))
    return lessons


def pool_language(room=None) -> str:
    """The language of the preheated kernels' pages: the class's (set by the teacher) in classroom mode, else
    ``serve --lang``, else English. A visitor of another language gets a page of their own (a few seconds more)."""
    from .language import known, server_language

    chosen = None
    if room is not None:
        with contextlib.suppress(Exception):  # a database out of reach: the server's language
            chosen = known(room.class_language())
    return chosen or server_language() or SOURCE_LANGUAGE


def teacher_link(store, address: str, key: str) -> Path:
    """A page beside the database, readable only by this user (0600), whose link opens the dashboard with ``key``:
    the key after the "#" (never sent to the server, so never logged), filled into the teacher's form."""
    import html

    from ..classroom.accounts import secret_path

    path = secret_path(store).with_name("teacher-link.html")
    link = html.escape(f"{address}#key={key}", quote=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        title, opening = html.escape(_("Teacher's dashboard")), html.escape(_("Open the teacher's dashboard"))
        keep = html.escape(_("(this file holds the teacher key: keep it to yourself)"))
        f.write(f"<!DOCTYPE html><meta charset='utf-8'><title>{title}</title>"
                f"<meta http-equiv='refresh' content='0; url={link}'>"
                f"<p><a href='{link}'>{opening}</a> {keep}.</p>")
    return path


def route_table(visitors: Visitors, join_urls=()) -> list[tuple]:
    """``canasta-tutor serve``'s own routes (paths under the server's URL), each with what its handler needs."""
    from .handlers import SIGN_IN, LandingRedirect, SignInHandler, SignOutHandler, TeacherHandler, download_routes
    from .teacher_pages import teacher_page_routes

    signing_in = {"visitors": visitors}
    return [("", LandingRedirect, {}),
            (SIGN_IN, SignInHandler, signing_in),
            ("classroom/signout", SignOutHandler, signing_in),
            ("teacher", TeacherHandler, signing_in),
            *download_routes(teachers=TeacherKey(visitors), room=visitors.room),
            *teacher_page_routes(teachers=TeacherKey(visitors), room=visitors.room, join_urls=join_urls)]


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
        raise CanastaError(_("--ip {ip} is not an IP address (e.g. 192.168.1.20, or 0.0.0.0 for all)").format(
            ip=repr(ip))) from None
    if getattr(args, "lang", None):
        from .language import set_server_language

        set_server_language(args.lang)  # a bad code: LanguageError, a CanastaError (the languages it speaks)
    if args.class_size < 0:
        raise CanastaError(_("{option} must be 0 or more").format(option="--class-size"))
    if getattr(args, "max_kernels", 0) < 0:
        raise CanastaError(_("{option} must be 0 or more").format(option="--max-kernels"))
    classroom = bool(args.classroom or (args.ip and not ipaddress.ip_address(ip).is_loopback))
    key = (args.teacher_key or "").strip() or new_key()
    if args.new_class:
        Classroom().new_class(args.class_code or "")
    if ip == "0.0.0.0":
        hosts = network_addresses() or ["127.0.0.1"]
    else:
        hosts = [ip]
    urls = [f"http://{h}:{args.port}/" for h in hosts]
    limit = kernel_limit(class_size=args.class_size, max_kernels=getattr(args, "max_kernels", 0))
    room_for = memory_kernel_limit()
    # the address to open comes first; the teacher's line only when there is a class to teach
    # what the teacher reads in the terminal, in its language (cli: --lang, else $CANASTA_TUTOR_LANG)
    if classroom:
        out.write(_("Learners open one of:") + "\n" + "".join(f"    {u}\n" for u in urls))
        if args.class_code:
            out.write(_("Class code: {code}").format(code=args.class_code) + "\n")
        if (args.teacher_key or "").strip():
            out.write(_("Teacher's dashboard: {address} (type your teacher key)").format(
                address=f"{urls[0]}teacher") + "\n")
        else:
            link = teacher_link(Classroom().store, f"{urls[0]}teacher", key)
            out.write(_("Teacher's dashboard: open {link} in this computer's browser").format(link=link.as_uri())
                      + "\n    " + _("(the new teacher key is in that file, readable only by you: it is not shown "
                                     "here)") + "\n")
        out.write(ngettext("At most {count} learner's page at once (--max-kernels, --class-size; this machine's free "
                           "memory holds about {room}).",
                           "At most {count} learners' pages at once (--max-kernels, --class-size; this machine's "
                           "free memory holds about {room}).", limit).format(count=limit, room=room_for) + "\n")
        if limit > room_for:
            out.write(_("Warning: {count} pages may not fit in this machine's free memory.").format(count=limit)
                      + "\n")
    else:
        out.write(_("Open the lessons at {address}").format(address=urls[0]) + "\n")
    out.flush()
    pools = {}
    if args.class_size:
        pools = {"index.ipynb": args.class_size}
    # The one-page app: the class's kernels are the landing page's; the lesson the class will open together is
    # prepared in each learner's kernel as they arrive (see widgets.app_page), not given kernels of its own.
    return {"ip": ip, "pools": pools, "class_lesson": args.class_lesson or None,
            "settings": ClassSettings(classroom=classroom, teacher_key=key, class_code=args.class_code,
                                      join_urls=urls, max_kernels=limit)}
