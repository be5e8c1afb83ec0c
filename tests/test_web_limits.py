"""Bounded load, the kernel gate and faults that say the truth, asked of a running ``canasta-tutor serve`` on a tiny
lesson folder (one page, one hidden text box; 127.0.0.7, ports 9160-9169):

* the whole server holds at most ``--max-kernels`` learners' kernels: one more page is "The class is full: ask your
  teacher" (503), and a page closed makes room again; on one learner's own computer (no classroom) six tabs all
  keep their kernels (only idle kernels are culled);
* only the widgets' messages reach a kernel (``shutdown_request`` does not, on any channel) and no traceback comes
  back (a widget-control comm opened without a version);
* with the database down every page is a short page that says so (503), not a bare error 500.

And without a server: the gate's rules, the text cap in the kernel (:mod:`canasta_tutor.widgets.kernel_guard`), the
registry's limit, the server-wide default from the machine's memory.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from test_browser import serve
from test_web_handlers import HOST, Client, free_port

from canasta_tutor.web.app import kernel_limit, memory_kernel_limit
from canasta_tutor.web.kernel_gate import MAX_MESSAGE_BYTES, is_traceback, refusal
from canasta_tutor.web.visitors import KernelRegistry

PORTS = range(9160, 9170)
KEY, CODE = "limits-key", "Blue7"
TINY = ("from canasta_tutor.widgets import kernel_guard\nimport ipywidgets as w\n"
        "box = w.Text(value='start', layout=w.Layout(display='none'))\nbox")


def tiny_lessons(folder):
    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A tiny lesson"), nbformat.v4.new_code_cell(TINY)]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, folder / "index.ipynb")
    return folder


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("limits")
    args = ["--classroom", "--ip", HOST, "--teacher-key", KEY, "--class-code", CODE, "--max-kernels", "2",
            "--lessons", str(tiny_lessons(tmp / "lessons"))]
    with serve(tmp, args, host=HOST, port=free_port(PORTS), ready_path="/classroom/signin",
               notebooks=["index.ipynb"]) as (base, _proc):
        yield {"url": base, "log": tmp / "serve.log"}


def learner(server, name: str) -> Client:
    client = Client(server["url"])
    assert client.sign_in(name, CODE).status == 302
    return client


def wait_gone(client: Client, kernel: str, timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    status = client.get(f"/api/kernels/{kernel}").status
    while status == 200 and time.monotonic() < deadline:
        time.sleep(0.5)
        status = client.get(f"/api/kernels/{kernel}").status
    return status


# --- the server's limit on kernels ------------------------------------------------------------------------------
def test_one_page_beyond_the_servers_limit_is_the_class_is_full_page(classroom):
    assert "At most 2 learners' pages at once" in classroom["log"].read_text()
    ana, bo, cy = (learner(classroom, n) for n in ("Ana Full", "Bo Full", "Cy Full"))
    kept = ana.kernel_of("/voila/render/index.ipynb")
    bos = bo.kernel_of("/voila/render/index.ipynb")
    full = cy.get("/voila/render/index.ipynb")
    assert full.status == 503 and "The class is full: ask your teacher" in full.text
    assert "kernelId" not in full.text
    teacher = Client(classroom["url"])
    assert teacher.post("/teacher", form={"_xsrf": teacher.xsrf("/teacher"), "key": KEY}).status == 302  # by the form
    assert teacher.get("/voila/render/index.ipynb").status == 200  # the teacher is never shut out
    assert ana.post(f"/voila/api/shutdown/{kept}").status == 204  # Ana closes her page: room for Cy
    assert wait_gone(ana, kept) == 404
    cys = cy.kernel_of("/voila/render/index.ipynb")
    for client, kernel in ((bo, bos), (cy, cys)):  # the next tests start with an empty class
        assert client.post(f"/voila/api/shutdown/{kernel}").status == 204


def test_a_page_closed_for_a_newer_one_is_told_so_not_idle(classroom):
    teacher = Client(classroom["url"])  # the teacher is not held to --max-kernels, only to 4 pages at once
    assert teacher.post("/teacher", form={"_xsrf": teacher.xsrf("/teacher"), "key": KEY}).status == 302  # by the form
    pages = [teacher.kernel_of("/voila/render/index.ipynb") for _ in range(5)]
    assert wait_gone(teacher, pages[0]) == 410  # its page shows "closed because you opened more pages..."
    gone = teacher.get(f"/api/kernels/{pages[0]}")
    assert "replaced by a newer page" in gone.text
    assert [teacher.get(f"/api/kernels/{k}").status for k in pages[1:]] == [200] * 4
    for k in pages[1:]:
        teacher.post(f"/voila/api/shutdown/{k}")


def test_the_hubs_servers_go_through_the_same_gate():
    from canasta_tutor.web.kernel_gate import gate_arguments, gate_class_name

    root = Path(__file__).resolve().parent.parent / "deploy" / "jupyterhub"
    assert 'gate_arguments("ServerApp")' in (root / "jupyterhub_config.py").read_text()
    values = (root / "z2jh-values.yaml").read_text()
    assert all(f"- {arg}" in values for arg in gate_arguments("ServerApp"))
    assert gate_class_name() == "canasta_tutor.web.kernel_gate.WidgetGate"


# --- the gate -------------------------------------------------------------------------------------------------
def message(msg_type: str, content: dict, channel: str = "shell", metadata: dict | None = None) -> str:
    header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": "t", "username": "", "version": "5.3",
              "date": ""}
    return json.dumps({"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content,
                       "channel": channel, "buffers": []})


async def exchange(url: str, cookies: dict, messages: list[str], seconds: float = 4.0) -> list[dict]:
    """Send ``messages`` on a kernel's websocket; return what the kernel sends back within ``seconds``."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    request = HTTPRequest(url, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
    ws = await websocket_connect(request)
    for m in messages:
        await ws.write_message(m)
    received = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            raw = await asyncio.wait_for(ws.read_message(), left)
        except TimeoutError:
            break
        if raw is None:
            break
        received.append(json.loads(raw) if isinstance(raw, str) else {"binary": raw})
    ws.close()
    return received


