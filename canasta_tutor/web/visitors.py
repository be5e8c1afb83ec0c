"""Who a request comes from, in one place for both servers.

* ``canasta-tutor serve`` (:class:`Visitors`): a learner signed in to the open class, the teacher (who typed the
  teacher key) or an anonymous visitor, read from signed, HttpOnly cookies that only this module writes;
* a teacher-only route asks its server's :class:`TeacherGate`: :class:`TeacherKey` on ``canasta-tutor serve``,
  :class:`HubRole` on a JupyterHub single-user server (the hub says who is a teacher);
* :class:`KernelRegistry`: which visitor was given which kernel.

No Tornado import: a handler here is anything with Tornado's cookie methods and a ``request``.

>>> is_teacher_page("./Teacher//dashboard.ipynb"), is_teacher_page("index.ipynb")
(True, False)
"""

from __future__ import annotations

import json
import os
import posixpath
import secrets
from typing import Protocol

SESSION_COOKIE = "canasta_session"
TEACHER_COOKIE = "canasta_teacher"
COOKIE_MAX_AGE_DAYS = 2  # a cookie older than this is not read
COOKIE_DAYS = 1  # how long the browser keeps one
TEACHER_DIR = "teacher"  # lessons/teacher/: the teacher's pages
TEACHER_PAGE = TEACHER_DIR + "/dashboard.ipynb"
KERNELS_PER_VISITOR = 4
IDENTITY_HEADER = "X-Canasta-Identity"  # who the visitor is, as the server tells a page's kernel
HUB_ROLE_ENV = "CANASTA_TUTOR_ROLE"  # what the hub says this server's user is (deploy/jupyterhub/)


def is_teacher_page(path: str) -> bool:
    """Whether a path under /voila/render/ is one of the teacher's pages (however it is spelled)."""
    parts = [p for p in posixpath.normpath("/" + str(path).replace("\\", "/")).split("/") if p]
    return bool(parts) and parts[0].casefold() == TEACHER_DIR


class Visitors:
    """The visitors of ``canasta-tutor serve``: the learners of ``room``'s open class (a
    :class:`~canasta_tutor.classroom.roster.Classroom`) and the teacher, who knows ``teacher_key`` ("" : nobody)."""

    def __init__(self, room, teacher_key: str):
        self.room = room
        self.teacher_key = teacher_key

    # --- who is asking ----------------------------------------------------------------------------------
    def session(self, handler) -> dict | None:
        """The signed-in learner (learner_id, name, class_id, sid), or None."""
        data = self._cookie(handler, SESSION_COOKIE)
        if data is None:
            return None
        learner = self.room.learner(data.get("learner_id", -1))
        if learner is None or learner["name"] != data.get("name"):
            return None  # signed in to a class that has been closed since
        return {**learner, "sid": data.get("sid", "")}

    def teacher(self, handler) -> str | None:
        """The teacher's session id when the teacher is asking, else None."""
        if not self.teacher_key:
            return None
        data = self._cookie(handler, TEACHER_COOKIE)
        if data is None or not _same(str(data.get("key", "")), self.teacher_key):
            return None
        return str(data.get("sid", ""))

    def key(self, handler) -> str:
        """One string per visitor: the teacher's session, a learner's session, or else the address."""
        teacher = self.teacher(handler)
        if teacher:
            return "teacher:" + teacher
        session = self.session(handler)
        if session:
            return f"learner:{session['learner_id']}:{session['sid']}"
        return "anonymous:" + str(handler.request.remote_ip)

    def is_teacher_key(self, key: str) -> bool:
        return bool(self.teacher_key) and _same(key.strip(), self.teacher_key)

    @staticmethod
    def _cookie(handler, name: str) -> dict | None:
        raw = handler.get_secure_cookie(name, max_age_days=COOKIE_MAX_AGE_DAYS)
        if not raw:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    # --- signing in and out -------------------------------------------------------------------------------
    def sign_in_learner(self, handler, learner: dict) -> None:
        """Remember ``learner`` (a :meth:`Classroom.join` verdict's learner) in this browser."""
        self._set(handler, SESSION_COOKIE, dict(learner, sid=secrets.token_urlsafe(12)))

    def sign_in_teacher(self, handler) -> None:
        self._set(handler, TEACHER_COOKIE, {"key": self.teacher_key, "sid": secrets.token_urlsafe(12)})

    @staticmethod
    def sign_out(handler) -> None:
        handler.clear_cookie(SESSION_COOKIE)
        handler.clear_cookie(TEACHER_COOKIE)

    @staticmethod
    def _set(handler, name: str, data: dict) -> None:
        handler.set_secure_cookie(name, json.dumps(data), expires_days=COOKIE_DAYS, httponly=True, samesite="Lax")


