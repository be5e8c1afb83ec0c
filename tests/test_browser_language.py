"""The language a learner reads, on a running ``canasta-tutor serve --classroom`` (127.0.0.1, ports 9250-9269):
``?lang=``, Accept-Language, the cookie and the learner's stored choice as real requests; then in Chromium a learner
picks Nederlands on the landing page, a reload keeps Dutch, and a second browser signed in as the same learner
reads Dutch; every page at 360 px in each language with nothing sideways, and axe with no serious violation."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from test_browser import CHROMIUM, CHROMIUM_ARGS, axe_violations, block_other_hosts, serve, too_wide
from test_web_handlers import Client

from canasta_tutor.engine.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
KEY, CODE = "l4ng-key", "Blue7"
LANDING = "/voila/render/index.ipynb"
SIGN_IN = "/classroom/signin"
#: a word of each language's sign-in page (the label of the name box) and landing page (the sign-in box)
NAME_LABEL = {"en": "Your name", "nl": "Je naam", "da": "Dit navn", "af": "Jou naam"}
SIGNED_IN = {"en": "Signed in as", "nl": "Aangemeld als", "da": "Logget ind som", "af": "Aangemeld as"}


def free_port(ports=range(9250, 9260)) -> int:
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1}")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("language")
    lessons = tmp / "lessons"
    for name in ["index.ipynb", "teacher/dashboard.ipynb"]:
        (lessons / name).parent.mkdir(parents=True, exist_ok=True)
        (lessons / name).write_bytes((ROOT / "lessons" / name).read_bytes())
    args = ["--classroom", "--ip", HOST, "--teacher-key", KEY, "--class-code", CODE, "--class-size", "1",
            "--max-kernels", "30", "--lessons", str(lessons)]
    with serve(tmp, args, host=HOST, port=free_port(), ready_path=SIGN_IN,
               notebooks=["index.ipynb", "teacher/dashboard.ipynb"]) as (base, _proc):
        yield {"url": base, "db": tmp / "progress.sqlite3"}


def personal_code(server, name: str) -> str:
    from canasta_tutor.classroom.roster import Classroom

    room = Classroom(server["db"])
    return next(str(room.learner(r["learner_id"])["code"]) for r in room.learners() if r["name"] == name)


def html_lang(text: str) -> str:
    return re.search(r"<html lang=['\"]([a-z]+)['\"]", text).group(1)


# --- real requests ---------------------------------------------------------------------------------------------
def test_lang_in_the_address_gives_that_language_and_a_cookie(server):
    client = Client(server["url"])
    r = client.get(SIGN_IN + "?lang=nl")
    assert r.status == 200 and html_lang(r.text) == "nl"
    assert "Je naam" in r.text and "Your name" not in r.text and "Canasta leren" in r.text
    assert client.cookies.get("canasta_lang") == "nl"
    again = client.get(SIGN_IN)  # the cookie keeps it
    assert html_lang(again.text) == "nl" and "Je naam" in again.text


def test_accept_language_is_the_default_and_the_cookie_wins_over_it(server):
    danish = Client(server["url"]).get(SIGN_IN, headers={"Accept-Language": "da-DK,da;q=0.9,en;q=0.5"})
    assert html_lang(danish.text) == "da" and "Dit navn" in danish.text and "Your name" not in danish.text
    english = Client(server["url"]).get(SIGN_IN, headers={"Accept-Language": "fr-FR, de;q=0.8"})
    assert html_lang(english.text) == "en" and "Your name" in english.text
    chosen = Client(server["url"])
    chosen.cookies["canasta_lang"] = "af"
    r = chosen.get(SIGN_IN, headers={"Accept-Language": "da"})
    assert html_lang(r.text) == "af" and "Jou naam" in r.text


def test_every_page_of_ours_has_the_language_menu_each_language_named_in_itself(server):
    for path in (SIGN_IN, "/teacher"):
        text = Client(server["url"]).get(path + "?lang=da").text
        for code, name in LANGUAGES.items():
            assert f"lang='{code}' hreflang='{code}'" in text and f">{name}</a>" in text, (path, code)


def test_a_learners_choice_follows_them_to_another_device_and_reaches_the_kernel(server):
    first = Client(server["url"])
    assert first.sign_in("Lotte", CODE).status == 302
    page = first.get(LANDING + "?lang=nl", headers={"Accept-Language": "da"})
    # the kernel read the language before the page's cells ran: the sign-in box is Dutch, <html lang> too
    assert page.status == 200 and html_lang(page.text) == "nl"
    shown = re.findall(r"ct-identity.{0,80}", page.text)
    assert "Aangemeld als" in page.text and "Signed in as" not in page.text, shown
    other = Client(server["url"])  # another device: no cookie, a Danish browser
    r = other.post(SIGN_IN, form={"_xsrf": other.xsrf(SIGN_IN), "name": "", "personal": personal_code(server, "Lotte")})
    assert r.status == 302 and "canasta_lang" not in other.cookies
    there = other.get(LANDING, headers={"Accept-Language": "da"})
    assert html_lang(there.text) == "nl" and "Aangemeld als" in there.text


# --- in Chromium ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}; scripts/test.sh installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def new_context(browser, server, width=1200):
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-GB")
    context.outside = block_other_hosts(context, server["url"])
    return context


def sign_in(context, server, name):
    page = context.new_page()
    page.goto(server["url"] + SIGN_IN)
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Class code").fill(CODE)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url("**" + LANDING + "*")
    return page


def test_a_learner_picks_nederlands_a_reload_keeps_it_and_a_second_browser_too(browser, server):
    one = new_context(browser, server)
    page = sign_in(one, server, "Sanne")
    page.get_by_text("Signed in as").wait_for(timeout=90_000)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.locator(".ct-language-menu").get_by_role("link", name="Nederlands").click()
    page.get_by_text("Aangemeld als").wait_for(timeout=90_000)
    assert page.evaluate("document.documentElement.lang") == "nl" and "lang=nl" in page.url
    page.goto(server["url"] + LANDING)  # a reload, without ?lang= in the address
    page.get_by_text("Aangemeld als").wait_for(timeout=90_000)
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert page.locator(".ct-language-menu [aria-current]").inner_text() == "Nederlands"
    two = new_context(browser, server)  # a second device: the personal code brings the choice along
    other = two.new_page()
    other.goto(server["url"] + SIGN_IN)
    other.get_by_label("Your personal code (if you have one)").fill(personal_code(server, "Sanne"))
    other.get_by_role("button", name="Start").click()
    other.wait_for_url("**" + LANDING + "*")
    other.get_by_text("Aangemeld als").wait_for(timeout=90_000)
    assert other.evaluate("document.documentElement.lang") == "nl"
    assert one.outside == [] and two.outside == []
    one.close()
    two.close()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_page_at_360_px_fits_and_passes_axe_in_each_language(browser, server, lang):
    context = new_context(browser, server, width=360)
    page = context.new_page()
    page.goto(server["url"] + SIGN_IN + f"?lang={lang}")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.get_by_label(NAME_LABEL[lang]).is_visible()
    problems = {"signin": (too_wide(page), axe_violations(page))}
    page.get_by_label(NAME_LABEL[lang]).fill(f"Phone {lang}")
    page.locator("#code").fill(CODE)
    page.locator("button[type=submit]").click()
    page.wait_for_url("**" + LANDING + "*")
    page.get_by_text(SIGNED_IN[lang]).wait_for(timeout=90_000)
    assert page.evaluate("document.documentElement.lang") == lang
    problems["landing"] = (too_wide(page), axe_violations(page))
    for where, (width, axe) in problems.items():
        assert width["scrollWidth"] <= width["viewport"] and not width["wide"], (lang, where, width)
        assert axe == [], (lang, where, axe)
    assert context.outside == []
    context.close()


# --- the teacher's page -----------------------------------------------------------------------------------------
#: The teacher page's tabs, in the catalogs' words.
TABS = ("Class", "Live puzzle", "Homework", "Worksheets")


def teacher_page(browser, server, lang: str, width: int):
    """The teacher's page in ``lang`` (chosen with ?lang= on the sign-in page, kept by its cookie), its tabs drawn."""
    context = new_context(browser, server, width=width)
    page = context.new_page()
    page.goto(server["url"] + SIGN_IN + f"?lang={lang}")
    page.goto(server["url"] + "/teacher#key=" + KEY)  # the teacher's file link: the key after "#"
    page.wait_for_url("**/teacher/dashboard.ipynb*")
    page.locator(".ct-dashboard .ct-summary").wait_for(timeout=90_000)
    assert page.evaluate("document.documentElement.lang") == lang
    return context, page