def channels_url(server, kernel: str) -> str:
    return server["url"].replace("http:", "ws:") + f"/api/kernels/{kernel}/channels?session_id=t"


def test_a_page_cannot_shut_its_kernel_down_through_the_socket(classroom):
    ana = learner(classroom, "Ana Gate")
    kernel = ana.kernel_of("/voila/render/index.ipynb")
    sent = [message("shutdown_request", {"restart": False}, channel=ch) for ch in ("control", "shell")]
    sent.append(message("execute_request", {"code": "import os; os._exit(3)", "silent": False}))
    got = asyncio.run(exchange(channels_url(classroom, kernel), ana.cookies, sent, seconds=4))
    assert not [m for m in got if m.get("header", {}).get("msg_type") in ("shutdown_reply", "execute_reply")]
    assert ana.get(f"/api/kernels/{kernel}").status == 200
    log = classroom["log"].read_text()
    assert "a shutdown_request message" in log or "on the control channel" in log
    ana.post(f"/voila/api/shutdown/{kernel}")


def test_no_traceback_reaches_the_page_from_a_bad_widget_comm(classroom):
    ana = learner(classroom, "Ana Comm")
    kernel = ana.kernel_of("/voila/render/index.ipynb")
    sent = [message("comm_open", {"comm_id": uuid.uuid4().hex, "target_name": "jupyter.widget.control",
                                  "data": {}}),
            message("comm_open", {"comm_id": uuid.uuid4().hex, "target_name": "jupyter.widget", "data": {}},
                    metadata={"version": "1.0.0"})]
    got = asyncio.run(exchange(channels_url(classroom, kernel), ana.cookies, sent, seconds=5))
    text = json.dumps(got)
    assert "Traceback" not in text and "site-packages" not in text and "ValueError" not in text
    assert not [m for m in got if is_traceback(m.get("header", {}).get("msg_type"), m.get("content"))]
    # the comms were refused, the kernel still answers (it closed them)
    assert [m for m in got if m.get("header", {}).get("msg_type") == "comm_close"]
    assert ana.get(f"/api/kernels/{kernel}").status == 200
    ana.post(f"/voila/api/shutdown/{kernel}")


