"""Printable worksheets: the PDF is read back (pypdf) for its pages, text and colours."""

import io
import re

import pypdf
import pytest

from canasta_tutor.puzzles import worksheet
from canasta_tutor.puzzles.format import parse_puzzle_set
from canasta_tutor.puzzles.worksheet import answer_text, worksheet_pdf, write_worksheet

# Answers worked out by hand from the rules, not by the engine.
SMALL_SET = """
title: Paper test
puzzles:
  - id: take-a
    kind: take-pile
    prompt: Your partner has melded kings.
    hand: 7H 7S 4C 9D
    melds: [KH KS KD]
    score: 0
    pile: 5D 8S 7C
  - id: meld-a
    kind: meld
    cards: 9S 9C 9S
  - id: points-a
    kind: card-points
    cards: JK AS 5C
"""
BLACK_ONLY = """
title: Black cards
puzzles:
  - {id: b-1, kind: meld, cards: 9S 9C 9S}
"""
RED_FILL = re.compile(r"0\.776\d* 0\.156\d* 0\.156\d* rg")   # fill colour (198, 40, 40), the red of hearts


def _pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def _puzzles(text: str):
    pset = parse_puzzle_set(text, "test.yaml")
    assert not pset.errors
    return pset.puzzles


def test_worksheet_shows_puzzles_questions_and_room_to_answer():
    pages = _pages(worksheet_pdf(_puzzles(SMALL_SET), title="Paper test"))
    text = "\n".join(pages)
    assert "Paper test" in text and "Name:" in text
    assert "Your partner has melded kings." in text
    assert "May you take the discard pile now?" in text
    assert "Is this a legal meld, and is it a canasta?" in text
    assert "How many points are these cards worth?" in text
    assert "Answer:" in text and text.count("Why?") == 3
    assert "Natural canasta" in text and "Yes" in text
    assert "JOKER" in text
    # no answers on the puzzle pages
    assert "Answer key" not in text and "85" not in text


def test_answer_key_is_on_separate_pages_with_the_engines_explanations():
    plain = _pages(worksheet_pdf(_puzzles(SMALL_SET), title="Paper test"))
    pages = _pages(worksheet_pdf(_puzzles(SMALL_SET), key=True, title="Paper test"))
    assert len(pages) == len(plain) + 1 and pages[:len(plain)] == plain
    key = pages[-1]
    assert "Answer key" in key and "Why?" not in key
    # take-pile: 7♣ on top, two natural 7s in hand: yes. The meld: three natural nines. Points: 50 + 20 + 5.
    assert "1. Yes" in key and "2. a meld, no canasta" in key and "3. 75" in key
    assert "♣" in key  # explanations name cards with their suit symbols (the font has the glyphs)


def test_many_puzzles_flow_onto_more_pages_and_the_key_follows():
    many = "title: Many\npuzzles:\n" + "".join(
        f"  - {{id: m-{i}, kind: take-pile, hand: 7H 7S 4C 9D, melds: [KH KS KD], score: 0, pile: 5D 8S 7C}}\n"
        for i in range(9))
    pages = _pages(worksheet_pdf(_puzzles(many), key=True))
    first_key = next(i for i, t in enumerate(pages) if "Answer key" in t)
    assert first_key >= 2
    assert all("Why?" in t for t in pages[:first_key])
    assert all("Why?" not in t for t in pages[first_key:])
    assert sum(t.count("Why?") for t in pages) == 9


def test_red_suits_are_drawn_red_and_black_ones_black():
    def page_stream(data):
        return pypdf.PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data().decode("latin-1")

    assert RED_FILL.search(page_stream(worksheet_pdf(_puzzles(SMALL_SET))))
    assert not RED_FILL.search(page_stream(worksheet_pdf(_puzzles(BLACK_ONLY))))


def test_without_the_font_the_suits_are_spelt_out(monkeypatch, tmp_path):
    monkeypatch.setattr(worksheet, "FONT_DIRS", ())
    monkeypatch.setenv("CANASTA_TUTOR_FONT_DIR", str(tmp_path))
    key = _pages(worksheet_pdf(_puzzles(SMALL_SET), key=True))[-1]
    assert "clubs" in key and "♣" not in key


def test_answer_text():
    assert answer_text("take-pile", {"take": False}) == "No"
    assert answer_text("meld", {"valid": True, "canasta": "mixed"}) == "a mixed canasta"
    assert answer_text("meld", {"valid": False, "canasta": "none"}) == "not a meld"
    assert answer_text("score-hand", {"score": -120}) == "-120"


def test_cli_writes_the_pdf(cli, tmp_path):
    source = tmp_path / "set.yaml"
    source.write_text(SMALL_SET, encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    result = cli("worksheet", str(source), "-o", str(out), "--key")
    assert result.returncode == 0, result.stderr
    pages = _pages(out.read_bytes())
    assert "Answer key" in pages[-1] and "take-a" in pages[0]


@pytest.mark.parametrize("content, output, words", [
    ("title: x\npuzzles: [{id: a, kind: meld, cards: 7H 7X 7D}]\n", "ok.pdf", ["puzzle 'a'", "card 2, 7X, is not"]),
    (": : [\n", "ok.pdf", ["not valid YAML"]),
    (SMALL_SET, "missing-folder/sheet.pdf", ["cannot write", "missing-folder"]),
])
def test_cli_bad_input_is_one_line_and_exit_2(cli, tmp_path, content, output, words):
    source = tmp_path / "set.yaml"
    source.write_text(content, encoding="utf-8")
    result = cli("worksheet", str(source), "-o", str(tmp_path / output))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert all(w in lines[0] for w in words), lines[0]
    assert not (tmp_path / output).exists()


def test_unsolvable_puzzle_is_named(tmp_path):
    source = tmp_path / "set.yaml"
    source.write_text("title: x\npuzzles: [{id: empty-hand, kind: go-out, hand: '', melds: [], score: 0}]\n")
    with pytest.raises(ValueError, match="empty-hand.*hand is empty"):
        write_worksheet([source], tmp_path / "x.pdf")
