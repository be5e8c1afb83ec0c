"""The teacher's screens (no browser): the live tab shows the sent puzzle's cards again after a reload, the heat
map's headings can be read whole, the homework grid shows right beside done, the most-missed table names the set
and shows the question, and the live chart's type reads from the back of a room."""

from __future__ import annotations

import re

import pytest

from canasta_tutor.classroom.heatmap import CELL_W, CHAR_WIDTH, MAX_NAME_WIDTH, heatmap_svg, text_width
from canasta_tutor.classroom.live import CHART_FONT, LiveClass, bar_chart_html
from canasta_tutor.classroom.roster import ClassReport, Classroom
from canasta_tutor.puzzles.format import puzzle_from_mapping
from canasta_tutor.widgets.dashboard import TeacherDashboard
from canasta_tutor.widgets.live import LiveTeacherPanel

LONG_TOPIC = "taking the discard pile when it is frozen"
LONG_NAME = "Maximiliana Konstantinopoulou-Wojciechowska"


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "p.sqlite3")


def answer(room, learner, pid, correct, *, topic="taking the pile", kind="take-pile", pset="S", given=None):
    room.store.record(learner=learner, puzzle_set=pset, puzzle_id=pid, kind=kind, topic=topic, difficulty=1,
                      answer=given if given is not None else {"take": correct}, correct=correct, seconds=3.0)


# --- the live tab ---------------------------------------------------------------------------------------------------
def test_the_live_tab_shows_the_sent_puzzles_cards_again_after_a_reload(db):
    puzzle = puzzle_from_mapping({"id": "f-9", "kind": "freeze", "pile": "5H 2C 9S", "melds": ["KH KS KD"]})
    first = LiveTeacherPanel(class_code="7B", path=db, auto=False)
    first.send(puzzle)
    first.close()
    reloaded = LiveTeacherPanel(class_code="7B", path=db, auto=False)   # the teacher reloads the page
    try:
        assert reloaded.chosen is None                                  # nothing picked in this page yet
        cards = set(re.findall(r"data-card='(\w+)'", reloaded.sent.value))
        assert {"KH", "KS", "KD", "9S"} <= cards and "f-9" in reloaded.sent.value
        LiveClass("7B", db).send(puzzle_from_mapping({"id": "t-8", "kind": "take-pile", "hand": "7C 7D",
                                                      "pile": "7H 4S"}))
        reloaded.refresh()                                              # a newer puzzle replaces it
        assert "t-8" in reloaded.sent.value and "KH" not in reloaded.sent.value
    finally:
        reloaded.close()


def test_the_live_chart_is_in_large_type_with_room_for_the_longest_label():
    svg = bar_chart_html({"Natural canasta": 3, "Mixed canasta": 1, "Not a canasta": 0}, right="Natural canasta")
    sizes = [int(s) for s in re.findall(r"font-size='(\d+)'", svg)]
    assert sizes and min(sizes) >= 28 and CHART_FONT >= 28
    first_bar = int(re.search(r"class='ct-bar'[^>]* x='(\d+)'", svg).group(1))
    assert first_bar >= len("Natural canasta ✔") * 0.55 * CHART_FONT       # the label is not drawn over the bar
    assert re.search(r"data-label='Natural canasta' data-count='3' x='\d+' y='\d+' width='520.0'", svg)
    assert re.search(r"data-label='Mixed canasta' data-count='1' x='\d+' y='\d+' width='173.3'", svg)


def test_the_live_panels_question_and_names_are_large_too(db):
    panel = LiveTeacherPanel(class_code="", path=db, auto=False)
    try:
        panel.send(puzzle_from_mapping({"id": "f-1", "kind": "freeze", "pile": "5H 2C 9S", "melds": ["KH KS KD"]}))
        size = int(re.search(r"ct-live-question' style='font-size:(\d+)px", panel.chart.value).group(1))
        assert size >= 28 and int(re.search(r"font-size:(\d+)px", panel.who.value).group(1)) >= 18
    finally:
        panel.close()


