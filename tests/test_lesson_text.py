"""The lessons in Nederlands, Dansk and Afrikaans: one notebook per lesson, one file of prose per lesson and language
(``lessons/i18n/<lang>/<stem>.yaml``, read by :mod:`canasta_tutor.classroom.lesson_text`).

A translated lesson has a text for every markdown cell and every question of its notebook, with the English's links
(a link to another lesson keeps its target) and placeholders; the lessons not translated yet are listed below by
name, as a visible TODO. The standalone page (the server renders its markdown) and the landing page's in-page view
(the kernel renders it) both show the chosen language."""

from __future__ import annotations

import copy
import html
import json
import shutil
import socket
import urllib.request
from pathlib import Path

import pytest

from canasta_tutor.classroom.lesson_text import (
    LessonText,
    LessonTextError,
    call_strings,
    lesson_text,
    problems,
    translated_notebook,
    translated_string,
    translation_path,
)

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
LANGS = ("nl", "da", "af")
#: Every page with prose: the ten lessons, the landing page and the practice page.
PAGES = sorted(p.stem for p in LESSONS_DIR.glob("*.ipynb"))

#: The pages whose prose is not translated, per language (none since lesson 10 got its three texts); a page
#: leaves it when its file is written (the test below fails if a listed page has a file, or an unlisted one lacks it).
NOT_YET_TRANSLATED: dict[str, tuple[str, ...]] = {
    "nl": (),
    "da": (),
    "af": (),
}
TODO_COUNT = sum(len(v) for v in NOT_YET_TRANSLATED.values())
TRANSLATED = [(lang, stem) for lang in LANGS for stem in PAGES if stem not in NOT_YET_TRANSLATED[lang]]


def notebook(stem: str) -> dict:
    return json.loads((LESSONS_DIR / f"{stem}.ipynb").read_text("utf-8"))


def test_the_todo_list_of_untranslated_pages_is_the_truth():
    """Each page has a translation file in each language unless the TODO list names it, and no listed page has one."""
    print(f"TODO: {TODO_COUNT} lesson pages not yet translated: {NOT_YET_TRANSLATED}")
    for lang in LANGS:
        assert set(NOT_YET_TRANSLATED[lang]) <= set(PAGES), lang
        have = {stem for stem in PAGES if translation_path(LESSONS_DIR, lang, stem).is_file()}
        assert have == set(PAGES) - set(NOT_YET_TRANSLATED[lang]), lang
    assert TODO_COUNT == 0  # the count the lead reports; lower it as files are written
    # lessons 1 to 5 (lesson 4 is in the browser test), the landing and the practice page: in every language
    assert all(stem not in NOT_YET_TRANSLATED[lang] for lang in LANGS
               for stem in ("01-cards-and-values", "02-melds-and-canastas", "03-red-and-black-threes",
                            "04-taking-the-pile", "05-freezing-the-pile", "index", "practice"))


@pytest.mark.parametrize(("lang", "stem"), TRANSLATED)
def test_a_translated_page_has_every_text_with_the_englishs_links_and_placeholders(lang, stem):
    nb = notebook(stem)
    text = lesson_text(LESSONS_DIR, lang, stem)
    assert text.cells, (lang, stem)
    assert problems(nb, text, f"{lang}/{stem}") == []


def test_the_check_sees_a_missing_cell_a_missing_question_a_moved_link_and_a_lost_placeholder():
    """Each mistake planted in a copy of lesson 4's Dutch text is named."""
    nb = notebook("04-taking-the-pile")
    good = lesson_text(LESSONS_DIR, "nl", "04-taking-the-pile")
    assert problems(nb, good, "nl") == []
    cells, strings = dict(good.cells), dict(good.strings)
    heading = "7b3a6f76"
    del cells[heading]
    question = "One nine and a two in your hand. May you take the pile?"
    del strings[question]
    cells["6b3e030f"] = cells["6b3e030f"].replace("(05-freezing-the-pile.ipynb)", "(06-the-opening-minimum.ipynb)")
    found = problems(nb, LessonText(cells, strings), "nl")
    assert f"nl: markdown cell {heading} has no translation" in found
    assert f"nl: the string {question[:50]!r} has no translation" in found
    assert any("cell 6b3e030f: links" in p and "06-the-opening-minimum.ipynb" in p for p in found), found
    nb2 = copy.deepcopy(nb)
    nb2["cells"][2]["source"] = "# 4. Taking the {pile}\n"
    assert any("placeholders ['{pile}']" not in p and "placeholders [] differ from the English ['{pile}']" in p
               for p in problems(nb2, good, "nl")), problems(nb2, good, "nl")
    assert any("headings" in p for p in problems(nb, LessonText({**good.cells, heading: "De stapel"},
                                                                good.strings), "nl"))