#: What the open tab cuts off: an element reaching past the tab's right edge (or the viewport's) outside the page's
#: own scrolling boxes (a widget box scrolls what sticks out, out of sight: too_wide cannot see it), and a label,
#: button or tab title whose text is longer than its box (ipywidgets cuts those with "…").
CUT_OFF = """() => {
  const out = [], panel = document.querySelector('.ct-teacher-tabs > .widget-tab-contents');
  const edge = Math.min(panel.getBoundingClientRect().right, document.documentElement.clientWidth);
  const say = (el, why) => out.push(el.tagName.toLowerCase() + '.' + String(el.className).split(' ').slice(0, 2)
    .join('.') + ' "' + (el.innerText || '').trim().slice(0, 40) + '" ' + why);
  for (const el of panel.querySelectorAll('*')) {
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    if (r.width === 0 || st.visibility === 'hidden') continue;
    // only the page's own scrolling boxes (with their hint) count, not a widget box's overflow:auto, which on a
    // phone hides the rest of a form behind a scroll bar
    const scrolled = !!(el.parentElement && el.parentElement.closest('.ct-scroll, .widget-html-content table'));
    if (!scrolled && r.right > edge + 1) say(el, Math.round(r.right) + ' > ' + Math.round(edge));
  }
  for (const el of document.querySelectorAll('.ct-teacher-tabs .widget-label, .ct-teacher-tabs .jupyter-button, '
                                             + '.ct-teacher-tabs .lm-TabBar-tabLabel')) {
    if (el.getBoundingClientRect().width > 0 && el.scrollWidth > el.clientWidth + 1) say(el, 'cut');
  }
  return out.slice(0, 10);
}"""


