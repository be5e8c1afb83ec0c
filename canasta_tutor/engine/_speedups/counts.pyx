cdef extern from *:
    const char* CANASTA_SOURCE_SHA
SOURCE_SHA = CANASTA_SOURCE_SHA.decode()

# The counting core compiled: the text of canasta_tutor/engine/counts.py itself (one source, no copy), compiled by
# Cython as canasta_tutor.engine._speedups.counts. The pure-Python module is its twin and its fallback
# (canasta_tutor/engine/speedups.py); speedups.source_sha hashes the included file too, so a module built from an
# older counts.py is never used.
include "../counts.py"


def attach(name, pure):
    """The compiled entry ``name`` (``place_every_card`` or ``most_meld_points``); ``pure`` is its pure twin (every
    call is decided here: the same programme, compiled)."""
    if name not in ("place_every_card", "most_meld_points"):
        raise ValueError(f"_speedups/counts compiles no {name!r}")
    return globals()[name]