def test_every_question_of_a_lesson_is_found_by_the_check():
    """The questions a lesson passes to example(), even a string written over two lines, are the check's keys."""
    found = call_strings(notebook("05-freezing-the-pile"))
    assert "The next player threw 4♣ onto the black three. Is the pile frozen now, and may you take it with your " \
           "4♥ and the 2♦?" in found
    assert len(found) == 5


def test_a_notebook_is_translated_by_cell_id_and_left_as_it_was():
    import nbformat

    nb = nbformat.read(str(LESSONS_DIR / "04-taking-the-pile.ipynb"), as_version=4)
    nl = translated_notebook(nb, LESSONS_DIR, "nl", "04-taking-the-pile")
    heading = next(c.source for c in nl.cells if c.get("id") == "7b3a6f76")
    assert heading.startswith("# 4. De aflegstapel pakken")
    assert next(c.source for c in nb.cells if c.get("id") == "7b3a6f76").startswith("# 4. Taking the pile")
    assert [c.source for c in nl.cells if c.cell_type == "code"] == [c.source for c in nb.cells
                                                                     if c.cell_type == "code"]
    assert translated_notebook(nb, LESSONS_DIR, "en", "04-taking-the-pile") is nb
    assert translated_string("One nine and a two in your hand. May you take the pile?", LESSONS_DIR, "da") == \
        "Én 9’er og en 2’er på hånden. Må du tage bunken?"


def test_a_damaged_translation_file_is_a_clear_error(tmp_path):
    folder = tmp_path / "i18n" / "nl"
    folder.mkdir(parents=True)
    (folder / "x.yaml").write_text("cells: [1, 2]\n", "utf-8")
    with pytest.raises(LessonTextError, match="x.yaml: 'cells' maps texts to texts"):
        lesson_text(tmp_path, "nl", "x")
    (folder / "y.yaml").write_text("cells: {a: 'b'\n", "utf-8")
    with pytest.raises(LessonTextError, match="y.yaml: not readable YAML"):
        lesson_text(tmp_path, "nl", "y")
    assert lesson_text(tmp_path, "nl", "no-such-lesson") == LessonText()


# ---- the landing page's in-page view (the kernel renders the lesson) --------------------------------------------

def _texts(box) -> str:
    out = []
    for w in getattr(box, "children", ()):
        value = getattr(w, "value", "")
        out.append(_texts(w) if hasattr(w, "children") else value if isinstance(value, str) else "")
    return " ".join(out)


def test_the_in_page_lesson_view_shows_the_chosen_language():
    from canasta_tutor.widgets.app_page import LessonApp

    app = LessonApp(LESSONS_DIR, lang="nl")
    app.show("04-taking-the-pile")
    shown = _texts(app.body)
    assert "4. De aflegstapel pakken" in shown and "Taking the pile" not in shown
    assert "Eén negen en een twee in je hand. Mag je de stapel pakken?" in shown  # a worked example's question
    assert app.built["04-taking-the-pile"].problems == []
    assert "4. De aflegstapel pakken" in app.menu.value and "5. De stapel bevriezen" in app.menu.value
    assert 'href="#05-freezing-the-pile"' in shown  # the links still go to the lessons, inside the page
    english = LessonApp(LESSONS_DIR, lang="en")
    english.show("04-taking-the-pile")
    assert "4. Taking the pile" in _texts(english.body)


# ---- the standalone page (the server renders its markdown) -------------------------------------------------------

PORTS = range(9270, 9290)


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def small_lessons(tmp: Path) -> Path:
    """A lessons folder of the landing page and lesson 4, with their Dutch texts (two preheated kernels)."""
    lessons = tmp / "lessons"
    (lessons / "i18n" / "nl").mkdir(parents=True)
    for stem in ("index", "04-taking-the-pile"):
        shutil.copy(LESSONS_DIR / f"{stem}.ipynb", lessons / f"{stem}.ipynb")
        shutil.copy(translation_path(LESSONS_DIR, "nl", stem), lessons / "i18n" / "nl")
    return lessons


@pytest.fixture(scope="module")
def small_server(tmp_path_factory):
    """``canasta-tutor serve --lang nl`` over :func:`small_lessons`: its preheated kernels draw Dutch pages."""
    from test_browser import serve

    tmp = tmp_path_factory.mktemp("lesson-text")
    with serve(tmp, ["--lang", "nl", "--lessons", str(small_lessons(tmp))], host="127.0.0.1", port=_free_port(),
               ready_path="/voila/tree", notebooks=["04-taking-the-pile.ipynb"]) as (base, _proc):
        yield {"url": base, "log": tmp / "serve.log"}


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=120) as answer:
        return answer.read().decode("utf-8")


def _preheated(server) -> int:
    return server["log"].read_text(errors="replace").count("Using pre-heated kernel")


