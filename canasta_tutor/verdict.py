"""Verdicts: an answer plus the reasons for it, in sentences a learner reads.

Every rule check returns a :class:`Verdict` (or a subclass with extra fields).
It is truthy when the answer is yes; ``reasons`` holds every reason that
applies, each with a machine-readable ``code`` (for tests and widgets to
branch on) and a ``text`` that names the cards involved. Verdicts are
immutable (named tuples: cheap to make, since the engine makes many).

>>> v = Verdict(False, (Reason("frozen", "The pile is frozen because 2♣ lies in it."),))
>>> bool(v), v.codes
(False, ('frozen',))
>>> v.sentence
'No: the pile is frozen because 2♣ lies in it.'
"""

from __future__ import annotations

from collections import namedtuple


class Reason(namedtuple("Reason", "code text")):
    """One reason: a stable ``code`` and a plain sentence."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.text


class Verdict(namedtuple("VerdictFields", "ok reasons", defaults=((),))):
    """The answer to a yes/no rule question (``ok``) with its ``reasons``.

    Subclasses add fields with :func:`verdict_type`.
    """

    __slots__ = ()

    def __bool__(self) -> bool:
        return bool(self.ok)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.reasons)

    @property
    def explanation(self) -> list[str]:
        """The reasons as a list of sentences."""
        return [r.text for r in self.reasons]

    @property
    def sentence(self) -> str:
        """Yes/No followed by the reasons, as one paragraph."""
        head = "Yes" if self.ok else "No"
        if not self.reasons:
            return head + "."
        first = self.reasons[0].text
        word = first.split(" ", 1)[0]
        if word.isalpha() and (len(word) == 1 or word[1:].islower()):
            first = first[0].lower() + first[1:]
        rest = " ".join(r.text for r in self.reasons[1:])
        return f"{head}: {first}" + (f" {rest}" if rest else "")

    def has(self, code: str) -> bool:
        return any(r.code == code for r in self.reasons)

    def __str__(self) -> str:
        return self.sentence


def verdict_type(name: str, fields: str, defaults: tuple, doc: str) -> type:
    """A :class:`Verdict` subclass with extra named fields after ``ok`` and ``reasons``."""
    base = namedtuple(name + "Fields", "ok reasons " + fields, defaults=((),) + defaults)
    return type(name, (base, Verdict), {"__slots__": (), "__doc__": doc, "__module__": "canasta_tutor.verdict"})
