"""What nbval cannot see in the lessons: every example drawn as cards with its question, practice puzzles that
differ from the worked examples, one wording for the black three, a variants table for learners, puzzle ids
that exist. The notebooks are read, not run (nbval runs them); each helper call is made here for real."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from canasta_tutor.engine.errors import PuzzleError
from canasta_tutor.engine.rules import OPTION_NAMES, PRESETS, citation
from canasta_tutor.puzzles.format import puzzle_from_mapping
from canasta_tutor.puzzles.kinds import KINDS
from canasta_tutor.widgets.lesson import PresetsTable, example, lesson_puzzles
from canasta_tutor.widgets.trainer import load_puzzles
from canasta_tutor.widgets.variants import (
    EXAMPLES,
    PARTNERSHIP_PRESETS,
    QUOTES,
    ROWS,
    SOURCES,
    _body,
    highlight_differences,
    judge_everywhere,
    preset_rows,
    presets_html,
    sources_html,
)

ROOT = Path(__file__).resolve().parent.parent
#: Every numbered lesson; the lessons with worked examples and puzzles (all but the coached game of lesson 10).
ALL_LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]-*.ipynb"))
LESSONS = [p for p in ALL_LESSONS if "lesson_puzzles(" in p.read_text("utf-8")]
#: The rule texts the presets cite, carried by the repository (docs/sources/README.md says what each is).
SOURCES_DIR = ROOT / "docs" / "sources"
#: Calls a lesson's code cell may make: the import, a worked example, puzzles, an explorer.
ALLOWED_CALLS = {"example", "lesson_puzzles", "PresetsTable", "CardCounter", "MeldBuilder", "RedThreeExplorer",
                 "TakePileExplorer", "FreezeExplorer", "OpeningExplorer", "GoOutExplorer", "ScoreExplorer",
                 "VariantsExplorer", "PracticeRoom", "PlayAHand"}


def cells(path: Path, kind: str) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text("utf-8"))["cells"] if c["cell_type"] == kind]


def calls(path: Path, name: str) -> list[tuple[list, dict]]:
    """The literal arguments of every top-level call to ``name`` in the lesson's code cells."""
    out = []
    for source in cells(path, "code"):
        for node in ast.parse(source).body:
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                    getattr(node.value.func, "id", None) == name:
                out.append(([ast.literal_eval(a) for a in node.value.args],
                            {k.arg: ast.literal_eval(k.value) for k in node.value.keywords}))
    return out


def same_situation(puzzle) -> tuple:
    """A puzzle's situation, with the order of a hand or of the melds not mattering (the pile's order does)."""
    s = puzzle.situation.given()
    key = []
    for name in sorted(s):
        value = s[name]
        if name == "pile":
            value = tuple(c.code for c in value)
        elif name in ("melds", "hands"):
            value = tuple(sorted(tuple(sorted(c.code for c in group)) for group in value))
        elif isinstance(value, (list, tuple)):
            value = tuple(sorted(c.code for c in value))
        elif name == "going_out" and not value:
            continue
        key.append((name, value))
    return puzzle.kind, puzzle.rules, tuple(key)


def test_every_numbered_lesson_but_the_game_has_examples_and_puzzles():
    assert len(ALL_LESSONS) >= 10 and [p.stem for p in ALL_LESSONS if p not in LESSONS] == ["10-play-a-hand"]


