"""The whole app in one page (one kernel per learner): a signed-in learner opens lessons inside the landing page,
by its links, by the lesson menu and by the address (reload, back), answers a puzzle and sees it counted.

The server runs in classroom mode with a class pool (``--class-size 2``) on 127.0.0.5, ports 9350-9379."""

from __future__ import annotations

import socket

import pytest
from test_browser import block_other_hosts, browser, serve  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser

HOST = "127.0.0.5"
CODE = "Green4"


def free_port() -> int:
    for port in range(9360, 9380):
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 9360-9379")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve-app")
    args = ["--classroom", "--ip", HOST, "--class-code", CODE, "--class-size", "2", "--teacher-key", "k3y-app"]
    with serve(tmp, args, host=HOST, port=free_port(), ready_path="/classroom/signin",
               notebooks=["index.ipynb"]) as (base, _proc):
        yield base


@pytest.fixture
def page(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    outside = block_other_hosts(pg, server)
    yield pg
    context.close()
    assert not outside, f"requests to other hosts: {outside}"


def lesson_heading(page, text: str):
    return page.locator(".ct-lesson h1", has_text=text)


def test_lessons_inside_the_landing_page_by_link_menu_and_address(page, server):
    page.goto(server + "/")
    page.fill("input[name=name]", "Dee")
    page.fill("input[name=code]", CODE)
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_url("**/voila/render/index.ipynb")
    page.get_by_text("Signed in as").wait_for()
    page.locator(".ct-lesson-app").wait_for(state="attached")
    kernel = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")

    # a link of the landing page's list: the lesson opens inside the page, the address follows
    page.get_by_role("link", name="Taking the pile").click()
    page.wait_for_url("**/index.ipynb#04-taking-the-pile")
    lesson_heading(page, "4. Taking the pile").wait_for()
    assert not page.get_by_text("Signed in as").is_visible()  # the landing page's own cells step aside
    trainer = page.locator(".ct-lesson .ct-trainer").last
    trainer.get_by_role("button", name="Yes", exact=True).click()  # t-001: a natural pair of sevens takes it
    trainer.get_by_text("Right!").wait_for()
    assert "Score 1 of 1" in trainer.inner_text()

    # the menu: another lesson, still the same page and the same kernel
    page.locator(".ct-lesson-menu summary").click()
    page.locator(".ct-lesson-menu").get_by_role("link", name="5. Freezing the pile", exact=True).click()
    page.wait_for_url("**/index.ipynb#05-freezing-the-pile")
    lesson_heading(page, "5. Freezing the pile").wait_for()
    assert not lesson_heading(page, "4. Taking the pile").is_visible()
    # back: lesson 4 as the learner left it
    page.go_back()
    page.wait_for_url("**/index.ipynb#04-taking-the-pile")
    lesson_heading(page, "4. Taking the pile").wait_for()
    assert "Score 1 of 1" in page.locator(".ct-lesson .ct-trainer").last.inner_text()
    assert page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId") == kernel

    # the address alone (a bookmark, a reload): lesson 3
    page.goto(server + "/voila/render/index.ipynb#03-red-and-black-threes")
    lesson_heading(page, "3. Red and black threes").wait_for()
    # the menu's "All lessons": the landing page, where the answer is counted
    page.locator(".ct-lesson-menu summary").click()
    page.locator(".ct-lesson-menu").get_by_role("link", name="All lessons", exact=True).click()
    page.get_by_text("Signed in as").wait_for()
    # the page's script hides the lesson as the address changes (it may take a moment): wait until none shows
    page.wait_for_function("() => ![...document.querySelectorAll('.ct-lesson')].some(e => e.offsetParent !== null)")
    page.reload()
    panel = page.locator(".ct-identity")
    panel.get_by_text("Topics you have practised").wait_for()
    assert "Dee" in panel.inner_text() and "1" in panel.locator("table").inner_text()


def test_the_teachers_tab_titles_fit_a_phone(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.set_default_timeout(90_000)
    try:
        page.goto(server + "/teacher#key=k3y-app")
        page.wait_for_url("**/teacher/dashboard.ipynb")
        tabs = page.locator(".ct-teacher-tabs .lm-TabBar-tab")
        tabs.nth(3).wait_for()
        titles = tabs.evaluate_all("""tabs => tabs.map(t => {
            const label = t.querySelector('.lm-TabBar-tabLabel') || t;
            const box = t.getBoundingClientRect();
            return {text: label.textContent, cut: label.scrollWidth > label.clientWidth + 1,
                    right: box.right};
        })""")
        assert [t["text"] for t in titles] == ["Class", "Live puzzle", "Homework", "Worksheets"]
        assert not [t for t in titles if t["cut"]], titles
        assert max(t["right"] for t in titles) <= 360, titles  # nothing beyond the screen's edge
    finally:
        context.close()
