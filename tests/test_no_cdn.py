"""Nothing from another host, and no list of lessons for strangers: a real ``canasta-tutor serve --classroom``
(127.0.0.1, ports 9140-9149) renders its pages (the sign-in and teacher pages, Voilà's tree, a lesson, an error
page, and the addresses a visitor could change: ``?classic-tree=true``, ``?template=classic``), and no page nor the
stylesheets it links names a URL on another host. Before: ``/voila/tree`` answered 200 without sign-in and linked
Font Awesome on cdn.jsdelivr.net (Voilà's base ``page.html``)."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
from test_browser import serve
from test_web_handlers import Client

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
KEY, CODE = "n0-cdn-key", "Blue4"
# where a page or a stylesheet makes the browser fetch something: attributes and CSS, not XML namespaces
FETCHED = re.compile(r"""(?:\b(?:src|href|action|poster|data)\s*=\s*["']?|url\(\s*["']?|@import\s+["'])"""
                     r"""((?:https?:)?//[^"')\s>]+)""", re.I)


def free_port() -> int:
    for port in range(9140, 9150):
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 9140-9149")


def outside_urls(text: str, base: str) -> list[str]:
    local = urlparse(base).netloc
    return [u for u in FETCHED.findall(text) if urlparse(urljoin(base, u)).netloc != local]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nocdn")
    lessons = tmp / "lessons"
    for name in ("index.ipynb", "teacher/dashboard.ipynb"):
        (lessons / name).parent.mkdir(parents=True, exist_ok=True)
        (lessons / name).write_bytes((ROOT / "lessons" / name).read_bytes())
    args = ["--classroom", "--ip", HOST, "--teacher-key", KEY, "--class-code", CODE, "--no-preheat",
            "--lessons", str(lessons)]
    with serve(tmp, args, host=HOST, port=free_port(), ready_path="/classroom/signin", notebooks=[]) as (base, _p):
        yield base


def test_the_list_of_lessons_is_closed_without_sign_in(server):
    for path in ("/voila/tree", "/voila/tree/teacher", "/voila/tree?classic-tree=true"):
        r = Client(server).get(path)
        assert r.status == 302 and r.headers["Location"].endswith("/classroom/signin"), (path, r.status)
    learner = Client(server)
    assert learner.sign_in("Ana", CODE).status == 302
    assert learner.get("/voila/tree").status == 200


def test_no_page_links_anything_on_another_host(server):
    nobody, learner, teacher = Client(server), Client(server), Client(server)
    assert learner.sign_in("Bo", CODE).status == 302
    # the teacher signs in by the form (a key in an address is refused: issue 17)
    assert teacher.post("/teacher", form={"_xsrf": teacher.xsrf("/teacher"), "key": KEY}).status == 302
    visits = [(nobody, "/classroom/signin"), (nobody, "/teacher"), (nobody, "/voila/render/index.ipynb"),
              (learner, "/voila/tree"), (learner, "/voila/tree?classic-tree=true"),
              (learner, "/voila/render/missing.ipynb"), (learner, "/voila/render/index.ipynb?template=classic"),
              (learner, "/voila/render/index.ipynb"), (teacher, "/voila/tree/teacher")]
    found, stylesheets = {}, set()
    for client, path in visits:
        r = client.get(path)
        assert r.status in (200, 302, 404), (path, r.status)
        found[path] = outside_urls(r.text, server)
        stylesheets |= {u for u in re.findall(r"""href=["']([^"']+\.css[^"']*)["']""", r.text)
                        if not urlparse(u).netloc}
    assert "/voila/render/index.ipynb" in found and len(stylesheets) >= 2, stylesheets
    for css in sorted(stylesheets):
        r = learner.get(css)
        assert r.status == 200, css
        found[css] = outside_urls(r.text, server)
    assert {path: urls for path, urls in found.items() if urls} == {}


def test_the_scan_sees_a_stylesheet_on_a_cdn():
    """The scan itself: Voilà's own page.html is what /voila/tree used to send."""
    voila_page = Path(__import__("voila").__file__).resolve().parents[3] / "share/jupyter/voila/templates/base"
    stock = (voila_page / "page.html")
    text = stock.read_text() if stock.is_file() else ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/'
                                                      'font-awesome@4.5.0/css/font-awesome.min.css" />')
    assert outside_urls(text, "http://127.0.0.1:9140") == [
        "https://cdn.jsdelivr.net/npm/font-awesome@4.5.0/css/font-awesome.min.css"]
    assert outside_urls("<svg xmlns='http://www.w3.org/2000/svg'><a href='/voila/tree'>x</a></svg>",
                        "http://127.0.0.1:9140") == []
