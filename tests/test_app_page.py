"""The landing page shows every lesson inside itself (canasta_tutor.widgets.app_page): each lesson notebook is
read and its cells run in the page's kernel. The expected widgets are read from the notebooks' own calls."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import ipywidgets as widgets
import pytest

from canasta_tutor.widgets import app_page, explorers, lesson, trainer
from canasta_tutor.widgets.app_page import LessonApp, lesson_list, markdown_html, render_lesson

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
LESSONS = lesson_list(LESSONS_DIR)
SLUGS = {info.slug for info in LESSONS}
#: what each helper of a lesson's code cells puts in the page
WIDGET_OF = {"lesson_puzzles": trainer.Trainer, "PracticeRoom": trainer.PracticeRoom,
             "PresetsTable": lesson.PresetsTable,
             **{name: getattr(explorers, name) for name in dir(explorers) if name.endswith(("Explorer", "Counter",
                                                                                           "Builder"))}}


def walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def called(path: Path) -> list[str]:
    """The helpers a lesson's code cells call (their top-level calls, in order)."""
    out = []
    for cell in json.loads(path.read_text("utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            for node in ast.parse("".join(cell["source"])).body:
                if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                    out.append(node.value.func.id)
    return out


def test_the_lessons_are_the_folders_notebooks_in_order_with_practice_last():
    names = [info.path.name for info in LESSONS]
    numbered = sorted(p.name for p in LESSONS_DIR.glob("[0-9][0-9][-_]*.ipynb"))
    assert names == numbered + ["practice.ipynb"]
    four = next(info for info in LESSONS if info.slug == "04-taking-the-pile")
    assert (four.number, four.title, four.label) == ("4", "Taking the pile", "4. Taking the pile")


def test_a_new_lesson_in_the_folder_joins_the_menu(tmp_path):
    for name in ("index.ipynb", "09-variants-and-house-rules.ipynb", "practice.ipynb"):
        shutil.copy(LESSONS_DIR / name, tmp_path / name)
    nb = json.loads((LESSONS_DIR / "01-cards-and-values.ipynb").read_text("utf-8"))
    nb["cells"] = [{"cell_type": "markdown", "metadata": {}, "id": "t",
                    "source": "# 10. Play a hand with a coach\n\nSoon."}]
    (tmp_path / "10_play-a-hand.ipynb").write_text(json.dumps(nb), "utf-8")
    found = lesson_list(tmp_path)
    assert [i.label for i in found] == ["9. Variants and house rules", "10. Play a hand with a coach", "Practice"]
    app = LessonApp(tmp_path)
    app.show("09-variants-and-house-rules")
    assert "href='#10_play-a-hand'" in app.menu.value and "10. Play a hand with a coach →" in app.menu.value


@pytest.mark.parametrize("info", LESSONS, ids=lambda i: i.slug)
def test_every_lesson_renders_with_its_widgets(info):
    box = render_lesson(info.path, SLUGS)
    assert box.problems == []
    shown = list(walk(box))
    calls = called(info.path)
    for name in calls:
        if name in WIDGET_OF:
            assert any(isinstance(w, WIDGET_OF[name]) for w in shown), f"{info.slug}: no {name} in the page"
    examples = [w for w in shown if isinstance(w, widgets.HTML) and "ct-example" in w.value]
    assert len(examples) == calls.count("example")
    text = " ".join(w.value for w in shown if isinstance(w, widgets.HTML))
    headings = [c for c in json.loads(info.path.read_text("utf-8"))["cells"] if c["cell_type"] == "markdown"]
    assert info.title in text and len([w for w in shown if "ct-md" in w._dom_classes]) == len(headings)
    # a lesson's links to other lessons stay in the page
    assert ".ipynb" not in text.replace("index.ipynb#", "")


def test_links_to_lessons_become_fragments_and_other_links_stay():
    out = markdown_html("[back](index.ipynb) · [next](05-freezing-the-pile.ipynb) · [x](https://example.org/a.ipynb)"
                        " · [rules](../notes/x.md)", SLUGS)
    assert 'href="#"' in out and 'href="#05-freezing-the-pile"' in out
    assert 'href="https://example.org/a.ipynb"' in out and 'href="../notes/x.md"' in out
    assert "<strong>" in markdown_html("**bold**")


def test_a_notebook_that_is_not_json_says_which_file(tmp_path):
    bad = tmp_path / "04-broken.ipynb"
    bad.write_text("{ not json", "utf-8")
    box = render_lesson(bad)
    assert len(box.problems) == 1 and "04-broken.ipynb" in box.problems[0] and "not a readable notebook" in \
        box.problems[0]
    missing = render_lesson(tmp_path / "05-gone.ipynb")
    assert "05-gone.ipynb" in missing.problems[0] and "cannot be read" in missing.problems[0]


def test_a_failing_cell_says_where_and_what_and_the_rest_of_the_lesson_is_shown(tmp_path):
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "metadata": {}, "id": "a", "source": "# 4. Broken"},
        {"cell_type": "code", "metadata": {}, "id": "b", "execution_count": None, "outputs": [],
         "source": "from canasta_tutor.widgets.lesson import *"},
        {"cell_type": "code", "metadata": {}, "id": "c", "execution_count": None, "outputs": [],
         "source": 'lesson_puzzles("no-such-id")'},
        {"cell_type": "code", "metadata": {}, "id": "d", "execution_count": None, "outputs": [],
         "source": "example(\"meld\", cards='KH KS KD',"},
        {"cell_type": "code", "metadata": {}, "id": "e", "execution_count": None, "outputs": [],
         "source": 'example("meld", cards="KH KS KD", question="Three kings?")'}]}
    path = tmp_path / "04-broken.ipynb"
    path.write_text(json.dumps(nb), "utf-8")
    box = render_lesson(path)
    assert len(box.problems) == 2
    assert box.problems[0].startswith("04-broken.ipynb, cell 3 could not be shown:") and "no-such-id" in \
        box.problems[0]
    assert box.problems[1].startswith("04-broken.ipynb, cell 4 could not be shown: line 1")
    assert not any("Traceback" in p for p in box.problems)
    assert any("ct-example" in w.value for w in walk(box) if isinstance(w, widgets.HTML))