# --- the heat map ---------------------------------------------------------------------------------------------------
def report_with(names_topics):
    import pandas as pd

    rows = [{"learner": n, "puzzle_set": "S", "puzzle_id": f"p{i}", "topic": t, "correct": True, "answer": "{}",
             "timestamp": "2026-01-01T00:00:00+00:00"} for i, (n, t) in enumerate(names_topics)]
    return ClassReport(pd.DataFrame(rows), [n for n, _t in names_topics])


def test_heat_map_headings_run_across_wrapped_within_their_column():
    svg = heatmap_svg(report_with([("Ana", LONG_TOPIC), ("Bo", "melds")]))
    assert "rotate" not in svg
    heading = re.search(r"<text class='ct-topic'[^>]*><title>" + LONG_TOPIC + r"</title>(.*?)</text>", svg).group(1)
    lines = re.findall(r"<tspan x='[\d.]+' y='([\d.]+)'>([^<]+)</tspan>", heading)
    assert " ".join(text for _y, text in lines) == LONG_TOPIC and len(lines) >= 3
    assert all(text_width(text) <= CELL_W - 2 for _y, text in lines)
    top_of_grid = min(float(y) for y in re.findall(r"<rect x='[\d.]+' y='([\d.]+)'", svg))
    assert all(float(y) - 13 >= 0 and float(y) < top_of_grid for y, _text in lines)   # inside the picture


def test_heat_map_names_start_at_the_left_edge_and_a_long_one_is_whole_in_its_tooltip():
    svg = heatmap_svg(report_with([("Ana", "melds"), (LONG_NAME, "melds")]))
    names = re.findall(r"<text class='ct-name' x='([\d.]+)' y='[\d.]+' text-anchor='start'><title>([^<]+)</title>"
                       r"([^<]+)</text>", svg)
    assert [(x, whole) for x, whole, _shown in names] == [("8", "Ana"), ("8", LONG_NAME)]
    shown = dict((whole, shown) for _x, whole, shown in names)
    assert shown["Ana"] == "Ana"
    if text_width(LONG_NAME) > MAX_NAME_WIDTH:
        assert shown[LONG_NAME].endswith("…") and LONG_NAME.startswith(shown[LONG_NAME][:-1])
    first_cell = min(float(x) for x in re.findall(r"<rect x='([\d.]+)'", svg))
    assert first_cell >= 8 + text_width(shown[LONG_NAME]) + 4 and CHAR_WIDTH > 0   # names end before the cells


def test_the_dashboard_draws_the_readable_heat_map(db, monkeypatch):
    room = Classroom(db)
    room.join(LONG_NAME)
    answer(room, LONG_NAME, "t-1", True, topic=LONG_TOPIC)
    d = TeacherDashboard(classroom=room, refresh=0, teacher=True, join_urls=[])
    assert "ct-topic" in d.heatmap.value and "rotate" not in d.heatmap.value


# --- most missed ----------------------------------------------------------------------------------------------------
def test_most_missed_names_the_set_and_shows_the_question_and_the_cards(db):
    from canasta_tutor.puzzles.practice import set_of
    from canasta_tutor.widgets.trainer import load_puzzles

    puzzles, _ = load_puzzles(None)
    known = next(p for p in puzzles if p.kind == "take-pile")
    room = Classroom(db)
    room.join("Ana")
    answer(room, "Ana", known.id, False, pset=set_of(known), given={"take": True})
    answer(room, "Ana", "x-1", False, pset="Made up", kind="freeze", topic="freezing", given={"frozen": True})
    d = TeacherDashboard(classroom=room, refresh=0, teacher=True, join_urls=[])
    table = d.missed.value
    assert "<th>Set</th>" in table and "<th>Question</th>" in table
    row = re.search(r"<tr class='ct-missed' data-set='([^']*)' data-puzzle='" + re.escape(known.id) + r"'>(.*?)</tr>",
                    table).group(0)
    assert set_of(known) in row and "May you take the discard pile now?" in row
    assert "ct-missed-cards" in row and re.search(r"data-card='\w+'", row)
    other = re.search(r"<tr class='ct-missed' data-set='Made up' data-puzzle='x-1'>(.*?)</tr>", table).group(0)
    assert "Is the discard pile frozen for your team?" in other and "ct-missed-cards" not in other  # no cards known
