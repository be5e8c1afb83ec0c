"""The whole app in one page, with one kernel per learner: the landing page shows any lesson inside itself.

    from canasta_tutor.widgets.app_page import lesson_app
    lesson_app()          # the last cell of lessons/index.ipynb

A lesson notebook is read with nbformat and shown in the page's own kernel: its markdown cells as HTML (mistune),
its code cells (the import and one-line helper calls, see ``tests/test_lessons.py``) run in a namespace of the
lesson's own, their results shown as widgets. The lessons are the files of the lessons folder (``01-...ipynb``,
``10_...ipynb``: two digits, then ``-`` or ``_``), in the order of their names, and the practice page last;
nothing else lists them.

The browser's address follows the lesson (``index.ipynb#04-taking-the-pile``): the page's script (our Voilà
template) sends the fragment to the hidden route box (``.ct-route``) on load and on every change of the fragment,
and turns clicks on a lesson's link (``04-taking-the-pile.ipynb``) into a change of the fragment, so that menu,
links, reload and the back button all go through one path. A lesson is built once per page and kept: going back
to it shows it as the learner left it.

Importing this module imports every lesson helper, so that a preheated kernel (Voilà's pool for the landing page)
has done that before its learner arrives.
"""

from __future__ import annotations

import ast
import contextlib
import html
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as widgets

from ..classroom.lesson_text import LessonTextError, lesson_text, translated_notebook
from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..engine.i18n import use_language
from . import explorers, lesson, trainer  # noqa: F401 - imported ahead of the learner (preheated kernels)
from .keep import keeper
from .language import page_language

LESSON_NAME = re.compile(r"^(\d\d)[-_][^/\\]*\.ipynb$")
PRACTICE = "practice.ipynb"
HOME = "index.ipynb"
_BAD = "#c62828"


def _preload() -> None:
    """In a preheated kernel (Voilà's pool), do before the learner arrives what every page needs: the landing
    page's modules (progress, the class's widgets), the puzzle sets, nbformat's validator."""
    if os.environ.get("VOILA_PREHEAT") != "True":
        return
    from ..classroom.progress import ProgressStore  # noqa: F401 - (no pandas: see identity.my_progress)
    from . import classpages, identity  # noqa: F401

    trainer.load_puzzles()
    lessons = lesson_list()
    if lessons:
        with contextlib.suppress(LessonFileError):
            _read(lessons[-1].path)


class LessonFileError(CanastaError):
    """A lesson notebook that cannot be read or shown."""


@dataclass(frozen=True)
class LessonInfo:
    slug: str      # the notebook's name without .ipynb: the page's fragment (#04-taking-the-pile)
    path: Path
    title: str     # from the notebook's first "# " heading, without its number
    number: str    # "4" ("" for the practice page)

    @property
    def label(self) -> str:
        return f"{self.number}. {self.title}" if self.number else self.title


def default_lessons_dir() -> Path:
    from ..web.folders import default_lessons_dir as lessons_dir

    return lessons_dir()


def _read(path: Path):
    import nbformat

    try:
        return nbformat.read(str(path), as_version=4)
    except OSError as e:
        raise LessonFileError(f"lesson {path.name}: cannot be read ({e.strerror or e})") from None
    except Exception as e:  # nbformat raises several kinds (JSON, schema, version) for a damaged file
        raise LessonFileError(f"lesson {path.name}: not a readable notebook ({type(e).__name__}: "
                              f"{str(e).splitlines()[0] if str(e) else 'damaged'})") from None


