"""Numbers as learners read them: the one table of number words, and the one test of a whole number.

>>> number_word(1), number_word(0), number_word(0, "none"), number_word(15), number_word(16)
('one', 'no', 'none', 'fifteen', '16')
>>> count_of(1, "wild card"), count_of(3, "wild card"), count_of(0, "canasta")
('one wild card', 'three wild cards', 'no canasta')
>>> grouped(10000)
'10,000'
>>> is_whole_number(3), is_whole_number(True), is_whole_number(3.0)
(True, False, False)
>>> digits_written("1_000"), digits_written("-0x" + "f" * 20), digits_written("0b101"), digits_written("1:30")
(4, 20, 3, 3)
"""

from __future__ import annotations

from . import i18n
from .i18n import NP_, gettext, grouped, pgettext  # noqa: F401 (grouped: numbers' home for callers)

#: The numbers written in words (beyond the table: digits).
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen")


def is_whole_number(value) -> bool:
    """True for an ``int`` that is not a ``bool`` (``True`` is an ``int`` to Python, never a number to a learner)."""
    return isinstance(value, int) and not isinstance(value, bool)


def digits_written(text: str) -> int:
    """How many digits the whole number written as ``text`` has, in the base it is written in: decimal, or
    YAML's ``0x`` (hexadecimal), ``0o`` or a leading ``0`` (octal), ``0b`` (binary) and ``1:30`` (base 60),
    with ``_`` between digits. ``0x`` and 5,000 ``f`` is as long as 5,000 nines: the one measure of a number's
    length before Python reads it (Python refuses to write out a number of more than 4,300 digits)."""
    body = text.strip().lstrip("+-")
    if body[:2].lower() in ("0x", "0o", "0b"):
        body = body[2:]
    return sum(ch in _DIGITS for ch in body)


_DIGITS = frozenset("0123456789abcdefABCDEF")


#: The words for nought, by the English word the caller passes (``zero``): translated where read.
ZERO_WORDS = {"no": NP_("zero", "no"), "none": NP_("zero", "none")}


def number_word(n: int, zero: str = "no") -> str:
    """``n`` in words up to fifteen (``zero`` for 0), in digits beyond; in the current language
    (:mod:`~canasta_tutor.engine.i18n`: ``'vijf'``, ``'fem'``, ``'vyf'``)."""
    lang = i18n.get_language()
    if lang != "en":
        if n == 0:
            return pgettext(*ZERO_WORDS[zero]) if zero in ZERO_WORDS else zero
        return i18n.number_word(n, lang) if 0 < n < len(NUMBER_WORDS) else str(n)
    if n == 0:
        return zero
    return NUMBER_WORDS[n] if 0 < n < len(NUMBER_WORDS) else str(n)


def count_of(n: int, singular: str, plural: str | None = None, *, zero: str = "no") -> str:
    """``'one canasta'``, ``'two canastas'``, ``'no wild card'``: a number in words with the right noun."""
    noun = singular if n == 1 or (n == 0 and zero == "no") else (plural or singular + "s")
    return f"{number_word(n, zero)} {noun}"


def join_words(items, conjunction: str = "and") -> str:
    """``'a, b and c'`` (or ``'a, b or c'``), in the current language (``'a, b en c'``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    if conjunction == "or":
        pattern = gettext("{items} or {last}")
    else:
        pattern = gettext("{items} and {last}")
    return pattern.format(items=", ".join(items[:-1]), last=items[-1])
