"""What ``canasta-tutor serve`` prints before the server starts: the address to open first; the teacher's line only
when there is a class."""

from __future__ import annotations

import io
from argparse import Namespace

from canasta_tutor.web.app import serve_options


def _printout(**given) -> str:
    args = dict(ip=None, classroom=False, class_size=0, teacher_key="k3y", new_class=False, class_code=None,
                port=9137, class_lesson=None)
    args.update(given)
    out = io.StringIO()
    serve_options(Namespace(**args), out)
    return out.getvalue()


def test_without_a_class_the_address_to_open_comes_first_and_no_teacher_line():
    """`serve` without --classroom printed "Teacher's dashboard: ...?key=..." before the lessons' address."""
    text = _printout()
    assert text.splitlines()[0] == "Open the lessons at http://127.0.0.1:9137/"
    assert "teacher" not in text.lower() and "k3y" not in text


def test_a_class_gets_the_learners_addresses_then_the_teachers_dashboard(monkeypatch):
    from canasta_tutor.classroom import roster

    monkeypatch.setattr(roster, "network_addresses", lambda: ["192.168.1.20"])
    lines = _printout(classroom=True, class_code="blue7").splitlines()
    assert lines[:3] == ["Learners open one of:", "    http://192.168.1.20:9137/", "Class code: blue7"]
    # the key itself is never printed (a projected terminal shows it): the teacher types it (issue 17)
    assert lines[3] == "Teacher's dashboard: http://192.168.1.20:9137/teacher (type your teacher key)"
    assert "k3y" not in "\n".join(lines)
