"""The registry of puzzle kinds, and preset names and canasta kinds kept in one place."""

import ast
import re
from pathlib import Path

import pytest

from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.engine.melds import CANASTA_KINDS, check_meld
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.engine.situation import Situation
from canasta_tutor.puzzles.format import COMMON_KEYS, kind_rules, parse_puzzle_set, shipped_schema
from canasta_tutor.puzzles.kinds import KINDS, Choice, PuzzleKind, Solution, get_kind, register, unregister
from canasta_tutor.puzzles.solver import hints, solve


def test_every_kind_has_a_module_and_a_complete_record():
    here = Path(__file__).resolve().parent.parent / "canasta_tutor" / "puzzles" / "kinds"
    # _record.py holds the record and the registry; every other module is one kind
    modules = {p.stem.replace("_", "-") for p in here.glob("*.py") if not p.stem.startswith("_")}
    assert modules == set(KINDS)
    for name, kind in KINDS.items():
        assert kind.name == name and kind.question.endswith("?") and kind.generate and kind.topic
        assert kind.yes_no is None or kind.answers[kind.yes_no] is bool


def test_the_shipped_schema_agrees_with_the_registry_presets_and_canasta_kinds():
    shipped = shipped_schema()
    puzzle = shipped["$defs"]["puzzle"]
    names, per_kind = kind_rules()
    assert puzzle["properties"]["kind"]["enum"] == names == list(KINDS)
    assert puzzle["allOf"] == per_kind
    common = [k for k in puzzle["properties"] if k in COMMON_KEYS]
    assert common == list(COMMON_KEYS)
    fields = {f for kind in KINDS.values() for f in kind.fields}
    assert set(puzzle["properties"]) == set(COMMON_KEYS) | fields
    rules = shipped["$defs"]["rules"]["oneOf"]
    assert rules[0]["enum"] == list(PRESETS) == rules[1]["properties"]["preset"]["enum"]
    meld = puzzle["allOf"][names.index("meld")]["then"]["properties"]["expect"]["properties"]
    assert meld["canasta"]["enum"] == list(CANASTA_KINDS)


@pytest.mark.parametrize("cards, rules", [("5H 5S 5D", "classic"), ("KH KS KD KC KH KS KD", "classic"),
                                          ("KH KS KD KC KH KS 2D", "classic"), ("5H 2C", "classic"),
                                          ("5H 6H 7H 8H 9H 10H JH", "samba")])
def test_a_meld_verdict_names_one_of_the_canasta_kinds(cards, rules):
    assert check_meld(cards, rules).canasta in CANASTA_KINDS


