"""A class in a real browser: ``canasta-tutor serve --classroom`` on the second loopback address 127.0.0.2, two
learners in their own browser contexts, the teacher in a third.

The server gets a small copy of the lessons (the landing page, two lessons, the dashboard) so that preheating
is quick; everything else is the real app.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import socket
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import psutil
import pytest
from test_browser import ARTIFACTS, block_other_hosts, browser, serve, wait_for  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.2"
KEY = "teach3r-key"
CODE = "Blue7"
NOTEBOOKS = ["index.ipynb", "04-taking-the-pile.ipynb", "08-scoring.ipynb", "teacher/dashboard.ipynb"]
ANA = "Ana Zed"
BO = "Bo <i>Quux</i>"  # shown exactly as typed, never as HTML


def free_port(host: str = HOST, ports=None) -> int:
    """A free port on ``host``: 9150-9159, or the range in $CANASTA_TEST_PORTS (e.g. 9180-9189)."""
    if ports is None:
        first, _, last = os.environ.get("CANASTA_TEST_PORTS", "9150-9159").partition("-")
        ports = range(int(first), int(last or first) + 1)
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind((host, port))
                return port
            except OSError:
                continue
    raise RuntimeError(f"no free port in {ports[0]}-{ports[-1]}")


def kernels(pid: int) -> set[int]:
    out = set()
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                out.add(child.pid)
        except psutil.Error:
            pass
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from run_server(tmp_path_factory.mktemp("classroom"), NOTEBOOKS, HOST)


def run_server(tmp, notebooks, host, ports=None):
    """Serve a copy of ``notebooks`` in classroom mode on ``host``; yields what the tests need to know."""
    lessons = tmp / "lessons"
    for name in notebooks:
        (lessons / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "lessons" / name, lessons / name)
    port = free_port(host, ports)
    args = ["--classroom", "--ip", host, "--teacher-key", KEY, "--class-code", CODE, "--lessons", str(lessons)]
    with serve(tmp, args, host=host, port=port, ready_path="/classroom/signin", notebooks=notebooks) as (base, proc):
        yield {"url": base, "port": int(base.rsplit(":", 1)[1]), "db": tmp / "progress.sqlite3",
               "log": tmp / "serve.log", "pid": proc.pid}


PROBE = """async ([url, code]) => {
  const ws = new WebSocket(url);
  const opened = await new Promise(r => { ws.onopen = () => r(true); ws.onerror = () => r(false); });
  if (!opened) return ["refused"];
  const replies = [];
  ws.onmessage = e => { if (typeof e.data === "string") replies.push(JSON.parse(e.data).msg_type); };
  const header = t => ({msg_id: t + Math.random(), username: "", session: "probe", msg_type: t, version: "5.3",
                        date: new Date().toISOString()});
  ws.send(JSON.stringify({header: header("execute_request"), parent_header: {}, metadata: {}, channel: "shell",
    content: {code, silent: false, store_history: false, user_expressions: {}, allow_stdin: false,
              stop_on_error: true}}));
  ws.send(JSON.stringify({header: header("kernel_info_request"), parent_header: {}, metadata: {}, content: {},
                          channel: "shell"}));
  await new Promise(r => setTimeout(r, 4000));
  ws.close();
  return replies;
}"""


def new_context(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    outside = block_other_hosts(context, server["url"])
    context.outside = outside
    return context


def sign_in(context, server, name, code=CODE):
    page = context.new_page()
    page.goto(server["url"] + "/")
    page.wait_for_url("**/classroom/signin")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Start").click()
    return page


def shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"classroom-{name}.png"), full_page=True)


def test_reached_on_the_second_loopback_address_only(server):
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"http://127.0.0.1:{server['port']}/classroom/signin", timeout=5)
    assert urllib.request.urlopen(server["url"] + "/classroom/signin", timeout=30).status == 200


def test_anonymous_visitors_get_no_kernel_no_source_no_dashboard(server):
    before = kernels(server["pid"])
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    for _ in range(30):
        r = opener.open(server["url"] + "/voila/render/index.ipynb", timeout=30)
        assert r.url.endswith("/classroom/signin")
    time.sleep(2)
    assert kernels(server["pid"]) <= before, "an anonymous visitor got a kernel"
    for path in ("/voila/api/contents/index.ipynb", "/voila/api/contents/04-taking-the-pile.ipynb?content=1",
                 "/voila/files/index.ipynb", "/voila/files/teacher/dashboard.ipynb",
                 "/voila/files/../progress.sqlite3", "/api/contents/index.ipynb",
                 "/voila/render/teacher/dashboard.ipynb",
                 "/classroom/export/learners.csv", "/classroom/export/gradebook.xlsx",
                 "/classroom/worksheet/set/04-freezing.pdf", "/classroom/worksheet/assignment/1.pdf?answers=1"):
        try:
            body = opener.open(server["url"] + path, timeout=30).read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            assert e.code in (403, 404), (path, e.code)
            body = e.read().decode("utf-8", "replace")
        assert "nbformat" not in body and "from canasta_tutor" not in body and "SQLite format" not in body, path
        assert "Traceback" not in body, path


def test_a_class_signs_in_answers_and_the_teacher_sees_it(browser, server):  # noqa: F811
    ana_ctx, bo_ctx, teacher_ctx = (new_context(browser, server) for _ in range(3))
    try:
        # --- two learners sign in once, a third is told the name is taken ---------------------------------
        ana = sign_in(ana_ctx, server, ANA)
        ana.get_by_text("Signed in as").wait_for()
        bo = sign_in(bo_ctx, server, BO)
        bo.locator(".ct-learner-name").wait_for()
        assert bo.locator(".ct-learner-name").inner_text() == BO
        other = sign_in(new_context(browser, server), server, "  ana zed ")
        other.get_by_text("already called ana zed").wait_for()
        assert "/classroom/signin" in other.url
        wrong = sign_in(new_context(browser, server), server, "Cy", code="nope")
        wrong.get_by_text("not this class's code").wait_for()
        shot(ana, "01-ana-landing")

        # --- they answer puzzles in two lessons, without typing their names again ------------------------
        ana.goto(server["url"] + "/voila/render/04-taking-the-pile.ipynb")
        ana.get_by_text("May you take the discard pile now?").wait_for()
        trainer = ana.locator(".ct-trainer").last
        assert trainer.get_by_label("Your name:").count() == 0 or not trainer.get_by_label("Your name:").is_visible()
        trainer.get_by_role("button", name="No", exact=True).click()  # t-001: Yes is right
        trainer.get_by_text("Not quite.").wait_for()
        ana.goto(server["url"] + "/voila/render/08-scoring.ipynb")
        trainer = ana.locator(".ct-trainer").last
        trainer.get_by_placeholder("points").fill("30")  # s-001: 30 is right
        trainer.get_by_role("button", name="Check").click()
        trainer.get_by_text("Right!").wait_for()
        bo.goto(server["url"] + "/voila/render/04-taking-the-pile.ipynb")
        bo_trainer = bo.locator(".ct-trainer").last
        bo_trainer.get_by_role("button", name="Yes", exact=True).click()
        bo_trainer.get_by_text("Right!").wait_for()

        # --- a learner's own progress on the landing page, and nobody else's -----------------------------
        ana.goto(server["url"] + "/voila/render/index.ipynb")
        ana.get_by_text("Topics you have practised").wait_for()
        text = ana.locator("body").inner_text()
        assert ANA in text and "Quux" not in text and "Bo " not in text
        shot(ana, "02-ana-progress")

        # --- the dashboard refuses without the key ---------------------------------------------------------
        tp = teacher_ctx.new_page()
        response = tp.goto(server["url"] + "/voila/render/teacher/dashboard.ipynb")
        assert response.status == 403 and "for the teacher" in tp.locator("body").inner_text()
        assert bo.request.get(server["url"] + "/classroom/export/learners.csv").status == 403
        tp.goto(server["url"] + "/teacher#key=wrong")  # the form sends what follows "#" (never in a log)
        tp.get_by_text("That is not the teacher key.").wait_for()
        # --- and with it shows both learners with the right counts ---------------------------------------
        tp.goto(server["url"] + "/teacher#key=" + KEY)
        tp.wait_for_url("**/teacher/dashboard.ipynb")
        tp.locator(".ct-heatmap").wait_for()
        assert server["url"].replace("http://", "") in tp.locator(".ct-join-url").inner_text()
        assert tp.locator(".ct-join svg").count() == 0  # the QR code is on the Join screen, not beside results
        with tp.context.expect_page() as opened:
            tp.locator(".ct-join-link").click()
        join = opened.value
        join.locator(".ct-join-screen svg").first.wait_for()  # the join address as a large QR code
        assert server["url"].replace("http://", "") in join.locator(".ct-join-url").inner_text()
        assert CODE in join.locator(".ct-class-code").inner_text() and ANA not in join.locator("body").inner_text()
        shot(join, "03-join-screen")
        join.close()
        shot(tp, "03-dashboard")
        cells = tp.locator(".ct-cell").evaluate_all(
            "els => els.map(e => [e.dataset.learner, e.dataset.topic, +e.dataset.attempts, +e.dataset.correct])")
        totals: dict[str, list[int]] = {}
        for learner, _topic, n, right in cells:
            totals.setdefault(learner, [0, 0])
            totals[learner][0] += n
            totals[learner][1] += right
        assert totals == {ANA: [2, 1], BO: [1, 1]}, cells
        assert len([c for c in cells if c[0] == ANA]) == 2  # two topics
        assert "2 learners · 3 answers" in tp.locator(".ct-summary").inner_text()

        # --- it refreshes by itself while the class works -----------------------------------------------
        bo_trainer.get_by_role("button", name="Next puzzle →").click()
        bo_trainer.get_by_role("button", name="Yes", exact=True).click()
        bo_trainer.locator(".ct-feedback").wait_for()
        tp.get_by_text("2 learners · 4 answers").wait_for(timeout=30_000)

        # --- exports for a gradebook ------------------------------------------------------------------
        r = teacher_ctx.request.get(server["url"] + "/classroom/export/learners.csv")
        assert r.status == 200
        rows = {row["learner"]: row for row in csv.DictReader(io.StringIO(r.body().decode("utf-8-sig")))}
        assert rows[ANA]["answers"] == "2" and rows[ANA]["right"] == "1" and rows[BO]["answers"] == "2"
        r = teacher_ctx.request.get(server["url"] + "/classroom/export/gradebook.xlsx")
        assert r.status == 200 and r.body()[:2] == b"PK"
        r = teacher_ctx.request.get(server["url"] + "/classroom/export/grades.csv")  # no such export: says which are
        assert r.status == 404 and "learners.csv, puzzles.csv, gradebook.xlsx" in r.text()

        # --- only the visitor who got a kernel may shut it down ----------------------------------------
        ana.goto(server["url"] + "/voila/render/04-taking-the-pile.ipynb")
        ana.get_by_text("May you take the discard pile now?").wait_for()
        kernel_id = re.search(r'"kernelId": "([0-9a-f-]{36})"', ana.content()).group(1)
        # a page may talk to its own kernel only in widget messages: code sent to it is dropped
        planted = server["db"].parent / "ran-code.txt"
        channels = server["url"].replace("http", "ws") + f"/api/kernels/{kernel_id}/channels?session_id=probe"
        replies = ana.evaluate(PROBE, [channels, f"open({str(planted)!r}, 'w').write('x')"])
        assert "kernel_info_reply" in replies and "execute_reply" not in replies, replies
        assert not planted.exists()
        assert bo.evaluate(PROBE, [channels, "1"]) == ["refused"]  # nor to someone else's
        assert bo.request.post(server["url"] + "/voila/api/shutdown/" + kernel_id).status == 403
        assert bo.request.delete(server["url"] + "/api/kernels/" + kernel_id).status == 403
        assert ana.request.post(server["url"] + "/voila/api/shutdown/" + kernel_id).status == 204

        # --- every answer landed under the right name -------------------------------------------------
        import sqlite3

        with sqlite3.connect(server["db"]) as conn:
            saved = conn.execute("SELECT learner, puzzle_id, correct FROM attempts ORDER BY id").fetchall()
        assert [s[0] for s in saved].count(ANA) == 2 and [s[0] for s in saved].count(BO) == 2
        assert (ANA, "t-001", 0) in saved and (ANA, "s-001", 1) in saved and (BO, "t-001", 1) in saved
        for ctx in (ana_ctx, bo_ctx, teacher_ctx):
            assert not ctx.outside, ctx.outside
    finally:
        for ctx in (ana_ctx, bo_ctx, teacher_ctx):
            ctx.close()


def test_a_signed_in_visitor_holds_a_bounded_number_of_kernels(server):
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(server["url"] + "/classroom/signin", timeout=30).read().decode()
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
    opener.open(server["url"] + "/classroom/signin",
                urlencode({"_xsrf": xsrf, "name": "Many Tabs", "code": CODE}).encode(), timeout=60).read()
    before = kernels(server["pid"])
    for i in range(6):
        request = urllib.request.Request(server["url"] + "/voila/render/index.ipynb")
        if i == 0:  # a browser cannot claim to be someone else (or the teacher) with the server's header
            request.add_header("X-Canasta-Identity", json.dumps({"name": "Forged Name", "teacher": True}))
        body = opener.open(request, timeout=120).read().decode()
        if i == 0:
            assert "Many Tabs" in body and "Forged Name" not in body and "the class dashboard" not in body
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        extra = kernels(server["pid"]) - before
        if len(extra) <= 4:
            break
        time.sleep(1)
    # the visitor's 4 newest kernels, and the pool's refill of the landing page (at most one more)
    assert len(extra) <= 5, len(extra)
    assert "holds more than 4 kernels" in server["log"].read_text(errors="replace")
