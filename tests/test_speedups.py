"""The compiled modules (``canasta_tutor/engine/_speedups``): built and used where a compiler is (CI), never used
when stale or when ``CANASTA_TUTOR_PURE`` is set. Whether each compiled path answers as its pure-Python twin is
tested beside the engine's fast paths (tests/test_fast_paths.py and the tests named there)."""

import os
from pathlib import Path

import pytest

from canasta_tutor.engine import speedups

NAMES = sorted(p.stem for p in (Path(speedups.__file__).parent / "_speedups").glob("*.pyx"))


def test_there_are_compiled_modules():
    assert NAMES


@pytest.mark.parametrize("name", NAMES)
def test_built_and_used_in_ci(name, monkeypatch):
    monkeypatch.delenv("CANASTA_TUTOR_PURE", raising=False)
    module = speedups.load(name)
    if os.environ.get("CI"):  # the CI machine has gcc and the Python headers: the module must be built and fresh
        assert module is not None, speedups.NOT_USED.get(name)
    if module is not None:
        assert module.SOURCE_SHA == speedups.source_sha(name)
        assert module.__file__.endswith(".so")


@pytest.mark.parametrize("name", NAMES)
def test_a_stale_module_is_not_used(name, monkeypatch):
    monkeypatch.delenv("CANASTA_TUTOR_PURE", raising=False)
    monkeypatch.setattr(speedups, "source_sha", lambda _name: "0" * 64)  # as if the .pyx had changed since the build
    assert speedups.load(name) is None
    assert speedups.NOT_USED[name].startswith("stale")


@pytest.mark.parametrize("name", NAMES)
def test_pure_asks_for_the_python_engine(name, monkeypatch):
    monkeypatch.setenv("CANASTA_TUTOR_PURE", "1")
    assert speedups.load(name) is None
    assert speedups.NOT_USED[name] == "CANASTA_TUTOR_PURE is set"


def test_the_source_stamp_covers_the_pyx_and_every_pxd(tmp_path):
    # a module may cimport any .pxd of the folder: changing one makes every module stale (setup.py stamps the same)
    (tmp_path / "a.pyx").write_text("x = 1\n")
    (tmp_path / "shared.pxd").write_text("cdef int y\n")
    before = speedups.source_sha("a", tmp_path)
    (tmp_path / "shared.pxd").write_text("cdef int z\n")
    assert speedups.source_sha("a", tmp_path) != before
    (tmp_path / "a.pyx").write_text("x = 2\n")
    assert speedups.source_sha("a", tmp_path) not in (before, None)
    assert speedups.source_sha("missing", tmp_path) is None