def _literal_uses(tree):
    """(line, text) of each comparison with, and dict key of, a preset name or canasta kind written out."""
    names = {"samba", "danish", "hoyle", "classic", "natural", "mixed", "none"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                if isinstance(side, ast.Constant) and side.value in names:
                    yield node.lineno, side.value
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and key.value in names - {"none"}:
                    yield key.lineno, key.value


def test_no_engine_module_branches_on_a_preset_name_or_spells_a_canasta_kind():
    """Branch on the rule set's options (``rules.sequences``) and use the constants of melds.py."""
    package = Path(__file__).resolve().parent.parent / "canasta_tutor"
    # rules.py and melds.py define the names; the UI and classroom files are not ours in this round
    skip = {"rules.py", "melds.py", "app.py", "roster.py", "cardbuttons.py"}
    offenders = [f"{path.relative_to(package)}:{line}: {value!r}"
                 for path in sorted(package.rglob("*.py")) if path.name not in skip
                 for line, value in _literal_uses(ast.parse(path.read_text("utf-8")))]
    assert not offenders


def _kind_name_comparisons(tree, names):
    """(line, text) of each comparison with a kind's name written out: ``kind == "meld"``, ``kind in ("freeze",
    "take-pile")``, ``"opening" != kind``, ``kind in {"go-out": ...}``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for side in [node.left, *node.comparators]:
            items = [side]
            if isinstance(side, (ast.Tuple, ast.List, ast.Set)):
                items = side.elts
            elif isinstance(side, ast.Dict):
                items = [k for k in side.keys if k is not None]
            if any(isinstance(i, ast.Constant) and isinstance(i.value, str) and i.value in names for i in items):
                yield node.lineno, ast.unparse(node)
                break


def _kind_branches(package: Path) -> list[str]:
    kinds = package / "puzzles" / "kinds"
    return [f"{path.relative_to(package.parent)}:{line}: {text}"
            for path in sorted(package.rglob("*.py")) if kinds not in path.parents
            for line, text in _kind_name_comparisons(ast.parse(path.read_text("utf-8")), set(KINDS))]


def test_no_module_outside_the_kinds_branches_on_a_kind_name():
    """A kind's difficulty, positions, worksheet and lesson display are fields of its record: a generic caller asks
    the record (``get_kind(name).features(...)``, ``.cut_moments``, ``.worksheet_rows(...)``), never compares the
    kind's name. (A string that is the name of something else, e.g. an action called "meld", is spelt by that
    module's constant.)"""
    package = Path(__file__).resolve().parent.parent / "canasta_tutor"
    offenders = _kind_branches(package)
    assert not offenders, "branches on a puzzle kind's name outside puzzles/kinds/:\n" + "\n".join(offenders)


def test_the_kind_name_scan_finds_each_way_of_writing_a_branch():
    tree = ast.parse("if kind == 'meld': pass\n"
                     "x = p.kind in ('card-points', 'x')\n"
                     "y = 'opening' != kind\n"
                     "z = kind not in {'freeze': 1}\n"
                     "ok = kind == 'melds' or action.kind == MELD or kind in KINDS\n")
    assert [line for line, _ in _kind_name_comparisons(tree, set(KINDS))] == [1, 2, 3, 4]


def _count_solve(s: Situation) -> Solution:
    return Solution({"count": len(s.cards)}, [f"{len(s.cards)} cards."])


COUNT = PuzzleKind(
    name="card-count", fields=("cards",), required=("cards",), answers={"count": int}, solve=_count_solve,
    hints=lambda s: ["Count them."], question="How many cards are these?", answer_control="number",
    describe=lambda answer: str(answer["count"]),
    generate=lambda rng, rules, d, want: {"cards": " ".join(rng.sample(["5H", "6S", "7D", "KC", "JK"], d))},
    topic="counting")


@pytest.fixture
def count_kind():
    register(COUNT)
    try:
        yield COUNT
    finally:
        unregister(COUNT.name)
    assert "card-count" not in KINDS


def test_a_kind_registered_in_one_place_is_loaded_solved_hinted_and_generated(count_kind):
    pset = parse_puzzle_set("puzzles:\n"
                            "  - {id: a, kind: card-count, cards: 5H 6S JK, expect: {count: 3}}\n"
                            "  - {id: b, kind: card-count, cards: 5H, hand: 7H}\n"
                            "  - {id: c, kind: card-count, cards: 5H, expect: {count: many}}\n", "count.yaml")
    [puzzle] = pset.puzzles
    assert puzzle.situation == Situation(cards="5H 6S JK")
    assert solve(puzzle).answer == {"count": 3} == puzzle.expect and hints(puzzle) == ["Count them."]
    assert [(e.puzzle_id, e.field) for e in pset.errors] == [("b", "hand"), ("c", "expect.count")]
    assert "not a field of a 'card-count' puzzle" in str(pset.errors[0])

    from canasta_tutor.classroom.live import answer_choices, answer_label
    from canasta_tutor.puzzles.generator import generate
    from canasta_tutor.puzzles.worksheet import answer_text
    from canasta_tutor.widgets.variants import judge_everywhere

    made = generate("card-count", count=3, seed=1, difficulty=2)
    assert [len(p["cards"].split()) for p in made["puzzles"]] == [2, 2, 2]
    assert all(p["expect"] == {"count": 2} and p["topic"] == "counting" for p in made["puzzles"])
    assert answer_text("card-count", {"count": 3}) == answer_label("card-count", {"count": 3}) == "3"
    assert answer_choices(puzzle) == []
    frame = judge_everywhere("card-count", cards="5H 6S")
    assert set(frame["answer"]) == {"2"}


def test_a_kind_registered_in_one_place_is_measured_printed_and_shown_in_a_lesson_by_the_defaults(count_kind):
    """The record's defaults: measured by the cards it shows, no position problems, not cut from play, printed on a
    worksheet as its layout says, a worked example's short answer in the answer's words."""
    from canasta_tutor.puzzles.difficulty import effort, features
    from canasta_tutor.puzzles.format import puzzle_from_mapping
    from canasta_tutor.puzzles.generator import can_play, position_problems
    from canasta_tutor.puzzles.worksheet import worksheet_pdf
    from canasta_tutor.widgets.lesson import example
    from canasta_tutor.widgets.render import situation_html, verdict_tone

    s = Situation(cards="5H 6S JK")
    assert features("card-count", s) == {"cards": 3, "wild": 1} and effort(features("card-count", s)) == 2.5
    assert position_problems("card-count", s) == [] and not can_play("card-count")
    assert COUNT.worksheet_rows(s) == [("Cards", s.cards, {})]
    assert COUNT.paper_question == COUNT.question
    puzzle = puzzle_from_mapping({"id": "n", "kind": "card-count", "cards": "5H 6S JK"})
    assert worksheet_pdf([puzzle], key=True).startswith(b"%PDF-")
    ex = example("card-count", cards="5H 6S JK", question="Three cards?")
    assert (ex.ok, ex.answer) == (None, "3.") and repr(ex) == "Three cards?\n3. 3 cards."
    assert ex._repr_html_().count("class='ct-card'") == 3
    assert situation_html(puzzle, answering=True) == situation_html(puzzle)   # it hides nothing
    assert (verdict_tone(True, "card-count"), verdict_tone(False, "card-count")) == ("good", "bad")


def _colour_solve(s: Situation) -> Solution:
    red = sum(c.is_red for c in s.cards)
    most = "red" if 2 * red > len(s.cards) else "black" if 2 * red < len(s.cards) else "even"
    return Solution({"colour": most}, [f"{red} of {len(s.cards)} cards are red."])


COLOUR = PuzzleKind(
    name="card-colour", fields=("cards", "hand"), required=("cards",), answers={"colour": ("red", "black", "even")},
    solve=_colour_solve, hints=lambda s: ["Hearts and diamonds are red."], question="Are most of these cards red?",
    answer_control="meld-choice", describe=lambda answer: answer["colour"], layout=("hand", "cards"),
    labels={"cards": "The cards to judge", "hand": "Beside them"},
    choices=lambda rules: [Choice("Mostly red", {"colour": "red"}, "mostly red"),
                           Choice("Mostly black", {"colour": "black"}, "mostly black"),
                           Choice("As many of each", {"colour": "even"}, "as many of each")],
    generate=lambda rng, rules, d, want: {"cards": "5H 6S"}, topic="colours")


@pytest.fixture
def colour_kind():
    register(COLOUR)
    try:
        yield COLOUR
    finally:
        unregister(COLOUR.name)


def test_a_choice_kind_prints_its_layout_and_labels_and_reads_its_answer_in_a_lesson(colour_kind):
    from canasta_tutor.widgets.lesson import example

    s = Situation(cards="5H 6D 7S", hand="QC")
    assert COLOUR.worksheet_rows(s) == [("Beside them", s.hand, {}), ("The cards to judge", s.cards, {})]
    ex = example("card-colour", cards="5H 6D 7S", question="Red or black?")
    assert (ex.ok, ex.answer) == (None, "Mostly red.")


def _buttons(trainer):
    import ipywidgets as widgets

    return {b.description: b for b in trainer.controls.children if isinstance(b, widgets.Button)}


def test_a_kind_registered_in_one_place_is_shown_and_answered_in_the_trainer(count_kind, colour_kind, tmp_path):
    """The trainer reads the question, the layout, the answer control and the answer's words from the record."""
    from canasta_tutor.classroom.progress import ProgressStore
    from canasta_tutor.widgets import Trainer

    pset = parse_puzzle_set("puzzles:\n"
                            "  - {id: n, kind: card-count, cards: 5H 6S JK}\n"
                            "  - {id: c, kind: card-colour, cards: 5H 6D 7S, hand: QC}\n", "new.yaml")
    assert not pset.errors
    store = ProgressStore(tmp_path / "p.sqlite3")
    t = Trainer(pset, ids=["n"], learner="ana", store=store, endless=False)
    assert "How many cards are these?" in t.question.value
    assert t.situation.value.count("class='ct-card'") == 3 and "<b>Cards</b>" in t.situation.value
    assert t.number in t.controls.children            # a number kind gets the number box
    assert t.answer("4") is False and "You answered: <b>4</b>." in t.feedback.value
    assert "The answer is <b>3</b>." in t.feedback.value
    assert "3 cards." in t.feedback.value

    t = Trainer(pset, ids=["c"], learner="ana", store=store, endless=False)
    assert "Are most of these cards red?" in t.question.value
    shown = t.situation.value
    assert shown.index("Beside them") < shown.index("The cards to judge")   # the record's layout and labels
    assert shown.count("class='ct-card'") == 4
    assert list(_buttons(t)) == ["Mostly red", "Mostly black", "As many of each"]
    assert t.answer("purple") is None and "Choose one of the buttons" in t.message.value
    _buttons(t)["Mostly black"].click()
    assert t.answered and t.right == 0
    assert "The answer is <b>Mostly red</b>." in t.feedback.value
    assert "You answered: <b>Mostly black</b>." in t.feedback.value
    assert [a.answer for a in store.history("ana")] == [{"count": 4}, {"colour": "black"}]


def test_the_trainer_keeps_no_table_of_kinds_of_its_own():
    """Questions, answer keys and buttons come from the kind records (adding a kind is one file)."""
    from canasta_tutor.widgets import trainer

    text = Path(trainer.__file__).read_text("utf-8")
    for name, kind in KINDS.items():
        assert kind.question not in text and f'"{name}"' not in text, name
    tree = ast.parse(text)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in KINDS]


