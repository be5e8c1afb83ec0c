"""Who is signed in, for every widget of a page.

The web app (:mod:`canasta_tutor.web.app`) signs a learner in once, on its own sign-in page, and keeps who it is in
a signed, HttpOnly cookie. When it serves a lesson it puts the identity it read from that cookie into the
request header ``X-Canasta-Identity`` (overwriting anything the browser sent under that name), and Voilà hands
that header to the page's kernel as the environment variable ``HTTP_X_CANASTA_IDENTITY``; a preheated kernel
waits for its request first (``voila.utils.wait_for_request``). Nothing the browser's widgets send can change it.

Under JupyterHub (``deploy/jupyterhub/``) the hub has signed the learner in: the single-user server, and so every
kernel it starts, has the hub user's name in ``JUPYTERHUB_USER`` and, for a teacher (hub group ``teachers`` or an
admin), ``CANASTA_TUTOR_ROLE=teacher``, both set by the hub when it spawns the server (the learner does not choose
that environment). No sign-in form then; the learner joins the open class under the hub name on their first page.

Outside the web app and the hub (a notebook in JupyterLab, nbval) nobody is signed in and :func:`current` is
None: the trainer then asks for a name as before.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass

from .language import wait_for_visitor

ENV = "HTTP_X_CANASTA_IDENTITY"
HUB_USER_ENV = "JUPYTERHUB_USER"
HUB_ROLE_ENV = "CANASTA_TUTOR_ROLE"
_hub_cache: dict = {}


@dataclass(frozen=True)
class Identity:
    name: str
    learner_id: int | None = None
    class_id: int | None = None
    teacher: bool = False


def _wait_for_request() -> None:
    """In a preheated Voilà kernel, wait (once) until a visitor's request has been handed to this kernel (and take
    the visitor's language: :func:`canasta_tutor.widgets.language.wait_for_visitor`)."""
    wait_for_visitor()


def on_binder() -> bool:
    """Whether this runs on Binder (mybinder.org), whose hub names each visit at random and keeps nothing."""
    return bool(os.environ.get("BINDER_LAUNCH_HOST") or os.environ.get("BINDER_REQUEST"))


def hub_user() -> str | None:
    """The JupyterHub user this server was spawned for, or None outside a hub (and on Binder)."""
    if on_binder():
        return None
    return os.environ.get(HUB_USER_ENV) or None


def _from_hub(name: str) -> Identity:
    """The hub user as an identity: the teacher when the hub said so, else a learner of the open class (joined
    under the hub name the first time; a database that cannot be reached leaves the learner out of the class,
    not out of the lessons)."""
    if os.environ.get(HUB_ROLE_ENV, "").strip().lower() == "teacher":
        return Identity(name=name, teacher=True)
    if name in _hub_cache:
        return _hub_cache[name]
    from ..classroom.roster import Classroom, name_key
    from ..engine.errors import CanastaError

    who = Identity(name=name)
    try:
        room = Classroom()
        for _attempt in range(2):  # two pages of one learner may join at once: the second finds the first's row
            mine = [r for r in room.learners() if name_key(r["name"]) == name_key(name)]
            if mine:
                who = Identity(name=name, learner_id=mine[0]["learner_id"], class_id=room.current().id)
                break
            verdict = room.join(name, room.current().code)  # the hub signed them in: no class code to type
            if verdict:
                who = Identity(name=name, learner_id=verdict.learner["learner_id"],
                               class_id=verdict.learner["class_id"])
                break
    except CanastaError:
        return who
    _hub_cache[name] = who
    return who


def current() -> Identity | None:
    """The signed-in learner (or the teacher) of this page, or None when nobody is signed in."""
    name = hub_user()
    if name:
        return _from_hub(name)
    _wait_for_request()
    raw = os.environ.get(ENV, "")
    if not raw:
        return None
    try:
        data = json.loads(raw)
        return Identity(name=str(data["name"]), learner_id=data.get("learner_id"), class_id=data.get("class_id"),
                        teacher=bool(data.get("teacher")))
    except (ValueError, KeyError, TypeError):
        return None


def learner_name(default: str = "learner") -> str:
    """The signed-in learner's name, else ``default``."""
    who = current()
    return who.name if who is not None and not who.teacher else default


def base_url() -> str:
    return os.environ.get("VOILA_BASE_URL", "/") or "/"


def signout_url() -> str:
    """Where "sign out" goes: the hub's logout page under JupyterHub, else the web app's."""
    if hub_user():
        return (os.environ.get("JUPYTERHUB_BASE_URL", "/") or "/").rstrip("/") + "/hub/logout"
    return base_url().rstrip("/") + "/classroom/signout"


