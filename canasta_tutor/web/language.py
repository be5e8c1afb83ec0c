"""Which language a request is answered in, and remembering a learner's choice.

:func:`request_language` decides, in this order:

1. ``?lang=nl`` in the address (a choice from the language menu, or a link);
2. the signed-in learner's stored choice (the progress database: it follows them to another device);
3. the ``canasta_lang`` cookie (this browser's choice, also before signing in);
4. the class's default, set by the teacher on the dashboard;
5. the browser's ``Accept-Language`` (Babel's :func:`~babel.core.negotiate_locale`, by the header's weights);
6. ``canasta-tutor serve --lang`` (:func:`set_server_language`);
7. English.

A value that is not one of :data:`~canasta_tutor.engine.i18n.LANGUAGES` is passed over (never an error page).
:func:`remember` keeps a choice made with ``?lang=`` (the cookie, and the learner's row). A page's kernel learns
the language from the :data:`HEADER` that :class:`~canasta_tutor.web.voila_server.GuardedVoilaHandler` sets (the
kernel's environment: ``HTTP_X_CANASTA_LANGUAGE``, see :mod:`canasta_tutor.widgets.language`).
"""

from __future__ import annotations

import contextlib
import html
from urllib.parse import urlencode

from ..engine.i18n import LANGUAGES, SOURCE_LANGUAGE, LanguageError, gettext, normalise_language

COOKIE = "canasta_lang"
COOKIE_DAYS = 365
QUERY = "lang"
HEADER = "X-Canasta-Language"  # the decided language, as the server tells a page's kernel
KERNEL_ENV = "HTTP_X_CANASTA_LANGUAGE"

_server_language = {"code": None}


def set_server_language(code: str | None) -> None:
    """``canasta-tutor serve --lang``: the language for a browser that says nothing (``None``: English)."""
    _server_language["code"] = normalise_language(code) if code else None


def server_language() -> str | None:
    return _server_language["code"]


def known(code) -> str | None:
    """``code`` as one of our languages, or None (nothing, or a language we do not speak)."""
    if not code:
        return None
    try:
        return normalise_language(str(code)[:40])
    except LanguageError:
        return None


def accepted(header: str | None) -> str | None:
    """The best of our languages for an ``Accept-Language`` header (``'da, en;q=0.5'``), or None."""
    from babel.core import negotiate_locale

    weighted = []
    for i, part in enumerate((header or "")[:500].split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                weight = 0.0
        if tag and tag != "*" and weight > 0:
            weighted.append((-weight, i, tag.replace("_", "-")))
    preferred = [tag for _w, _i, tag in sorted(weighted)]
    found = negotiate_locale(preferred, list(LANGUAGES), sep="-")
    return known(found)


# --- reading a request (a Tornado handler, or its HTTPServerRequest) -------------------------------------------
def _request(source):
    return getattr(source, "request", source)


def _query_value(source) -> str | None:
    values = getattr(_request(source), "query_arguments", {}).get(QUERY) or []
    return values[-1].decode("utf-8", "replace") if values else None


def _cookie_value(source) -> str | None:
    request = _request(source)
    cookies = getattr(request, "cookies", None)
    if cookies is None:
        return None
    with contextlib.suppress(Exception):
        morsel = cookies.get(COOKIE)
        return morsel.value if morsel is not None else None
    return None


def _visitors(source):
    return getattr(source, "visitors", None)


def _learner_choice(source) -> str | None:
    visitors = _visitors(source)
    if visitors is None or not hasattr(source, "get_secure_cookie"):
        return None
    with contextlib.suppress(Exception):  # a database out of reach: the other ways still decide
        session = visitors.session(source)
        if session:
            return known(visitors.room.learner_language(session["learner_id"]))
    return None


def _class_default(source) -> str | None:
    visitors = _visitors(source)
    if visitors is None:
        return None
    with contextlib.suppress(Exception):
        return known(visitors.room.class_language())
    return None


def request_language(source) -> str:
    """The language to answer ``source`` (a request handler or a request) in; see the module's order."""
    cached = getattr(source, "_canasta_language", None)
    if cached:
        return cached
    request = _request(source)
    headers = getattr(request, "headers", {}) or {}
    choice = (known(_query_value(source)) or _learner_choice(source) or known(_cookie_value(source))
              or _class_default(source) or accepted(headers.get("Accept-Language"))
              or server_language() or SOURCE_LANGUAGE)
    with contextlib.suppress(AttributeError):
        source._canasta_language = choice
    return choice


def remember(handler) -> str | None:
    """A choice made with ``?lang=`` is kept: in this browser (a cookie) and for the signed-in learner (their row
    in the progress database). Returns the language chosen, or None when the address chose none."""
    choice = known(_query_value(handler))
    if choice is None:
        return None
    if _cookie_value(handler) != choice:
        handler.set_cookie(COOKIE, choice, expires_days=COOKIE_DAYS, samesite="Lax", path="/")
    visitors = _visitors(handler)
    if visitors is not None:
        with contextlib.suppress(Exception):  # (the cookie still holds it)
            session = visitors.session(handler)
            if session and visitors.room.learner_language(session["learner_id"]) != choice:
                visitors.room.set_learner_language(session["learner_id"], choice)
    return choice


# --- the menu -------------------------------------------------------------------------------------------------
MENU_STYLE = (".ct-languages{display:flex;flex-wrap:wrap;gap:.3em 1em;list-style:none;padding:0;margin:0 0 1em;"
              "font-size:.95em}.ct-languages a{padding:.5em .2em;display:inline-block}"
              ".ct-languages a[aria-current]{font-weight:bold;text-decoration:none;color:#222}")


def language_menu(current: str, query: dict | None = None) -> str:
    """The language menu of our small pages: each language named in itself (its own ``lang``), a link to the same
    page with ``?lang=`` (``query``: the page's other arguments, kept)."""
    items = []
    for code, name in LANGUAGES.items():
        address = "?" + urlencode({**(query or {}), QUERY: code})
        mark = " aria-current='true'" if code == current else ""
        items.append(f"<li><a href='{html.escape(address, quote=True)}' lang='{code}' hreflang='{code}'{mark}>"
                     f"{html.escape(name)}</a></li>")
    label = html.escape(gettext("Language", lang=current), quote=True)
    return f"<nav aria-label='{label}'><ul class='ct-languages'>{''.join(items)}</ul></nav>"
