"""The lessons under a real JupyterHub (deploy/jupyterhub/jupyterhub_config.py), driven in Chromium.

The hub runs on loopback (127.0.0.4) with configurable-http-proxy from npm (scripts/test.sh installs it into
tests/.chp/), the deploy's own configuration loaded as it is, and only what a test machine needs changed on top:
ports, a local process spawner with home folders in tmp_path, the hub's shared-password authenticator; progress
goes to a real PostgreSQL server (tests/pgserver.py, a new database ``canasta_hub``). Three learners and a teacher
log in through the hub's login page; each learner's server opens the landing page; two learners answer a puzzle;
the rows carry their hub names; the teacher's dashboard shows them, and a learner is refused it (on their own server
by the page, on the teacher's by the hub).

The first tests need no hub: who the learner is when ``JUPYTERHUB_USER`` is set.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import ipywidgets as widgets
import pytest

from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.widgets import identity
from canasta_tutor.widgets.classpages import learner_corner, teacher_page
from canasta_tutor.widgets.dashboard import TeacherDashboard

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
CHP = ROOT / "tests" / ".chp" / "node_modules" / ".bin" / "configurable-http-proxy"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
HOST = "127.0.0.4"
PORTS = range(9320, 9350)  # the ports this project's hub tests may use
PASSWORD = "canasta-hub-test"
LEARNERS = ("ana", "bo", "chris")
TEACHER = "tess"


# --- identity from the hub, without a hub ------------------------------------------------------------------------
@pytest.fixture
def hub_env(monkeypatch, tmp_path):
    """A single-user server's environment: JUPYTERHUB_USER (and the role the hub gave), its own database."""
    db = tmp_path / "progress.sqlite3"
    monkeypatch.setenv("CANASTA_TUTOR_DB", str(db))
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", "/school/")
    monkeypatch.delenv(identity.HUB_ROLE_ENV, raising=False)
    monkeypatch.setattr(identity, "_hub_cache", {})

    def as_(name, role=None):
        monkeypatch.setenv(identity.HUB_USER_ENV, name)
        if role:
            monkeypatch.setenv(identity.HUB_ROLE_ENV, role)
        return db
    return as_


def test_the_hub_user_is_the_learner_and_joins_the_open_class(hub_env):
    db = hub_env("ana")
    room = Classroom(db)
    room.set_code("blue7")  # a class code is for the laptop's sign-in form; the hub has signed the learner in
    who = identity.current()
    assert who.name == "ana" and not who.teacher
    assert [r["name"] for r in room.learners()] == ["ana"]
    assert who.class_id == room.current().id and who.learner_id == room.learners()[0]["learner_id"]
    # the trainer asks no name, and its answers are the class's
    assert identity.signed_in(learner="learner", ask_name=True) == ("ana", False)
    ProgressStore(db).record(learner="ana", puzzle_set="x", puzzle_id="t-001", kind="take-pile", topic="take-pile",
                             difficulty=1, answer=True, correct=True, seconds=3.0)
    assert room.report().per_learner()["learner"].tolist() == ["ana"]
    # a second page of the same learner (a new kernel) finds the row instead of being told the name is taken
    identity._hub_cache.clear()
    again = identity.current()
    assert again.learner_id == who.learner_id and len(room.learners()) == 1


def test_under_the_hub_no_sign_in_form_and_the_name_is_text(hub_env):
    hub_env("<b>ana</b>&co")
    who = identity.current()
    page = identity.panel_html(who, None)
    assert "&lt;b&gt;ana&lt;/b&gt;&amp;co" in page and "<b>ana</b>" not in page
    assert "classroom/signin" not in page and "Sign in" not in page
    assert "href='/school/hub/logout'" in page and "classroom/signout" not in page


def test_a_header_cannot_make_a_hub_learner_the_teacher(hub_env, monkeypatch):
    db = hub_env("chris")
    monkeypatch.setenv(identity.ENV, json.dumps({"name": "teacher", "teacher": True}))
    assert not identity.current().teacher
    page = teacher_page(classroom=Classroom(db), refresh=0, auto=False)
    assert not isinstance(page, widgets.Tab)
    assert "for teachers" in page.children[0].value and "hub" in page.children[0].value
    assert isinstance(learner_corner(path=db, auto=False), widgets.VBox)


