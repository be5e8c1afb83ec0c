"""The languages a learner reads: English, Nederlands, Dansk, Afrikaans.

Messages are looked up in gettext catalogs, ``canasta_tutor/locale/<lang>/LC_MESSAGES/canasta_tutor.po``.
Babel reads the ``.po`` file at first use of a language (one parse per process, a few milliseconds) and keeps
the compiled catalog in memory, so the repository and the wheel carry only ``.po`` files and no build step
compiles ``.mo``. English is the source language: its messages are the msgids themselves.

The current language is a :class:`contextvars.ContextVar`, so two requests served at once (or two kernels'
threads) each keep their own; ``use_language`` sets it for a block.

>>> with use_language("nl"):
...     pgettext("term", "discard pile"), card_name(("Q", "H")), number_word(18)
('aflegstapel', 'hartenvrouw', 'achttien')
>>> number_word(18, "af"), number_word(21, "af"), number_word(18, "da"), number_word(50, "da"), number_word(60, "da")
('agttien', 'een-en-twintig', 'atten', 'halvtreds', 'tres')
>>> count_of(1, "card", "nl"), count_of(3, "wild card", "nl"), count_of(1, "card", "da"), count_of(1, "canasta", "da")
('één kaart', 'drie wilde kaarten', 'et kort', 'én canasta')
>>> language_name("da"), normalise_language("nl-BE")
('Dansk', 'nl')
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import io
import re
from functools import cache
from pathlib import Path

from . import errors as _errors
from .errors import CanastaError

#: Each language named in itself, in the order a menu shows them.
LANGUAGES: dict[str, str] = {"en": "English", "nl": "Nederlands", "da": "Dansk", "af": "Afrikaans"}
SOURCE_LANGUAGE = "en"
DOMAIN = "canasta_tutor"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("canasta_tutor_language", default=None)
_default = [SOURCE_LANGUAGE]  # the process's language where no context has set one (set_default_language)


class LanguageError(CanastaError):
    """A language code that canasta-tutor does not speak."""


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (translate it where it is read)."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """Mark a message with its context for extraction; ``pgettext(*pair)`` translates it where it is read."""
    return context, message


def NPN_(context: str, singular: str, plural: str) -> tuple[str, str, str]:
    """Mark a plural message with its context for extraction; ``npgettext(*triple, n)`` translates it."""
    return context, singular, plural


def normalise_language(code: str) -> str:
    """``'nl'`` from ``'nl'``, ``'nl-BE'``, ``'nl_NL.UTF-8'`` or ``'NL'``; a clear error for anything else.

    >>> normalise_language("fr")
    Traceback (most recent call last):
    ...
    canasta_tutor.engine.i18n.LanguageError: no language 'fr': canasta-tutor speaks en (English), nl (Nederlands), \
da (Dansk), af (Afrikaans)
    """
    text = str(code).strip().replace("_", "-").split(".")[0].split("-")[0].lower()
    if text not in LANGUAGES:
        known = ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items())
        # the current language's words (gettext is read when the error is raised, below its definition)
        raise LanguageError(gettext("no language {code}: canasta-tutor speaks {languages}").format(
            code=repr(str(code)[:20]), languages=known))
    return text


def language_name(code: str) -> str:
    """The language's name in itself: ``'Nederlands'`` for ``'nl'``."""
    return LANGUAGES[normalise_language(code)]


def get_language() -> str:
    """The current language's code: the one this context set, else the process's default."""
    return _current.get() or _default[0]


def set_default_language(code: str) -> None:
    """Make ``code`` the language of the whole process wherever no context has set another: a page's kernel, whose
    every cell and widget callback runs in a copy of the kernel's context (ipykernel 7), so that a value set by
    :func:`set_language` in one cell would not reach the next. ``use_language`` blocks still work inside it."""
    _default[0] = normalise_language(code)


def set_language(code: str) -> contextvars.Token:
    """Make ``code`` the current language (for this context); returns the token that ``reset_language`` takes."""
    return _current.set(normalise_language(code))


def reset_language(token: contextvars.Token) -> None:
    _current.reset(token)


@contextlib.contextmanager
def use_language(code: str):
    """``with use_language("da"): ...``: the block reads Danish, the language before it comes back after."""
    token = set_language(code)
    try:
        yield
    finally:
        _current.reset(token)


