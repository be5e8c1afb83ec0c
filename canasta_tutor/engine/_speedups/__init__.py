"""Compiled (Cython) hot paths of the engine; found through :mod:`canasta_tutor.engine.speedups`, never imported
directly.

Every module here starts with the same lines, which give it the SHA-256 of the source it was built from (set by
``setup.py``), so that a module left over from an older source is not used::

    cdef extern from *:
        const char* CANASTA_SOURCE_SHA
    SOURCE_SHA = CANASTA_SOURCE_SHA.decode()
"""
