"""The teacher's side in Nederlands, Dansk and Afrikaans (no browser): the dashboard, the class's list, homework,
the live puzzle (the teacher's panel and a learner's view of it), the worksheet links, the worksheet PDF with its
answer key, and the exports' headings hold no common English word (the list of test_golden_languages); English
stays as it was.

What these screens show that is not theirs is left out: the cards of a puzzle (``widgets.render.situation_html``,
the learner widgets' own) and the trainer inside the learner's live view (the learner widgets'); the rule set's
title on the worksheet (the engine's ``RuleSet``). Names, codes, ids and titles are the test's own data, chosen
with no English word in them.
"""

from __future__ import annotations

import csv
import html
import io
import re

import ipywidgets as widgets
import openpyxl
import pypdf
import pytest
from test_golden_languages import TRANSLATED, english_words

from canasta_tutor.classroom.assignments import AssignmentBook
from canasta_tutor.classroom.downloads import class_export
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.engine.i18n import pgettext, use_language
from canasta_tutor.puzzles.format import load_puzzle_set
from canasta_tutor.puzzles.worksheet import worksheet_pdf
from canasta_tutor.widgets.classpages import WorksheetLinks
from canasta_tutor.widgets.dashboard import TeacherDashboard
from canasta_tutor.widgets.homework import AssignmentProgress, MyAssignments, NewAssignment
from canasta_tutor.widgets.live import LiveLearnerView, LiveTeacherPanel

#: Dutch words that are in the English list too: "score" is the glossary's own term (term|score: score, stand).
ALSO_DUTCH = {"nl": {"score"}, "da": set(), "af": set()}

#: One puzzle of each kind, with no prompt (a puzzle file's prose is its author's, in one language).
PUZZLES = """title: Q1
rules: classic
puzzles:
  - {id: q-1, kind: take-pile, topic: taking the pile, hand: 7H 7S 4C 9D, melds: [KH KS KD], score: 0, pile: 5D 8S 7C}
  - {id: q-2, kind: meld, topic: melds, cards: 7H 7S 7D 2C}
  - {id: q-3, kind: score-hand, topic: scoring, melds: [KH KS KD KC KH KS KD], red_threes: 3H, hands: [5C, 4D],
     went_out: false}
  - {id: q-4, kind: opening, topic: opening minimum, melds: [KH KS KD], score: 1500}
  - {id: q-5, kind: go-out, topic: going out, melds: [KH KS KD KC KH KS KD], hand: 5C 5D 5S, score: 0}
  - {id: q-6, kind: freeze, topic: freezing, melds: [KH KS KD], pile: 5H 2C 9S}
  - {id: q-7, kind: card-points, topic: card points, cards: KH QS 2C}
"""


@pytest.fixture
def cls(tmp_path, monkeypatch):
    """A class '7B' with a learner who has answered (and is stuck), an assignment past its date, a puzzle file."""
    monkeypatch.setenv("CANASTA_TUTOR_FILES", str(tmp_path / "files"))
    monkeypatch.delenv("CANASTA_TUTOR_TIMEZONE", raising=False)
    # the cards are the learner widgets' (render.situation_html), not these screens': left out (see the module)
    monkeypatch.setattr("canasta_tutor.widgets.render.situation_html", lambda *a, **k: "")
    monkeypatch.setattr("canasta_tutor.widgets.live.situation_html", lambda *a, **k: "")
    folder = tmp_path / "sets"
    folder.mkdir()
    source = folder / "q1.yaml"
    source.write_text(PUZZLES, encoding="utf-8")
    db = str(tmp_path / "p.sqlite3")
    room = Classroom(db)
    room.set_code("7B")
    ana = room.join("Ana", "7B").learner
    room.join("Bo", "7B")
    puzzles = load_puzzle_set(source)
    assert not puzzles.errors and len(puzzles.puzzles) == 7
    for pid, kind, answer, right in (("q-1", "take-pile", {"take": False}, False),
                                     ("q-2", "meld", {"valid": True, "canasta": "mixed"}, False),
                                     ("q-6", "freeze", {"frozen": False}, False), ("q-7", "card-points",
                                                                                   {"points": 30}, True)):
        room.store.record(learner="Ana", puzzle_set="Q1", puzzle_id=pid, kind=kind,
                          topic=puzzles.puzzles[int(pid[-1]) - 1].topic, difficulty=1,
                          answer=answer, correct=right, seconds=2, learner_id=ana["learner_id"])
    AssignmentBook(db).create("A1", sources=[str(source)], class_code="7B", due="2020-01-02")
    return {"room": room, "db": db, "source": source, "folder": folder, "ana": ana}