def catalog_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(code: str | None = None) -> _gettext.NullTranslations:
    """The catalog of a language (English: the msgids themselves), read from its ``.po`` once per process."""
    code = normalise_language(code or get_language())
    if code == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # Babel is loaded only when a translation is first read
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with open(catalog_path(code), "rb") as po:
        catalog = read_po(po, locale=code, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def _catalog(lang: str | None) -> _gettext.NullTranslations:
    return translations(normalise_language(lang) if lang else get_language())


def _in_english(lang: str | None) -> bool:
    """Is the text asked for in English, the msgids' own language (the common case, answered without a catalog)?"""
    return (lang or _current.get() or _default[0]) == SOURCE_LANGUAGE


def gettext(message: str, *, lang: str | None = None) -> str:
    """``message`` in the current language (or ``lang``)."""
    return message if _in_english(lang) else _catalog(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int, *, lang: str | None = None) -> str:
    """The form for ``n`` by the language's CLDR plural rule (the catalog's Plural-Forms header)."""
    if _in_english(lang):
        return singular if n == 1 else plural
    return _catalog(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str, *, lang: str | None = None) -> str:
    """``message`` in ``context`` (one English word that needs two translations gets two contexts)."""
    return message if _in_english(lang) else _catalog(lang).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int, *, lang: str | None = None) -> str:
    return _catalog(lang).npgettext(context, singular, plural, n)


# ---- the Canasta words (docs/glossary.md gives each its source line) ----------------------------------------

#: The glossary's terms, each written out as a catalog entry so that Babel's extractor sees it.
_TERM_MARKS = (
    NP_("term", "discard pile"), NP_("term", "stock"), NP_("term", "frozen"), NP_("term", "freeze the pile"),
    NP_("term", "go out"), NP_("term", "go out concealed"), NP_("term", "lay off"), NP_("term", "meld"),
    NP_("term", "to meld"), NP_("term", "first meld"), NP_("term", "opening minimum"), NP_("term", "canasta"),
    NP_("term", "natural canasta"), NP_("term", "mixed canasta"), NP_("term", "wild card"),
    NP_("term", "natural card"), NP_("term", "joker"), NP_("term", "red three"), NP_("term", "black three"),
    NP_("term", "stop card"), NP_("term", "partner"), NP_("term", "team"), NP_("term", "opponents"),
    NP_("term", "hand"), NP_("term", "turn"), NP_("term", "round"), NP_("term", "points"), NP_("term", "score"),
    NP_("term", "discard"), NP_("term", "dealer"),
)
#: The glossary's terms by English name; ``term(key)`` reads one in the current language.
TERMS: dict[str, tuple[str, str]] = {message: (context, message) for context, message in _TERM_MARKS}

#: Card notation (``cards.RANKS``, ``cards.SUITS``) to the catalog's rank and suit entries.
RANK_MESSAGES: dict[str, tuple[str, str]] = {
    "A": NP_("rank", "ace"), "2": NP_("rank", "two"), "3": NP_("rank", "three"), "4": NP_("rank", "four"),
    "5": NP_("rank", "five"), "6": NP_("rank", "six"), "7": NP_("rank", "seven"), "8": NP_("rank", "eight"),
    "9": NP_("rank", "nine"), "10": NP_("rank", "ten"), "J": NP_("rank", "jack"), "Q": NP_("rank", "queen"),
    "K": NP_("rank", "king"), "JK": NP_("rank", "joker"),
}
SUIT_MESSAGES: dict[str, tuple[str, str]] = {
    "S": NP_("suit", "spades"), "H": NP_("suit", "hearts"), "D": NP_("suit", "diamonds"), "C": NP_("suit", "clubs"),
}


def term(key: str, lang: str | None = None) -> str:
    """A glossary term: ``term("discard pile", "da")`` is ``'afkastbunken'``."""
    if key not in TERMS:
        raise LanguageError(f"no glossary term {key[:40]!r}; the terms are listed in docs/glossary.md")
    return pgettext(*TERMS[key], lang=lang)


def rank_name(rank: str, lang: str | None = None) -> str:
    return pgettext(*RANK_MESSAGES[rank], lang=lang)


def suit_name(suit: str, lang: str | None = None) -> str:
    return pgettext(*SUIT_MESSAGES[suit], lang=lang)


def card_name(card, lang: str | None = None) -> str:
    """A card in words: ``'queen of hearts'``, ``'hartenvrouw'``, ``'hjerter dame'``, ``'vrou van hartens'``.

    ``card`` is a :class:`~canasta_tutor.engine.cards.Card` or a ``(rank, suit)`` pair. The whole pattern is
    one catalog entry with named placeholders, so each language puts the suit where it belongs (Dutch writes
    the card as one compound word, ``hartenvrouw``, as the Woordenlijst writes ``hartenaas`` and ``schoppenaas``).
    """
    rank, suit = (card.rank, card.suit) if hasattr(card, "rank") else card
    if rank == "JK":
        return rank_name("JK", lang)
    pattern = pgettext("card", "{rank} of {suit}", lang=lang)
    return pattern.format(rank=rank_name(rank, lang), suit=suit_name(suit, lang))


