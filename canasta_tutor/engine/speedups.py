"""The engine's optional compiled modules (Cython, ``canasta_tutor/engine/_speedups/*.pyx``): how they are found and
attached.

Each compiled module does, in C, a hot path whose pure-Python twin stays in the engine and answers whenever the
module is not there: no C compiler at install time, a build from a source tree whose ``.pyx`` changed since (a
stale module is never used: the module carries the SHA-256 of the source it was built from), or the environment
variable ``CANASTA_TUTOR_PURE=1`` (for tests and for comparing the two). Compiled and pure paths give the same
answers; the tests compare them on random inputs.

One way to attach one: below the pure function, its module writes ::

    check_meld = speedups.compiled("meld", check_meld, verdict_type=MeldVerdict, ...)

which gives the compiled function of ``_speedups/meld.pyx`` (its entry ``attach(name, pure, **pieces)`` hands it
the pure function, to answer every call it does not decide, and the pieces it needs from the pure side), dressed
as the pure one (name, docstring, signature), or the pure function itself when the module is not used.
:func:`pure_twin` gives the pure function back, whichever of the two the engine uses.

>>> load("no_such_module") is None
True
>>> from canasta_tutor.engine.melds import check_meld
>>> pure_twin(check_meld).__module__, pure_twin(check_meld) is pure_twin(pure_twin(check_meld))
('canasta_tutor.engine.melds', True)
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
from collections.abc import Callable
from functools import update_wrapper
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

_HERE = Path(__file__).resolve().parent / "_speedups"
#: Why each module asked for is not used (module name -> reason): printed by benchmarks/twin.py, read by the tests.
NOT_USED: dict[str, str] = {}


def pure() -> bool:
    """True when ``CANASTA_TUTOR_PURE`` asks for the pure-Python engine only."""
    return os.environ.get("CANASTA_TUTOR_PURE", "").strip() not in ("", "0")


def source_sha(name: str, folder: Path = _HERE) -> str | None:
    """SHA-256 of what ``_speedups/<name>`` is built from as it is now: its ``.pyx``, every ``.pxd`` of the
    folder (a module may ``cimport`` any of them), the files it includes (``counts.pyx``: ``engine/counts.py``) and
    those of the modules whose C functions it cimports (``goout.pyx``, ``take.pyx``: ``engine/counts.py``);
    ``None`` when the source is not shipped. ``setup.py`` stamps each module with this at build time (it loads this
    file by path: stdlib only here)."""
    try:
        source = (folder / f"{name}.pyx").read_bytes()
        sha = hashlib.sha256(source)
        for pxd in sorted(folder.glob("*.pxd")):
            sha.update(pxd.read_bytes())
        for included in _INCLUDE.findall(source):   # a module compiled from an engine file's text (counts.pyx)
            sha.update((folder / included.decode()).read_bytes())
        for other in _CIMPORT.findall(source):   # a module that calls another's C functions (counts' closed forms)
            for included in _INCLUDE.findall((folder / f"{other.decode()}.pyx").read_bytes()):
                sha.update((folder / included.decode()).read_bytes())
    except OSError:
        return None
    return sha.hexdigest()


#: ``include "<file>"`` lines of a ``.pyx``: the files whose text it compiles (relative to ``_speedups``)
_INCLUDE = re.compile(rb'^include "([^"]+)"', re.MULTILINE)
#: ``from canasta_tutor.engine._speedups.<name> cimport ...`` lines: the compiled modules whose C functions it calls
#: (their included files are part of its source: a change there makes it stale too)
_CIMPORT = re.compile(rb'^from canasta_tutor\.engine\._speedups\.(\w+) cimport', re.MULTILINE)


def load(name: str, *, force: bool = False) -> ModuleType | None:
    """The compiled module ``canasta_tutor.engine._speedups.<name>``, or ``None`` when it must not or cannot be used
    (the reason goes into :data:`NOT_USED`). ``force``: load it even when ``CANASTA_TUTOR_PURE`` is set (for the
    tests that compare it with its pure twin)."""
    if pure() and not force:
        NOT_USED[name] = "CANASTA_TUTOR_PURE is set"
        return None
    try:
        module = importlib.import_module(f"canasta_tutor.engine._speedups.{name}")
    except ImportError as error:
        NOT_USED[name] = f"not built ({error})"
        return None
    now = source_sha(name)
    if now is not None and getattr(module, "SOURCE_SHA", None) != now:
        NOT_USED[name] = (f"stale: _speedups/{name}.pyx, a .pxd or a file it includes changed since it was built "
                          "(run scripts/test.sh or pip install -e .)")
        return None
    return module


_F = TypeVar("_F", bound=Callable[..., Any])


class Twin(NamedTuple):
    """An engine function that has a compiled twin: the compiled ``module`` (its name in ``_speedups``), the
    ``pure`` function and the ``pieces`` the compiled one is handed besides it."""

    module: str
    pure: Callable
    pieces: dict


#: The engine functions that have a compiled twin, by name (filled in by :func:`compiled` as the engine's modules
#: are imported); read by :func:`attach` and the tests.
TWINS: dict[str, Twin] = {}


def compiled(module: str, pure: _F, /, **pieces) -> _F:
    """``pure``'s compiled twin from ``_speedups/<module>`` when that module is used, else ``pure`` itself: the one
    way the engine attaches a compiled module, once per function, below its pure definition. ``pieces``: what the
    compiled function needs from the pure side besides ``pure`` (its verdict type, the writer of its lazy reasons...),
    by keyword: the module's ``attach`` refuses a piece missing or unknown."""
    TWINS[pure.__name__] = Twin(module, pure, pieces)
    return attach(pure.__name__) or pure


def attach(function: str, *, force: bool = False, fallback: Callable | None = None) -> Callable | None:
    """The compiled twin of the engine function named ``function``, attached: its module's
    ``attach(function, pure, **pieces)``, dressed as the pure function (name, docstring, signature; ``__wrapped__``
    is the pure function). ``None`` when the module is not used (:data:`NOT_USED` says why). ``force``: load it
    even when ``CANASTA_TUTOR_PURE`` is set (for the tests that compare the twins); ``fallback``: what it hands the
    calls it does not decide instead of the pure function (a test's spy). A module holds one compiled function per
    name: attaching again replaces what it was handed, for every caller."""
    twin = TWINS[function]
    module = load(twin.module, force=force)
    if module is None:
        return None
    entry = module.attach(function, twin.pure if fallback is None else fallback, **twin.pieces)
    return update_wrapper(entry, twin.pure)


def pure_twin(function: Callable) -> Callable:
    """The pure-Python function of an engine function that has a compiled twin, whether ``function`` is the
    compiled one or the pure one. :class:`ValueError` for a function without a compiled twin."""
    twin = TWINS.get(getattr(function, "__name__", ""))
    if twin is None or (function is not twin.pure and getattr(function, "__wrapped__", None) is not twin.pure):
        raise ValueError(f"{function!r} has no compiled twin (the engine's are {', '.join(sorted(TWINS))})")
    return twin.pure
