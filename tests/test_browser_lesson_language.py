"""The landing page's in-page lesson view in the page's language, in Chromium: ``?lang=nl`` reaches the page's
kernel (the server's X-Canasta-Language header, passed on by Voilà), which draws lesson 4 in Dutch.

The server (test_lesson_text's small lessons folder: the landing page and lesson 4) runs on 127.0.0.1, ports
9270-9289."""

from __future__ import annotations

import pytest
from test_browser import block_other_hosts, browser, serve  # noqa: F401  (browser is a fixture)
from test_lesson_text import _free_port, small_lessons

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lesson-language")
    with serve(tmp, ["--lessons", str(small_lessons(tmp))], host="127.0.0.1", port=_free_port(),
               ready_path="/voila/tree", notebooks=["index.ipynb"]) as (base, _proc):
        yield base


@pytest.fixture
def page(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    outside = block_other_hosts(pg, server)
    yield pg
    context.close()
    assert not outside, f"requests to other hosts: {outside}"


def test_the_landing_page_in_dutch_shows_lesson_4_in_dutch_inside_itself(page, server):
    page.goto(server + "/voila/render/index.ipynb?lang=nl")
    page.get_by_role("heading", name="Canasta leren").wait_for()  # the server's markdown
    page.locator(".ct-lesson-app").wait_for(state="attached")
    page.get_by_role("link", name="De aflegstapel pakken").click()  # a link of the Dutch list
    page.wait_for_url("**/index.ipynb?lang=nl#04-taking-the-pile")
    page.locator(".ct-lesson h1", has_text="4. De aflegstapel pakken").wait_for()  # the kernel's markdown
    lesson = page.locator(".ct-lesson")
    lesson.get_by_text("Eén negen en een twee in je hand. Mag je de stapel pakken?").wait_for()
    assert "Taking the pile" not in lesson.inner_text()
    # a reload keeps the language (it is in the address) and the lesson (the fragment)
    page.reload()
    page.locator(".ct-lesson h1", has_text="4. De aflegstapel pakken").wait_for()


def test_a_learner_picks_nederlands_opens_lesson_4_answers_a_puzzle_and_reads_why_in_dutch(page, server):
    page.goto(server + "/voila/render/index.ipynb")
    page.locator(".ct-language-menu").get_by_role("link", name="Nederlands").click()
    page.wait_for_url("**lang=nl*")
    page.get_by_role("heading", name="Canasta leren").wait_for()
    page.locator(".ct-lesson-app").wait_for(state="attached")
    page.get_by_role("link", name="De aflegstapel pakken").click()
    page.locator(".ct-lesson h1", has_text="4. De aflegstapel pakken").wait_for()
    trainer = page.locator(".ct-lesson .ct-trainer").first
    trainer.get_by_role("button", name="Volgende puzzel →").wait_for()
    trainer.locator(".ct-answer-controls").get_by_role("button", name="Ja", exact=True).click()  # t-001: yes
    feedback = trainer.locator(".ct-feedback")
    feedback.get_by_text("Goed zo!").wait_for()
    said = feedback.inner_text()
    assert "Waarom" in said and "Right!" not in said and "Why" not in said, said