def panel_html(who: Identity | None, progress=None, *, code: str = "") -> str:
    """The landing page's box: who is signed in (with a sign-out link), their personal ``code`` and their progress,
    or a sign-in link."""
    from ..engine.i18n import gettext as _

    base = base_url().rstrip("/")
    if who is None and on_binder():
        return ("<div class='ct-identity'>" + html.escape(_("On Binder your progress is kept only during this visit: "
                                                            "it is gone when you close the page or leave it idle."))
                + "</div>")
    if who is None:
        link = f"<a href='{base}/classroom/signin'><b>" + html.escape(_("Sign in")) + "</b></a>"
        return ("<div class='ct-identity'>"
                + _("{sign_in} with your name, so that your progress is kept under it on every page.")
                .format(sign_in=link) + "</div>")
    if who.teacher:
        link = (f"<a href='{base}/voila/render/teacher/dashboard.ipynb'>" + html.escape(_("open the class dashboard"))
                + "</a>")
        return ("<div class='ct-identity'>"
                + _("You are signed in as the {teacher}: {link}.").format(teacher="<b>" + html.escape(_("teacher"))
                                                                            + "</b>", link=link) + "</div>")
    rows = ""
    if progress is not None and len(progress):
        body = "".join(f"<tr><td>{html.escape(str(r.topic))}</td><td>{int(r.attempts)}</td>"
                       f"<td>{round(float(r.accuracy) * 100)} %</td></tr>"
                       for r in (progress.itertuples() if hasattr(progress, "itertuples") else progress))
        heads = "".join(f"<th>{html.escape(h)}</th>" for h in (_("Topic"), _("Answers"), _("Right")))
        rows = f"<table class='ct-my-progress'><tr>{heads}</tr>{body}</table>"
        done = len(progress)
        rows = "<p>" + _("Topics you have practised: {count}.").format(count=f"<b>{done}</b>") + "</p>" + rows
    else:
        rows = "<p>" + html.escape(_("You have not answered a puzzle yet: start with lesson 1.")) + "</p>"
    mine = ("<p>" + _("Your personal code: {code} (write it down: with it you sign in again, on any device)").format(
        code=f"<b class='ct-personal-code'>{html.escape(code)}</b>") + "</p>" if code else "")
    name = f"<b class='ct-learner-name'>{html.escape(who.name)}</b>"
    out = f"<a href='{html.escape(signout_url(), quote=True)}'>" + html.escape(_("sign out")) + "</a>"
    return ("<div class='ct-identity'>" + _("Signed in as {name}").format(name=name) + f" · {out}{mine}{rows}</div>")


def signed_in_panel():
    """For the landing page: who is signed in and their own progress, or a link to sign in."""
    from IPython.display import HTML

    who = current()
    progress, code = None, ""
    if who is not None and not who.teacher:
        from ..classroom.progress import ProgressStore
        from ..engine.errors import CanastaError

        try:
            progress = my_progress(ProgressStore(), who.name, who.learner_id)
        except CanastaError:
            progress = None
        code = personal_code(who)
    return HTML(panel_html(who, progress, code=code))


def personal_code(who: Identity) -> str:
    """The learner's personal code (to sign in again on any device), or "" (under a hub: the hub signs them in)."""
    if who.learner_id is None or hub_user():
        return ""
    from ..classroom.roster import Classroom
    from ..engine.errors import CanastaError

    try:
        found = Classroom().learner(who.learner_id)
    except CanastaError:
        return ""
    return str(found.get("code") or "") if found else ""


@dataclass(frozen=True)
class TopicProgress:
    topic: str
    attempts: int
    accuracy: float


def my_progress(store, name: str, learner_id: int | None = None) -> list[TopicProgress]:
    """One learner's answers per topic (in the order of the topics' names), without pandas: a learner's kernel
    needs nothing more, and pandas would add about 45 MB to each of a class's kernels. ``learner_id``: a learner
    of a class, whose answers are theirs alone (a namesake in an earlier class is someone else)."""
    counts: dict[str, list[int]] = {}
    history = store.history(name, learner_id=learner_id) if learner_id is not None else store.history(name)
    for attempt in history:
        seen = counts.setdefault(str(attempt.topic), [0, 0])
        seen[0] += 1
        seen[1] += bool(attempt.correct)
    return [TopicProgress(topic, n, round(right / n, 2)) for topic, (n, right) in sorted(counts.items())]


def signed_in_id(name: str) -> int | None:
    """The signed-in learner's id in their class, when ``name`` is theirs (whose progress a widget keeps)."""
    who = current()
    if who is None or who.teacher or who.name != name:
        return None
    return who.learner_id


def signed_in(*, learner: str, ask_name: bool) -> tuple[str, bool]:
    """(name, ask_name) for a widget: the signed-in learner's name and no name box, else the defaults."""
    who = current()
    if who is None or who.teacher:
        return learner, ask_name
    return who.name, False
