"""Compiled (Cython) hot paths of the engine; found and attached through :mod:`canasta_tutor.engine.speedups`, never
imported directly.

Every module here starts with the same lines, which give it the SHA-256 of the source it was built from (set by
``setup.py``), so that a module left over from an older source is not used::

    cdef extern from *:
        const char* CANASTA_SOURCE_SHA
    SOURCE_SHA = CANASTA_SOURCE_SHA.decode()

and has the same entry, ``attach(name, pure, **pieces)``: it hands the compiled function ``name`` the pure-Python
function it falls back on and the pieces it needs from the pure side (keyword arguments: a piece missing or unknown
is a ``TypeError``), and returns that compiled function (``speedups.attach`` dresses it as the pure one).
"""
