"""Which language a request reads (a minimal stand-in: only ``?lang=``; the full version, with the cookie, the
learner's choice, the class default and ``Accept-Language``, replaces this module).

:data:`LANGUAGE_HEADER` carries the language from the server to the page's kernel (Voilà passes it on as the
environment variable ``HTTP_X_CANASTA_LANGUAGE``, as it does the identity header).
"""

from __future__ import annotations

from ..engine.i18n import SOURCE_LANGUAGE, LanguageError, normalise_language

LANGUAGE_HEADER = "X-Canasta-Language"


def request_language(request) -> str:
    """The language of ``request`` (a Tornado ``HTTPServerRequest``, or a handler): ``?lang=nl`` if it names one of
    the languages, else English."""
    request = getattr(request, "request", request)
    values = (getattr(request, "query_arguments", None) or {}).get("lang") or []
    for value in values:
        try:
            return normalise_language(value.decode("utf-8", "replace") if isinstance(value, bytes) else value)
        except LanguageError:
            continue
    return SOURCE_LANGUAGE
