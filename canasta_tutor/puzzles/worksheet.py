"""Printable worksheets: puzzles on paper (PDF), with an optional answer key.

Every puzzle is drawn as a card player sees it (cards as rounded rectangles
with rank and suit symbol, red or black; the suit symbols are drawn as
shapes, so they never depend on a font), in the rows its kind's record
prints (:mod:`canasta_tutor.puzzles.paper`), followed by its question and
room to write the answer. The answer key starts on a new page and gives the
engine's answer and explanation for each puzzle. Its words are in the current language
(:mod:`canasta_tutor.engine.i18n`; ``canasta-tutor worksheet --lang``). Text is set in DejaVu Sans
(it has the suit glyphs the explanations use) when the font is found;
otherwise in a built-in PDF font with the suits spelt out.

Pure Python (fpdf2), no Jupyter: the command line and the dashboard call
:func:`worksheet_pdf` / :func:`write_worksheet`.

>>> from canasta_tutor.puzzles.format import puzzle_from_mapping
>>> p = puzzle_from_mapping({"id": "m-1", "kind": "meld", "cards": "7H 7S 7D"})
>>> worksheet_pdf([p], key=True)[:5]
b'%PDF-'
"""

from __future__ import annotations

import os
from pathlib import Path

from ..engine.cards import Card
from ..engine.errors import CanastaError, PuzzleError
from ..engine.i18n import gettext
from ..engine.i18n import gettext as _
from .format import Puzzle, load_puzzle_set, puzzle_files
from .kinds import get_kind
from .solver import solve

RED = (198, 40, 40)
BLACK = (27, 27, 27)
PURPLE = (106, 27, 154)
GREY = (110, 110, 110)
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
             "/usr/local/share/fonts", "/Library/Fonts", "C:/Windows/Fonts")
_SUIT_WORDS = {"♠": " spades", "♥": " hearts", "♦": " diamonds", "♣": " clubs", "→": "->", "≥": ">=",
               "≤": "<=", "−": "-", "×": "x", "…": "...", "✔": "", "✘": "", "★": "*"}

CARD_W, CARD_H = 13.0, 18.5          # millimetres
SMALL_W, SMALL_H = 10.0, 14.0


def find_font() -> tuple[Path, Path] | None:
    """DejaVu Sans (regular, bold) on this machine, or None. ``$CANASTA_TUTOR_FONT_DIR`` is searched first."""
    dirs = [os.environ["CANASTA_TUTOR_FONT_DIR"]] if os.environ.get("CANASTA_TUTOR_FONT_DIR") else []
    for folder in dirs + list(FONT_DIRS):
        regular, bold = Path(folder) / "DejaVuSans.ttf", Path(folder) / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    return None


def answer_text(kind: str, answer: dict, rules=None) -> str:
    """The answer in words a learner writes: ``Yes``, ``No``, ``65``, ``a natural canasta`` (the kind record's
    words for it, under ``rules`` when given), in the current language."""
    words = get_kind(kind).words(answer, rules)
    return _(words) if words else words


def load_worksheet_puzzles(paths) -> list[Puzzle]:
    """Every puzzle in these files/folders, in order; any broken file or puzzle raises :class:`PuzzleError`."""
    files = puzzle_files(paths)
    if not files:
        raise PuzzleError("no puzzle files found in " + ", ".join(map(str, paths)))
    puzzles: list[Puzzle] = []
    for path in files:
        pset = load_puzzle_set(path)
        if pset.errors:
            raise pset.errors[0]
        puzzles.extend(pset.puzzles)
    return puzzles