@pytest.mark.parametrize("role", ["teacher", "Teacher"])
def test_the_hub_teacher_opens_the_dashboard_without_a_key(hub_env, role):
    db = hub_env("tess", role)
    who = identity.current()
    assert who.teacher and who.name == "tess"
    assert Classroom(db).learners() == []  # the teacher is not one of the class's learners
    page = teacher_page(classroom=Classroom(db), refresh=0, auto=False, join_urls=[])
    assert isinstance(page, widgets.Tab)
    assert TeacherDashboard(classroom=Classroom(db), refresh=0).allowed


def test_any_other_role_is_a_learner(hub_env):
    hub_env("mo", "learner")
    assert not identity.current().teacher
    assert not TeacherDashboard(refresh=0).allowed


def test_on_binder_the_random_hub_name_is_no_learner(hub_env, monkeypatch):
    hub_env("canasta-tutor-canasta-tutor-x1y2z3")
    monkeypatch.setenv("BINDER_LAUNCH_HOST", "https://mybinder.org/")
    assert identity.current() is None
    page = identity.panel_html(None)
    assert "kept only during this visit" in page and "classroom/signin" not in page


def test_the_binder_link_opens_the_landing_page_in_voila_from_an_environment_that_installs_the_app():
    import yaml

    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"https://mybinder\.org/v2/gh/([\w.-]+/[\w.-]+)/HEAD\?urlpath=voila/render/([\w./-]+\.ipynb)",
                       readme)
    assert links, "no Binder link in the README"
    for _repo, notebook in links:
        assert (ROOT / notebook).is_file(), notebook
        assert notebook == "lessons/index.ipynb"
    assert "Binder keeps no progress" in readme
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip or "." in pip  # the app itself, from the repository Binder checked out
    names = {str(d).split(">")[0].split("=")[0] for d in env["dependencies"] if isinstance(d, str)}
    assert {"voila", "ipywidgets", "python"} <= names


# --- the deploy's configuration and the Zero to JupyterHub values -------------------------------------------------
def load_deploy(monkeypatch, db="postgresql://canasta:pw@db.school.example/canasta"):
    """jupyterhub_config.py read as JupyterHub reads it (``get_config`` in its namespace)."""
    from traitlets.config import Config

    config = Config()
    if db is None:
        monkeypatch.delenv("CANASTA_TUTOR_DB", raising=False)
    else:
        monkeypatch.setenv("CANASTA_TUTOR_DB", db)
    monkeypatch.setenv("CANASTA_TEACHERS", "tess, tom")
    monkeypatch.setenv("CANASTA_ADMINS", "it")
    exec(compile(DEPLOY.read_text(), str(DEPLOY), "exec"), {"get_config": lambda: config, "__file__": str(DEPLOY)})
    return config


class FakeSpawner:
    def __init__(self, name, *, admin=False, groups=()):
        self.user = type("User", (), {"name": name, "admin": admin,
                                      "groups": [type("Group", (), {"name": g})() for g in groups]})()
        self.environment = {"CANASTA_TUTOR_DB": "postgresql://x"}


def roles(hook) -> dict:
    out = {}
    for spawner in (FakeSpawner("ana"), FakeSpawner("tess", groups=["teachers"]), FakeSpawner("it", admin=True),
                    FakeSpawner("mo", groups=["chess-club"])):
        shared = spawner.environment
        hook(spawner)
        assert shared == {"CANASTA_TUTOR_DB": "postgresql://x"}  # the configured dict is not changed for all
        assert spawner.environment["CANASTA_TUTOR_DB"] == "postgresql://x"
        out[spawner.user.name] = spawner.environment["CANASTA_TUTOR_ROLE"]
    return out


def test_the_deploy_config_needs_a_database(monkeypatch):
    with pytest.raises(SystemExit) as stop:
        load_deploy(monkeypatch, db=None)
    assert "set CANASTA_TUTOR_DB" in str(stop.value.code)