def _title(path: Path, lang: str = "en") -> str:
    """The first "# " heading of a notebook (read as JSON: quick, for the menu) in ``lang``, else its file's name."""
    try:
        cells = json.loads(path.read_text("utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return path.stem
    try:
        translated = lesson_text(path.parent, lang, path.stem).cells
    except LessonTextError:
        translated = {}
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            source = translated.get(cell.get("id"), cell.get("source", ""))
            m = re.search(r"^#\s+(?:\d+\.\s*)?(.+?)\s*$", "".join(source) if isinstance(source, list) else
                          str(source), re.M)
            if m:
                return m.group(1)
    return path.stem


def lesson_list(folder: Path | None = None, lang: str = "en") -> list[LessonInfo]:
    """The lessons of the folder in the order of their names, then the practice page (titles in ``lang``)."""
    folder = Path(folder) if folder else default_lessons_dir()
    out = []
    for path in sorted(folder.glob("*.ipynb")):
        m = LESSON_NAME.match(path.name)
        if m:
            out.append(LessonInfo(path.stem, path, _title(path, lang), str(int(m.group(1)))))
    if (folder / PRACTICE).is_file():
        out.append(LessonInfo(Path(PRACTICE).stem, folder / PRACTICE, _title(folder / PRACTICE, lang), ""))
    return out


def _in_app_links(text: str, slugs: set[str]) -> str:
    """Links to a lesson notebook become links to the lesson in this page; the landing page's, to the top."""
    def swap(m):
        target = m.group(2)
        stem = target[:-len(".ipynb")]
        if target == HOME:
            return f'{m.group(1)}"#"'
        if stem in slugs:
            return f'{m.group(1)}"#{stem}"'
        return m.group(0)

    return re.sub(r'(href=)"(?:\./)?([^"/#?]+\.ipynb)"', swap, text)


def markdown_html(text: str, slugs: set[str] = frozenset()) -> str:
    """A markdown cell as HTML, its links to lessons kept inside the page."""
    import mistune

    return _in_app_links(mistune.html(text), set(slugs))


def _problem(text: str) -> widgets.HTML:
    box = widgets.HTML(f"<p role='alert' style='color:{_BAD}'>{html.escape(text)}</p>")
    box.add_class("ct-lesson-problem")
    return box


def _shown(value) -> list[widgets.Widget]:
    """What a cell's result looks like in the page."""
    if value is None:
        return []
    if isinstance(value, widgets.Widget):
        return [value]
    if hasattr(value, "_repr_html_"):
        return [widgets.HTML(value._repr_html_())]
    return [widgets.HTML(f"<pre>{html.escape(repr(value))}</pre>")]


def _captured(captured, stdout: str) -> list[widgets.Widget]:
    out = []
    if stdout:
        out.append(widgets.HTML(f"<pre>{html.escape(stdout)}</pre>"))
    for shown in getattr(captured, "outputs", []):
        data = shown.data or {}
        if "text/html" in data:
            out.append(widgets.HTML(data["text/html"]))
        elif "text/plain" in data:
            out.append(widgets.HTML(f"<pre>{html.escape(data['text/plain'])}</pre>"))
    return out


def run_cell(source: str, namespace: dict, where: str) -> list[widgets.Widget]:
    """Run a lesson's code cell; its result (and anything it printed or displayed) as widgets. A cell that fails
    gives one line saying where and what, never a traceback."""
    from IPython.utils.capture import capture_output

    try:
        body = ast.parse(source, filename=where).body
    except SyntaxError as e:
        return [_problem(f"{where} could not be shown: line {e.lineno}: {e.msg}")]
    last = body.pop() if body and isinstance(body[-1], ast.Expr) else None
    stdout = io.StringIO()
    value = None
    try:
        with capture_output(stdout=False, stderr=False) as captured, contextlib.redirect_stdout(stdout):
            if body:
                exec(compile(ast.Module(body=body, type_ignores=[]), where, "exec"), namespace)  # noqa: S102
            if last is not None:
                value = eval(compile(ast.Expression(last.value), where, "eval"), namespace)  # noqa: S307
    except Exception as e:  # noqa: BLE001 - a broken cell is reported in the page, the lesson goes on
        detail = str(e) if isinstance(e, CanastaError) else f"{type(e).__name__}: {e}"
        return [_problem(f"{where} could not be shown: {detail}")]
    return _captured(captured, stdout.getvalue()) + _shown(value)


def _render_cells(notebook, path: Path, slugs, namespace: dict, children: list, problems: list) -> None:
    """A lesson's cells as widgets, added to ``children``; what could not be shown, to ``problems``."""
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "markdown":
            box = widgets.HTML(markdown_html(cell.source, set(slugs)))
            box.add_class("ct-md")
            children.append(box)
        elif cell.cell_type == "code" and cell.source.strip():
            shown = run_cell(cell.source, namespace, f"{path.name}, cell {number}")
            problems += [w.value for w in shown if "ct-lesson-problem" in w._dom_classes]
            children += shown


def render_lesson(path: Path, slugs=frozenset(), lang: str = "en") -> widgets.VBox:
    """A lesson notebook as one box of widgets, its prose in ``lang`` (``lessons/i18n/<lang>/<stem>.yaml``; a cell
    with no translation stays English). ``box.problems`` lists what could not be shown (empty when all is well); a
    notebook that cannot be read at all gives a box with that one message."""
    path = Path(path)
    children: list[widgets.Widget] = []
    problems: list[str] = []
    try:
        notebook = _read(path)
        notebook = translated_notebook(notebook, path.parent, lang, path.stem)
    except (LessonFileError, LessonTextError) as e:
        children, problems = [_problem(str(e))], [str(e)]
    else:
        namespace: dict = {"__name__": f"lesson_{path.stem.replace('-', '_')}"}
        with use_language(lang):  # the cells' widgets and worked examples read the lesson's language
            _render_cells(notebook, path, slugs, namespace, children, problems)
    box = widgets.VBox(children)
    box.add_class("ct-lesson")
    box.problems = [re.sub(r"<[^>]+>", "", html.unescape(p)) for p in problems]
    return box


class LessonApp(widgets.VBox):
    """The landing page's lesson viewer: a menu, and the lesson named by the page's fragment (nothing on the
    landing page itself). ``show("04-taking-the-pile")`` is what the fragment's change does."""

    def __init__(self, folder: Path | None = None, lang: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.lang = lang or lesson.page_language()
        self.lessons = lesson_list(folder, self.lang)
        self.by_slug = {info.slug: info for info in self.lessons}
        self.built: dict[str, widgets.VBox] = {}
        self.route = widgets.Text(value="", layout=widgets.Layout(display="none"))
        self.route.add_class("ct-route")
        self.route.observe(lambda change: self.show(change["new"]), "value")
        self.menu = widgets.HTML()
        self.menu.add_class("ct-lesson-menu")
        self.body = widgets.VBox()
        self.current = ""
        self.add_class("ct-lesson-app")
        # (keeper().box: answers kept in the browser come back as soon as the landing page is open)
        self.children = [self.route, self.menu, self.body, keeper().box]
        self.show("")
        self._prepare_class_lesson()

    def _prepare_class_lesson(self, delay: float = 0.5) -> None:
        """The lesson the class will open together (``serve --class-lesson``) is built soon after the learner
        arrived, while the page is idle, so that "open lesson 4" only swaps it in."""
        slug = os.environ.get("CANASTA_CLASS_LESSON", "")
        if slug not in self.by_slug:
            return

        def build():
            if slug not in self.built:
                self.built[slug] = render_lesson(self.by_slug[slug].path, self.by_slug, self.lang)

        try:
            import asyncio

            asyncio.get_event_loop().call_later(delay, build)
        except RuntimeError:  # no event loop (outside a kernel): built when asked for
            pass

    def _menu_html(self) -> str:
        here = ' aria-current="page"'
        everything = html.escape(_("All lessons"))
        items = [f"<li><a href='#'{'' if self.current else here}>{everything}</a></li>"]
        for info in self.lessons:
            mark = here if info.slug == self.current else ""
            items.append(f"<li><a href='#{html.escape(info.slug)}'{mark}>{html.escape(info.label)}</a></li>")
        i = [x.slug for x in self.lessons].index(self.current) if self.current in self.by_slug else -1
        steps = []
        if i > 0:
            prev = self.lessons[i - 1]
            steps.append(f"<a class='ct-prev' href='#{html.escape(prev.slug)}'>← {html.escape(prev.label)}</a>")
        if 0 <= i < len(self.lessons) - 1:
            nxt = self.lessons[i + 1]
            steps.append(f"<a class='ct-next' href='#{html.escape(nxt.slug)}'>{html.escape(nxt.label)} →</a>")
        label = html.escape(_("Lessons"), quote=True)
        return (f"<nav aria-label='{label}'><details><summary>{everything}</summary><ul>{''.join(items)}</ul>"
                f"</details><p class='ct-steps'>{' · '.join(steps)}</p></nav>")

    def show(self, slug: str) -> None:
        slug = (slug or "").strip().lstrip("#")
        if slug and slug not in self.by_slug:
            self.current = ""
            self.menu.value = self._menu_html()
            self.body.children = [_problem(_("There is no lesson {name}: choose one from the list.")
                                           .format(name=repr(slug)))]
            return
        self.current = slug
        if not slug:
            self.menu.value = ""
            self.body.children = []
            return
        if slug not in self.built:
            self.built[slug] = render_lesson(self.by_slug[slug].path, self.by_slug, self.lang)
        self.menu.value = self._menu_html()
        self.body.children = [self.built[slug]]


def lesson_app(folder: Path | None = None, lang: str | None = None) -> LessonApp:
    """For the landing page: every lesson shown inside it, as the page's address says, in the language its visitor
    chose (:func:`~canasta_tutor.widgets.language.page_language`, which makes it the kernel's) or ``lang``."""
    page_language()
    return LessonApp(folder, lang)


_preload()
