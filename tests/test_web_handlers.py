"""Each handler of the web layer, asked directly: real requests to a running ``canasta-tutor serve --classroom``
(127.0.0.7, ports 9440-9449) and to a plain Jupyter server with the hub's extension (ports 9450-9459), with the
cookies and the token a browser would send; and, without a server, what the handlers are configured with
(:mod:`canasta_tutor.web.visitors`, :class:`~canasta_tutor.web.voila_server.KernelOwners`).

The browser tests (test_browser_classroom, test_browser_app, test_hub) drive the same handlers from pages."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from test_browser import serve

from canasta_tutor.web.visitors import (
    COOKIE_DAYS,
    SESSION_COOKIE,
    TEACHER_COOKIE,
    HubRole,
    KernelRegistry,
    RateLimit,
    TeacherKey,
    Visitors,
    is_teacher_server,
)

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.7"
KEY, CODE = "handl3r-key", "Red5"
NOTEBOOKS = ["index.ipynb", "04-taking-the-pile.ipynb", "teacher/dashboard.ipynb"]
UUID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


def free_port(ports: range) -> int:
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1} on {HOST}")


class Client:
    """One browser's cookies; requests that do not follow redirects, so that each handler's own answer is seen."""

    def __init__(self, base: str):
        self.host, _, port = base.removeprefix("http://").partition(":")
        self.port = int(port)
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[str] = []  # the Set-Cookie headers of the last answer

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        headers = dict(headers or {})
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif method == "POST":
            body = b""
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.body = response.read()
        response.text = response.body.decode("utf-8", "replace")
        self.set_cookies = response.headers.get_all("Set-Cookie") or []
        for header in self.set_cookies:
            name, _, rest = header.partition("=")
            value = rest.split(";")[0]
            if value in ("", '""'):
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        connection.close()
        return response

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw):
        return self.request("POST", path, **kw)

    def xsrf(self, path: str) -> str:
        return re.search(r'name="_xsrf" value="([^"]+)"', self.get(path).text).group(1)

    def sign_in(self, name: str, code: str = CODE):
        return self.post("/classroom/signin", form={"_xsrf": self.xsrf("/classroom/signin"), "name": name,
                                                    "code": code})

    def kernel_of(self, path: str) -> str:
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        return UUID.search(page.text).group(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``canasta-tutor serve --classroom --class-size 1``: the landing page's kernel comes from its pool (handed out
    through Voilà's request socket), lesson 4's is started on demand; one assignment in the class's database."""
    from canasta_tutor.classroom.assignments import AssignmentBook

    tmp = tmp_path_factory.mktemp("handlers")
    lessons = tmp / "lessons"
    for name in NOTEBOOKS:
        (lessons / name).parent.mkdir(parents=True, exist_ok=True)
        (lessons / name).write_bytes((ROOT / "lessons" / name).read_bytes())
    AssignmentBook(tmp / "progress.sqlite3").create("Week 1", generate={"kind": "meld", "count": 3, "seed": 1})
    # --max-kernels: the many learners of this module's tests share one server; the limit has its own tests
    args = ["--classroom", "--ip", HOST, "--teacher-key", KEY, "--class-code", CODE, "--class-size", "1",
            "--max-kernels", "30", "--lessons", str(lessons)]
    with serve(tmp, args, host=HOST, port=free_port(range(9440, 9450)), ready_path="/classroom/signin",
               notebooks=["index.ipynb", "teacher/dashboard.ipynb"]) as (base, _proc):
        yield {"url": base, "log": tmp / "serve.log"}


@pytest.fixture
def teacher(server):
    client = Client(server["url"])
    assert client.post("/teacher", form={"_xsrf": client.xsrf("/teacher"), "key": KEY}).status == 302
    return client


def cookie_value(client: Client, name: str) -> str:
    """What a signed cookie of ours holds (Tornado's "2|..." format: the value is base64, signed, not secret)."""
    import base64

    fields = client.cookies[name].strip('"').split("|")
    return base64.b64decode(fields[4].split(":", 1)[1]).decode()