def shown(widget) -> list[str]:
    """Every text a person reads on ``widget`` and inside it: HTML (tags and attributes left out), labels,
    placeholders, the choices of a menu, the titles of tabs."""
    out = []
    if isinstance(widget, widgets.HTML):
        out.append(html.unescape(re.sub(r"<[^>]+>", " ", widget.value)))
    if isinstance(widget, widgets.DOMWidget) and hasattr(widget, "description"):
        out.append(widget.description or "")
    out.append(getattr(widget, "placeholder", "") or "")
    out += [str(label) for label in getattr(widget, "_options_labels", ())]
    if isinstance(widget, widgets.Tab):
        out += list(widget.titles)
    for child in getattr(widget, "children", ()):
        out += shown(child)
    return [text for text in out if text.strip()]


def english_left(texts, lang) -> dict[str, list[str]]:
    """Each text that holds a common English word, with the words."""
    found = {}
    for text in texts:
        words = sorted({w for w in english_words(text, lang) if w not in ALSO_DUTCH[lang]})
        if words:
            found[re.sub(r"\s+", " ", text)[:120]] = words
    return found


def screens(cls) -> dict:
    """The teacher's screens and a learner's live view, as they are drawn in the current language."""
    room, db = cls["room"], cls["db"]
    live = LiveTeacherPanel(class_code="7B", source=cls["source"], path=db, auto=False)
    live.choose(0)
    live.send()
    view = LiveLearnerView(learner="Ana", class_code="7B", path=db, auto=False, learner_id=cls["ana"]["learner_id"])
    waiting = view.feedback
    view.answer(True)
    answered = view.feedback
    live.refresh()
    board = TeacherDashboard(classroom=room, refresh=0, teacher=True, join_urls=["http://10.0.0.2:8866/"])
    board.new_class("")   # the first press asks again: its question is on the page (nothing is archived)
    board.set_language("")
    out = {"dashboard": shown(board), "live panel": shown(live),
           "learner's live view": shown(view.status) + [waiting, answered],
           "homework table": shown(AssignmentProgress("7B", path=db, class_id=room.current().id)),
           "new assignment": shown(NewAssignment("7B", path=db, puzzle_dir=cls["folder"])),
           "a learner's assignments": shown(MyAssignments("Ana", "7B", path=db, learner_id=cls["ana"]["learner_id"])),
           "worksheet links": shown(WorksheetLinks("7B", path=db, puzzle_dir=cls["folder"]))}
    live.reveal()
    out["live panel, revealed"] = shown(live)
    view.refresh()
    out["learner's live view, revealed"] = shown(view.status)
    for name, widget in (("roster: add", board.roster.add), ("roster: free", board.roster.free)):
        widget(["Ana"]) if name.endswith("add") else widget(cls["ana"]["learner_id"])
        out[name] = shown(board.roster.message)
    live.close()
    view.close()
    return out


def pdf_text(data: bytes, puzzles) -> str:
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)
    for title in {p.rules.title for p in puzzles}:  # the engine's RuleSet title (see the module's description)
        text = text.replace(title, " ")
    return text


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_teachers_screens_hold_no_english(cls, lang):
    with use_language(lang):
        drawn = screens(cls)
    left = {name: english_left(texts, lang) for name, texts in drawn.items()}
    assert {name: found for name, found in left.items() if found} == {}
    assert all(drawn.values()), [name for name, texts in drawn.items() if not texts]  # each drew something