def test_a_standalone_page_in_the_servers_language_comes_preheated_and_another_language_is_rendered_for_it(
        small_server):
    """``serve --lang nl``: the kernels kept ready draw lesson 4 in Dutch (its prose, the worked examples' reasons
    written by the engine), and a Dutch visitor gets one of them; a visitor who asks for English gets a page of
    their own, in English."""
    url = small_server["url"]
    before = _preheated(small_server)
    dutch = html.unescape(_get(url + "/voila/render/04-taking-the-pile.ipynb?lang=nl"))
    assert _preheated(small_server) == before + 1  # a kernel kept ready
    assert "4. De aflegstapel pakken" in dutch and "Taking the pile</h1>" not in dutch
    assert "Je hebt twee gewone negens" in dutch and "You hold two natural 9s" not in dutch  # the engine's words
    assert 'href="05-freezing-the-pile.ipynb"' in dutch  # the link keeps its target
    english = html.unescape(_get(url + "/voila/render/04-taking-the-pile.ipynb?lang=en"))
    assert _preheated(small_server) == before + 1  # not one of the Dutch kernels: a page rendered for its visitor
    assert "4. Taking the pile" in english and "De aflegstapel pakken" not in english
    assert "Je hebt twee gewone negens" not in english and "You hold two natural 9s" in english
    assert "<h1 id=\"Canasta-leren\"" in _get(url + "/voila/render/index.ipynb")  # the server's language
    assert "Canasta leren" not in _get(url + "/voila/render/index.ipynb?lang=en")


@pytest.mark.parametrize(("lang", "stem"), [(lang, stem) for lang, stem in TRANSLATED if stem[:2].isdigit()])
def test_every_translated_lesson_shows_its_questions_in_the_language_in_page(lang, stem):
    """Each worked example's question reaches the in-page view in the language, and nothing fails to show."""
    from canasta_tutor.widgets.app_page import render_lesson

    box = render_lesson(LESSONS_DIR / f"{stem}.ipynb", lang=lang)
    assert box.problems == []
    shown = _texts(box)
    text = lesson_text(LESSONS_DIR, lang, stem)
    for english in call_strings(notebook(stem)):
        assert html.escape(text.strings[english]) in shown or text.strings[english] in shown, english


def _words(text: str) -> str:
    return " ".join(text.split())


def test_a_quoted_source_is_quoted_word_for_word_in_its_own_language():
    """Each quote a translation names is in its rule source (docs/sources/, runs of white space as one) and in one of
    the translation's cells; quotes of a source in another language than the page's come with a translation (the
    page says so in its own words; the test checks the quote is kept, not translated)."""
    sources = {p.name[:3]: _words(p.read_text("utf-8")) for p in (ROOT / "docs" / "sources").glob("0*.txt")}
    quoted = 0
    for lang, stem in TRANSLATED:
        text = lesson_text(LESSONS_DIR, lang, stem)
        cells = _words(" ".join(text.cells.values()))
        for source, words in text.quotes:
            assert _words(words) in sources[source], (lang, stem, source, words)
            assert _words(words) in cells, (lang, stem, words)
            quoted += 1
    assert quoted >= 5


#: Common English words that none of the three languages writes (a left-over English sentence shows them).
ENGLISH_WORDS = {"the", "and", "you", "your", "with", "take", "pile", "cards", "back", "lesson", "next", "previous",
                 "may", "which", "when", "their", "points", "puzzles", "try"}


@pytest.mark.parametrize(("lang", "stem"), TRANSLATED)
def test_no_common_english_word_is_left_in_a_translation(lang, stem):
    """Outside code spans, link targets and card notation, a translation has none of the common English words."""
    import re

    text = lesson_text(LESSONS_DIR, lang, stem)
    prose = " ".join([*text.cells.values(), *text.strings.values()])
    prose = re.sub(r"`[^`]*`|\]\([^)]*\)", " ", prose)
    left = sorted({w for w in re.findall(r"[A-Za-zÀ-ÿ’']+", prose.lower()) if w in ENGLISH_WORDS})
    assert left == [], (lang, stem, left)


def test_the_kernel_reads_the_pages_language_from_the_servers_header_else_the_address(monkeypatch):
    from canasta_tutor.engine.i18n import use_language
    from canasta_tutor.widgets.language import KERNEL_ENV as LANGUAGE_ENV
    from canasta_tutor.widgets.lesson import page_language

    monkeypatch.delenv(LANGUAGE_ENV, raising=False)
    monkeypatch.setenv("QUERY_STRING", "x=1&lang=af")
    assert page_language() == "af"  # a hub's Voilà: only the page's query string
    monkeypatch.setenv(LANGUAGE_ENV, "da")
    assert page_language() == "da"  # our server decided (cookie, learner, class...): it wins
    monkeypatch.setenv(LANGUAGE_ENV, "xx")
    monkeypatch.setenv("QUERY_STRING", "lang=fr")
    with use_language("nl"):
        assert page_language() == "nl"  # neither names a language: the current one
