"""Which language a request is answered in (canasta_tutor.web.language), without a server: the order of the ways
a language is chosen, Accept-Language's weights, the menu, a Voilà page's <html lang>, the class's and the
learner's stored choice (the progress database), and the kernel's side (canasta_tutor.widgets.language)."""

from __future__ import annotations

import json
from http.cookies import SimpleCookie
from types import SimpleNamespace

import pytest

from canasta_tutor.engine.i18n import LANGUAGES, get_language, use_language
from canasta_tutor.web import language
from canasta_tutor.web.handlers import full_page, page
from canasta_tutor.web.voila_server import localise_page


class FakeRoom:
    def __init__(self, class_lang=None, learner_lang=None):
        self.class_lang, self.learner_lang = class_lang, learner_lang

    def class_language(self):
        return self.class_lang

    def learner_language(self, learner_id):
        return self.learner_lang


class FakeHandler:
    """What request_language reads of a Tornado handler."""

    def __init__(self, *, query=None, cookie=None, accept=None, learner=None, class_lang=None, learner_lang=None):
        cookies = SimpleCookie()
        if cookie:
            cookies[language.COOKIE] = cookie
        self.request = SimpleNamespace(query_arguments={"lang": [query.encode()]} if query else {},
                                       cookies=cookies, headers={"Accept-Language": accept} if accept else {})
        room = FakeRoom(class_lang, learner_lang)
        self.visitors = SimpleNamespace(room=room, session=lambda h: {"learner_id": 7} if learner else None)
        self.set_cookies = []

    def get_secure_cookie(self, name):  # (request_language asks the visitors, which use signed cookies)
        return None

    def set_cookie(self, name, value, **kw):
        self.set_cookies.append((name, value, kw))


@pytest.fixture(autouse=True)
def no_server_language():
    language.set_server_language(None)
    yield
    language.set_server_language(None)


def test_each_way_of_choosing_wins_over_the_ones_after_it():
    full = dict(query="nl", learner=True, learner_lang="da", cookie="af", class_lang="en", accept="da")
    assert language.request_language(FakeHandler(**full)) == "nl"
    assert language.request_language(FakeHandler(**{**full, "query": None})) == "da"  # the learner's stored choice
    assert language.request_language(FakeHandler(**{**full, "query": None, "learner": False})) == "af"  # cookie
    no_cookie = {**full, "query": None, "learner": False, "cookie": None}
    assert language.request_language(FakeHandler(**no_cookie)) == "en"  # the class's default (English here)
    assert language.request_language(FakeHandler(**{**no_cookie, "class_lang": None})) == "da"  # Accept-Language
    language.set_server_language("af")
    assert language.request_language(FakeHandler()) == "af"  # serve --lang
    language.set_server_language(None)
    assert language.request_language(FakeHandler()) == "en"


def test_a_language_we_do_not_speak_is_passed_over_never_an_error():
    h = FakeHandler(query="fr", cookie="xx-<script>", accept="fr-FR, de;q=0.9", class_lang="klingon")
    assert language.request_language(h) == "en"
    assert language.request_language(FakeHandler(query="NL-be", accept="da")) == "nl"


@pytest.mark.parametrize("header, expected", [
    ("da", "da"), ("nl-BE,nl;q=0.9,en;q=0.8", "nl"), ("fr-FR, af;q=0.5, da;q=0.7", "da"), ("af-ZA", "af"),
    ("en-US,en;q=0.9", "en"), ("de, fr", None), ("", None), ("da;q=0, nl;q=0.1", "nl"), ("*", None),
    ("da;q=bogus, nl;q=0.5", "nl"),
])
def test_accept_language_by_its_weights(header, expected):
    assert language.accepted(header) == expected


def test_a_choice_in_the_address_is_kept_in_a_cookie_and_for_the_learner():
    stored = []
    h = FakeHandler(query="da", learner=True, learner_lang="nl")
    h.visitors.room.set_learner_language = lambda learner_id, code: stored.append((learner_id, code))
    assert language.remember(h) == "da"
    assert [(name, value) for name, value, _kw in h.set_cookies] == [(language.COOKIE, "da")]
    assert stored == [(7, "da")]
    nothing = FakeHandler(query="fr")
    assert language.remember(nothing) is None and nothing.set_cookies == []


def test_the_menu_names_each_language_in_itself_and_marks_the_current_one():
    menu = language.language_menu("da")
    for code, name in LANGUAGES.items():
        assert f"href='?lang={code}' lang='{code}' hreflang='{code}'" in menu and f">{name}</a>" in menu
    assert "lang='da' hreflang='da' aria-current='true'>Dansk" in menu and menu.count("aria-current") == 1
    assert "aria-label='Sprog'" in menu


def test_our_small_pages_say_their_language():
    assert page("T", "<p>x</p>", "nl").startswith("<!DOCTYPE html><html lang='nl'>")
    assert page("T", "<p>x</p>").startswith("<!DOCTYPE html><html lang='en'>")
    dutch = full_page(True, 30, "nl")
    assert "<html lang='nl'>" in dutch and "De klas is vol: vraag het je leraar" in dutch and "30" in dutch
    assert "The class is full: ask your teacher" in full_page(True, 30)


