"""The language of a page's kernel: the one the server decided for the page's visitor
(:func:`canasta_tutor.web.language.request_language`, sent in the ``X-Canasta-Language`` header, which Voilà puts in
the kernel's environment as ``HTTP_X_CANASTA_LANGUAGE``), else the page's ``?lang=`` (under JupyterHub, where no
header is set, Voilà still gives the kernel its page's query string), else ``CANASTA_TUTOR_LANG``, else English.

A preheated kernel (Voilà's pool) starts before its visitor comes, with the pool's language in that same variable
(:class:`canasta_tutor.web.voila_server.CanastaVoila`: the class's language, or ``serve --lang``): the server hands it
only to a visitor of that language, so the page is drawn in it from its first cell, without waiting.
:func:`page_language` makes the language the engine's default
(:func:`canasta_tutor.engine.i18n.set_default_language`), so that every sentence the page's widgets and the engine
write is in it. Choosing another language reloads the page (``?lang=``): a new kernel, told the new language.
"""

from __future__ import annotations

import os

from ..engine import i18n
from ..engine.i18n import SOURCE_LANGUAGE, LanguageError, normalise_language

KERNEL_ENV = "HTTP_X_CANASTA_LANGUAGE"  # as canasta_tutor.web.language.KERNEL_ENV
CLI_ENV = "CANASTA_TUTOR_LANG"


def _known(code) -> str | None:
    try:
        return normalise_language(code) if code else None
    except LanguageError:
        return None


_resolved = False  # the visitor's request has come (or none will: not a preheated kernel)


def wait_for_visitor() -> None:
    """In a preheated Voilà kernel, wait (once) until a visitor's request has been handed to this kernel
    (:func:`canasta_tutor.widgets.identity.current` waits here), then take the language it brought."""
    global _resolved
    if _resolved:
        return
    _resolved = True
    if os.environ.get("VOILA_PREHEAT") == "True" and os.environ.get("VOILA_KERNEL_ID"):
        from voila.utils import wait_for_request

        wait_for_request()
    page_language()


def told_language() -> str | None:
    """The language this page's kernel was told (see the module), or None: not a page's kernel, or no language we
    speak."""
    from urllib.parse import parse_qs

    query = parse_qs(os.environ.get("QUERY_STRING", "")).get("lang", [])
    return next((c for c in map(_known, (os.environ.get(KERNEL_ENV), *query, os.environ.get(CLI_ENV))) if c), None)


def page_language() -> str:
    """Set (and return) the language of this page's kernel (see the module; English when it was told none): never
    waits."""
    code = told_language() or SOURCE_LANGUAGE
    kernel_default(code)
    return code


def kernel_default(code: str) -> None:
    """Make ``code`` the language of the whole kernel: every cell, and every widget's callback, runs in a copy of
    the kernel's context (ipykernel 7 copies it per message), so a value set in one cell would not reach the next.
    ``code`` becomes the engine's default language (:func:`~canasta_tutor.engine.i18n.set_default_language`: one
    kernel, one visitor, one language; ``use_language`` blocks, such as a lesson shown in another language, still
    win inside them)."""
    i18n.set_default_language(code)