class _Sheet:
    """One PDF being written (fpdf2), with the drawing helpers."""

    def __init__(self, title: str):
        from fpdf import FPDF

        self.pdf = FPDF(orientation="portrait", unit="mm", format="A4")
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(15, 15, 15)
        self.pdf.set_title(title)
        self.pdf.set_creator("canasta-tutor")
        font = find_font()
        if font is not None:
            self.pdf.add_font("DejaVu", "", str(font[0]))
            self.pdf.add_font("DejaVu", "B", str(font[1]))
            self.family = "DejaVu"
        else:
            self.family = "Helvetica"
        self.title = title
        self.bottom = 297 - 15

    # --- text ------------------------------------------------------------------------
    def text(self, s: str) -> str:
        if self.family != "Helvetica":
            return s
        for symbol, words in _SUIT_WORDS.items():
            s = s.replace(symbol, words)
        return s.encode("latin-1", "replace").decode("latin-1")

    def font(self, size: float, bold: bool = False, colour=BLACK) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)
        self.pdf.set_text_color(*colour)

    def write_at(self, x: float, y: float, s: str, size: float = 11, bold: bool = False, colour=BLACK) -> None:
        self.font(size, bold, colour)
        self.pdf.set_xy(x, y)
        self.pdf.cell(0, size * 0.45, self.text(s))

    def label_line(self, x: float, y: float, s: str, size: float = 10.5) -> float:
        """Write a label (``Name:``) at (x, y); returns where a line to write on may start, after the label (the
        English labels' lines start where they always did: the callers take the larger)."""
        self.write_at(x, y, s, size=size)  # (in the label's font, which get_string_width measures)
        return x + self.pdf.get_string_width(self.text(s)) + 0.5

    def paragraph(self, s: str, size: float = 10.5, bold: bool = False, indent: float = 0.0) -> None:
        from fpdf.enums import XPos, YPos

        self.font(size, bold)
        self.pdf.set_x(self.pdf.l_margin + indent)
        self.pdf.multi_cell(self.pdf.epw - indent, size * 0.48, self.text(s), align="L", new_x=XPos.LMARGIN,
                            new_y=YPos.NEXT)

    def paragraph_height(self, s: str, size: float = 10.5, indent: float = 0.0) -> float:
        self.font(size)
        lines = self.pdf.multi_cell(self.pdf.epw - indent, size * 0.48, self.text(s), align="L", dry_run=True,
                                    output="LINES")
        return len(lines) * size * 0.48

    def new_page(self, heading: str) -> None:
        self.pdf.add_page()
        self.write_at(15, 10, heading, size=8, colour=GREY)
        self.pdf.set_y(18)

    # --- cards -----------------------------------------------------------------------
    def suit(self, suit: str, cx: float, cy: float, s: float) -> None:
        """A suit symbol of size ``s`` (mm) centred on (cx, cy), drawn as filled shapes."""
        pdf = self.pdf
        r = s * 0.27
        if suit == "D":
            pdf.polygon([(cx, cy - s / 2), (cx + s * 0.36, cy), (cx, cy + s / 2), (cx - s * 0.36, cy)], style="F")
        elif suit == "H":
            top = cy - s * 0.2
            pdf.ellipse(cx - 2 * r, top - r, 2 * r, 2 * r, style="F")
            pdf.ellipse(cx, top - r, 2 * r, 2 * r, style="F")
            pdf.polygon([(cx - 1.93 * r, top + r * 0.35), (cx + 1.93 * r, top + r * 0.35), (cx, cy + s / 2)],
                        style="F")
        elif suit == "S":
            low = cy + s * 0.05
            pdf.ellipse(cx - 2 * r, low - r, 2 * r, 2 * r, style="F")
            pdf.ellipse(cx, low - r, 2 * r, 2 * r, style="F")
            pdf.polygon([(cx - 1.93 * r, low - r * 0.35), (cx + 1.93 * r, low - r * 0.35), (cx, cy - s / 2)],
                        style="F")
            pdf.polygon([(cx, low), (cx + r * 0.8, cy + s / 2), (cx - r * 0.8, cy + s / 2)], style="F")
        elif suit == "C":
            rc = s * 0.22
            pdf.ellipse(cx - rc, cy - s / 2, 2 * rc, 2 * rc, style="F")
            pdf.ellipse(cx - 2.05 * rc, cy - s * 0.12, 2 * rc, 2 * rc, style="F")
            pdf.ellipse(cx + 0.05 * rc, cy - s * 0.12, 2 * rc, 2 * rc, style="F")
            pdf.polygon([(cx, cy - s * 0.1), (cx + rc * 0.9, cy + s / 2), (cx - rc * 0.9, cy + s / 2)], style="F")

    def star(self, cx: float, cy: float, s: float) -> None:
        import math

        points = []
        for i in range(10):
            radius = s / 2 if i % 2 == 0 else s / 5
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        self.pdf.polygon(points, style="F")

    def card(self, card: Card, x: float, y: float, *, small: bool = False, highlight: bool = False) -> None:
        w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
        pdf = self.pdf
        pdf.set_draw_color(120, 120, 120)
        pdf.set_line_width(0.3)
        pdf.set_fill_color(*((255, 244, 200) if highlight else (255, 255, 255)))
        pdf.rect(x, y, w, h, style="DF", round_corners=True, corner_radius=1.6)
        if card.rank == "JK":
            pdf.set_fill_color(*PURPLE)
            self.star(x + w / 2, y + h * 0.42, w * 0.62)
            self.write_at(x + 0.6, y + h - (2.6 if small else 3.4), "JOKER", size=5 if small else 6.5, bold=True,
                          colour=PURPLE)
            return
        colour = RED if card.is_red else BLACK
        self.write_at(x + 0.9, y + 1.3, card.rank, size=9 if small else 12, bold=True, colour=colour)
        pdf.set_fill_color(*colour)
        self.suit(card.suit, x + w / 2, y + h * 0.64, w * (0.5 if small else 0.48))

    def card_row(self, cards, x: float, y: float, *, small: bool = False, top_highlight: bool = False) -> float:
        """Draw cards left to right (wrapping); returns the height used."""
        w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
        gap = 1.4
        start = x
        cards = list(cards)
        if not cards:
            self.write_at(x, y + 1, _("none"), size=9.5, colour=GREY)
            return 6
        right = self.pdf.w - self.pdf.r_margin
        rows = 1
        for i, card in enumerate(cards):
            if x + w > right:
                x = start
                y += h + gap
                rows += 1
            self.card(card, x, y, small=small, highlight=top_highlight and i == len(cards) - 1)
            x += w + gap
        return rows * (h + gap)


