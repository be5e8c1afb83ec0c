"""Verdicts: an answer plus the reasons for it, in sentences a learner reads.

Every rule check returns a :class:`Verdict` (or a subclass with extra fields).
It is truthy when the answer is yes; ``reasons`` holds every reason that
applies, each with a machine-readable ``code`` (for tests and widgets to
branch on) and a ``text`` that names the cards involved.

>>> v = Verdict(False, (Reason("frozen", "The pile is frozen because 2♣ lies in it."),))
>>> bool(v), v.codes
(False, ('frozen',))
>>> v.sentence
'No: the pile is frozen because 2♣ lies in it.'
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason: a stable ``code`` and a plain sentence."""

    code: str
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Verdict:
    """The answer to a yes/no rule question with its reasons."""

    ok: bool
    reasons: tuple[Reason, ...] = ()

    def __bool__(self) -> bool:
        return self.ok

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


def reasons(*pairs: tuple[str, str]) -> tuple[Reason, ...]:
    return tuple(Reason(c, t) for c, t in pairs)


@dataclass(frozen=True)
class Collector:
    """A small helper to gather reasons while a check runs."""

    items: list = field(default_factory=list)

    def add(self, code: str, text: str) -> None:
        self.items.append(Reason(code, text))

    def extend(self, rs) -> None:
        self.items.extend(rs)

    def __bool__(self) -> bool:
        return bool(self.items)

    def tuple(self) -> tuple[Reason, ...]:
        return tuple(self.items)
