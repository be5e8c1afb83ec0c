"""The class tables and the teacher's numbers (no server): joining, duplicates, class codes, new classes,
the heat map, who is stuck, the most-missed puzzles, the exports, and the serve options."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
import pytest

from canasta_tutor.classroom.roster import Classroom, name_key, network_addresses, qr_svg
from canasta_tutor.web.app import voila_arguments
from canasta_tutor.web.visitors import KernelRegistry, is_teacher_page


@pytest.fixture
def room(db_url):
    return Classroom(db_url)


def answer(room, learner, pid, correct, *, topic="taking the pile", answer=None):
    room.store.record(learner=learner, puzzle_set="Set", puzzle_id=pid, kind="take-pile", topic=topic, difficulty=1,
                      answer=answer if answer is not None else {"take": correct}, correct=correct, seconds=3.0)


def test_join_once_per_name_in_a_class(room):
    ana = room.join("  Ana  Lopez ")
    assert ana and ana.learner["name"] == "Ana Lopez"
    again = room.join("ana lopez")
    assert not again and again.codes == ("name-taken",)
    assert "already called ana lopez" in again.reasons[0].text
    assert room.join("Ana L").ok
    assert [r["name"] for r in room.learners()] == ["Ana L", "Ana Lopez"]


@pytest.mark.parametrize("name, code", [("", "no-name"), ("   ", "no-name"), ("x" * 61, "name-too-long"),
                                        ("a\x07b", "name-control")])
def test_bad_names_are_refused_with_a_reason(room, name, code):
    v = room.join(name)
    assert not v and v.codes == (code,) and v.reasons[0].text


def test_names_are_kept_exactly_as_typed_even_html_or_sql(room):
    for name in ("<b>Bo</b>", "Robert'); DROP TABLE learners;--", "Zoë"):
        assert room.join(name).learner["name"] == name
    assert len(room.learners()) == 3


def test_class_code_is_required_when_set(room):
    room.set_code("Blue7")
    assert room.join("Ana").codes == ("wrong-code",)
    assert room.join("Ana", "nope").codes == ("wrong-code",)
    assert room.join("Ana", " blue7 ")


def test_a_new_class_archives_the_old_one_and_its_results_stay(room):
    first = room.current()
    ana = room.join("Ana").learner
    answer(room, "Ana", "t-001", True)
    second = room.new_class("red")
    assert second.id != first.id and room.current().id == second.id
    assert room.learner(ana["learner_id"]) is None  # signed out of the archived class
    answer(room, "Ana", "t-009", True)  # not signed in to the new class: belongs to no class
    assert len(room.attempts(first.id)) == 1 and len(room.attempts(second.id)) == 0
    archived = [c for c in room.classes() if c.id == first.id][0]
    assert archived.archived is not None
    assert len(room.attempts(first.id)) == 1 and len(room.attempts(second.id)) == 0
    assert room.join("Ana", "red")  # the name is free again in the new class
    answer(room, "Ana", "t-002", False)
    assert room.attempts(second.id)["puzzle_id"].tolist() == ["t-002"]


def test_attempts_of_someone_not_in_the_class_are_not_the_class(room):
    room.join("Ana")
    answer(room, "Ana", "t-001", True)
    answer(room, "solo learner", "t-001", True)
    assert room.attempts()["learner"].tolist() == ["Ana"]


def test_migration_keeps_an_old_database(tmp_path):
    from canasta_tutor.classroom.progress import ProgressStore

    path = tmp_path / "old.sqlite3"
    ProgressStore(path).record(learner="Ana", puzzle_set="S", puzzle_id="m-1", kind="meld", topic="melds",
                               difficulty=1, answer={}, correct=True, seconds=1.0)
    room = Classroom(path)
    Classroom(path)  # twice: nothing to do the second time
    assert len(room.store.history()) == 1 and len(room.attempts()) == 0


def test_report_counts_stuck_and_most_missed(room):
    for name in ("Ana", "Bo", "Cy"):
        room.join(name)
    answer(room, "Ana", "t-001", True)
    answer(room, "Ana", "m-001", True, topic="melds")
    for pid in ("t-001", "t-002", "t-003"):
        answer(room, "Bo", pid, False, answer={"take": True})
    answer(room, "Ana", "t-002", False, answer={"take": False})
    report = room.report()
    learners = report.per_learner().set_index("learner")
    assert learners.loc["Ana", "attempts"] == 3 and learners.loc["Ana", "correct"] == 2
    assert learners.loc["Ana", "accuracy"] == 0.67 and learners.loc["Ana", "topics"] == 2
    assert bool(learners.loc["Bo", "stuck"]) and learners.loc["Bo", "misses_in_a_row"] == 3
    assert not bool(learners.loc["Ana", "stuck"])
    assert learners.loc["Cy", "attempts"] == 0  # signed in, nothing answered yet: still listed
    puzzles = report.per_puzzle()
    top = puzzles.iloc[0]
    assert (top.puzzle_id, top.misses, top.attempts) == ("t-002", 2, 2)
    assert top.common_wrong_answer in ("take: Yes", "take: No") and top.times_given == 1
    t1 = puzzles.set_index("puzzle_id").loc["t-001"]
    assert (t1.misses, t1.accuracy, t1.common_wrong_answer) == (1, 0.5, "take: Yes")


def test_heatmap_has_a_cell_per_learner_and_topic_with_the_numbers(room):
    room.join("<b>Ana</b>")
    answer(room, "<b>Ana</b>", "t-001", True)
    answer(room, "<b>Ana</b>", "t-002", False)
    room.join("Bo")
    answer(room, "Bo", "m-001", True, topic="melds")
    svg = room.report().heatmap_svg()
    assert "<b>Ana</b>" not in svg and "&lt;b&gt;Ana&lt;/b&gt;" in svg
    cells = re.findall(r"data-learner='([^']*)' data-topic='([^']*)' data-attempts='(\d+)' data-correct='(\d+)'",
                       svg)
    assert sorted(cells) == [("&lt;b&gt;Ana&lt;/b&gt;", "taking the pile", "2", "1"), ("Bo", "melds", "1", "1")]
    assert ">50 %<" in svg and ">100 %<" in svg
    # greyscale: the weaker cell is lighter than the stronger one
    fills = re.findall(r"<rect [^>]*fill='(#[0-9a-f]{6})'/>", svg)
    lum = [0.3 * int(f[1:3], 16) + 0.59 * int(f[3:5], 16) + 0.11 * int(f[5:7], 16) for f in fills]
    assert len(lum) == 2 and lum[0] > lum[1]


def test_exports_are_readable_gradebooks(room):
    room.join("Ana")
    answer(room, "Ana", "t-001", True)
    answer(room, "Ana", "t-002", False)
    report = room.report()
    learners = pd.read_csv(io.StringIO(report.to_csv("learners")))
    assert learners.loc[0, "learner"] == "Ana" and learners.loc[0, "attempts"] == 2
    puzzles = pd.read_csv(io.StringIO(report.to_csv("puzzles")))
    assert set(puzzles["puzzle_id"]) == {"t-001", "t-002"}
    sheets = pd.read_excel(io.BytesIO(report.to_excel()), sheet_name=None)
    assert set(sheets) == {"Learners", "Puzzles", "Attempts"}
    assert sheets["Learners"].loc[0, "correct"] == 1 and len(sheets["Attempts"]) == 2


def test_qr_code_is_inline_svg_of_the_address():
    svg = qr_svg("http://192.168.1.20:8866/")
    assert svg.startswith("<svg") and "<path" in svg and "http" not in svg.split(">", 1)[0]
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    modules = width // 6 - 8  # a quiet zone of 4 modules on each side
    assert width % 6 == 0 and modules >= 21 and (modules - 21) % 4 == 0  # a QR symbol: 21, 25, 29 ... modules
    assert qr_svg("http://192.168.1.21:8866/") != svg


def test_network_addresses_are_not_loopback():
    for ip in network_addresses():
        assert not ip.startswith("127.") and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", ip)


def run_serve(monkeypatch, capsys, *argv):
    """``canasta-tutor serve ARGV`` up to the point where the server would start: its options and output."""
    from canasta_tutor.cli import main

    seen = {}
    monkeypatch.setattr("canasta_tutor.web.app.serve", lambda lessons, **kw: seen.update(kw))
    assert main(["serve", "--no-browser", *argv]) == 0
    return seen, capsys.readouterr().out


def test_classroom_listens_everywhere_and_prints_the_addresses_and_key(monkeypatch, capsys):
    options, text = run_serve(monkeypatch, capsys, "--classroom", "--teacher-key", "k3y", "--class-code", "blue")
    assert options["ip"] == "0.0.0.0" and options["settings"].classroom
    assert options["settings"].teacher_key == "k3y" and options["settings"].class_code == "blue"
    assert "teacher (type your teacher key)" in text and "Class code: blue" in text
    assert "k3y" not in text  # the teacher chose it: it is not shown on a projected terminal either
    for ip in network_addresses():
        assert f"http://{ip}:8866/" in text


def test_serve_defaults_stay_on_this_machine_with_a_fresh_key_kept_in_a_private_file(monkeypatch, capsys):
    """The new key is never printed (a projected terminal): the output names a file only its user may read, whose
    link carries the key after the "#" (never sent to the server, never in its log)."""
    plain, text = run_serve(monkeypatch, capsys)
    assert plain["ip"] == "127.0.0.1" and not plain["settings"].classroom
    assert "teacher" not in text.lower()  # no class: no teacher line at all (issue 19)
    a, text = run_serve(monkeypatch, capsys, "--classroom", "--ip", "127.0.0.1")
    key = a["settings"].teacher_key
    assert key not in text
    link = Path(re.search(r"open file://(\S+) in this computer", text).group(1))
    assert link.stat().st_mode & 0o777 == 0o600
    assert f"http://127.0.0.1:8866/teacher#key={key}" in link.read_text()
    b, _ = run_serve(monkeypatch, capsys, "--classroom", "--ip", "127.0.0.1")
    assert len(key) == 12 and key != b["settings"].teacher_key and b["settings"].teacher_key in link.read_text()
    assert run_serve(monkeypatch, capsys, "--ip", "10.1.2.3")[0]["settings"].classroom


def test_class_size_keeps_kernels_ready_for_the_landing_page_which_prepares_the_class_lesson(monkeypatch, capsys):
    options, _ = run_serve(monkeypatch, capsys, "--classroom", "--class-size", "30",
                           "--class-lesson", "04-taking-the-pile.ipynb")
    assert options["pools"] == {"index.ipynb": 30}  # one page for the whole app: the lesson has no pool
    assert options["class_lesson"] == "04-taking-the-pile.ipynb"
    assert run_serve(monkeypatch, capsys)[0]["pools"] == {}


def test_unknown_class_lesson_is_a_clear_message(cli):
    r = cli("serve", "--no-browser", "--class-size", "3", "--class-lesson", "99-nothing.ipynb", "--port", "9159")
    assert r.returncode == 2 and "no lesson 99-nothing.ipynb" in r.stderr and "Traceback" not in r.stderr


def test_bad_ip_is_a_clear_message(monkeypatch, capsys):
    from canasta_tutor.cli import main

    monkeypatch.setattr("canasta_tutor.web.app.serve", lambda lessons, **kw: None)
    assert main(["serve", "--ip", "lan"]) == 2
    assert "--ip 'lan' is not an IP address" in capsys.readouterr().err


def test_cli_serve_bad_ip_exits_2_without_traceback(cli, tmp_path):
    r = cli("serve", "--ip", "not-an-ip", "--no-browser")
    assert r.returncode == 2 and "not an IP address" in r.stderr and "Traceback" not in r.stderr


def test_kernels_only_widget_messages_and_identity_header():
    args = voila_arguments(__import__("pathlib").Path("lessons"), port=9000, open_browser=False, preheat=True,
                           cull_idle=600)
    allowed = {a.split("=", 1)[1] for a in args if a.startswith("--MappingKernelManager.allowed_message_types=")}
    assert "comm_msg" in allowed and "execute_request" not in allowed
    assert "--VoilaConfiguration.http_header_envs=X-Canasta-Identity" in args


def test_kernel_registry_caps_each_visitor():
    reg = KernelRegistry(2)
    alive = {"k1", "k2", "k3", "x1"}
    assert reg.add("ana", "k1", alive) == [] and reg.add("ana", "k2", alive) == []
    assert reg.add("bo", "x1", alive) == []
    assert reg.add("ana", "k3", alive) == ["k1"]
    assert reg.owner == {"k2": "ana", "k3": "ana", "x1": "bo"}
    reg.forget("k2")
    assert reg.add("ana", "k4", alive | {"k4"}) == []  # k2 was freed: room again
    assert reg.add("ana", "k5", {"k5"}) == []  # kernels that died (culled) do not count


@pytest.mark.parametrize("path, teacher", [("teacher/dashboard.ipynb", True), ("./teacher//dashboard.ipynb", True),
                                           ("04/../teacher/dashboard.ipynb", True), ("Teacher/dashboard.ipynb", True),
                                           ("index.ipynb", False), ("04-taking-the-pile.ipynb", False)])
def test_teacher_pages_however_spelled(path, teacher):
    assert is_teacher_page(path) is teacher


def test_name_key_folds_case_and_spaces():
    assert name_key(" Ana  LOPEZ ") == name_key("ana lopez")


def test_the_reports_own_tables_start_no_formula_either(room):
    """OWASP's rule for CSV and Excel also holds for ClassReport's own to_csv/to_excel (issue 17), not only for the
    teacher's downloads (classroom/gradebook.py)."""
    room.join("Ana")
    answer(room, "Ana", "t-001", True)
    report = room.report()
    report.frame.loc[:, "learner"] = "=HYPERLINK(\"http://e.io/x\",\"Fix\")"   # a name the form would refuse
    report.names = ["=HYPERLINK(\"http://e.io/x\",\"Fix\")"]
    assert not any(line.split(",")[0].startswith(("=", "+", "-", "@")) for line in report.to_csv().splitlines())
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(report.to_excel()))
    assert all(not (isinstance(c.value, str) and c.value.startswith("=")) for ws in book for row in ws.iter_rows()
               for c in row)
