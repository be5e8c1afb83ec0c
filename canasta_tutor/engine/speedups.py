"""The engine's optional compiled modules (Cython, ``canasta_tutor/engine/_speedups/*.pyx``) and how they are found.

Each compiled module does, in C, a hot path whose pure-Python twin stays in the engine and answers whenever the
module is not there: no C compiler at install time, a build from a source tree whose ``.pyx`` changed since (a
stale module is never used: the module carries the SHA-256 of the source it was built from), or the environment
variable ``CANASTA_TUTOR_PURE=1`` (for tests and for comparing the two). Compiled and pure paths give the same
answers; the tests compare them on random inputs.

>>> load("no_such_module") is None
True
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent / "_speedups"
#: Why each module asked for is not used (module name -> reason): printed by benchmarks/twin.py, read by the tests.
NOT_USED: dict[str, str] = {}


def pure() -> bool:
    """True when ``CANASTA_TUTOR_PURE`` asks for the pure-Python engine only."""
    return os.environ.get("CANASTA_TUTOR_PURE", "").strip() not in ("", "0")


def source_sha(name: str, folder: Path = _HERE) -> str | None:
    """SHA-256 of what ``_speedups/<name>`` is built from as it is now: its ``.pyx`` and every ``.pxd`` of the
    folder (a module may ``cimport`` any of them); ``None`` when the source is not shipped. ``setup.py`` stamps each
    module with this at build time (it loads this file by path: stdlib only here)."""
    try:
        sha = hashlib.sha256((folder / f"{name}.pyx").read_bytes())
        for pxd in sorted(folder.glob("*.pxd")):
            sha.update(pxd.read_bytes())
    except OSError:
        return None
    return sha.hexdigest()


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
        NOT_USED[name] = (f"stale: _speedups/{name}.pyx or a .pxd changed since it was built (run scripts/test.sh "
                          "or pip install -e .)")
        return None
    return module