def test_the_app_shows_the_lesson_its_route_names_and_keeps_it():
    app = LessonApp(LESSONS_DIR)
    assert app.body.children == () and app.menu.value == ""  # the landing page itself: nothing added
    app.route.value = "04-taking-the-pile"
    four = app.body.children[0]
    assert any(isinstance(w, trainer.Trainer) for w in walk(four))
    assert "aria-current=\"page\">4. Taking the pile" in app.menu.value
    assert "href='#03-red-and-black-threes'>← 3." in app.menu.value and "5. Freezing the pile →" in app.menu.value
    app.route.value = "05-freezing-the-pile"
    assert app.body.children[0] is not four
    app.route.value = "04-taking-the-pile"
    assert app.body.children[0] is four  # built once: the learner finds it as they left it
    app.route.value = "../../etc/passwd"
    assert "There is no lesson &#x27;../../etc/passwd&#x27;" in app.body.children[0].value
    app.route.value = ""
    assert app.body.children == ()


def test_the_landing_page_imports_the_app_before_it_waits_for_its_learner():
    """A preheated kernel runs the landing page up to the first cell that needs its visitor: the app's import
    (with every lesson helper) must come before that, and the app itself last."""
    cells = ["".join(c["source"]) for c in json.loads((LESSONS_DIR / "index.ipynb").read_text("utf-8"))["cells"]
             if c["cell_type"] == "code"]
    assert cells[0] == "from canasta_tutor.widgets.app_page import lesson_app" and cells[-1] == "lesson_app()"
    assert app_page.lesson is lesson


def test_a_learners_kernel_needs_no_pandas(tmp_path):
    """pandas adds about 45 MB to each of a class's 30 kernels: the landing page, the learner's corner and a
    lesson shown inside it do without it (the teacher's pages use it)."""
    import os
    import subprocess
    import sys

    code = ("import sys\nfrom canasta_tutor.widgets import app_page, classpages, identity\n"
            "identity.signed_in_panel(); classpages.learner_corner(auto=False)\n"
            "app = app_page.LessonApp(); app.show('04-taking-the-pile')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pandas')[:3])")
    env = dict(os.environ, CANASTA_TUTOR_DB=str(tmp_path / "p.sqlite3"),
               HTTP_X_CANASTA_IDENTITY='{"name": "Ana", "learner_id": 1, "class_id": 1}')
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_the_class_lesson_is_prepared_after_arrival_and_then_only_swapped_in(monkeypatch):
    import asyncio

    monkeypatch.setenv("CANASTA_CLASS_LESSON", "04-taking-the-pile")

    async def arrive():
        app = LessonApp(LESSONS_DIR)
        assert "04-taking-the-pile" not in app.built  # nothing before the page has been drawn
        await asyncio.sleep(0.8)
        ready = app.built.get("04-taking-the-pile")
        app.route.value = "04-taking-the-pile"
        return ready, app.body.children[0]

    loop = asyncio.new_event_loop()
    monkeypatch.setattr(asyncio, "get_event_loop", lambda: loop)
    try:
        ready, shown = loop.run_until_complete(arrive())
    finally:
        loop.close()
    assert ready is not None and shown is ready