@pytest.mark.parametrize("path", ALL_LESSONS, ids=lambda p: p.stem)
def test_notebooks_hold_prose_and_one_line_calls(path):
    """Every code cell is the import or one call of a lesson helper, with literal arguments: no logic."""
    for source in cells(path, "code"):
        body = ast.parse(source).body
        if len(body) == 1 and isinstance(body[0], ast.ImportFrom):
            continue
        assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Call), source
        call = body[0].value
        assert getattr(call.func, "id", None) in ALLOWED_CALLS, source
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            ast.literal_eval(arg)  # raises on anything but a literal


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_example_is_drawn_with_cards_its_question_and_the_verdict(path):
    examples = calls(path, "example")
    assert examples, f"{path.name} has no worked example"
    for args, kwargs in examples:
        ex = example(*args, **kwargs)
        page = ex._repr_html_()
        assert page.count("class='ct-card'") >= 2, (path.name, args, kwargs)
        assert "class='ct-question'" in page and ex.question in page.replace("&#x27;", "'")
        assert "class='ct-verdict'" in page and ex.reasons and ex.reasons[0].split(" ")[0] in page
    for source in cells(path, "code"):
        assert "explain(" not in source and "print(" not in source, f"{path.name}: an example printed as text"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_practice_puzzles_differ_from_the_worked_examples(path):
    shown = {same_situation(example(*a, **k).puzzle): (a, k) for a, k in calls(path, "example")}
    [(ids, _kw)] = calls(path, "lesson_puzzles")
    trainer = lesson_puzzles(*ids)
    assert [p.id for p in trainer.puzzles] == list(ids)
    for puzzle in trainer.puzzles:
        assert same_situation(puzzle) not in shown, \
            f"{path.name}: puzzle {puzzle.id} repeats the worked example {shown.get(same_situation(puzzle))}"


def test_same_situation_sees_a_reordered_repeat():
    a = puzzle_from_mapping({"id": "a", "kind": "take-pile", "hand": "7H 7S 4C", "melds": ["KH KS KD"],
                             "score": 0, "pile": "5D 8S 7C"})
    b = puzzle_from_mapping({"id": "b", "kind": "take-pile", "hand": "4C 7S 7H", "melds": ["KD KS KH"],
                             "score": 0, "pile": "5D 8S 7C"})
    c = puzzle_from_mapping({"id": "c", "kind": "take-pile", "hand": "4C 7S 7H", "melds": ["KD KS KH"],
                             "score": 0, "pile": "8S 5D 7C"})
    assert same_situation(a) == same_situation(b) != same_situation(c)


def sentences(path: Path) -> list[str]:
    """The lesson's prose, sentence by sentence, without its links."""
    text = re.sub(r"\[[^]]*\]\([^)]*\)", " ", " ".join(cells(path, "markdown"))).replace("\n", " ")
    return [s.strip() for s in re.split(r"(?<=[.!?:])\s+", text) if s.strip()]


def black_three_sentences(path: Path) -> set[str]:
    return {s for s in sentences(path) if re.search(r"\bblack three\b", s, re.I) and re.search(r"\bpile\b", s)}


def test_the_black_three_is_described_in_the_same_words_in_lessons_4_and_5():
    four, five = (black_three_sentences(p) for p in LESSONS if p.stem.startswith(("04", "05")))
    assert four and four == five
    said = " ".join(four)
    assert "nobody may take the pile" in said and "does not freeze" in said
    for path in ALL_LESSONS:  # the wordings issue 7 found contradicting each other
        text = " ".join(cells(path, "markdown")).replace("\n", " ")
        assert "for everyone" not in text and "only stops the next player" not in text, path.name


def test_going_out_concealed_needs_no_minimum_only_after_drawing_from_the_stock():
    [seven] = [p for p in LESSONS if p.stem.startswith("07")]
    no_minimum = [s for s in sentences(seven) if re.search(r"\bno (opening )?minimum\b", s)]
    assert no_minimum
    for sentence in no_minimum:
        assert re.search(r"\b(drew|drawing|draws) from the stock\b", sentence), sentence


# --- lesson 9: the presets for learners ------------------------------------------------------------------------
def visible_text(page: str) -> str:
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


def rows_of(page: str) -> list[tuple[bool, list[str]]]:
    """(highlighted, cell texts) for each body row of the presets table."""
    body = page.split("<tbody>", 1)[1]
    out = []
    for row in re.findall(r"<tr(.*?)>(.*?)</tr>", body, flags=re.S):
        attrs, inner = row
        texts = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", inner, flags=re.S)]
        out.append(("ct-differs" in attrs or "background" in attrs, texts))
    return out


@pytest.mark.parametrize("presets", [None, list(PRESETS), ["classic", "classic-2p"], ["hoyle"]],
                         ids=["default", "all", "two", "one"])
