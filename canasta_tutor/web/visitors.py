"""Who a request comes from, in one place for both servers.

* ``canasta-tutor serve`` (:class:`Visitors`): a learner signed in to the open class, the teacher (who typed the
  teacher key) or an anonymous visitor, read from signed, HttpOnly cookies that only this module writes (a
  session id each: the sessions are kept in the database, and outlast a restart of the server);
* :class:`RateLimit`: how often an address, and everyone together, may try to sign in or type the teacher key;
* a teacher-only route asks its server's :class:`TeacherGate`: :class:`TeacherKey` on ``canasta-tutor serve``,
  :class:`HubRole` on a JupyterHub single-user server (the hub says who is a teacher);
* :class:`KernelRegistry`: which visitor was given which kernel.

No Tornado import: a handler here is anything with Tornado's cookie methods and a ``request``.

>>> is_teacher_page("./Teacher//dashboard.ipynb"), is_teacher_page("index.ipynb")
(True, False)
"""

from __future__ import annotations

import contextlib
import json
import os
import posixpath
import secrets
import time
from typing import Protocol

SESSION_COOKIE = "canasta_session"
TEACHER_COOKIE = "canasta_teacher"
# A session lasts until its learner signs out or the teacher ends the class (the database says which sessions
# are open): the browser keeps the cookie as long as browsers keep any (400 days, RFC 6265bis).
COOKIE_DAYS = 400
COOKIE_MAX_AGE_DAYS = COOKIE_DAYS + 1  # a cookie signed longer ago than this is not read
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
    :class:`~canasta_tutor.classroom.roster.Classroom`) and the teacher, who knows ``teacher_key`` ("" : nobody).

    A cookie holds only a session id (signed with ``secret``, the server's cookie secret: by default the one kept
    beside the database, see :func:`~canasta_tutor.classroom.accounts.cookie_secret`); who it is, and whether it
    is still open, is the database's (:class:`~canasta_tutor.classroom.accounts.Sessions`). The key itself is in
    no cookie."""

    def __init__(self, room, teacher_key: str, secret: bytes | None = None, *, exempt=()):
        from ..classroom.accounts import Sessions, cookie_secret

        self.room = room
        self.teacher_key = teacher_key
        self.secret = secret if secret is not None else cookie_secret(room.store)
        self.sessions = Sessions(room, self.secret)
        #: sign-ins: 10 a minute from one address, 60 at once from everyone (a class arriving), then one a second;
        #: teacher keys: 5 a minute from one address, 20 a minute in all (``exempt``: no bucket of their own)
        self.limits = {"sign-in": RateLimit(per_address=(10, 60.0), overall=(60, 60.0), exempt=exempt),
                       "teacher-key": RateLimit(per_address=(5, 60.0), overall=(20, 60.0), exempt=exempt)}
        #: (a wrong key counts, the right one does not: the teacher is not locked out by their own visits)

    # --- who is asking ----------------------------------------------------------------------------------
    def session(self, handler) -> dict | None:
        """The signed-in learner (learner_id, name, class_id, sid), or None."""
        return self._known(handler, "_canasta_learner", self._session)

    def _session(self, handler) -> dict | None:
        sid = self._sid(handler, SESSION_COOKIE)
        learner = self.sessions.learner(sid) if sid else None
        return {**learner, "sid": sid} if learner else None

    def teacher(self, handler) -> str | None:
        """The teacher's session id when the teacher is asking, else None."""
        return self._known(handler, "_canasta_teacher", self._teacher)

    def _teacher(self, handler) -> str | None:
        if not self.teacher_key:
            return None
        sid = self._sid(handler, TEACHER_COOKIE)
        return sid if sid and self.sessions.is_teacher(sid, self.teacher_key) else None

    def _known(self, handler, slot: str, find):
        """``find(handler)``, asked once per request and server (a page's request asks several times)."""
        known = getattr(handler, "_canasta_who", None)
        if not isinstance(known, dict):
            known = {}
            with contextlib.suppress(AttributeError):
                handler._canasta_who = known
        if (id(self), slot) not in known:
            known[(id(self), slot)] = find(handler)
        return known[(id(self), slot)]

    @staticmethod
    def _forget(handler) -> None:
        with contextlib.suppress(AttributeError):
            handler._canasta_who = {}

    def key(self, handler) -> str:
        """One string per visitor: the teacher's session, a learner (all their sign-ins and devices together: signing
        in again gives no more kernels than the cap), or else the address."""
        teacher = self.teacher(handler)
        if teacher:
            return "teacher:" + teacher
        session = self.session(handler)
        if session:
            return f"learner:{session['learner_id']}"
        return "anonymous:" + str(handler.request.remote_ip)

    def is_teacher_key(self, key: str) -> bool:
        return bool(self.teacher_key) and _same(key.strip(), self.teacher_key)

    @staticmethod
    def _sid(handler, name: str) -> str:
        """The session id in a cookie of ours, or "" (a cookie that is not ours, or signed too long ago)."""
        raw = handler.get_secure_cookie(name, max_age_days=COOKIE_MAX_AGE_DAYS)
        if not raw:
            return ""
        try:
            data = json.loads(raw)
        except ValueError:
            return ""
        sid = data.get("sid") if isinstance(data, dict) else None
        return sid if isinstance(sid, str) else ""

    # --- signing in and out -------------------------------------------------------------------------------
    def sign_in_learner(self, handler, learner: dict) -> None:
        """Remember ``learner`` (a :meth:`Classroom.join` verdict's learner) in this browser."""
        self._forget(handler)
        self._set(handler, SESSION_COOKIE, {"sid": self.sessions.open(learner_id=learner["learner_id"])})

    def sign_in_teacher(self, handler) -> None:
        self._forget(handler)
        self._set(handler, TEACHER_COOKIE, {"sid": self.sessions.open(teacher_key=self.teacher_key)})

    def sign_out(self, handler) -> None:
        """This browser's sessions end (in the database: the cookies cannot be used again) and its cookies go."""
        for name in (SESSION_COOKIE, TEACHER_COOKIE):
            self.sessions.close(self._sid(handler, name))
            handler.clear_cookie(name)
        self._forget(handler)

    @staticmethod
    def _set(handler, name: str, data: dict) -> None:
        handler.set_secure_cookie(name, json.dumps(data), expires_days=COOKIE_DAYS, httponly=True, samesite="Lax")