def open_tab(page, title: str):
    page.get_by_role("tab", name=title).click()
    page.wait_for_timeout(300)  # the tab's panel is shown (no network: the widgets are drawn already)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_teacher_tab_at_360_px_fits_and_passes_axe_in_each_language(browser, server, lang):
    from canasta_tutor.engine.i18n import gettext

    context, page = teacher_page(browser, server, lang, 360)
    problems = {}
    for title in TABS:
        name = gettext(title, lang=lang)
        open_tab(page, name)
        problems[title] = (too_wide(page), page.evaluate(CUT_OFF), axe_violations(page))
    for where, (width, cut, axe) in problems.items():
        assert width["scrollWidth"] <= width["viewport"] and not width["wide"], (lang, where, width)
        assert cut == [], (lang, where, cut)
        assert axe == [], (lang, where, axe)
    assert context.outside == []
    context.close()


def test_the_teachers_dashboard_and_a_worksheet_pdf_in_danish(browser, server):
    import io

    import pypdf

    from canasta_tutor.engine.i18n import gettext

    context, page = teacher_page(browser, server, "da", 1200)
    tabs = page.get_by_role("tab").all_inner_texts()
    assert [t.strip() for t in tabs] == ["Klasse", "Liveopgave", "Lektier", "Arbejdsark"], tabs
    board = page.locator(".ct-dashboard").inner_text()
    for english in ("Most-missed puzzles", "The class's list", "Start a new class", "Learners open"):
        assert english not in board
    for message in ("Most-missed puzzles", "The class's list", "Print the join cards", "Start a new class"):
        assert gettext(message, lang="da") in board, message
    open_tab(page, "Arbejdsark")
    sheets = page.locator(".ct-worksheets")
    sheets.get_by_text("Arbejdsark med facitliste (PDF)").wait_for()
    with page.expect_download() as got:
        sheets.get_by_role("link", name="Arbejdsark med facitliste (PDF)").click()
    data = Path(got.value.path()).read_bytes()
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages)
    assert "Navn:" in text and "Dato:" in text and "Hvorfor?" in text and "Facitliste:" in text
    assert "Name:" not in text and "Why?" not in text and "Answer key" not in text
    assert context.outside == []
    context.close()