_names = iter(range(1, 1000))


@pytest.fixture
def learner(server):
    client = Client(server["url"])
    assert client.sign_in(f"Learner {next(_names)}").status == 302
    return client


# --- LandingRedirect, SignInHandler, SignOutHandler, TeacherHandler -----------------------------------------
def test_the_root_is_a_permanent_redirect_to_the_landing_page(server):
    r = Client(server["url"]).get("/")
    assert r.status == 301 and r.headers["Location"] == "/voila/render/index.ipynb"


def test_sign_in_asks_a_name_and_the_class_code_once(server):
    c = Client(server["url"])
    form = c.get("/classroom/signin")
    assert form.status == 200 and "Your name" in form.text and "name='code'" in form.text
    r = c.sign_in("Ana <b>Handler</b>")
    assert r.status == 302 and r.headers["Location"] == "/voila/render/index.ipynb"
    [cookie] = [h for h in c.set_cookies if h.startswith(SESSION_COOKIE + "=")]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "expires=" in cookie.lower()
    again = c.get("/classroom/signin")  # signed in already: no form
    assert again.status == 302 and again.headers["Location"] == "/voila/render/index.ipynb"


def test_sign_in_says_what_is_wrong_and_keeps_the_name(server):
    c = Client(server["url"])
    wrong = c.sign_in("Cy Handler", code="nope")
    assert wrong.status == 400 and "not this class&#x27;s code" in wrong.text and "value='Cy Handler'" in wrong.text
    assert c.sign_in("   ").status == 400
    assert Client(server["url"]).sign_in("Di Handler").status == 302
    taken = c.sign_in(" di HANDLER ")
    assert taken.status == 409 and "already called di HANDLER" in taken.text
    assert SESSION_COOKIE not in c.cookies
    # no form token: refused before anything is read
    assert Client(server["url"]).post("/classroom/signin", form={"name": "Zed", "code": CODE}).status == 403


def test_sign_out_forgets_the_learner_and_the_teacher(server, learner, teacher):
    for c in (learner, teacher):
        kept = dict(c.cookies)
        r = c.get("/classroom/signout")
        assert r.status == 302 and r.headers["Location"] == "/classroom/signin"
        assert {h.split("=")[0] for h in c.set_cookies} >= {SESSION_COOKIE, TEACHER_COOKIE}
        assert c.get("/voila/render/index.ipynb").headers["Location"] == "/classroom/signin"
        c.cookies = kept  # a copy of the cookies from before: their sessions have ended
        assert c.get("/voila/render/index.ipynb").headers["Location"] == "/classroom/signin"
    assert teacher.get("/classroom/export/learners.csv").status == 403


def test_the_teacher_key_opens_the_dashboard_and_nothing_else_does(server):
    c = Client(server["url"])
    form = c.get("/teacher")
    assert form.status == 200 and "type='password'" in form.text
    in_address = c.get("/teacher?key=" + KEY)  # an address stays in the history and in logs: not accepted
    assert in_address.status == 400 and "type it here" in in_address.text and TEACHER_COOKIE not in c.cookies
    token = c.xsrf("/teacher")
    wrong = c.post("/teacher", form={"_xsrf": token, "key": "wrong-k3y-guess"})
    assert wrong.status == 403 and "That is not the teacher key." in wrong.text and TEACHER_COOKIE not in c.cookies
    assert c.post("/teacher", form={"_xsrf": token, "key": "nope"}).status == 403
    assert c.post("/teacher", form={"key": KEY}).status == 403  # no form token
    r = c.post("/teacher", form={"_xsrf": token, "key": f"  {KEY} "})
    assert r.status == 302 and r.headers["Location"] == "/voila/render/teacher/dashboard.ipynb"
    [cookie] = [h for h in c.set_cookies if h.startswith(TEACHER_COOKIE + "=")]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert c.get("/teacher").headers["Location"] == "/voila/render/teacher/dashboard.ipynb"  # in already
    assert KEY not in cookie_value(c, TEACHER_COOKIE) and "sid" in json.loads(cookie_value(c, TEACHER_COOKIE))
    assert "location.hash" in form.text  # the teacher's file link: teacher#key=..., never sent to the server
    log = server["log"].read_text(errors="replace")
    assert "/teacher?[query not logged]" in log and KEY not in log and "wrong-k3y-guess" not in log