def test_a_message_larger_than_the_gate_takes_never_reaches_the_kernel(classroom):
    ana = learner(classroom, "Ana Big")
    kernel = ana.kernel_of("/voila/render/index.ipynb")
    big = message("comm_msg", {"comm_id": "x", "data": {"method": "update", "state": {"value": "x" * 300_000}}})
    assert len(big) > MAX_MESSAGE_BYTES
    got = asyncio.run(exchange(channels_url(classroom, kernel), ana.cookies, [big], seconds=2))
    assert got == []  # the connection is closed (1009: too big), nothing came back
    assert ana.get(f"/api/kernels/{kernel}").status == 200
    ana.post(f"/voila/api/shutdown/{kernel}")


def test_the_gates_rules():
    assert refusal("shell", {"msg_type": "comm_msg"}, 200) == ""
    for msg_type in ("shutdown_request", "execute_request", "interrupt_request", "inspect_request", None):
        assert refusal("shell", {"msg_type": msg_type}, 200)
    assert refusal("control", {"msg_type": "kernel_info_request"}, 200)
    assert refusal("stdin", {"msg_type": "comm_msg"}, 200)
    assert refusal(None, None, 10)
    assert "bytes" in refusal("shell", {"msg_type": "comm_msg"}, MAX_MESSAGE_BYTES + 1)
    assert is_traceback("error", {}) and is_traceback("stream", {"name": "stderr", "text": "x"})
    assert not is_traceback("stream", {"name": "stdout", "text": "x"}) and not is_traceback("comm_msg", {})


# --- one learner's own computer ---------------------------------------------------------------------------------
def test_on_one_learners_computer_six_tabs_all_keep_their_kernels(tmp_path):
    with serve(tmp_path, ["--ip", HOST, "--lessons", str(tiny_lessons(tmp_path / "lessons"))], host=HOST,
               port=free_port(PORTS), ready_path="/voila/tree", notebooks=["index.ipynb"]) as (base, _proc):
        me = Client(base)
        tabs = [me.kernel_of("/voila/render/index.ipynb") for _ in range(6)]
        time.sleep(3)  # a kernel shut down for a newer tab would be gone by now
        assert [me.get(f"/api/kernels/{k}").status for k in tabs] == [200] * 6


# --- faults say the truth ----------------------------------------------------------------------------------------
def test_with_the_database_stopped_every_page_says_so(pg_server, tmp_path):
    url = pg_server.create_database(f"limits_{int(time.time())}")
    env_db = {"CANASTA_TUTOR_DB": url}
    args = ["--classroom", "--ip", HOST, "--teacher-key", KEY, "--no-preheat", "--lessons",
            str(tiny_lessons(tmp_path / "lessons"))]
    with serve(tmp_path, args, host=HOST, port=free_port(PORTS), ready_path="/classroom/signin", notebooks=[],
               env=env_db) as (base, _proc):
        ana = learner({"url": base}, "Ana Down")
        try:
            pg_server.stop()
            for client, path in ((Client(base), "/classroom/signin"), (ana, "/voila/render/index.ipynb"),
                                 (ana, "/classroom/signin")):
                r = client.get(path)
                assert r.status == 503, (path, r.status, r.text[:200])
                assert "out of reach" in r.text and "every answer saved so far is kept" in r.text
                assert "does not answer" in r.text and "Traceback" not in r.text
                assert not re.search(r"/(?:usr|home|root|tmp)/", r.text)
        finally:
            pg_server.start()