def _same(typed: str, key: str) -> bool:
    """``typed == key`` in constant time, whatever letters either has (compare_digest refuses non-ASCII text)."""
    return secrets.compare_digest(typed.encode("utf-8", "surrogatepass"), key.encode("utf-8", "surrogatepass"))


class TeacherGate(Protocol):
    """A server's way of saying who is a teacher, for its teacher-only routes."""

    #: the page's body (trusted HTML) that everyone else is answered with (403)
    refusal: str

    def is_teacher(self, handler) -> bool: ...


class TeacherKey:
    """``canasta-tutor serve``: the teacher is whoever typed the teacher key (its signed cookie)."""

    refusal = "<h1>The teacher key is needed</h1>"

    def __init__(self, visitors: Visitors):
        self.visitors = visitors

    def is_teacher(self, handler) -> bool:
        return bool(self.visitors.teacher(handler))


def is_teacher_server() -> bool:
    """Whether the hub started this server for a teacher (``CANASTA_TUTOR_ROLE=teacher``)."""
    return bool(os.environ.get("JUPYTERHUB_USER")) and os.environ.get(HUB_ROLE_ENV, "").strip().lower() == "teacher"


class HubRole:
    """A JupyterHub single-user server: the hub started it for a teacher (see :func:`is_teacher_server`). Who may
    reach the server at all is the hub's to say (the handlers are ``@authenticated``)."""

    refusal = ("<h1>This is for teachers</h1><p>Ask the hub's administrator to add you to the hub group "
               "<i>teachers</i>.</p>")

    def is_teacher(self, handler) -> bool:
        return is_teacher_server()


class KernelRegistry:
    """Which visitor was given which kernel (oldest first), so that each holds at most ``cap`` kernels (None: no
    cap per visitor), and the visitors other than the teacher at most ``limit`` in all (None: no limit).

    A page asked for is :meth:`admit`\ted first (a ticket, or None when the server is full): the pages on their way
    count as kernels already, so that a class arriving at once cannot overshoot the limit."""

    REPLACED_KEPT = 200  # how many kernels shut down for their visitor's newer page are remembered (for the page)

    def __init__(self, cap: int | None, limit: int | None = None):
        self.cap = None if cap is None else max(1, cap)
        self.limit = None if limit is None else max(1, limit)
        self.by_visitor: dict[str, list[str]] = {}
        self.owner: dict[str, str] = {}
        self.arriving: dict[object, str] = {}  # ticket -> visitor: a page asked for, its kernel not yet handed out
        self.replaced: dict[str, str] = {}  # kernel id -> visitor, for kernels shut down for a newer page

    def add(self, visitor: str, kernel_id: str, alive) -> list[str]:
        """Note the kernel; return the kernels to shut down (the visitor's oldest beyond the cap)."""
        ticket = next((t for t, v in self.arriving.items() if v == visitor), None)
        self.arriving.pop(ticket, None)
        mine = [k for k in self.by_visitor.get(visitor, []) if k in alive and k != kernel_id]
        mine.append(kernel_id)
        self.owner[kernel_id] = visitor
        excess = mine[:-self.cap] if self.cap is not None and len(mine) > self.cap else []
        self.by_visitor[visitor] = mine[len(excess):]
        for k in excess:
            self.owner.pop(k, None)
            self.replaced[k] = visitor
        while len(self.replaced) > self.REPLACED_KEPT:
            self.replaced.pop(next(iter(self.replaced)))
        for k in [k for k in self.owner if k not in alive and k != kernel_id]:
            self.owner.pop(k, None)
        return excess

    def forget(self, kernel_id: str) -> None:
        visitor = self.owner.pop(kernel_id, None)
        if visitor is not None:
            self.by_visitor[visitor] = [k for k in self.by_visitor.get(visitor, []) if k != kernel_id]

    # --- the server's limit -------------------------------------------------------------------------------------
    def held(self, alive) -> int:
        """The kernels the visitors other than the teacher hold, and the pages on their way to one."""
        kernels = sum(1 for k, v in self.owner.items() if k in alive and not v.startswith("teacher:"))
        return kernels + sum(1 for v in self.arriving.values() if not v.startswith("teacher:"))

    def admit(self, visitor: str, alive) -> object | None:
        """A ticket for a page that will get a kernel, or None when the server is full. The teacher always gets
        one; so does a visitor at their own cap (their oldest kernel makes room)."""
        mine = [k for k in self.by_visitor.get(visitor, []) if k in alive]
        at_cap = self.cap is not None and len(mine) >= self.cap
        if visitor.startswith("teacher:") or at_cap or self.limit is None or self.held(alive) < self.limit:
            ticket = object()
            self.arriving[ticket] = visitor
            return ticket
        return None

    def leave(self, ticket) -> None:
        """The page's request is over (its kernel handed out, or none needed)."""
        self.arriving.pop(ticket, None)
