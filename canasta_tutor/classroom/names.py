"""Names a teacher can tell apart: the one place that decides whether a learner's name can be used.

:func:`check_name` says whether a name may be used at all and gives the form it is kept in;
:func:`check_not_taken` says whether it looks like a name already in the class. Both return a
:class:`NameVerdict` whose reasons are sentences for the learner (the sign-in page shows the first one).

The rules:

* the name is kept in Unicode's NFKC form, so ``Chloé`` typed with a combining accent (NFD) and with the
  accented letter (NFC) are one name, and full-width or ligature letters become plain ones;
* spaces: any run of spaces, tabs or other blanks is one space, none at the ends; and a space counts for nothing
  when names are compared, so ``Am ira`` is refused when ``Amira`` is in the class, and the other way round
  (a teacher cannot tell the two apart on a dashboard, and a learner who typed one space too many should
  not become a second learner);
* no invisible characters (zero-width spaces and joiners, soft hyphens, fillers: Unicode's
  Default_Ignorable_Code_Point), no control characters, no characters that change the text's direction
  (right-to-left overrides and isolates), no unassigned or private-use characters;
* at least one letter or digit (a hub may name learners by number); at most :data:`MAX_MARKS` accents on one
  letter and none without a letter;
* at most :data:`MAX_NAME` characters (the sign-in form, the server and the README say the same number);
* letters of one writing system (Unicode's "highly restrictive" level of UTS #39: Latin may go with Han and
  Japanese kana, with Han and Bopomofo, or with Han and Hangul), so that ``Аna`` with a Cyrillic ``А``
  cannot be taken before Ana arrives;
* not the same, whatever the case, and not a look-alike of a name in the class: two names clash when their
  confusable skeletons (UTS #39, from the confusables data that the ``confusable_homoglyphs`` package ships)
  are equal, so ``Аnа`` in Cyrillic, ``Amira`` with a Greek ``Α`` or ``rn`` for ``m`` find the taken name.

No Jupyter import here.

>>> check_name("  Zoë   O'Neill ").name
"Zoë O'Neill"
>>> print(check_name("Ana\\u202e").reasons[0].text)  # doctest: +NORMALIZE_WHITESPACE
Your name has a character that reverses the direction of the text (RIGHT-TO-LEFT OVERRIDE, after “Ana”): type your
name again without it.
>>> print(check_not_taken("Am ira", ["Amira"]).reasons[0].text)  # doctest: +NORMALIZE_WHITESPACE
Someone in this class is already called Amira, and “Am ira” looks the same: please choose another name
(add an initial, say).
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext, pgettext
from ..engine.verdict import Reason, verdict_type

NameVerdict = verdict_type("NameVerdict", "name", ("",),
                           "Whether a learner's name can be used; ``name``: the name as it is kept (NFKC, spaces "
                           "collapsed), empty when it cannot be.")

#: The longest name, in characters (after normalising): the sign-in form, the server and the README agree.
MAX_NAME = 60
#: The most accents (combining marks) one letter may carry.
MAX_MARKS = 3

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15): drawn as nothing.
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
# The characters that change the direction of the text around them (Bidi_Control), and the marks among them.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SPACES = frozenset(" \t\n\r\f\v\u0085")
# Scripts that may share one name (UTS #39, "highly restrictive"): besides any single script.
_SCRIPT_SETS = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}), frozenset({"LATIN", "HAN", "BOPOMOFO"}),
                frozenset({"LATIN", "HAN", "HANGUL"}))
_ANY_SCRIPT = frozenset({"COMMON", "INHERITED", "Unknown"})


def _is_ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


def _is_space(ch: str) -> bool:
    return ch in _SPACES or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def normal_name(text) -> str:
    """``text`` as a name is kept: NFKC, every run of blanks one space, none at the ends.

    >>> normal_name("Chlo\\u0065\\u0301 \\u00a0 Ｌｉ") == "Chloé Li"
    True
    """
    folded = unicodedata.normalize("NFKC", str(text or ""))
    spaced = "".join(" " if _is_space(ch) else ch for ch in folded)
    return " ".join(part for part in spaced.split(" ") if part)


def _char_name(ch: str) -> str:
    return unicodedata.name(ch, f"U+{ord(ch):04X}")


def _where(name: str, index: int) -> str:
    before = name[:index].strip()
    return _("after “{before}”").format(before=before) if before else _("at the start")


def _bad_characters(name: str) -> list[Reason]:
    """A reason for the first character of each bad sort in ``name``: direction, invisible, control, unknown."""
    found: dict[str, Reason] = {}
    for i, ch in enumerate(name):
        category = unicodedata.category(ch)
        # Translators: a character of a name by its Unicode name (English, as Unicode names it), and where it is
        where = _("{character}, {where}").format(character=_char_name(ch), where=_where(name, i))
        if ch in _BIDI:
            found.setdefault("name-bidi", Reason("name-bidi", _(
                "Your name has a character that reverses the direction of the text ({where}): type your name again "
                "without it.").format(where=where)))
        elif _is_ignorable(ch) or category == "Cf":
            found.setdefault("name-invisible", Reason("name-invisible", _(
                "Your name has an invisible character ({where}): type your name again without it.").format(
                where=where)))
        elif category == "Cc":
            found.setdefault("name-control", Reason("name-control", _(
                "Your name may not contain control characters ({where}).").format(where=where)))
        elif category in ("Cn", "Co", "Cs"):
            found.setdefault("name-unknown-character", Reason("name-unknown-character", _(
                "Your name has a character that has no letter to show ({where}): type your name again with letters "
                "only.").format(where=where)))
    return list(found.values())


def _mark_problem(name: str) -> Reason | None:
    """Accents with no letter under them, or more than MAX_MARKS on one letter (they would cover other rows)."""
    base, run = " ", 0   # the character the marks sit on, and how many sit on it so far
    name = unicodedata.normalize("NFD", name)   # every accent counted, also those composed with their letter
    for i, ch in enumerate(name):
        if not unicodedata.category(ch).startswith("M"):
            base, run = ch, 0
            continue
        run += 1
        if base == " ":
            return Reason("name-marks", _("Your name has an accent with no letter under it ({where}).").format(
                where=_where(name, i)))
        if run > MAX_MARKS:
            return Reason("name-marks", ngettext("Your name has more than {limit} accent on one letter ({where}).",
                                                 "Your name has more than {limit} accents on one letter ({where}).",
                                                 MAX_MARKS).format(limit=MAX_MARKS, where=_where(name, i - run + 1)))
    return None


def scripts_of(name: str) -> list[str]:
    """The writing systems of ``name``'s letters (Unicode script names, ``LATIN``, ``CYRILLIC``...), in order.

    >>> scripts_of("Аna")
    ['CYRILLIC', 'LATIN']
    """
    from confusable_homoglyphs.categories import alias

    seen: list[str] = []
    for ch in name:
        script = alias(ch)
        if script not in _ANY_SCRIPT and script not in seen:
            seen.append(script)
    return seen


def _mixed_scripts(name: str) -> Reason | None:
    scripts = scripts_of(name)
    if len(scripts) <= 1 or any(set(scripts) <= allowed for allowed in _SCRIPT_SETS):
        return None
    # the alphabets by their Unicode names ("Latin", "Cyrillic"), as Unicode writes them
    first, second = (s.replace("_", " ").title() for s in scripts[:2])
    shown = pgettext("alphabets", "{first} and {second}").format(first=first, second=second)
    return Reason("name-mixed-scripts", _("Your name mixes letters of different alphabets ({alphabets}): type it in "
                                          "one alphabet.").format(alphabets=shown))


def check_name(name) -> NameVerdict:
    """Whether ``name`` can be a learner's name, and the form it is kept in (:func:`normal_name`). Every reason
    that applies is given, each a sentence for the learner.

    >>> [r.code for r in check_name("\\u200b").reasons]
    ['name-invisible', 'name-no-letter']
    >>> [r.code for r in check_name("x" * 61).reasons]
    ['name-too-long']
    """
    if name is not None and not isinstance(name, str):
        return NameVerdict(False, (Reason("no-name", _("Your name must be text.")),))
    shown = normal_name(name)
    if not shown:
        return NameVerdict(False, (Reason("no-name", _("Type your name first.")),))
    reasons = _bad_characters(shown)
    if not any(unicodedata.category(ch)[0] in "LN" for ch in shown):   # a hub may name learners by number
        reasons.append(Reason("name-no-letter", _("Your name needs at least one letter.")))
    for problem in (_mark_problem(shown), _mixed_scripts(shown)):
        if problem is not None:
            reasons.append(problem)
    if len(shown) > MAX_NAME:
        reasons.append(Reason("name-too-long", _("Your name may have at most {limit} characters; this one has "
                                                 "{count}.").format(limit=MAX_NAME, count=len(shown))))
    if reasons:
        return NameVerdict(False, tuple(reasons))
    return NameVerdict(True, (Reason("name-ok", _("“{name}” can be your name.").format(name=shown)),), shown)


# --- look-alikes ------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it is drawn like (UTS #39's confusables.txt, as the
    ``confusable_homoglyphs`` package ships it: a graph that links each source character with its prototype)."""
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}
    links_of: dict[str, int] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def clean(s: str) -> str:  # the data writes right-to-left letters between two left-to-right marks
        return s.replace("\u200e", "") or s

    for source, links in raw.items():
        for link in links:
            for end in (clean(source), clean(link["c"])):
                links_of[end] = links_of.get(end, 0) + 1
            a, b = find(clean(source)), find(clean(link["c"]))
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for member in list(parent):
        groups.setdefault(find(member), []).append(member)
    table: dict[str, str] = {}
    for members in groups.values():
        # Every source is one character and linked to its prototype only; the prototype is linked to every source
        # of its group: a longer member ("rn" for "m") or the most linked one ("O" for "0", "О", "Ο"...).
        longer = [m for m in members if len(m) > 1]
        prototype = (min(longer, key=lambda m: (len(m), m)) if longer
                     else min(members, key=lambda m: (-links_of.get(m, 0), m)))
        for m in members:
            if len(m) == 1 and m != prototype:
                table[m] = prototype
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, every character replaced by its prototype, NFD again. Two strings that
    look alike have the same skeleton.

    >>> skeleton("Аnа") == skeleton("Ana"), skeleton("Amira") == skeleton("Arnira")
    (True, True)
    """
    table = _prototypes()
    drawn = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", drawn)


def comparison_keys(name: str) -> frozenset[str]:
    """The forms in which two names are compared: without spaces, case folded, and their skeletons. Two names
    clash when they share one."""
    bare = "".join(normal_name(name).split(" "))
    folded = bare.casefold()
    return frozenset({folded, skeleton(bare), skeleton(folded), skeleton(bare).casefold()})


def lookalike_of(name: str, taken) -> str | None:
    """The first of the ``taken`` names that ``name`` is or looks like, or None."""
    mine = comparison_keys(name)
    for other in taken:
        if mine & comparison_keys(other):
            return other
    return None


def check_not_taken(name: str, taken) -> NameVerdict:
    """Whether ``name`` (checked with :func:`check_name` first) is free in a class whose learners are called
    ``taken``: refused when it is one of them whatever the case and spaces (``name-taken``), or looks like one
    (``name-lookalike``).

    >>> [r.code for r in check_not_taken("ANA", ["Ana"]).reasons]
    ['name-taken']
    """
    shown = normal_name(name)
    other = lookalike_of(shown, taken)
    if other is None:
        return NameVerdict(True, (Reason("name-free", _("Nobody else in this class is called {name}.").format(
            name=shown)),), shown)
    if other.casefold() == shown.casefold():
        return NameVerdict(False, (Reason("name-taken", _(
            "Someone in this class is already called {name}: please choose another name (add an initial, "
            "say).").format(name=shown)),))
    return NameVerdict(False, (Reason("name-lookalike", _(
        "Someone in this class is already called {other}, and “{name}” looks the same: please choose another name "
        "(add an initial, say).").format(other=other, name=shown)),))


__all__ = ["MAX_MARKS", "MAX_NAME", "NameVerdict", "check_name", "check_not_taken", "comparison_keys",
           "lookalike_of", "normal_name", "scripts_of", "skeleton"]