def _block_height(sheet: _Sheet, blocks) -> float:
    """A generous estimate of the height the situation takes."""
    per_line = (sheet.pdf.epw + 1.4) // (CARD_W + 1.4)
    per_line_small = (sheet.pdf.epw + 1.4) // (SMALL_W + 1.4)
    total = 0.0
    for label, content, opts in blocks:
        total += 5.5 if label else 0
        if isinstance(content, str):
            total += 6
        else:
            n = max(1, len(content))
            small = opts.get("small")
            rows = -(-n // (per_line_small if small else per_line))
            total += rows * ((SMALL_H if small else CARD_H) + 1.4) + 1
    return total


def _draw_puzzle(sheet: _Sheet, number: int, puzzle: Puzzle) -> None:
    pdf = sheet.pdf
    record = get_kind(puzzle.kind)
    blocks = record.worksheet_rows(puzzle.situation)
    prompt = puzzle.prompt_text()
    prompt_h = sheet.paragraph_height(prompt, size=10, indent=0) if prompt else 0
    need = 10 + prompt_h + _block_height(sheet, blocks) + 32
    if pdf.get_y() + need > sheet.bottom:
        sheet.new_page(sheet.title)
    y = pdf.get_y()
    sheet.write_at(15, y, f"{number}.", size=13, bold=True)
    after = 15 + pdf.get_string_width(f"{number}.") + 3
    sheet.write_at(after, y + 0.6, f"{puzzle.rules.display_title}  ·  {puzzle.id}", size=8, colour=GREY)
    pdf.set_y(y + 7)
    if prompt:
        sheet.paragraph(prompt, size=10)
        pdf.set_y(pdf.get_y() + 1)
    for label, content, opts in blocks:
        y = pdf.get_y()
        if label:
            sheet.write_at(15, y, label, size=9.5, bold=True)
            y += 5.5
        if isinstance(content, str):
            sheet.write_at(15, y, content, size=10)
            y += 6
        else:
            y += sheet.card_row(content, 15, y, **opts) + 1
        pdf.set_y(y)
    y = pdf.get_y() + 1
    sheet.write_at(15, y, gettext(record.paper_question), size=11, bold=True)  # the kind's question, translated
    y += 7
    pdf.set_draw_color(60, 60, 60)
    pdf.set_line_width(0.3)
    if record.answer_control == "number":
        start = max(32, sheet.label_line(15, y, _("Answer:")))
        pdf.line(start, y + 4.5, max(80, start + 40), y + 4.5)
    else:
        choices = [_(choice.label) for choice in record.options(puzzle.rules)]
        x = 15.0
        for choice in choices:
            pdf.set_fill_color(255, 255, 255)
            pdf.rect(x, y + 0.3, 4, 4, style="D")
            sheet.write_at(x + 5.5, y, choice, size=10.5)
            x += 5.5 + pdf.get_string_width(sheet.text(choice)) + 8
    y += 8
    pdf.line(max(26, sheet.label_line(15, y, _("Why?"))), y + 4.5, pdf.w - 15, y + 4.5)
    pdf.line(15, y + 11.5, pdf.w - 15, y + 11.5)
    pdf.set_y(y + 16)
    pdf.set_draw_color(200, 200, 200)
    pdf.line(15, pdf.get_y() - 1.5, pdf.w - 15, pdf.get_y() - 1.5)


def worksheet_pdf(puzzles, *, key: bool = False, title: str | None = None, name_line: bool = True) -> bytes:
    """The worksheet as PDF bytes: the puzzles, then (``key=True``) the answer key on new pages; ``title``:
    else "Canasta worksheet" in the current language.

    Raises :class:`CanastaError` naming the puzzle when one cannot be solved (before anything is drawn).
    """
    puzzles = list(puzzles)
    if not puzzles:
        raise CanastaError(_("a worksheet needs at least one puzzle"))
    solutions = []
    for p in puzzles:
        try:
            solutions.append(solve(p))
        except CanastaError as e:
            raise PuzzleError(str(e), file=p.file or None, puzzle_id=p.id) from None
    title = title or _("Canasta worksheet")
    sheet = _Sheet(title)
    sheet.new_page(title)
    sheet.write_at(15, 18, title, size=16, bold=True)
    y = 27
    if name_line:
        start = max(28, sheet.label_line(15, y, _("Name:")))
        sheet.pdf.set_draw_color(60, 60, 60)
        sheet.pdf.line(start, y + 4.5, 110, y + 4.5)
        sheet.pdf.line(max(130, sheet.label_line(118, y, _("Date:"))), y + 4.5, 195, y + 4.5)
        y += 10
    sheet.pdf.set_y(y)
    for number, puzzle in enumerate(puzzles, 1):
        _draw_puzzle(sheet, number, puzzle)
    if key:
        running = _("{title}: answer key").format(title=title)
        sheet.new_page(running)
        sheet.write_at(15, 18, _("Answer key: {title}").format(title=title), size=15, bold=True)
        sheet.pdf.set_y(28)
        for number, (puzzle, solution) in enumerate(zip(puzzles, solutions), 1):
            head = f"{number}. {answer_text(puzzle.kind, solution.answer, puzzle.rules)}"
            body = solution.explanation or [_("(no explanation)")]
            height = sheet.paragraph_height(head, 11) + sum(sheet.paragraph_height("• " + b, 10, 6) for b in body)
            if sheet.pdf.get_y() + height + 4 > sheet.bottom:
                sheet.new_page(running)
            sheet.paragraph(head, size=11, bold=True)
            for line in body:
                sheet.paragraph("• " + line, size=10, indent=6)
            sheet.pdf.set_y(sheet.pdf.get_y() + 3)
    return bytes(sheet.pdf.output())


def write_worksheet(sources, output, *, key: bool = False, title: str | None = None) -> Path:
    """Make a worksheet from puzzle files/folders (or puzzles) and write it to ``output``; returns the path.

    Raises :class:`CanastaError` with what and where for a broken file, an unsolvable puzzle or a path
    that cannot be written.
    """
    sources = list(sources) if isinstance(sources, (list, tuple)) else [sources]
    if sources and all(isinstance(s, Puzzle) for s in sources):
        puzzles = sources
    else:
        puzzles = load_worksheet_puzzles(sources)
    if title is None:
        titles = list(dict.fromkeys(p.set_title_text() for p in puzzles if p.set_title))
        title = titles[0] if len(titles) == 1 else None
    data = worksheet_pdf(puzzles, key=key, title=title)
    output = Path(output)
    try:
        output.write_bytes(data)
    except OSError as e:
        raise CanastaError(f"cannot write {output}: {e.strerror or e}") from None
    return output
