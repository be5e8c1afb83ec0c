"""The teacher's downloads on a JupyterHub single-user server (a jupyter-server extension).

``canasta-tutor serve`` serves the dashboard's exports and worksheet PDFs itself (:mod:`canasta_tutor.web.app`).
Under JupyterHub each teacher has a single-user server of their own, and this extension adds the same two routes,
with the same handlers (:func:`canasta_tutor.web.handlers.download_routes`), for the teacher only (the hub set
``CANASTA_TUTOR_ROLE=teacher`` in the server's environment, see ``deploy/jupyterhub/`` and
:class:`~canasta_tutor.web.visitors.HubRole`; a learner's server answers 403):

* ``classroom/export/learners.csv`` · ``puzzles.csv`` · ``gradebook.xlsx``
* ``classroom/worksheet/set/NAME.pdf`` · ``classroom/worksheet/assignment/N.pdf`` (``?answers=1``: with the key)

Enabled with ``--ServerApp.jpserver_extensions=canasta_tutor.web.hub=True`` (the deploy's ``Spawner.args``).
"""

from __future__ import annotations

from .handlers import download_routes, mount
from .visitors import HubRole


def _jupyter_server_extension_points():
    return [{"module": "canasta_tutor.web.hub"}]


def _load_jupyter_server_extension(serverapp) -> None:
    base = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(".*$", mount(base, download_routes(teachers=HubRole())))
