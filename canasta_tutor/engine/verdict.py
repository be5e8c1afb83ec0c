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
from functools import partial

from .i18n import gettext


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
        if not self.reasons:
            return gettext("Yes.") if self.ok else gettext("No.")
        first = lower_first(self.reasons[0].text)
        reasons = " ".join([first] + [r.text for r in self.reasons[1:]])
        return (gettext("Yes: {reasons}") if self.ok else gettext("No: {reasons}")).format(reasons=reasons)

    def has(self, code: str) -> bool:
        return any(r.code == code for r in self.reasons)

    def __str__(self) -> str:
        return self.sentence


def lower_first(text: str, *, any_word: bool = False) -> str:
    """A sentence's first word in lower case, to follow a colon: 'The pile...' -> 'the pile...'. A word that is not
    all letters (a card, '2♣') stays; so does a name or an abbreviation ('KH', unless ``any_word``). Afrikaans
    capitalises the word after a leading "'n" ("'n Meld..."): that word is lowered instead ("'n meld...")."""
    head, space, rest = text.partition(" ")
    if head == "'n" and rest:
        return f"{head}{space}{lower_first(rest, any_word=any_word)}"
    if head.isalpha() and (any_word or len(head) == 1 or head[1:].islower()):
        return text[0].lower() + text[1:]
    return text


class LazyReasons(partial):
    """A verdict's reasons, written only when read.

    The engine's fast paths decide the answer without writing sentences; they pass
    ``LazyReasons(explain, *args)``, where ``explain(*args)`` returns the reasons
    (usually by asking the explained path, so the sentences are exactly its own).
    It reads like the tuple it stands for (iterate, index, ``len``, ``==``, ``+``,
    pickle) and writes the sentences once, on first use. (A ``functools.partial``
    underneath: made in C, so a verdict whose reasons are never read costs little.)
    """

    __slots__ = ("_value",)

    def _get(self) -> tuple:
        try:
            return self._value
        except AttributeError:
            value = self._value = tuple(self())
            return value

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __getitem__(self, i):
        return self._get()[i]

    def __bool__(self) -> bool:
        return bool(self._get())

    def __contains__(self, item) -> bool:
        return item in self._get()

    def __eq__(self, other):
        if isinstance(other, LazyReasons):
            other = other._get()
        return self._get() == other if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._get())

    def __add__(self, other):
        return self._get() + tuple(other)

    def __radd__(self, other):
        return tuple(other) + self._get()

    def __repr__(self) -> str:
        return repr(self._get())

    def __reduce__(self):
        return (tuple, (self._get(),))

    def count(self, item) -> int:
        return self._get().count(item)

    def index(self, item, *args) -> int:
        return self._get().index(item, *args)


def verdict_type(name: str, fields: str, defaults: tuple, doc: str) -> type:
    """A :class:`Verdict` subclass with extra named fields after ``ok`` and ``reasons``."""
    base = namedtuple(name + "Fields", "ok reasons " + fields, defaults=((),) + defaults)
    return type(name, (base, Verdict), {"__slots__": (), "__doc__": doc, "__module__": "canasta_tutor.engine.verdict"})