def test_the_deploy_config_opens_the_landing_page_in_voila_and_culls_idle_servers(monkeypatch):
    c = load_deploy(monkeypatch)
    assert c.Spawner.default_url == "/voila/render/index.ipynb"
    assert (Path(c.Spawner.notebook_dir) / "index.ipynb").is_file()
    assert c.Spawner.environment["CANASTA_TUTOR_DB"] == "postgresql://canasta:pw@db.school.example/canasta"
    assert (Path(c.Spawner.environment["JUPYTER_PATH"]) / "voila" / "templates" / "canasta").is_dir()
    assert "--VoilaConfiguration.template=canasta" in c.Spawner.args
    assert "--MappingKernelManager.allowed_message_types=comm_msg" in c.Spawner.args
    assert not any("execute_request" in a for a in c.Spawner.args)
    [culler] = c.JupyterHub.services
    assert culler["command"][1:3] == ["-m", "jupyterhub_idle_culler"] and "--timeout=1800" in culler["command"]
    [role] = c.JupyterHub.load_roles
    assert role["services"] == ["idle-culler"] and "delete:servers" in role["scopes"]
    assert c.JupyterHub.load_groups == {"teachers": {"users": ["tess", "tom"]}}
    assert c.Authenticator.admin_users == {"it"}
    assert roles(c.Spawner.pre_spawn_hook) == {"ana": "learner", "tess": "teacher", "it": "teacher", "mo": "learner"}


def test_the_z2jh_values_say_what_the_deploy_config_says(monkeypatch):
    import yaml
    from traitlets.config import Config

    c = load_deploy(monkeypatch)
    values = yaml.safe_load((DEPLOY.parent / "z2jh-values.yaml").read_text())
    hub_config, single = values["hub"]["config"], values["singleuser"]
    assert single["defaultUrl"] == c.Spawner.default_url
    assert hub_config["Spawner"]["args"] == list(c.Spawner.args)
    assert hub_config["JupyterHub"]["authenticator_class"] == c.JupyterHub.authenticator_class
    assert hub_config["NativeAuthenticator"] == {"open_signup": c.NativeAuthenticator.open_signup,
                                                 "minimum_password_length":
                                                     c.NativeAuthenticator.minimum_password_length}
    assert values["cull"]["enabled"] and f"--timeout={values['cull']['timeout']}" in c.JupyterHub.services[0]["command"]
    assert single["memory"]["limit"] == c.SystemdSpawner.mem_limit
    assert single["extraEnv"]["CANASTA_TUTOR_DB"]["valueFrom"]["secretKeyRef"]["key"] == "url"
    assert single["storage"]["type"] == "none"
    # the hub's extra configuration marks teachers exactly as the one-server configuration does
    kube = Config()
    exec(values["hub"]["extraConfig"]["canasta"], {"c": kube})
    assert roles(kube.KubeSpawner.pre_spawn_hook) == roles(c.Spawner.pre_spawn_hook)
    assert set(kube.JupyterHub.load_groups) == set(c.JupyterHub.load_groups)


# --- a real hub ---------------------------------------------------------------------------------------------------
def free_ports(n: int) -> list[int]:
    found = []
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
        found.append(port)
        if len(found) == n:
            return found
    raise RuntimeError(f"fewer than {n} free ports in {PORTS.start}-{PORTS.stop - 1} on {HOST}")


def hub_config(tmp: Path, ports: list[int], users=(*LEARNERS, TEACHER)) -> Path:
    """The deploy's configuration, then what a test machine needs instead (nothing else is changed)."""
    proxy, api, hub, *rest = ports
    user_ports = dict(zip(users, rest))
    text = f"""
load_subconfig({str(DEPLOY)!r})
deploy_hook = c.Spawner.pre_spawn_hook
USER_PORTS = {user_ports!r}

def test_hook(spawner):
    deploy_hook(spawner)
    spawner.port = USER_PORTS[spawner.user.name]   # the ports this project may use, not random ones

c.Spawner.pre_spawn_hook = test_hook
c.JupyterHub.bind_url = "http://{HOST}:{proxy}"
c.JupyterHub.hub_ip = "{HOST}"
c.JupyterHub.hub_port = {hub}
c.ConfigurableHTTPProxy.api_url = "http://{HOST}:{api}"
c.ConfigurableHTTPProxy.command = [{str(CHP)!r}]
c.ConfigurableHTTPProxy.auth_token = "test-proxy-token"
c.JupyterHub.cookie_secret_file = {str(tmp / "cookie_secret")!r}
c.JupyterHub.db_url = "sqlite:///{tmp / 'hub.sqlite'}"
c.JupyterHub.pid_file = {str(tmp / "hub.pid")!r}
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = {PASSWORD!r}
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {str(tmp / "home" / "{username}")!r}
c.Spawner.ip = "{HOST}"
c.JupyterHub.allow_named_servers = False
if {os.getuid() == 0!r}:  # a CI container runs as root; Jupyter refuses that unless told
    c.Spawner.args = list(c.Spawner.args) + ["--allow-root"]
"""
    path = tmp / "jupyterhub_config.py"
    path.write_text(text)
    return path