def test_unknown_kinds_and_broken_records_say_what_is_wrong():
    with pytest.raises(CanastaError, match="unknown puzzle kind 'poker': the kinds are card-points, meld"):
        get_kind("poker")
    with pytest.raises(CanastaError, match="'colour' is not a field of a Situation"):
        PuzzleKind(name="x", fields=("colour",), required=(), answers={}, solve=_count_solve, hints=list,
                   question="?", answer_control="number", describe=str)
    with pytest.raises(CanastaError, match="a choice kind needs its choices"):
        PuzzleKind(name="x", fields=("cards",), required=(), answers={"a": str}, solve=_count_solve, hints=list,
                   question="?", answer_control="meld-choice", describe=str)
    with pytest.raises(CanastaError, match="'pile' in layout or hides is not one of its fields"):
        PuzzleKind(name="x", fields=("cards",), required=(), answers={"a": int}, solve=_count_solve, hints=list,
                   question="?", answer_control="number", describe=str, layout=("pile",))
    with pytest.raises(CanastaError, match="answer control 'slider'"):
        PuzzleKind(name="x", fields=("cards",), required=(), answers={}, solve=_count_solve, hints=list,
                   question="?", answer_control="slider", describe=str)
    with pytest.raises(CanastaError, match="cut moment 'lunch' is not one of turn, drawn, end"):
        PuzzleKind(name="x", fields=("cards",), required=(), answers={"a": int}, solve=_count_solve, hints=list,
                   question="?", answer_control="number", describe=str, cut_moments=("lunch",), cut=list)
    with pytest.raises(CanastaError, match="names both its cut_moments and its cut"):
        PuzzleKind(name="x", fields=("cards",), required=(), answers={"a": int}, solve=_count_solve, hints=list,
                   question="?", answer_control="number", describe=str, cut_moments=("turn",))
    with pytest.raises(CanastaError, match="tones .* are not a yes and a no tone of good, bad, frozen, neutral"):
        PuzzleKind(name="x", fields=("cards",), required=(), answers={"a": int}, solve=_count_solve, hints=list,
                   question="?", answer_control="number", describe=str, tones=("good", "purple"))


