"""Sign-ins are rate-limited through the real server (issue 17: "150 fake learners signed in within 1.8 s"): a
``canasta-tutor serve --classroom`` of its own (127.0.0.9, ports 9460-9469), since the tries use up the class's
bucket for a while. The limit itself (token buckets per address and overall) is tested without a server in
test_web_handlers; the server's own machine has no bucket of its own, so from here only the overall one engages:
60 tries at once (a class arriving), then one a second."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from test_browser import serve
from test_web_handlers import Client

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.9"
CODE = "Lim1t"


def free_port(ports: range, host: str) -> int:
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1} on {host}")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("signin-limit")
    lessons = tmp / "lessons"
    for name in ("index.ipynb", "teacher/dashboard.ipynb"):
        (lessons / name).parent.mkdir(parents=True, exist_ok=True)
        (lessons / name).write_bytes((ROOT / "lessons" / name).read_bytes())
    args = ["--classroom", "--ip", HOST, "--teacher-key", "limit-key", "--class-code", CODE, "--class-size", "1",
            "--lessons", str(lessons)]
    with serve(tmp, args, host=HOST, port=free_port(range(9460, 9470), HOST), ready_path="/classroom/signin",
               notebooks=["index.ipynb"]) as (base, _proc):
        yield base


def test_a_flood_of_sign_ins_is_refused_with_a_clear_page_and_the_class_gets_back_in(server):
    c = Client(server)
    token = c.xsrf("/classroom/signin")
    answers = [c.post("/classroom/signin", form={"_xsrf": token, "name": f"Fake {i}", "code": "wrong"})
               for i in range(75)]
    statuses = [a.status for a in answers]
    assert 429 in statuses, statuses
    first = statuses.index(429)
    assert first >= 55, statuses  # a class of up to 60 arriving at once is never refused
    assert set(statuses[:first]) <= {400, 403}  # before the limit: the wrong class code's own answer
    refused = answers[first]
    assert "Too many tries" in refused.text and int(refused.headers["Retry-After"]) >= 1
    assert "Traceback" not in refused.text
    time.sleep(int(answers[-1].headers.get("Retry-After", "1")) + 1.0)
    back = Client(server)  # once the bucket has a try again, a learner with the right code signs in
    assert back.sign_in("Ana", code=CODE).status == 302
