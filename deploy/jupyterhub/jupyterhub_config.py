"""JupyterHub on one server for canasta-tutor: every learner gets a single-user server that opens the lessons'
landing page in Voilà; idle servers are stopped by jupyterhub-idle-culler; progress goes to PostgreSQL.

Run it with ``jupyterhub -f deploy/jupyterhub/jupyterhub_config.py`` after setting (see README.md here):

    CANASTA_TUTOR_DB        postgresql://canasta:PASSWORD@DB-HOST/canasta   (required: every learner's progress)
    CANASTA_TUTOR_FILES     a folder all servers share for homework's puzzle files (teachers write, learners read)
    CANASTA_TEACHERS        names of the teachers, separated by commas (they join the hub group "teachers")
    CANASTA_ADMINS          names of the hub's administrators (they count as teachers too)
    CANASTA_HUB_URL         address the hub listens on, default http://:8000 (put HTTPS in front of it)
    CANASTA_IDLE_MINUTES    stop a learner's server after this many idle minutes, default 30

Everything here is ordinary JupyterHub configuration: change what your school needs below it, or load this file
from your own with ``load_subconfig("/path/to/this/jupyterhub_config.py")`` and override after.
"""

import os
import sys
from pathlib import Path

import canasta_tutor
from canasta_tutor.web.app import TEMPLATE_ROOT
from canasta_tutor.web.kernel_gate import gate_arguments

c = get_config()  # noqa: F821 (defined by JupyterHub when it reads this file)

TEACHERS_GROUP = "teachers"
LESSONS = os.environ.get("CANASTA_TUTOR_LESSONS") or str(Path(canasta_tutor.__file__).resolve().parent.parent
                                                         / "lessons")
DB = os.environ.get("CANASTA_TUTOR_DB", "")
if not DB:
    sys.exit("jupyterhub_config.py: set CANASTA_TUTOR_DB to the progress database, e.g. "
             "postgresql://canasta:PASSWORD@db-host/canasta (see deploy/jupyterhub/README.md)")
if not (Path(LESSONS) / "index.ipynb").is_file():
    sys.exit(f"jupyterhub_config.py: no lessons in {LESSONS} (set CANASTA_TUTOR_LESSONS to the lessons folder)")


def _names(var: str) -> set[str]:
    return {n.strip() for n in os.environ.get(var, "").split(",") if n.strip()}


# --- the hub ----------------------------------------------------------------------------------------------------
c.JupyterHub.bind_url = os.environ.get("CANASTA_HUB_URL", "http://:8000")
c.JupyterHub.cookie_secret_file = os.environ.get("CANASTA_HUB_COOKIE_SECRET", "jupyterhub_cookie_secret")
c.JupyterHub.db_url = os.environ.get("CANASTA_HUB_STATE", "sqlite:///jupyterhub.sqlite")  # the hub's own state

# --- who may sign in: the hub's own accounts (NativeAuthenticator: learners sign up, an admin approves) --------
# For LTI from a learning platform (Moodle, Canvas, ...), see README.md ("Your school's own login").
c.JupyterHub.authenticator_class = "native"
c.NativeAuthenticator.open_signup = False          # an admin approves each new account on /hub/authorize
c.NativeAuthenticator.minimum_password_length = 8
c.Authenticator.allow_all = True                    # everyone the authenticator accepts may use the lessons
c.Authenticator.admin_users = _names("CANASTA_ADMINS")

# Teachers are a hub group; members (and admins) open the class dashboard. Add one later on /hub/admin
# (Groups -> teachers) or through the hub's REST API; a teacher's server must be restarted to take effect.
c.JupyterHub.load_groups = {TEACHERS_GROUP: {"users": sorted(_names("CANASTA_TEACHERS"))}}


def canasta_role(spawner) -> None:
    """Tell the learner's server whether its user is a teacher. The hub sets the server's environment when it
    starts it, so a learner cannot make themselves a teacher."""
    user = spawner.user
    teacher = bool(user.admin) or TEACHERS_GROUP in {g.name for g in user.groups}
    spawner.environment = {**spawner.environment, "CANASTA_TUTOR_ROLE": "teacher" if teacher else "learner"}


c.Spawner.pre_spawn_hook = canasta_role

# --- each learner's server: the lessons in Voilà, nothing else to run ----------------------------------------
# One server for the whole school without per-learner system accounts: systemd starts each learner's server as
# a throw-away user with its own memory limit (pip install jupyterhub-systemdspawner). For system accounts use
# "localprocess" (with PAM); on Kubernetes see z2jh-values.yaml.
c.JupyterHub.spawner_class = "systemd"
c.SystemdSpawner.dynamic_users = True
c.SystemdSpawner.mem_limit = "512M"
c.SystemdSpawner.cpu_limit = 1.0

c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]  # the hub's Python, where canasta-tutor is
c.Spawner.notebook_dir = LESSONS                     # read-only for learners: the lessons as installed
c.Spawner.default_url = "/voila/render/index.ipynb"  # the lessons' landing page
c.Spawner.environment = {
    "CANASTA_TUTOR_DB": DB,
    "JUPYTER_PATH": str(TEMPLATE_ROOT),              # our "canasta" Voilà template (nothing from a CDN)
}
if os.environ.get("CANASTA_TUTOR_FILES"):  # homework's puzzle files: a folder every server can read
    c.Spawner.environment["CANASTA_TUTOR_FILES"] = os.environ["CANASTA_TUTOR_FILES"]
c.Spawner.args = [
    "--VoilaConfiguration.template=canasta",
    "--VoilaConfiguration.strip_sources=True",
    "--VoilaConfiguration.show_tracebacks=False",
    # no ?template=classic (its page links stylesheets on a CDN) nor ?theme= from a visitor's address
    "--VoilaConfiguration.allow_template_override=NO",
    "--VoilaConfiguration.allow_theme_override=NO",
    # kernels take only the widgets' messages: no code can be run from the browser (not in JupyterLab either)
    # (canasta_tutor/web/kernel_gate.py: the same gate as canasta-tutor serve's; no traceback reaches a page)
    *gate_arguments("ServerApp"),
    "--MappingKernelManager.cull_idle_timeout=1800",
    "--MappingKernelManager.cull_interval=60",
    "--ServerApp.terminals_enabled=False",
    # the dashboard's exports and worksheet PDFs, for teachers (canasta_tutor/web/hub.py)
    "--ServerApp.jpserver_extensions=canasta_tutor.web.hub=True",
]
c.Spawner.http_timeout = 60
c.Spawner.start_timeout = 120

# --- idle servers are stopped (progress is saved on every answer, so nothing is lost) ---------------------------
IDLE_SECONDS = 60 * int(os.environ.get("CANASTA_IDLE_MINUTES", "30"))
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE_SECONDS}", "--cull-every=60"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
