"""The lessons lead on, one to the next: every lesson but the last links to the next one (at its top and its end),
every lesson but the first back to the one before, and the landing page lists every lesson, in the notebook and in
the app's menu. Read from the files, so that a new lesson that is not linked in fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from canasta_tutor.widgets.app_page import LESSON_NAME, LessonApp, lesson_list

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "lessons"
LESSONS = [p for p in sorted(FOLDER.glob("*.ipynb")) if LESSON_NAME.match(p.name)]
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def markdown(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text("utf-8"))["cells"] if c["cell_type"] == "markdown"]


def links(text: str) -> dict[str, str]:
    """``{target: link text}`` of the markdown links in ``text``."""
    return {target: label for label, target in LINK.findall(text)}


def title(path: Path) -> str:
    """A lesson's title: its first "# N. ..." heading without the number."""
    for text in markdown(path):
        m = re.search(r"^#\s+\d+\.\s*(.+?)\s*$", text, re.M)
        if m:
            return m.group(1)
    raise AssertionError(f"{path.name} has no '# N. title' heading")


def test_the_lessons_are_numbered_one_to_the_last_without_a_gap():
    numbers = [int(LESSON_NAME.match(p.name).group(1)) for p in LESSONS]
    assert numbers == list(range(1, len(LESSONS) + 1)) and len(LESSONS) >= 10


@pytest.mark.parametrize("here, there", list(zip(LESSONS, LESSONS[1:])), ids=lambda p: p.stem)
def test_every_lesson_but_the_last_links_to_the_next_and_the_next_back(here, there):
    cells = markdown(here)
    for where, text in (("top", cells[0]), ("end", cells[-1])):
        found = links(text)
        assert there.name in found, f"{here.name}: no link to {there.name} at its {where}"
        assert found[there.name] == f"next: {title(there)}", (here.name, where, found[there.name])
        assert "index.ipynb" in found, f"{here.name}: no link back to all lessons at its {where}"
    back = markdown(there)
    for where, text in (("top", back[0]), ("end", back[-1])):
        assert links(text).get(here.name) == f"previous: {title(here)}", (there.name, where)


def test_the_last_lesson_has_no_next_link_to_nowhere():
    for text in markdown(LESSONS[-1]):
        for target, label in links(text).items():
            assert not label.startswith("next:"), (LESSONS[-1].name, label, target)
            assert target.startswith(("http", "#")) or (FOLDER / target.split("#")[0]).is_file(), target


def test_the_landing_page_lists_every_lesson_in_order_with_its_title():
    listed = [(target, label) for text in markdown(FOLDER / "index.ipynb") for label, target in LINK.findall(text)
              if LESSON_NAME.match(target)]
    assert listed == [(p.name, title(p)) for p in LESSONS]


def test_the_apps_menu_lists_every_lesson_and_steps_from_each_to_the_next():
    infos = lesson_list(FOLDER)
    assert [i.path.name for i in infos if i.number] == [p.name for p in LESSONS]
    assert [i.title for i in infos if i.number] == [title(p) for p in LESSONS]
    app = LessonApp(FOLDER)
    for here, there in zip(LESSONS, LESSONS[1:]):
        app.current = here.stem  # the menu as the lesson's page shows it (without building the lesson)
        assert f"<a class='ct-next' href='#{there.stem}'>" in app._menu_html(), here.name
