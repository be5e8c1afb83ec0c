"""The teacher's downloads on a JupyterHub single-user server (a jupyter-server extension).

``canasta-tutor serve`` serves the dashboard's exports and worksheet PDFs itself (:mod:`canasta_tutor.web.app`).
Under JupyterHub each teacher has a single-user server of their own, and this extension adds the same two routes
to it, for the teacher only (the hub set ``CANASTA_TUTOR_ROLE=teacher`` in the server's environment, see
``deploy/jupyterhub/``; a learner's server answers 403):

* ``classroom/export/learners.csv`` · ``puzzles.csv`` · ``gradebook.xlsx``
* ``classroom/worksheet/set/NAME.pdf`` · ``classroom/worksheet/assignment/N.pdf`` (``?answers=1``: with the key)

Enabled with ``--ServerApp.jpserver_extensions=canasta_tutor.web.hub=True`` (the deploy's ``Spawner.args``).
"""

from __future__ import annotations

import asyncio
import html
import os

import tornado.web
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join

from ..classroom.downloads import EXPORTS, class_export, send, worksheet_download
from ..engine.errors import CanastaError


def is_teacher_server() -> bool:
    """Whether the hub started this server for a teacher."""
    return bool(os.environ.get("JUPYTERHUB_USER")) and \
        os.environ.get("CANASTA_TUTOR_ROLE", "").strip().lower() == "teacher"


class _TeacherOnly(JupyterHandler):
    def refused(self) -> bool:
        if is_teacher_server():
            return False
        self.set_status(403)
        self.finish("<!DOCTYPE html><html lang='en'><title>Teacher only</title><h1>This is for teachers</h1>"
                    "<p>Ask the hub's administrator to add you to the hub group <i>teachers</i>.</p></html>")
        return True

    def problem(self, status: int, title: str, text: str) -> None:
        self.set_status(status)
        self.finish(f"<!DOCTYPE html><html lang='en'><title>{html.escape(title)}</title>"
                    f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></html>")


class ExportHandler(_TeacherOnly):
    """The open class's results for a gradebook."""

    @tornado.web.authenticated
    def get(self, name):
        if self.refused():
            return
        if name not in EXPORTS:
            raise tornado.web.HTTPError(404)
        from ..classroom.roster import Classroom

        try:
            download = class_export(Classroom(), name)
        except CanastaError as e:
            self.problem(503, "The class's results cannot be read", str(e))
            return
        send(self, download)


class WorksheetHandler(_TeacherOnly):
    """A worksheet PDF of a project puzzle set or an assignment, made on request."""

    @tornado.web.authenticated
    async def get(self, kind, name):
        if self.refused():
            return
        answers = self.get_query_argument("answers", "") == "1"
        try:
            download = await asyncio.get_running_loop().run_in_executor(
                None, lambda: worksheet_download(kind, name, answers=answers))
        except LookupError as e:
            self.problem(404, "No such worksheet", str(e))
            return
        except CanastaError as e:
            self.problem(422, "This worksheet cannot be made", str(e))
            return
        send(self, download)


def _jupyter_server_extension_points():
    return [{"module": "canasta_tutor.web.hub"}]


def _load_jupyter_server_extension(serverapp) -> None:
    base = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(".*$", [
        (url_path_join(base, r"classroom/export/([a-z]+\.(?:csv|xlsx))"), ExportHandler),
        (url_path_join(base, r"classroom/worksheet/(set|assignment)/([A-Za-z0-9_.-]+)\.pdf"), WorksheetHandler),
    ])
