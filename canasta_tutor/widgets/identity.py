"""Who is signed in, for every widget of a page.

The web app (:mod:`canasta_tutor.app`) signs a learner in once, on its own sign-in page, and keeps who it is in
a signed, HttpOnly cookie. When it serves a lesson it puts the identity it read from that cookie into the
request header ``X-Canasta-Identity`` (overwriting anything the browser sent under that name), and Voilà hands
that header to the page's kernel as the environment variable ``HTTP_X_CANASTA_IDENTITY``; a preheated kernel
waits for its request first (``voila.utils.wait_for_request``). Nothing the browser's widgets send can change it.

Outside the web app (a notebook in JupyterLab, nbval) nobody is signed in and :func:`current` is None: the
trainer then asks for a name as before.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass

ENV = "HTTP_X_CANASTA_IDENTITY"
_resolved = False


@dataclass(frozen=True)
class Identity:
    name: str
    learner_id: int | None = None
    class_id: int | None = None
    teacher: bool = False


def _wait_for_request() -> None:
    """In a preheated Voilà kernel, wait (once) until a visitor's request has been handed to this kernel."""
    global _resolved
    if _resolved:
        return
    _resolved = True
    if os.environ.get("VOILA_PREHEAT") == "True" and os.environ.get("VOILA_KERNEL_ID"):
        from voila.utils import wait_for_request

        wait_for_request()


def current() -> Identity | None:
    """The signed-in learner (or the teacher) of this page, or None when nobody is signed in."""
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


def panel_html(who: Identity | None, progress=None) -> str:
    """The landing page's box: who is signed in (with a sign-out link) and their progress, or a sign-in link."""
    base = base_url().rstrip("/")
    if who is None:
        return (f"<div class='ct-identity'><a href='{base}/classroom/signin'><b>Sign in</b></a> with your name, "
                f"so that your progress is kept under it on every page.</div>")
    if who.teacher:
        return (f"<div class='ct-identity'>You are signed in as the <b>teacher</b>: "
                f"<a href='{base}/voila/render/teacher/dashboard.ipynb'>open the class dashboard</a>.</div>")
    rows = ""
    if progress is not None and len(progress):
        body = "".join(f"<tr><td>{html.escape(str(r.topic))}</td><td>{int(r.attempts)}</td>"
                       f"<td>{round(float(r.accuracy) * 100)} %</td></tr>"
                       for r in (progress.itertuples() if hasattr(progress, "itertuples") else progress))
        rows = ("<table class='ct-my-progress'><tr><th>Topic</th><th>Answers</th><th>Right</th></tr>"
                f"{body}</table>")
        done = len(progress)
        rows = f"<p>Topics you have practised: <b>{done}</b>.</p>" + rows
    else:
        rows = "<p>You have not answered a puzzle yet: start with lesson 1.</p>"
    return (f"<div class='ct-identity'>Signed in as <b class='ct-learner-name'>{html.escape(who.name)}</b> · "
            f"<a href='{base}/classroom/signout'>sign out</a>{rows}</div>")


def signed_in_panel():
    """For the landing page: who is signed in and their own progress, or a link to sign in."""
    from IPython.display import HTML

    who = current()
    progress = None
    if who is not None and not who.teacher:
        from ..errors import CanastaError
        from ..progress import ProgressStore

        try:
            progress = my_progress(ProgressStore(), who.name)
        except CanastaError:
            progress = None
    return HTML(panel_html(who, progress))


@dataclass(frozen=True)
class TopicProgress:
    topic: str
    attempts: int
    accuracy: float


def my_progress(store, name: str) -> list[TopicProgress]:
    """One learner's answers per topic (in the order of the topics' names), without pandas: a learner's kernel
    needs nothing more, and pandas would add about 45 MB to each of a class's kernels."""
    counts: dict[str, list[int]] = {}
    for attempt in store.history(name):
        seen = counts.setdefault(str(attempt.topic), [0, 0])
        seen[0] += 1
        seen[1] += bool(attempt.correct)
    return [TopicProgress(topic, n, round(right / n, 2)) for topic, (n, right) in sorted(counts.items())]


def signed_in(*, learner: str, ask_name: bool) -> tuple[str, bool]:
    """(name, ask_name) for a widget: the signed-in learner's name and no name box, else the defaults."""
    who = current()
    if who is None or who.teacher:
        return learner, ask_name
    return who.name, False
