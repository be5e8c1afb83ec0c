"""The dashboard's learners x topics heat map as inline SVG, laid out so that every heading can be read: topic
headings run across (no rotated text to be cut off at the top), wrapped onto as many lines as they need within
their column; learners' names start at the left edge, the column as wide as the longest name (up to
:data:`MAX_NAME_WIDTH`; a longer name ends in "…" and is whole in its tooltip), never cut on the left.

Colour and the percentage in every cell, the answers below it; lighter is weaker, so it reads in greyscale too.
Nothing here imports Jupyter.
"""

from __future__ import annotations

import html
import textwrap

from ..engine.i18n import gettext as _
from .words import topic_name

FONT = 13                 # px, the headings' and names' type
CHAR_WIDTH = 0.62 * FONT  # a generous average advance of sans-serif letters at FONT px (DejaVu Sans: ~0.6 em)
CELL_W, CELL_H = 92, 40
MAX_NAME_WIDTH = 260      # px: a name longer than this is shortened on screen (whole in its tooltip)
LINE_H = FONT + 3


def text_width(text: str) -> float:
    """About how wide ``text`` is drawn at FONT px (a wide-letter estimate, so that nothing is cut)."""
    return len(text) * CHAR_WIDTH


def _fit(text: str, width: float) -> str:
    """``text``, shortened with "…" to fit ``width`` px."""
    if text_width(text) <= width:
        return text
    keep = max(1, int(width / CHAR_WIDTH) - 1)
    return text[:keep].rstrip() + "…"


def heading_lines(topic: str, width: float = CELL_W - 6) -> list[str]:
    """A topic heading wrapped to the column's width (words kept whole; a word too long for it is cut in pieces).

    >>> heading_lines("taking the pile")
    ['taking the', 'pile']
    """
    per_line = max(4, int(width / CHAR_WIDTH))
    return textwrap.wrap(topic, per_line, break_long_words=True, break_on_hyphens=True) or [""]


def _colour(accuracy: float) -> tuple[str, str]:
    """Dark blue for strong, through mid blue, to pale for weak (luminance falls with accuracy)."""
    steps = [(0.0, "#fde0dd", "#000"), (0.4, "#fbb4b9", "#000"), (0.6, "#9ecae1", "#000"),
             (0.8, "#4292c6", "#fff"), (0.95, "#08306b", "#fff")]
    fill, ink = steps[0][1], steps[0][2]
    for bound, f, i in steps:
        if accuracy >= bound:
            fill, ink = f, i
    return fill, ink


def _cell(name: str, topic: str, cell, x: float, y: float) -> str:
    who = f"{html.escape(name)}, {html.escape(topic_name(topic))}"
    if cell is None:
        return (f"<rect x='{x}' y='{y}' width='{CELL_W - 2}' height='{CELL_H - 2}' fill='#f4f4f4' stroke='#ccc'>"
                f"<title>" + html.escape(_("{who}: no answers")).format(who=who) + "</title></rect>")
    n, right = cell
    acc = right / n
    fill, ink = _colour(acc)
    return (f"<g class='ct-cell' data-learner='{html.escape(name, quote=True)}' "
            f"data-topic='{html.escape(topic, quote=True)}' data-attempts='{n}' data-correct='{right}'>"
            "<title>" + html.escape(_("{who}: {right} of {count} right")).format(who=who, right=right, count=n)
            + "</title>"
            f"<rect x='{x}' y='{y}' width='{CELL_W - 2}' height='{CELL_H - 2}' fill='{fill}'/>"
            f"<text x='{x + CELL_W / 2 - 1}' y='{y + 17}' text-anchor='middle' fill='{ink}' "
            f"font-weight='bold'>{round(acc * 100)} %</text>"
            f"<text x='{x + CELL_W / 2 - 1}' y='{y + 32}' text-anchor='middle' fill='{ink}' "
            f"font-size='11'>{right}/{n}</text></g>")


def heatmap_svg(report) -> str:
    """``report``'s (a :class:`~canasta_tutor.classroom.roster.ClassReport`) learners x topics accuracy grid."""
    topics, cells = report.grid()
    names = list(report.names)
    if not names:
        return "<p>" + html.escape(_("No learner has signed in yet.")) + "</p>"
    left = 8 + min(MAX_NAME_WIDTH, max(text_width(n) for n in names)) + 12
    wrapped = [heading_lines(topic_name(t)) for t in topics]
    top = 10 + LINE_H * max([len(w) for w in wrapped] or [1]) + 6
    width = round(left + CELL_W * max(1, len(topics)) + 10)
    height = round(top + CELL_H * len(names) + 10)
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='ct-heatmap' role='img' width='{width}' "
             f"height='{height}' viewBox='0 0 {width} {height}' font-family='DejaVu Sans, Arial, sans-serif' "
             f"font-size='{FONT}'>", "<title>" + html.escape(_("Accuracy of each learner in each topic")) + "</title>"]
    for j, (topic, lines) in enumerate(zip(topics, wrapped)):
        x = left + j * CELL_W + CELL_W / 2 - 1
        first = top - 6 - LINE_H * (len(lines) - 1)
        spans = "".join(f"<tspan x='{x}' y='{first + LINE_H * k}'>{html.escape(line)}</tspan>"
                        for k, line in enumerate(lines))
        parts.append(f"<text class='ct-topic' text-anchor='middle'><title>{html.escape(topic_name(topic))}</title>"
                     f"{spans}</text>")
    for i, name in enumerate(names):
        y = top + i * CELL_H
        parts.append(f"<text class='ct-name' x='8' y='{y + CELL_H / 2 + 5}' text-anchor='start'>"
                     f"<title>{html.escape(name)}</title>{html.escape(_fit(name, MAX_NAME_WIDTH))}</text>")
        for j, topic in enumerate(topics):
            parts.append(_cell(name, topic, cells.get(name, {}).get(topic), left + j * CELL_W, y))
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["heading_lines", "heatmap_svg", "text_width"]