def test_only_rows_that_differ_are_highlighted(presets):
    rows = rows_of(presets_html(presets))
    assert len(rows) == len(ROWS)
    for highlighted, values in rows:
        assert highlighted == (len(set(values)) > 1), values
    if presets and len(presets) == 1:
        assert not any(h for h, _ in rows)


def test_a_row_differs_in_words_exactly_when_the_presets_differ_in_value():
    chosen = [PRESETS[n] for n in PRESETS]
    for row in preset_rows(list(PRESETS)):
        raw = {tuple(repr(getattr(r, o)) for o in row.options) for r in chosen}
        assert row.differs == (len(raw) > 1), row.label


def test_every_option_is_shown_once_in_plain_words():
    shown = [o for _label, options, _show in ROWS for o in options]
    assert sorted(shown) == sorted(OPTION_NAMES)
    page = visible_text(presets_html(list(PRESETS)) + sources_html(list(PRESETS)))
    for option in OPTION_NAMES:
        if "_" in option:
            assert option not in page, option
    assert not re.search(r"\b(True|False|None)\b", page)
    assert not re.search(r"\d+ rows? [x×] \d+ columns?", page)
    assert not re.search(r"00[0-4]_[0-9a-f]{16}\.txt", page)
    assert "Cards dealt to each player" in page and "Wild cards a meld may hold" in page
    assert "at most three" in page


def test_the_default_shows_the_four_player_partnership_presets_and_the_others_can_be_added():
    table = PresetsTable()
    assert table.chosen == list(PARTNERSHIP_PRESETS) and all(PRESETS[n].players == 4 for n in table.chosen)
    assert "Classic Canasta for two players" not in table.table.value
    table.boxes["classic-2p"].value = True
    assert "Classic Canasta for two players" in table.table.value
    for name in PRESETS:
        table.boxes[name].value = False
    assert "Tick at least one" in table.table.value


def test_every_citation_has_its_quotes_translated_and_each_quote_is_in_its_source():
    texts = {p.name[:3]: " ".join(p.read_text("utf-8").split()) for p in SOURCES_DIR.glob("*.txt")}
    assert set(texts) == set(SOURCES)
    for rules in PRESETS.values():
        for _keys, cite in rules.sources:
            assert _body(cite) in QUOTES, f"{rules.name}: no translation for {cite!r}"
            quotes, note = QUOTES[_body(cite)]
            assert quotes or note
            files = re.findall(r"\b(00[0-4])_[0-9a-f]{16}\.txt", cite)
            for original, english in quotes:
                assert english and english != original
                for piece in (x.strip() for x in original.split("...")):
                    if piece:
                        assert any(piece in texts[f] for f in files), f"{rules.name}: {piece!r} is not in {files}"


def test_sources_are_named_by_title_and_language_with_the_exact_citation_folded_away():
    page = sources_html(["classic", "danish"])
    assert "Spelregels Canasta (Spelregelwijzer): the classic rules, Dutch" in page
    assert "Canasta as played in Denmark, Danish" in page
    assert "In English:" in page and "<details" in page and "where does this come from?" in page
    cite = citation(PRESETS["danish"], "wild_limit")
    exact = re.sub(r"00[0-4]_[0-9a-f]{16}\.txt", "", cite)
    import html
    assert html.escape(exact.split(": ", 1)[1]) in page  # the engine's words, unchanged, in the folded part


@pytest.mark.parametrize("question", list(EXAMPLES))
def test_the_variants_explorer_marks_only_answers_that_differ_from_classic_and_names_sources_by_title(question):
    kind, situation = EXAMPLES[question]
    frame = judge_everywhere(kind, **situation)
    page = highlight_differences(frame).to_html()
    rules = re.findall(r"([^{}]*)\{([^}]*)\}", page.split("</style>")[0])
    marked = {int(n) for selectors, style in rules if "fff3c4" in style for n in re.findall(r"_row(\d+)_", selectors)}
    assert marked == {i for i, answer in enumerate(frame["answer"]) if answer != frame.loc["classic", "answer"]}
    assert not re.search(r"00[0-4]_[0-9a-f]{16}\.txt", page) and ">preset<" not in page
    assert all(PRESETS[n].title.split(" (")[0] in page for n in PRESETS)