def test_the_english_screens_are_english_and_the_check_finds_them(cls):
    """The check is not blind: the same screens in English are full of the list's words."""
    drawn = screens(cls)
    left = {name: english_left(texts, "da") for name, texts in drawn.items()}
    # (the homework table's words, "done · right", "due", are not on the list: it is checked by the others)
    assert [name for name, found in left.items() if not found] == ["homework table"]
    assert any("Most common wrong answer" in text for text in drawn["dashboard"])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_worksheet_and_its_answer_key_hold_no_english(cls, lang):
    puzzles = load_puzzle_set(cls["source"]).puzzles
    with use_language(lang):
        text = pdf_text(worksheet_pdf(puzzles, key=True), puzzles)
        expected = [_t("Canasta worksheet"), _t("Answer:"), _t("Why?"), _t("Name:"),
                    _t("Answer key: {title}").format(title=_t("Canasta worksheet"))]
    assert english_left(text.splitlines(), lang) == {}
    squeezed = re.sub(r"\s+", "", text)
    assert [line for line in expected if re.sub(r"\s+", "", line) not in squeezed] == []


def test_the_english_worksheet_is_english(cls):
    puzzles = load_puzzle_set(cls["source"]).puzzles
    text = pdf_text(worksheet_pdf(puzzles, key=True), puzzles)
    assert "Answer key: Canasta worksheet" in text and "Why?" in text and english_left(text.splitlines(), "nl")


def _t(message: str) -> str:
    from canasta_tutor.engine.i18n import gettext

    return gettext(message)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_exports_are_in_the_teachers_language_and_still_safe(cls, lang):
    room = cls["room"]
    evil = '=HYPERLINK("http://e.io/x","Fix")'
    room.join(evil, "7B")
    room.store.record(learner=evil, puzzle_set="Q1", puzzle_id="q-1", kind="take-pile", topic="taking the pile",
                      difficulty=1, answer={"take": True}, correct=True, seconds=2)
    with use_language(lang):
        learners = class_export(room, "learners.csv").body.decode("utf-8-sig")
        puzzles = class_export(room, "puzzles.csv").body.decode("utf-8-sig")
        book = openpyxl.load_workbook(io.BytesIO(class_export(room, "gradebook.xlsx").body))
        accuracy = pgettext("export", "accuracy")
        translated = tuple(pgettext("export", w) for w in ("learner", "answers", "right", "accuracy", "topics"))
    for text in (learners, puzzles):
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        assert not [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))]
        head = next(csv.reader(io.StringIO(text)))
        assert english_left(head, lang) == {}, head
        assert english_left(cells, lang) == {}
    english = ("learner", "answers", "right", "accuracy", "topics")
    assert next(csv.reader(io.StringIO(learners)))[:5] == list(translated) and translated != english
    assert "'" + evil in [row[0] for row in csv.reader(io.StringIO(learners))]  # kept as text, as in English
    assert english_left(book.sheetnames, lang) == {} and len(book.sheetnames) == 5
    first = book.worksheets[0]
    heads = [c.value for c in first[1]]
    assert english_left([str(h) for h in heads], lang) == {}
    percent = [c.number_format for c in first[2]][heads.index(accuracy)]
    assert percent == "0%"  # the accuracies are still shown as percentages under their translated heading
    every = [str(c.value) for sheet in book.worksheets for row in sheet.iter_rows() for c in row if c.value]
    assert english_left(every, lang) == {}


def _shipped_topics() -> set[str]:
    from pathlib import Path

    from canasta_tutor.puzzles.practice import topic_of
    root = Path(__file__).resolve().parent.parent / "puzzles"
    return {topic_of(p) for f in sorted(root.glob("*.yaml")) for p in load_puzzle_set(f).puzzles}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_teacher_reads_every_topic_in_the_words_the_learner_reads(lang):
    """The dashboard, heat map and exports (classroom.words) name a topic as the practice room does: one translation
    (the Danish and Samba topics were English on the teacher's side, 'freezing' had two Dutch words)."""
    from canasta_tutor.classroom.words import topic_name as teachers
    from canasta_tutor.puzzles.practice import topic_name as learners
    topics = _shipped_topics()
    assert len(topics) >= 15
    with use_language(lang):
        assert {t: teachers(t) for t in topics} == {t: learners(t) for t in topics}
        assert [t for t in topics if english_words(teachers(t), lang)] == []   # (af: "melds", "canastas" are Afrikaans)