#: The things the tutor counts, each a plural catalog entry: ``count_of(n, noun)`` reads one.
COUNT_MESSAGES: dict[str, tuple[str, str, str]] = {
    "card": NPN_("count", "{number} card", "{number} cards"),
    "wild card": NPN_("count", "{number} wild card", "{number} wild cards"),
    "natural card": NPN_("count", "{number} natural card", "{number} natural cards"),
    "canasta": NPN_("count", "{number} canasta", "{number} canastas"),
    "red three": NPN_("count", "{number} red three", "{number} red threes"),
    "black three": NPN_("count", "{number} black three", "{number} black threes"),
    "joker": NPN_("count", "{number} joker", "{number} jokers"),
    "point": NPN_("count", "{number} point", "{number} points"),
}


def count_of(n: int, noun: str = "card", lang: str | None = None) -> str:
    """``'three wild cards'`` in the language: the plural form by CLDR's rule, the number in words.

    The whole phrase is one catalog entry (``npgettext``), so a language may write its own word for one
    (Danish ``'én canasta'`` beside ``'et kort'``).
    """
    if noun not in COUNT_MESSAGES:
        raise LanguageError(f"no counted noun {noun[:40]!r}: the nouns are {', '.join(COUNT_MESSAGES)}")
    context, singular, plural = COUNT_MESSAGES[noun]
    pattern = npgettext(context, singular, plural, n, lang=lang)
    return pattern.format(number=number_word(n, lang))


def grouped(n: int) -> str:
    """``n`` in digits, its thousands marked as the current language writes them: ``'10,000'``, ``'10.000'`` (nl,
    da), ``'10\xa0000'`` (af), by Babel's CLDR data."""
    lang = get_language()
    if lang == "en":
        return f"{n:,}"
    from babel.numbers import format_decimal

    return format_decimal(n, locale=lang)


# ---- numbers in words ---------------------------------------------------------------------------------------

#: The largest number written in words: the tutor writes counts in words (cards, canastas, red threes), never
#: scores, and up to here every language's words are checked against CLDR's spell-out (tests/test_i18n.py).
NUMBER_WORD_LIMIT = 999

#: Afrikaans cardinals (num2words has no Afrikaans), as CLDR's rule-based spell-out for ``af`` writes them.
AF_UNITS = ("nul", "een", "twee", "drie", "vier", "vyf", "ses", "sewe", "agt", "nege", "tien", "elf", "twaalf",
            "dertien", "veertien", "vyftien", "sestien", "sewentien", "agttien", "negentien")
AF_TENS = {2: "twintig", 3: "dertig", 4: "veertig", 5: "vyftig", 6: "sestig", 7: "sewentig", 8: "tagtig",
           9: "negentig"}


def _af_below_100(n: int) -> str:
    if n < 20:
        return AF_UNITS[n]
    tens, unit = divmod(n, 10)
    return AF_TENS[tens] if unit == 0 else f"{AF_UNITS[unit]}-en-{AF_TENS[tens]}"


def afrikaans_number_word(n: int) -> str:
    """0..999 in Afrikaans words, by CLDR's ``af`` spell-out rules (``een-en-twintig``, ``tweehonderd``)."""
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        return _af_below_100(rest)
    head = "honderd" if hundreds == 1 else f"{AF_UNITS[hundreds]}honderd"
    return head if rest == 0 else f"{head} {_af_below_100(rest)}"


#: The num2words language code for each language it covers.
_NUM2WORDS = {"en": "en", "nl": "nl", "da": "da"}
#: Where num2words (0.5.14) writes an older or wrong form, the form CLDR and the language's spelling list give:
#: Dutch writes the accent only on a lone "één" (Taalunie: honderdeen), Danish 60 is "tres" (Retskrivningsordbogen),
#: but 50 stays "halvtreds" (and 51 "enoghalvtreds"): the pattern must not touch the "treds" inside "halvtreds".
_NUM2WORDS_FIXES = {"nl": ((r"éé", "ee"),), "da": ((r"(?<!halv)treds", "tres"),)}


def number_word(n: int, lang: str | None = None) -> str:
    """``n`` (a whole number, 0 to 999) in words: num2words for en, nl and da, our table for af."""
    code = normalise_language(lang) if lang else get_language()
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= NUMBER_WORD_LIMIT:
        raise LanguageError(f"a number in words is a whole number from 0 to {NUMBER_WORD_LIMIT}, not {n!r:.40}")
    if code == "af":
        return afrikaans_number_word(n)
    from num2words import num2words

    words = num2words(n, lang=_NUM2WORDS[code])
    if n != 1:
        for wrong, right in _NUM2WORDS_FIXES.get(code, ()):
            words = re.sub(wrong, right, words)
    return words


_errors.install_language(gettext, grouped)  # the errors' location words and quotes in the current language