# --- without a server ------------------------------------------------------------------------------------------
def test_the_registry_refuses_beyond_the_limit_and_frees_a_place_when_a_page_goes():
    reg = KernelRegistry(4, limit=2)
    alive = {"a1", "b1"}
    t = reg.admit("learner:1:x", alive)
    reg.add("learner:1:x", "a1", alive)
    assert reg.arriving == {}  # the kernel handed out takes the ticket's place
    reg.leave(t)
    reg.add("learner:2:y", "b1", alive)
    assert reg.admit("learner:3:z", alive) is None
    assert reg.admit("teacher:t", alive) is not None
    waiting = reg.admit("learner:1:x", alive)  # one more tab of Ana's, not beyond her own cap: no room either
    assert waiting is None
    reg.forget("a1")
    assert reg.admit("learner:3:z", {"b1"}) is not None
    assert reg.admit("learner:4:w", {"b1"}) is None  # a page on its way counts already


def test_without_a_cap_per_visitor_no_kernel_is_ever_shut_down_for_a_newer_one():
    reg = KernelRegistry(None)
    alive = {f"k{i}" for i in range(10)}
    assert all(reg.add("anonymous:127.0.0.1", f"k{i}", alive) == [] for i in range(10))
    capped = KernelRegistry(2)
    assert [capped.add("v", f"k{i}", alive) for i in range(3)][-1] == ["k0"] and "k0" in capped.replaced


def test_the_servers_limit_comes_from_the_class_or_the_memory():
    assert kernel_limit(max_kernels=5, class_size=30) == 5
    assert kernel_limit(class_size=30) >= 30 and kernel_limit(class_size=1) >= 2
    assert memory_kernel_limit(2**29) >= 2
    small, large = memory_kernel_limit(4 * 2**30), memory_kernel_limit(32 * 2**30)
    assert 5 <= small < large and large * 100 * 2**20 < 32 * 2**30  # ~100 MB a kernel must fit
    assert kernel_limit() == memory_kernel_limit() or abs(kernel_limit() - memory_kernel_limit()) <= 3


def test_the_kernel_refuses_a_huge_text_and_a_huge_list():
    import ipywidgets as w

    from canasta_tutor.widgets import kernel_guard

    box = w.Text(value="start")
    msg = {"content": {"data": {"method": "update", "state": {"value": "x" * (kernel_guard.MAX_TEXT + 1)}}}}
    box._handle_msg(msg)
    assert box.value == "start" and "characters" in kernel_guard.refused[-1][1]
    box._handle_msg({"content": {"data": {"method": "update", "state": {"value": "fine"}}}})
    assert box.value == "fine"
    pick = w.SelectMultiple(options=list(range(5)))
    pick._handle_msg({"content": {"data": {"method": "update",
                                           "state": {"index": [0] * (kernel_guard.MAX_ITEMS + 1)}}}})
    assert pick.index == () and "items" in kernel_guard.refused[-1][1]


# --- a quiet stop --------------------------------------------------------------------------------------------------
def test_stopping_the_server_prints_no_traceback(tmp_path):
    lessons = tiny_lessons(tmp_path / "lessons")
    with serve(tmp_path, ["--ip", HOST, "--lessons", str(lessons)], host=HOST, port=free_port(PORTS),
               ready_path="/voila/tree", notebooks=["index.ipynb"]) as (base, proc):
        me = Client(base)
        me.kernel_of("/voila/render/index.ipynb")  # one kernel given out, one preheated and waiting
        time.sleep(2)
    proc.wait(30)
    log = (tmp_path / "serve.log").read_text()
    assert "Kernel shutdown" in log
    assert "Traceback" not in log and "ZMQError" not in log


@pytest.mark.parametrize("error, meaning", [
    ("could not save the attempt in p.sqlite3: database or disk is full", "its disk is full"),
    ("cannot sign in: attempt to write a readonly database", "it can only be read, not written"),
    ("cannot read the class tables in postgresql://t@db:5432/c: connection refused", "it does not answer"),
    ("cannot read the class tables in /home/t/p.sqlite3: no such table: classes", "it cannot be read just now")])
def test_the_fault_page_names_the_fault_without_the_servers_paths(error, meaning):
    from canasta_tutor.web.handlers import fault_page

    text = fault_page(error)
    assert meaning in text and "every answer saved so far is kept" in text
    assert "/home/" not in text and "postgresql://" not in text
