"""Build the optional compiled speed-ups of the rules engine (``canasta_tutor/engine/_speedups/*.pyx``, Cython).

Everything else is in ``pyproject.toml``. The package works without them: each compiled module has a pure-Python
twin in the engine, which answers when the module is missing (no compiler) or ``CANASTA_TUTOR_PURE=1`` is set
(``canasta_tutor/engine/speedups.py``).
"""

import importlib.util
from glob import glob
from pathlib import Path

from setuptools import setup

# canasta_tutor/engine/speedups.py (stdlib only) says what a module's source is: one definition for the build and the
# loader
_spec = importlib.util.spec_from_file_location("_speedups",
                                               Path(__file__).parent / "canasta_tutor" / "engine" / "speedups.py")
_speedups = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_speedups)

try:
    from Cython.Build import cythonize
except ImportError:  # a build without Cython: the pure-Python engine only
    extensions = []
else:
    extensions = cythonize(sorted(glob("canasta_tutor/engine/_speedups/*.pyx")), language_level=3, quiet=True)
    for extension in extensions:
        extension.optional = True  # no compiler: install anyway, the pure-Python engine answers
        # the SHA-256 of the source, so that canasta_tutor.engine.speedups never uses a module built from an older one
        (source,) = (s for s in extension.sources if s.endswith(".c"))
        sha = _speedups.source_sha(Path(source).stem, Path(source).parent)
        extension.define_macros.append(("CANASTA_SOURCE_SHA", f'"{sha}"'))
setup(ext_modules=extensions)