def wait_for(url: str, timeout: float, proc) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the hub stopped (exit {proc.returncode})")
        try:
            urllib.request.urlopen(url, timeout=5)  # 200 only: the proxy answers 404 until the hub's route is in
            return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


@pytest.fixture(scope="module")
def hub_db(pg_url):
    """A new database for the hub's learners on the tests' PostgreSQL server (tests/pgserver.py)."""
    import sqlalchemy as sa

    url = sa.engine.make_url(pg_url)
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text("DROP DATABASE IF EXISTS canasta_hub"))
        conn.execute(sa.text("CREATE DATABASE canasta_hub"))
    engine.dispose()
    return url.set(database="canasta_hub").render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def hub(tmp_path_factory, hub_db):
    if not CHP.exists():
        pytest.fail(f"the hub test needs configurable-http-proxy at {CHP}: scripts/test.sh installs it with npm")
    tmp = tmp_path_factory.mktemp("hub")
    db = hub_db
    config = hub_config(tmp, free_ports(3 + len(LEARNERS) + 1))
    env = dict(os.environ, CANASTA_TUTOR_DB=db, CANASTA_TEACHERS=TEACHER, CANASTA_IDLE_MINUTES="30",
               CANASTA_TUTOR_FILES=str(tmp / "files"))
    for key in ("JUPYTERHUB_USER", identity.HUB_ROLE_ENV, identity.ENV):
        env.pop(key, None)
    log = open(tmp / "hub.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=tmp, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = config.read_text().split('bind_url = "')[1].split('"')[0]
    try:
        wait_for(base + "/hub/login", 90, proc)
        yield {"url": base, "db": db, "log": tmp / "hub.log", "tmp": tmp}
    finally:
        stop_hub(proc, tmp)
        log.close()


def stop_hub(proc, tmp: Path) -> None:
    """Stop the hub (it stops the servers it spawned, the proxy and the culler), and whatever of those a hub that
    had to be killed left behind (its children run in sessions of their own)."""
    import psutil

    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
    for other in psutil.process_iter(["cmdline", "cwd"]):
        cmd = " ".join(other.info["cmdline"] or [])
        if str(tmp) in cmd or str(tmp) in (other.info["cwd"] or "") or str(CHP) in cmd:
            with contextlib.suppress(psutil.Error):
                for child in other.children(recursive=True):
                    child.kill()
                other.kill()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the hub test needs Debian's Chromium at {CHROMIUM}; scripts/test.sh installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def log_in(browser, hub, name: str):
    """A new browser (its own cookies) logged in as ``name`` through the hub's login page."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(120_000)
    page.goto(hub["url"] + "/hub/login")
    page.fill("#username_input", name)
    page.fill("#password_input", PASSWORD)
    page.click("#login_submit")
    return page


def attempts(db: str) -> list[tuple]:
    """The attempts table as PostgreSQL holds it (read with SQL, not through the package)."""
    import sqlalchemy as sa

    engine = sa.create_engine(db)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(
                sa.text("SELECT learner, puzzle_id, correct, class_id FROM attempts ORDER BY id"))]
    finally:
        engine.dispose()


@pytest.mark.browser
def test_three_learners_and_a_teacher_through_a_real_hub(hub, browser):
    started = time.monotonic()
    # all four log in at once; the hub spawns their servers side by side
    pages = {name: log_in(browser, hub, name) for name in (*LEARNERS, TEACHER)}
    for name in LEARNERS:
        page = pages[name]
        page.wait_for_url(f"**/user/{name}/voila/render/index.ipynb")
        shown = page.locator(".ct-learner-name")
        shown.wait_for()
        assert shown.inner_text() == name
        assert page.get_by_role("link", name="Sign in").count() == 0
        assert page.get_by_role("link", name="sign out").get_attribute("href") == "/hub/logout"
        assert page.get_by_role("link", name="Taking the pile").count() == 1

    # two learners answer the first puzzle of lesson 4 (t-001: the answer is Yes)
    for name, button, feedback in (("ana", "No", "Not quite."), ("bo", "Yes", "Right!")):
        page = pages[name]
        page.get_by_role("link", name="Taking the pile").click()
        page.wait_for_url(f"**/user/{name}/voila/render/index.ipynb#04-taking-the-pile")  # shown in the app page
        trainer = page.locator(".ct-lesson .ct-trainer").last
        trainer.get_by_role("button", name=button, exact=True).click()
        trainer.get_by_text(feedback).wait_for()
    rows = attempts(hub["db"])
    assert sorted((r[0], r[1], bool(r[2])) for r in rows) == [("ana", "t-001", False), ("bo", "t-001", True)]
    assert all(r[3] is not None for r in rows), rows  # both in the open class

    # the teacher: no key, the dashboard shows both learners and their answers
    teacher = pages[TEACHER]
    teacher.wait_for_url(f"**/user/{TEACHER}/voila/render/index.ipynb")
    link = teacher.get_by_role("link", name="open the class dashboard")  # output links open a new tab
    assert link.get_attribute("href") == f"/user/{TEACHER}/voila/render/teacher/dashboard.ipynb"
    teacher.goto(hub["url"] + link.get_attribute("href"))
    teacher.wait_for_url(f"**/user/{TEACHER}/voila/render/teacher/dashboard.ipynb")
    learners = teacher.locator(".ct-dashboard table.ct-table").first
    learners.get_by_text("bo", exact=True).wait_for()
    table = learners.inner_text()
    assert "ana" in table and "bo" in table and TEACHER not in table
    assert teacher.locator(".ct-summary").inner_text().count("2") >= 1

    # the dashboard's downloads: the class's results for a gradebook, a worksheet
    csv = teacher.request.get(f"{hub['url']}/user/{TEACHER}/classroom/export/learners.csv")
    assert csv.status == 200 and csv.headers["content-type"].startswith("text/csv"), csv.status
    text = csv.text()
    assert "ana" in text and "bo" in text
    pdf = teacher.request.get(f"{hub['url']}/user/{TEACHER}/classroom/worksheet/set/05-take-pile.pdf?answers=1")
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF"), pdf.status

    # a learner is refused the dashboard: by the page on their own server, by the hub on the teacher's
    chris = pages["chris"]
    chris.goto(f"{hub['url']}/user/chris/voila/render/teacher/dashboard.ipynb")
    chris.locator(".ct-refused").wait_for()
    assert "for teachers" in chris.locator(".ct-refused").inner_text()
    assert chris.locator(".ct-table").count() == 0
    assert not re.search(r"\b(ana|bo)\b", chris.locator("body").inner_text())
    answer = chris.goto(f"{hub['url']}/user/{TEACHER}/voila/render/teacher/dashboard.ipynb")
    assert answer.status == 403, answer.status
    refused = chris.request.get(f"{hub['url']}/user/chris/classroom/export/learners.csv")
    assert refused.status == 403 and not re.search(r"\b(ana|bo)\b", refused.text())
    assert not re.search(r"\b(ana|bo)\b", chris.locator("body").inner_text())

    # each page asks now and then whether its kernel is still there (to say so when it was culled): the
    # single-user server must answer it, not refuse it for want of the XSRF token
    for name in ("ana", "bo"):
        pages[name].evaluate("window.canastaCheckKernel(true)")
    pages["bo"].wait_for_timeout(1500)
    log = Path(hub["log"]).read_text(errors="replace")
    assert "GET /user/ana/api/kernels/" in log
    assert not re.search(r"403 GET /user/\w+/api/kernels/", log), "a page's kernel check was refused"
    assert f"not allowed to access Server at /user/{TEACHER}/" in log
    # the culler runs as a hub service and may list the users' servers (its role's scopes)
    assert re.search(r"200 GET /hub/api/users\S* \(idle-culler@", log), "the idle culler did not reach the hub"
    print(f"hub test: {time.monotonic() - started:.0f} s from the first login")