def test_a_learners_cookie_holds_a_session_id_only_and_a_code_brings_them_back(server):
    c = Client(server["url"])
    assert c.sign_in("Eve Handler").status == 302
    assert set(json.loads(cookie_value(c, SESSION_COOKIE))) == {"sid"}  # no name, no id to edit
    [cookie] = [h for h in c.set_cookies if h.startswith(SESSION_COOKIE + "=")]
    expires = re.search(r"expires=([^;]+)", cookie, re.I).group(1)
    from email.utils import parsedate_to_datetime

    assert (parsedate_to_datetime(expires).timestamp() - time.time()) / 86400 > 300  # a term, not a day
    page = c.get("/voila/render/index.ipynb")
    code = re.search(r"ct-personal-code.{0,20}?([A-HJ-NP-Z2-9]{6})", page.text)
    assert code, "the landing page shows the learner's personal code"
    other = Client(server["url"])
    assert other.sign_in("Eve Handler").status == 409  # taken, without the code
    back = other.post("/classroom/signin", form={"_xsrf": other.xsrf("/classroom/signin"), "name": "",
                                                 "personal": code.group(1).lower()})
    assert back.status == 302
    assert re.search(r"Signed in as .{0,60}Eve Handler", other.get("/voila/render/index.ipynb").text)


def test_the_join_screen_and_the_cards_are_the_teachers(server, learner, teacher):
    for path in ("/classroom/join", "/classroom/cards"):
        assert learner.get(path).status == 403 and Client(server["url"]).get(path).status == 403
    join = teacher.get("/classroom/join")
    assert join.status == 200 and "<svg" in join.text and CODE in join.text and f"{HOST}:" in join.text
    assert "Learner " not in join.text and "%" not in join.text.split("</style>")[1]  # no name, no result
    cards = teacher.get("/classroom/cards")
    assert cards.status == 200 and cards.text.count("class='card ct-card'") >= 1 and "<svg" in cards.text


def test_teacher_key_tries_are_limited_for_everyone_with_a_clear_page(server):
    """20 tries a minute in all (the server's own machine has no bucket of its own, but counts in that one)."""
    c = Client(server["url"])
    token = c.xsrf("/teacher")
    answers = [c.post("/teacher", form={"_xsrf": token, "key": f"guess-{i}"}) for i in range(25)]
    limited = [a for a in answers if a.status == 429]
    # refused until the limit engages; a slow machine may refill one try meanwhile (a 403 after a 429)
    assert limited and all(a.status == 403 for a in answers[:answers.index(limited[0])])
    assert {a.status for a in answers} <= {403, 429}
    assert "Too many tries" in limited[0].text and int(limited[0].headers["Retry-After"]) >= 1
    time.sleep(int(limited[-1].headers["Retry-After"]) + 0.5)  # a try back: the right key works again, and
    for _ in range(3):  # does not count (the teacher is not locked out by their own sign-ins)
        assert Client(server["url"]).post("/teacher", form={"_xsrf": token, "key": KEY},
                                          headers={"Cookie": f"_xsrf={c.cookies['_xsrf']}"}).status == 302