def test_a_voila_page_gets_the_visitors_language_and_the_templates_texts():
    first = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8" />'
    out = localise_page(first, "af")
    assert '<html lang="af">' in out and 'lang="en"' not in out
    texts = json.loads(out.split('<script id="ct-texts" type="application/json">')[1].split("</script>")[0])
    assert texts["lang"] == "af" and texts["reload"] == "Laai weer" and texts["languages"] == LANGUAGES
    assert "</" not in json.dumps(texts["idle"])


def test_the_class_and_the_learner_keep_their_language_in_the_progress_database(tmp_path):
    from canasta_tutor.classroom.roster import Classroom
    from canasta_tutor.engine.i18n import LanguageError

    room = Classroom(tmp_path / "p.sqlite3")
    assert room.class_language() is None
    room.set_class_language("da")
    assert Classroom(tmp_path / "p.sqlite3").class_language() == "da"
    room.set_class_language(None)
    assert room.class_language() is None
    ana = room.join("Ana", "").learner
    assert room.learner_language(ana["learner_id"]) is None
    room.set_learner_language(ana["learner_id"], "nl-BE")
    assert Classroom(tmp_path / "p.sqlite3").learner_language(ana["learner_id"]) == "nl"
    with pytest.raises(LanguageError):
        room.set_learner_language(ana["learner_id"], "fr")


def test_the_kernels_kept_ready_speak_the_classs_language_else_the_servers(tmp_path):
    from canasta_tutor.classroom.roster import Classroom
    from canasta_tutor.web.app import pool_language

    room = Classroom(tmp_path / "p.sqlite3")
    assert pool_language(room) == pool_language() == "en"
    language.set_server_language("af")
    try:
        assert pool_language(room) == pool_language() == "af"  # serve --lang
        room.set_class_language("da")
        assert pool_language(room) == "da" and pool_language() == "af"  # the class's, set by its teacher
    finally:
        language.set_server_language(None)


def test_the_migration_adds_the_language_columns_to_an_older_database(tmp_path):
    from pathlib import Path

    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from canasta_tutor.classroom import db
    from canasta_tutor.classroom.progress import ProgressStore

    path = tmp_path / "old.sqlite3"
    ProgressStore(path)
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).with_name("migrations")))
    engine = sa.create_engine(f"sqlite:///{path}")

    def columns():
        inspector = sa.inspect(engine)
        return {t: {c["name"] for c in inspector.get_columns(t)} for t in ("learners", "classes")}

    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0002")
    assert "language" not in columns()["learners"] and "language" not in columns()["classes"]
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    assert all("language" in names for names in columns().values())


def test_a_pages_kernel_reads_the_language_the_server_sent(monkeypatch):
    import contextvars

    from canasta_tutor.engine import i18n
    from canasta_tutor.widgets import language as kernel_language

    monkeypatch.setattr(kernel_language, "_resolved", True)
    monkeypatch.setattr(i18n, "_default", list(i18n._default))  # (the kernel's default language is put back afterwards)
    monkeypatch.setenv(kernel_language.KERNEL_ENV, "da")
    assert kernel_language.page_language() == "da" and get_language() == "da"
    # the whole kernel: a cell or a widget's callback runs in a copy of the kernel's context, never the one set in
    assert contextvars.Context().run(get_language) == "da"
    with use_language("nl"):
        assert get_language() == "nl"
    assert get_language() == "da"
    with use_language("nl"):  # a lesson shown in another language inside the page: its block wins
        assert kernel_language.page_language() == "da" and get_language() == "nl"
    monkeypatch.setenv(kernel_language.KERNEL_ENV, "fr")
    monkeypatch.setenv(kernel_language.CLI_ENV, "af")
    assert kernel_language.page_language() == "af"
    monkeypatch.delenv(kernel_language.CLI_ENV)
    assert kernel_language.page_language() == "en"


def test_the_landing_pages_widgets_speak_the_kernels_language(monkeypatch):
    from canasta_tutor.widgets import language as kernel_language
    from canasta_tutor.widgets.app_page import LessonApp
    from canasta_tutor.widgets.identity import Identity, panel_html

    monkeypatch.setattr(kernel_language, "_resolved", True)  # (no visitor's request to wait for: the language is ours)

    with use_language("nl"):
        app = LessonApp()
        app.show(app.lessons[0].slug)
        assert "Alle lessen" in app.menu.value and "All lessons" not in app.menu.value
        app.show("nope")
        assert "Er is geen les &#x27;nope&#x27;: kies er een uit de lijst." in app.body.children[0].value
        assert "Aangemeld als <b class='ct-learner-name'>Ana</b>" in panel_html(Identity("Ana", 1, 1))
    assert "Signed in as <b class='ct-learner-name'>Ana</b>" in panel_html(Identity("Ana", 1, 1))
