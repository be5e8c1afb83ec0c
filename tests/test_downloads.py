"""The teacher's downloads are made in one place (:mod:`canasta_tutor.classroom.downloads`) for both servers: the
class's CSV and Excel exports and the worksheet PDFs, with the same names and headers whether ``canasta-tutor serve``
or a JupyterHub server sends them, through the same handlers (:mod:`canasta_tutor.web.handlers`). The handlers
themselves are exercised end to end by test_web_handlers (both servers), test_browser_classroom (serve) and test_hub
(JupyterHub)."""

from __future__ import annotations

import ast
import io
import zipfile
from pathlib import Path

import pytest

from canasta_tutor.classroom.downloads import EXPORTS, Download, class_export, send, worksheet_download
from canasta_tutor.classroom.roster import Classroom

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def room(tmp_path, monkeypatch):
    monkeypatch.setenv("CANASTA_TUTOR_FILES", str(tmp_path / "files"))
    r = Classroom(str(tmp_path / "p.sqlite3"))
    r.set_code("blue")
    r.join("Ana", "blue")
    r.join("Zoë", "blue")
    for name, pid, right in (("Ana", "t-1", True), ("Ana", "t-2", False), ("Zoë", "t-1", True)):
        r.store.record(learner=name, puzzle_set="S", puzzle_id=pid, kind="take-pile", topic="taking the pile",
                       difficulty=1, answer={"take": right}, correct=right, seconds=2)
    return r


def test_the_csv_exports_are_named_by_the_class_day_and_open_in_excel_with_their_accents(room):
    day = room.current().created[:10]
    learners = class_export(room, "learners.csv")
    assert learners.filename == f"canasta-{day}-learners.csv" and learners.content_type.startswith("text/csv")
    assert learners.body.startswith(b"\xef\xbb\xbf")       # the byte-order mark: Excel reads UTF-8
    text = learners.body.decode("utf-8-sig")
    assert "Ana" in text and "Zoë" in text
    puzzles = class_export(room, "puzzles.csv").body.decode("utf-8-sig")
    assert "t-1" in puzzles and "t-2" in puzzles and puzzles != text


def test_the_gradebook_is_a_workbook_with_three_sheets(room):
    book = class_export(room, "gradebook.xlsx")
    assert book.content_type == EXPORTS["gradebook.xlsx"] and book.filename.endswith("-gradebook.xlsx")
    names = zipfile.ZipFile(io.BytesIO(book.body)).read("xl/workbook.xml").decode()
    assert all(f'name="{sheet}"' in names for sheet in ("Learners", "Puzzles", "Attempts")), names


def test_another_name_is_not_an_export(room):
    with pytest.raises(LookupError, match="no export 'secrets.csv'"):
        class_export(room, "secrets.csv")


def test_a_worksheet_download_is_a_pdf_named_by_its_title():
    plain, keyed = worksheet_download("set", "04-freezing"), worksheet_download("set", "04-freezing", answers=True)
    assert plain.content_type == "application/pdf" and plain.body[:5] == b"%PDF-"
    assert keyed.filename == plain.filename.removesuffix(".pdf") + "-answers.pdf"
    with pytest.raises(LookupError):
        worksheet_download("set", "../../etc/passwd")


def test_send_sets_the_headers_of_an_attachment_never_cached():
    class Handler:
        def __init__(self):
            self.headers, self.body = {}, None

        def set_header(self, name, value):
            self.headers[name] = value

        def finish(self, body):
            self.body = body

    h = Handler()
    send(h, Download("canasta-2026-01-01-learners.csv", "text/csv; charset=utf-8", b"x"))
    assert h.headers == {"Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-store",
                         "Content-Disposition": "attachment; filename=canasta-2026-01-01-learners.csv"}
    assert h.body == b"x"


@pytest.mark.parametrize("module", sorted(p.name for p in (ROOT / "canasta_tutor" / "web").glob("*.py")))
def test_no_web_module_makes_a_download_itself(module):
    """No module of the web layer (either server, their handlers) writes a CSV, a workbook, a PDF or an attachment
    header itself: the shared functions do."""
    source = (ROOT / "canasta_tutor" / "web" / module).read_text("utf-8")
    called = {n.func.attr for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Attribute)}
    assert not called & {"to_csv", "to_excel", "report"}, (module, called & {"to_csv", "to_excel", "report"})
    assert "Content-Disposition" not in source and "worksheet_pdf" not in source


def test_neither_server_makes_a_download_itself(room):
    """Both servers route the downloads to the same two handlers, and those call the shared functions."""
    from types import SimpleNamespace

    import tornado.web

    from canasta_tutor.web import app, handlers, hub
    from canasta_tutor.web.visitors import Visitors

    source = (ROOT / "canasta_tutor" / "web" / "handlers.py").read_text("utf-8")
    assert "class_export" in source and "worksheet_download" in source and "send(self, download)" in source
    added = []
    web_app = SimpleNamespace(settings={"base_url": "/user/tess/"},
                              add_handlers=lambda host, routes: added.extend(routes))
    hub._load_jupyter_server_extension(SimpleNamespace(web_app=web_app))
    on_the_hub = {route[1] for route in added}
    served = {route[1] for route in app.route_table(Visitors(room, "k3y"))}
    assert on_the_hub == {handlers.ExportHandler, handlers.WorksheetHandler}
    assert on_the_hub <= served
    for module in (app, hub):  # neither server has a handler of its own besides
        assert not [name for name, value in vars(module).items() if isinstance(value, type)
                    and issubclass(value, tornado.web.RequestHandler)], module


def test_the_engine_side_module_imports_no_jupyter():
    import subprocess
    import sys

    code = ("import sys, canasta_tutor.classroom.downloads; "
            "print(sorted(m for m in ('tornado', 'jupyter_server', 'ipywidgets', 'voila') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