def test_the_tones_a_record_may_name_are_the_tones_a_widget_draws():
    from canasta_tutor.puzzles.kinds import TONES
    from canasta_tutor.widgets import render

    assert set(TONES) == set(render.TONES)
    assert render.verdict_tone(True, "freeze") == render.FROZEN and render.verdict_tone(False, "freeze") == render.GOOD
    assert render.verdict_tone(True, "meld") == render.GOOD and render.verdict_tone(False, None) == render.BAD


def test_the_registry_counts_its_changes_and_the_schema_follows():
    from canasta_tutor.puzzles.format import schema
    from canasta_tutor.puzzles.kinds import registry_version

    before, names = registry_version(), schema()["$defs"]["puzzle"]["properties"]["kind"]["enum"]
    register(COUNT)
    try:
        assert registry_version() == before + 1
        assert schema()["$defs"]["puzzle"]["properties"]["kind"]["enum"] == names + ["card-count"]
    finally:
        unregister(COUNT.name)
    assert registry_version() == before + 2 and schema()["$defs"]["puzzle"]["properties"]["kind"]["enum"] == names


def test_the_format_documents_every_kind_with_its_fields_and_answer_keys(root):
    text = (root / "docs" / "puzzle-format.md").read_text("utf-8")
    rows = {m.group(1): (m.group(2), m.group(3))
            for m in re.finditer(r"^\| `([a-z-]+)` \| (.*?) \| (.*?) \|$", text, re.M)}
    assert set(rows) == set(KINDS)
    for name, kind in KINDS.items():
        fields, answers = rows[name]
        required, _, optional = fields.partition(";")
        assert re.findall(r"`([a-z_]+)`", required) == list(kind.required)
        assert set(re.findall(r"\b([a-z_]+)`", optional)) >= set(kind.fields) - set(kind.required)
        assert re.findall(r"^`([a-z_]+)`|, `([a-z_]+)`", answers) and \
            [a or b for a, b in re.findall(r"^`([a-z_]+)`|, `([a-z_]+)`", answers)][:len(kind.answers)] == \
            list(kind.answers)