# --- ExportHandler, WorksheetHandler (canasta-tutor serve) ------------------------------------------------------
def test_the_exports_are_the_teachers(server, learner, teacher):
    for c in (learner, Client(server["url"])):
        refused = c.get("/classroom/export/learners.csv")
        assert refused.status == 403 and "The teacher key is needed" in refused.text
        assert "Content-Disposition" not in refused.headers
    csv = teacher.get("/classroom/export/learners.csv")
    assert csv.status == 200 and csv.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert re.fullmatch(r"attachment; filename=canasta-\d{4}-\d\d-\d\d-learners\.csv",
                        csv.headers["Content-Disposition"])
    assert csv.headers["Cache-Control"] == "no-store" and csv.body.startswith(b"\xef\xbb\xbf")
    assert teacher.get("/classroom/export/gradebook.xlsx").body[:2] == b"PK"
    unknown = teacher.get("/classroom/export/grades.csv")
    assert unknown.status == 404 and "learners.csv, puzzles.csv, gradebook.xlsx" in unknown.text


def test_the_worksheets_are_the_teachers_and_an_assignment_is_the_classs(server, learner, teacher):
    refused = learner.get("/classroom/worksheet/set/04-freezing.pdf")
    assert refused.status == 403 and "The teacher key is needed" in refused.text
    plain = teacher.get("/classroom/worksheet/set/04-freezing.pdf")
    keyed = teacher.get("/classroom/worksheet/set/04-freezing.pdf?answers=1")
    assert plain.status == keyed.status == 200 and plain.body[:5] == b"%PDF-"
    assert plain.headers["Content-Type"] == "application/pdf"
    assert keyed.headers["Content-Disposition"] == plain.headers["Content-Disposition"].removesuffix(".pdf") + \
        "-answers.pdf"
    homework = teacher.get("/classroom/worksheet/assignment/1.pdf")  # from the class's own database
    assert homework.status == 200 and homework.headers["Content-Disposition"] == "attachment; filename=Week-1.pdf"
    for path, says in (("set/nothing.pdf", "no puzzle set &#x27;nothing&#x27;"), ("assignment/9.pdf", "no assignment")):
        missing = teacher.get("/classroom/worksheet/" + path)
        assert missing.status == 404 and "No such worksheet" in missing.text and says in missing.text


# --- GuardedVoilaHandler ------------------------------------------------------------------------------------------
def test_a_lesson_page_needs_a_sign_in_and_its_kernel_learns_who_from_the_server(server, learner):
    anonymous = Client(server["url"]).get("/voila/render/index.ipynb")
    assert anonymous.status == 302 and anonymous.headers["Location"] == "/classroom/signin"
    forged = json.dumps({"name": "Forged Name", "teacher": True})
    page = learner.get("/voila/render/index.ipynb", headers={"X-Canasta-Identity": forged})
    # the page's widget state (JSON, with <, > and ' as \uXXXX escapes) shows who the kernel was told the learner is
    assert page.status == 200 and re.search(r"Signed in as .{0,60}ct-learner-name.{0,20}Learner \d+", page.text)
    assert "Forged Name" not in page.text and "the class dashboard" not in page.text


def test_the_teachers_pages_are_the_teachers_however_spelled(server, learner, teacher):
    for path in ("/voila/render/teacher/dashboard.ipynb", "/voila/render/./Teacher//dashboard.ipynb"):
        refused = learner.get(path)
        assert refused.status == 403 and "This page is for the teacher" in refused.text
        assert "href='/teacher'" in refused.text
    assert teacher.get("/voila/render/teacher/dashboard.ipynb").status == 200