def test_the_presets_table_fits_a_phone():
    page = presets_html(list(PRESETS))
    assert "overflow-x:auto" in page and "max-width:100%" in page


# --- puzzle ids used by lessons ---------------------------------------------------------------------------------
def test_an_unknown_puzzle_id_is_an_error_naming_the_call_and_the_id():
    with pytest.raises(PuzzleError, match=r"lesson_puzzles\('t-001', 'no-such-id'\): no puzzle has the id "
                                          r"'no-such-id'"):
        lesson_puzzles("t-001", "no-such-id")


def test_an_id_asked_for_twice_is_an_error():
    with pytest.raises(PuzzleError, match=r"the id 't-001' is asked for twice"):
        lesson_puzzles("t-001", "t-002", "t-001")


def test_an_id_used_in_two_files_is_an_error(tmp_path, monkeypatch):
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text("title: t\nrules: classic\npuzzles:\n"
                                     "  - {id: dup-1, kind: meld, cards: KH KS KD}\n"
                                     "  - {id: " + name[0] + "-2, kind: meld, cards: QH QS QD}\n", "utf-8")
    monkeypatch.setattr("canasta_tutor.widgets.trainer.default_puzzle_dir", lambda: tmp_path)
    assert lesson_puzzles("a-2", "b-2").puzzles[1].id == "b-2"
    with pytest.raises(PuzzleError, match=r"lesson_puzzles\('dup-1'\): the id 'dup-1' is used by 2 puzzles"):
        lesson_puzzles("dup-1")


def test_every_id_a_lesson_uses_names_exactly_one_puzzle():
    puzzles, problems = load_puzzles()
    assert not problems
    count = Counter(p.id for p in puzzles)
    for path in LESSONS:
        for ids, _ in calls(path, "lesson_puzzles"):
            assert all(count[i] == 1 for i in ids), path.name


def test_a_bad_example_says_what_and_where():
    with pytest.raises(PuzzleError, match=r"example\('meld', cards='5H 5Z'\): field 'cards': .*'5Z'"):
        example("meld", cards="5H 5Z", question="A meld?")
    with pytest.raises(PuzzleError, match=r"unknown kind 'melds'"):
        example("melds", cards="5H 5S 5D", question="A meld?")
    with pytest.raises(PuzzleError, match=r"its own question"):
        example("meld", cards="5H 5S 5D", question=KINDS["meld"].question)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_no_worked_example_asks_the_puzzles_question(path):
    """A worked example (answered) must not read like the trainer's puzzle below it (waiting for an answer)."""
    for args, kwargs in calls(path, "example"):
        question = kwargs.get("question", "")
        assert question and not any(q in question for q in (k.question for k in KINDS.values())), \
            (path.name, args, kwargs)


@pytest.mark.browser
def test_the_variants_table_and_the_examples_do_not_widen_a_phone_screen(tmp_path):
    """Drawn in Chromium at 360 px: the page never scrolls sideways (the presets table scrolls in its own box)."""
    from playwright.sync_api import sync_playwright

    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.fail(f"this test needs Debian's Chromium at {chromium} (scripts/test.sh installs it)")
    parts = [presets_html(list(PRESETS)), sources_html(list(PRESETS))]
    for path in LESSONS:
        parts += [example(*a, **k)._repr_html_() for a, k in calls(path, "example")]
    page_file = tmp_path / "lesson.html"
    page_file.write_text("<!doctype html><meta charset='utf-8'><meta name='viewport' content='width=device-width'>"
                         "<body style='margin:8px'>" + "".join(parts) + "</body>", "utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                                                    "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 360, "height": 800})
            page.goto(page_file.as_uri())
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            box = page.locator(".ct-presets-box").bounding_box()
            assert box["width"] <= 360 and page.evaluate(
                "document.querySelector('.ct-presets-box').scrollWidth") > box["width"]  # it scrolls inside its box
        finally:
            browser.close()
