"""The language of a page's kernel: the one the server decided for the page's visitor
(:func:`canasta_tutor.web.language.request_language`, sent in the ``X-Canasta-Language`` header, which Voilà puts in
the kernel's environment as ``HTTP_X_CANASTA_LANGUAGE``), else ``CANASTA_TUTOR_LANG``, else English.

A preheated kernel (Voilà's pool) started before its visitor came: :func:`page_language` waits for the visitor's
request first (:func:`wait_for_visitor`, where :func:`canasta_tutor.widgets.identity.current` waits too), then
makes its language the engine's default (:func:`canasta_tutor.engine.i18n.set_default_language`), so that every
sentence the page's widgets and the engine write afterwards is in it. Choosing another language reloads the page
(``?lang=``): a new kernel, told the new language.
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
    """In a preheated Voilà kernel, wait (once) until a visitor's request has been handed to this kernel, then make
    the visitor's language the kernel's (:func:`canasta_tutor.widgets.identity.current` waits here too)."""
    global _resolved
    if _resolved:
        return
    _resolved = True
    if os.environ.get("VOILA_PREHEAT") == "True" and os.environ.get("VOILA_KERNEL_ID"):
        from voila.utils import wait_for_request

        wait_for_request()
    page_language()


def page_language() -> str:
    """Set (and return) the language of this page's kernel, from its visitor's request."""
    wait_for_visitor()
    code = _known(os.environ.get(KERNEL_ENV)) or _known(os.environ.get(CLI_ENV)) or SOURCE_LANGUAGE
    kernel_default(code)
    return code


def kernel_default(code: str) -> None:
    """Make ``code`` the language of the whole kernel: every cell, and every widget's callback, runs in a copy of
    the kernel's context (ipykernel 7 copies it per message), so a value set in one cell would not reach the next.
    ``code`` becomes the engine's default language (:func:`~canasta_tutor.engine.i18n.set_default_language`: one
    kernel, one visitor, one language; ``use_language`` blocks, such as a lesson shown in another language, still
    win inside them)."""
    i18n.set_default_language(code)