# --- OwnKernelHandler, OwnKernelWebsocketHandler, ShutdownOnLeaveHandler, KernelOwners --------------------------
async def _connect(url: str, cookies: dict):
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    request = HTTPRequest(url, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
    try:
        ws = await websocket_connect(request)
    except HTTPClientError as e:
        return e.code
    ws.close()
    return 101


@pytest.mark.parametrize("page", ["index.ipynb", "04-taking-the-pile.ipynb"])  # handed out from the pool; started
def test_a_kernel_answers_only_the_visitor_it_was_given_to(server, page):
    ana, bo = Client(server["url"]), Client(server["url"])
    ana.sign_in(f"Owner {page}")
    bo.sign_in(f"Other {page}")
    kernel = ana.kernel_of("/voila/render/" + page)
    assert ana.get(f"/api/kernels/{kernel}").status == 200
    for other in (bo, Client(server["url"])):
        refused = other.get(f"/api/kernels/{kernel}")
        assert refused.status == 403 and "not your kernel" in refused.text
    channels = server["url"].replace("http:", "ws:") + f"/api/kernels/{kernel}/channels?session_id=t"
    assert asyncio.run(_connect(channels, bo.cookies)) == 403
    assert asyncio.run(_connect(channels, ana.cookies)) == 101
    deleted = bo.request("DELETE", f"/api/kernels/{kernel}", headers={"X-XSRFToken": bo.cookies["_xsrf"]})
    assert deleted.status == 403 and "not your kernel" in deleted.text
    assert bo.post(f"/voila/api/shutdown/{kernel}").status == 403
    assert ana.post(f"/voila/api/shutdown/{kernel}").status == 204  # the page's beacon: no XSRF token
    deadline = time.monotonic() + 30
    while ana.get(f"/api/kernels/{kernel}").status != 404 and time.monotonic() < deadline:
        time.sleep(0.5)
    gone = ana.get(f"/api/kernels/{kernel}")
    assert gone.status == 404 and "no such kernel" in gone.text


# --- CachedStaticFileHandler, Gone ----------------------------------------------------------------------------
def test_voilas_front_end_stays_an_hour_in_the_browsers_cache(server):
    r = Client(server["url"]).get("/voila/static/voila.js")
    assert r.status == 200 and r.headers["Cache-Control"] == "max-age=3600"


def test_no_contents_api(server, teacher):
    for path in ("/voila/api/contents/index.ipynb", "/voila/api/contents/"):
        r = teacher.get(path)
        assert r.status == 404 and r.text == "Not found"


# --- the hub's extension: the same ExportHandler and WorksheetHandler on a Jupyter server -----------------------
@contextlib.contextmanager
def jupyter_server(tmp: Path, role: str, db: str = "progress.sqlite3"):
    """A Jupyter server as the hub starts one for ``tess`` with ``role``, the extension enabled, a token to log in;
    the progress database ``db`` in ``tmp``."""
    port = free_port(range(9450, 9460))
    home = tmp / f"{role}-{len(list(tmp.iterdir()))}"
    home.mkdir()
    env = dict(os.environ, CANASTA_TUTOR_DB=str(tmp / db), CANASTA_TUTOR_FILES=str(tmp / "files"),
               JUPYTERHUB_USER="tess", CANASTA_TUTOR_ROLE=role, JUPYTER_CONFIG_DIR=str(home / "config"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_DATA_DIR=str(home / "data"))
    log = open(home / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "jupyter_server", "--no-browser", f"--ServerApp.ip={HOST}",
                             f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
                             "--IdentityProvider.token=hub-token", f"--ServerApp.root_dir={home}",
                             "--ServerApp.jpserver_extensions=canasta_tutor.web.hub=True",
                             *(["--allow-root"] if os.getuid() == 0 else [])],
                            cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT)
    client = Client(f"http://{HOST}:{port}")
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                client.get("/api/status")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the Jupyter server did not start:\n{(home / 'server.log').read_text()}") \
                        from None
                time.sleep(0.3)
        yield client
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


TOKEN = {"Authorization": "token hub-token"}


@pytest.fixture(scope="module")
def hub_servers(tmp_path_factory):
    from canasta_tutor.classroom.roster import Classroom

    tmp = tmp_path_factory.mktemp("hub-extension")
    room = Classroom(tmp / "progress.sqlite3")
    room.join("ana")
    with jupyter_server(tmp, "teacher") as teacher, jupyter_server(tmp, "learner") as learner, \
            jupyter_server(tmp, "teacher", db="progress.sqlite3/in-a-file.sqlite3") as no_database:
        yield {"teacher": teacher, "learner": learner, "no database": no_database}


def test_a_hub_teachers_server_sends_the_same_downloads(hub_servers):
    tess = hub_servers["teacher"]
    csv = tess.get("/classroom/export/learners.csv", headers=TOKEN)
    assert csv.status == 200 and csv.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert csv.headers["Content-Disposition"].startswith("attachment; filename=canasta-")
    assert "ana" in csv.body.decode("utf-8-sig")
    pdf = tess.get("/classroom/worksheet/set/04-freezing.pdf?answers=1", headers=TOKEN)
    assert pdf.status == 200 and pdf.body[:5] == b"%PDF-" and "-answers.pdf" in pdf.headers["Content-Disposition"]
    missing = tess.get("/classroom/worksheet/set/nothing.pdf", headers=TOKEN)
    assert missing.status == 404 and "No such worksheet" in missing.text and "nothing" in missing.text


def test_on_a_hub_an_unknown_export_is_a_page_that_lists_the_exports(hub_servers):
    unknown = hub_servers["teacher"].get("/classroom/export/grades.csv", headers=TOKEN)
    assert unknown.status == 404 and "No such download" in unknown.text
    assert "learners.csv, puzzles.csv, gradebook.xlsx" in unknown.text


def test_on_a_hub_a_database_out_of_reach_is_a_page_that_says_so(hub_servers):
    """The hub's server opens the class for each request: a database it cannot open is said, not a server error."""
    r = hub_servers["no database"].get("/classroom/export/learners.csv", headers=TOKEN)
    assert r.status == 503 and "The class's results cannot be read" in r.text
    assert "cannot open the progress database" in r.text and "Traceback" not in r.text


def test_a_hub_learners_server_refuses_the_downloads(hub_servers):
    for path in ("/classroom/export/learners.csv", "/classroom/export/grades.csv",
                 "/classroom/worksheet/set/04-freezing.pdf"):
        refused = hub_servers["learner"].get(path, headers=TOKEN)
        assert refused.status == 403 and "This is for teachers" in refused.text and "<i>teachers</i>" in refused.text
        assert "ana" not in refused.text and "Content-Disposition" not in refused.headers


def test_on_a_hub_the_downloads_need_the_servers_login(hub_servers):
    for path in ("/classroom/export/learners.csv", "/classroom/worksheet/set/04-freezing.pdf"):
        tess = hub_servers["teacher"]
        r = Client(f"http://{tess.host}:{tess.port}").get(path)  # a new browser, no token
        assert r.status == 302 and "/login" in r.headers["Location"], (path, r.status)


# --- what the handlers are configured with --------------------------------------------------------------------
class FakeHandler:
    """What Visitors uses of a Tornado handler: its (already verified) signed cookies and the remote address."""

    def __init__(self, cookies=None, ip="10.0.0.9"):
        self.cookies = dict(cookies or {})
        self.request = type("Request", (), {"remote_ip": ip})()
        self.set = {}

    def get_secure_cookie(self, name, max_age_days=31):
        value = self.cookies.get(name)
        return value.encode() if isinstance(value, str) else value

    def set_secure_cookie(self, name, value, **options):
        self.cookies[name] = value
        self.set[name] = options

    def clear_cookie(self, name):
        self.cookies.pop(name, None)


@pytest.fixture
def room(tmp_path, monkeypatch):
    from canasta_tutor.classroom.roster import Classroom

    monkeypatch.setenv("CANASTA_TUTOR_FILES", str(tmp_path / "files"))
    return Classroom(tmp_path / "p.sqlite3")


def test_visitors_sign_in_and_read_back_a_learner_of_the_open_class_only(room):
    visitors = Visitors(room, "k3y")
    h = FakeHandler()
    assert visitors.session(h) is None and visitors.key(h) == "anonymous:10.0.0.9"
    ana = room.join("Ana").learner
    visitors.sign_in_learner(h, ana)
    assert h.set[SESSION_COOKIE] == {"expires_days": COOKIE_DAYS, "httponly": True, "samesite": "Lax"}
    assert set(json.loads(h.cookies[SESSION_COOKIE])) == {"sid"}
    session = visitors.session(h)
    assert session["name"] == "Ana" and visitors.key(h) == f"learner:{session['learner_id']}"
    again = FakeHandler()  # Ana signs in once more (another browser, or a script signing in over and over)
    visitors.sign_in_learner(again, room.join("Ana", personal=ana["code"]).learner)
    assert visitors.session(again)["sid"] != session["sid"] and visitors.key(again) == visitors.key(h)
    assert visitors.teacher(h) is None
    for broken in ("not json", "[1, 2]", json.dumps({"learner_id": session["learner_id"], "name": "Someone"})):
        assert visitors.session(FakeHandler({SESSION_COOKIE: broken})) is None
    assert Visitors(room, "k3y").session(FakeHandler(h.cookies))["name"] == "Ana"  # the server restarted
    room.new_class()  # the class is closed: its learners are signed out
    assert visitors.session(FakeHandler(h.cookies)) is None
    visitors.sign_out(h)
    assert h.cookies == {}


def test_visitors_know_the_teacher_by_a_session_opened_with_the_key(room):
    visitors = Visitors(room, "k3y")
    h = FakeHandler()
    visitors.sign_in_teacher(h)
    assert "k3y" not in h.cookies[TEACHER_COOKIE]
    sid = visitors.teacher(h)
    assert sid and visitors.key(h) == "teacher:" + sid
    assert TeacherKey(visitors).is_teacher(h) and not TeacherKey(visitors).is_teacher(FakeHandler())
    assert Visitors(room, "other").teacher(h) is None  # the server was restarted with another key
    assert Visitors(room, "").teacher(h) is None and not Visitors(room, "").is_teacher_key("")
    assert visitors.is_teacher_key(" k3y ") and not visitors.is_teacher_key("k3")
    visitors.sign_out(h)
    assert Visitors(room, "k3y").teacher(FakeHandler({TEACHER_COOKIE: json.dumps({"sid": sid})})) is None  # revoked


def test_sign_ins_are_limited_per_address_and_overall():
    now = [0.0]
    limit = RateLimit(per_address=(10, 60.0), overall=(60, 60.0), exempt={"127.0.0.1"}, clock=lambda: now[0])
    assert [limit.wait("10.0.0.9") for _ in range(10)] == [0.0] * 10
    assert limit.wait("10.0.0.9") == 6.0 and limit.wait("10.0.0.10") == 0.0  # one device, not the class
    assert all(limit.wait("127.0.0.1") == 0.0 for _ in range(49))  # the teacher's machine: only the overall one
    assert limit.wait("10.0.0.11") == 1.0  # 60 in all at once, then one a second
    now[0] += 6.0
    assert limit.wait("10.0.0.9") == 0.0

def test_a_teacher_key_may_have_any_letters(room):
    """A key typed with accents (or chosen with them: --teacher-key) is compared, not a server error."""
    visitors = Visitors(room, "clé-ñ")
    assert not visitors.is_teacher_key("clé") and not Visitors(room, "k3y").is_teacher_key("k3ý")
    assert visitors.is_teacher_key(" clé-ñ ")
    h = FakeHandler()
    visitors.sign_in_teacher(h)
    assert visitors.teacher(h) and Visitors(room, "k3y").teacher(h) is None


def test_a_hub_server_is_a_teachers_when_the_hub_says_so(monkeypatch):
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setenv("CANASTA_TUTOR_ROLE", "teacher")
    assert not is_teacher_server()  # not under a hub
    monkeypatch.setenv("JUPYTERHUB_USER", "tess")
    assert is_teacher_server() and HubRole().is_teacher(FakeHandler())
    monkeypatch.setenv("CANASTA_TUTOR_ROLE", " Teacher ")
    assert is_teacher_server()
    monkeypatch.setenv("CANASTA_TUTOR_ROLE", "learner")
    assert not HubRole().is_teacher(FakeHandler())


class FakeKernelManager:
    def __init__(self):
        self.kernels: list[str] = []
        self.shut: list[str] = []
        self.log = type("Log", (), {"info": lambda *a: None})()

    async def start_kernel(self, **kwargs):
        kernel_id = f"k{len(self.kernels) + 1}"
        self.kernels.append(kernel_id)
        return kernel_id

    def list_kernel_ids(self):
        return list(self.kernels)

    def __contains__(self, kernel_id):
        return kernel_id in self.kernels

    async def shutdown_kernel(self, kernel_id):
        self.shut.append(kernel_id)


def test_kernel_owners_give_a_started_kernel_to_the_visitor_of_the_request(monkeypatch):
    import contextvars

    from canasta_tutor.web import voila_server

    km = FakeKernelManager()
    owners = voila_server.KernelOwners(2)
    owners.attach(km)
    scheduled = []

    class Loop:
        def add_callback(self, shutdown, kernel_id):
            assert shutdown == km.shutdown_kernel
            scheduled.append(kernel_id)

    monkeypatch.setattr(voila_server.tornado.ioloop.IOLoop, "current", staticmethod(Loop))

    async def visit(visitor):
        if visitor:
            owners.visiting(visitor)
        return await km.start_kernel(kernel_name="python3")

    def run(visitor=None):  # each request in a context of its own, as Tornado runs them
        return contextvars.Context().run(asyncio.run, visit(visitor))

    assert run() == "k1" and owners.owner("k1") is None  # a pool's refill: nobody's
    assert run("ana") == "k2" and owners.owner("k2") == "ana"
    run("ana")
    run("bo")
    assert run("ana") == "k5" and scheduled == ["k2"]  # ana's third: her oldest is shut down
    assert owners.owner("k2") is None and owners.owner("k5") == "ana" and owners.owner("k4") == "bo"
    owners.forget("k5")
    assert owners.owner("k5") is None


def test_a_preheated_kernel_handed_out_is_noted_before_voila_sends_the_request(monkeypatch):
    import contextvars

    import voila.handler

    from canasta_tutor.web import voila_server

    monkeypatch.setattr(voila.handler, "RequestInfoSocketHandler", voila.handler.RequestInfoSocketHandler)
    sent = []
    monkeypatch.setattr(voila_server.RequestInfoSocketHandler, "send_updates",
                        classmethod(lambda cls, msg: sent.append(msg)))
    km = FakeKernelManager()
    km.kernels = ["p1"]
    owners = voila_server.KernelOwners(4)
    owners.attach(km)
    voila_server.RegisteringRequestInfo.install(owners)

    def request():  # as Voilà's page handler does, in the request's context
        owners.visiting("learner:1:s")
        voila.handler.RequestInfoSocketHandler.send_updates({"kernel_id": "p1", "payload": "{}"})

    contextvars.copy_context().run(request)
    assert owners.owner("p1") == "learner:1:s" and sent == [{"kernel_id": "p1", "payload": "{}"}]


def test_voilas_routes_keep_their_arguments_and_get_ours():
    from canasta_tutor.web.handlers import mount
    from canasta_tutor.web.voila_server import replaced

    class Voilas:
        pass

    class Ours:
        pass

    table = {Voilas: (Ours, {"visitors": "V"})}
    assert replaced(("/x", Voilas, {"voila_configuration": "C"}), table) == ("/x", Ours, {"voila_configuration": "C",
                                                                                        "visitors": "V"})
    assert replaced(("/x", Voilas), table) == ("/x", Ours, {"visitors": "V"})
    assert replaced(("/x", Voilas, {"a": 1}), {Voilas: (Ours, {})}) == ("/x", Ours, {"a": 1})
    assert replaced(("/y", Ours), table) == ("/y", Ours)
    assert mount("/base/", [("", Ours, {}), ("teacher", Ours, {})]) == [("/base/", Ours, {}),
                                                                        ("/base/teacher", Ours, {})]


def test_the_kernel_registry_is_the_one_the_classroom_tests_check():
    from canasta_tutor.web.voila_server import KernelOwners

    assert isinstance(KernelOwners(3).registry, KernelRegistry) and KernelOwners(0).registry.cap == 1
