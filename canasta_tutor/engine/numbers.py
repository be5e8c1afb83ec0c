"""Numbers as learners read them: the one table of number words, and the one test of a whole number.

>>> number_word(1), number_word(0), number_word(0, "none"), number_word(15), number_word(16)
('one', 'no', 'none', 'fifteen', '16')
>>> count_of(1, "wild card"), count_of(3, "wild card"), count_of(0, "canasta")
('one wild card', 'three wild cards', 'no canasta')
>>> is_whole_number(3), is_whole_number(True), is_whole_number(3.0)
(True, False, False)
"""

from __future__ import annotations

#: The numbers written in words (beyond the table: digits).
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen")


def is_whole_number(value) -> bool:
    """True for an ``int`` that is not a ``bool`` (``True`` is an ``int`` to Python, never a number to a learner)."""
    return isinstance(value, int) and not isinstance(value, bool)


def number_word(n: int, zero: str = "no") -> str:
    """``n`` in words up to fifteen (``zero`` for 0), in digits beyond."""
    if n == 0:
        return zero
    return NUMBER_WORDS[n] if 0 < n < len(NUMBER_WORDS) else str(n)


def count_of(n: int, singular: str, plural: str | None = None, *, zero: str = "no") -> str:
    """``'one canasta'``, ``'two canastas'``, ``'no wild card'``: a number in words with the right noun."""
    noun = singular if n == 1 or (n == 0 and zero == "no") else (plural or singular + "s")
    return f"{number_word(n, zero)} {noun}"


def join_words(items, conjunction: str = "and") -> str:
    """``'a, b and c'`` (or ``'a, b or c'``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]
