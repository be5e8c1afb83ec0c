"""Spreadsheet cells that stay text: OWASP's rule against CSV injection (a leading ``=``, ``+``, ``-``, ``@``,
tab or carriage return makes a spreadsheet read a formula). Apart so that both the class's report
(:mod:`.roster`) and the teacher's downloads (:mod:`.gradebook`) use it without importing each other."""

from __future__ import annotations

#: OWASP's characters that make a spreadsheet read a cell as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def is_formula_like(value) -> bool:
    """Whether a spreadsheet would take ``value`` (text) for a formula.

    >>> is_formula_like("=1+2"), is_formula_like("-2"), is_formula_like("Ana"), is_formula_like(-2)
    (True, True, False, False)
    """
    return isinstance(value, str) and value.startswith(FORMULA_START)


def neutral(value):
    """``value`` safe in a CSV cell: text that looks like a formula gets a leading ``'``.

    >>> neutral('=HYPERLINK("http://e.io/x","Fix")')
    '\\'=HYPERLINK("http://e.io/x","Fix")'
    """
    return "'" + value if is_formula_like(value) else value


def neutral_frame(frame):
    """A copy of ``frame`` with :func:`neutral` on every text cell and header."""
    out = frame.copy()
    for column in out.columns:
        out[column] = out[column].map(neutral)   # numbers, and text of any dtype, pass through unchanged
    out.columns = [neutral(str(c)) for c in out.columns]
    return out