class RateLimit:
    """How often something may be tried (a sign-in, a teacher key): token buckets, one per address and one for
    everyone. ``per_address`` and ``overall``: (how many at once, in how many seconds they come back).
    ``exempt``: addresses with no bucket of their own (the server's own machine, the teacher's), still counted in
    the overall one. No Tornado: :meth:`wait` answers how long to wait (0: go ahead, and it is counted).

    >>> limit = RateLimit(per_address=(2, 60), overall=(3, 60), clock=lambda: 0.0)
    >>> [limit.wait("10.0.0.1") for _ in range(3)], limit.wait("10.0.0.2"), limit.wait("10.0.0.3")
    ([0.0, 0.0, 30.0], 0.0, 20.0)
    """

    def __init__(self, *, per_address: tuple = (10, 60.0), overall: tuple = (60, 60.0), exempt=(),
                 clock=time.monotonic):
        self.per_address, self.overall = per_address, overall
        self.exempt = frozenset(exempt)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address (or "" for everyone) -> (tokens, when)

    def _level(self, who: str, size: tuple, now: float) -> float:
        burst, seconds = size
        tokens, when = self._buckets.get(who, (float(burst), now))
        return min(float(burst), tokens + (now - when) * burst / seconds)

    def wait(self, address: str, *, count: bool = True) -> float:
        """0.0 when ``address`` may try now (the try is counted, unless not ``count``), else the seconds until it
        may."""
        now = self.clock()
        if len(self._buckets) > 10_000:  # full buckets are as good as none
            self._buckets = {k: v for k, v in self._buckets.items()
                             if self._level(k, self.overall if k == "" else self.per_address, now) < 1}
        checks = [("", self.overall)] + ([] if address in self.exempt else [(address, self.per_address)])
        levels = [(who, size, self._level(who, size, now)) for who, size in checks]
        short = [(1 - level) * size[1] / size[0] for _who, size, level in levels if level < 1]
        if short:
            return round(max(short), 1)
        if not count:
            return 0.0
        for who, _size, level in levels:
            self._buckets[who] = (level - 1, now)
        return 0.0


def loopback_addresses() -> frozenset:
    """The server's own machine: its teacher's browser and ``benchmarks/classroom.py`` (no bucket of their own)."""
    return frozenset({"127.0.0.1", "::1"} | {f"127.0.0.{i}" for i in range(256)})


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
