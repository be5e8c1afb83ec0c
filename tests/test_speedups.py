"""The compiled modules (``canasta_tutor/engine/_speedups``): built and used where a compiler is (CI), never used
when stale or when ``CANASTA_TUTOR_PURE`` is set. Whether each compiled path answers as its pure-Python twin is
tested beside the engine's fast paths (tests/test_fast_paths.py and the tests named there)."""

import os
from pathlib import Path

import pytest

from canasta_tutor.engine import speedups
from canasta_tutor.engine.cards import Card
from canasta_tutor.engine.rules import CLASSIC

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


def test_the_source_stamp_of_a_module_calling_the_core_covers_the_core_text(tmp_path):
    # goout.pyx and take.pyx cimport the functions counts.pyx compiles from engine/counts.py: a counts.py changed
    # since the build makes them stale too (never run with the old closed forms)
    (tmp_path / "sub").mkdir()
    folder = tmp_path / "sub"
    (tmp_path / "core.py").write_text("x = 1\n")
    (folder / "core.pyx").write_text('include "../core.py"\n')
    (folder / "user.pyx").write_text("from canasta_tutor.engine._speedups.core cimport f\n")
    (folder / "alone.pyx").write_text("y = 1\n")
    before = {n: speedups.source_sha(n, folder) for n in ("core", "user", "alone")}
    (tmp_path / "core.py").write_text("x = 2\n")
    after = {n: speedups.source_sha(n, folder) for n in ("core", "user", "alone")}
    assert after["core"] != before["core"] and after["user"] != before["user"] and after["alone"] == before["alone"]


# --- one way to attach a compiled module ------------------------------------------------------------------------
def test_every_compiled_module_is_attached_one_way():
    """Every _speedups module stands in for engine functions named by speedups.compiled, and the engine's modules use
    nothing else of speedups: no module is loaded or handed its pieces another way."""
    import re

    import compiled  # noqa: F401 (imports the engine modules that have compiled twins)

    assert sorted({twin.module for twin in speedups.TWINS.values()}) == NAMES
    assert sorted(speedups.TWINS) == ["check_go_out", "check_meld", "check_take_pile", "meld_facts", "most_meld_points",
                                      "place_every_card", "score_hand"]
    engine = Path(speedups.__file__).parent
    used = set()
    for path in sorted(engine.glob("*.py")):
        if path.name != "speedups.py":
            text = path.read_text(encoding="utf-8")
            used |= set(re.findall(r"\bspeedups\.(\w+)", text))
            assert "_speedups" not in text.replace("_speedups/", ""), path.name  # only named in comments as a folder
    assert used == {"compiled", "pure_twin"}, used


@pytest.mark.parametrize("function", ["check_go_out", "check_meld", "check_take_pile", "meld_facts", "most_meld_points",
                                      "place_every_card", "score_hand"])
def test_each_module_has_the_one_entry_and_refuses_a_wrong_call(function):
    from compiled import twins

    compiled, pure = twins(function)
    twin = speedups.TWINS[function]
    module = speedups.load(twin.module, force=True)
    try:
        assert module.attach(function, pure, **twin.pieces) is compiled
        with pytest.raises(ValueError, match="compiles"):
            module.attach("no_such_function", pure, **twin.pieces)
        with pytest.raises(TypeError):
            module.attach(function, pure, **twin.pieces, no_such_piece=None)
        if twin.pieces:
            first = next(iter(twin.pieces))
            with pytest.raises(TypeError):
                module.attach(function, pure, **{k: v for k, v in twin.pieces.items() if k != first})
    finally:
        speedups.attach(function, force=True)
    assert speedups.pure_twin(compiled) is pure is speedups.pure_twin(pure) is compiled.__wrapped__


def test_the_pure_twin_of_a_function_without_one_is_an_error():
    from canasta_tutor.engine import melds

    with pytest.raises(ValueError, match="has no compiled twin"):
        speedups.pure_twin(melds.check_add_to_meld)
    with pytest.raises(ValueError, match="has no compiled twin"):
        speedups.pure_twin(len)


NOTATION_CALLS = {  # a call in notation (meld_facts: a list of cards): every compiled twin hands it to its fall-back
    "check_go_out": (("KH KS 2C 9D", ["7H 7S 7D 7C 7H 7S 7D"]), {}),
    "check_meld": (("KH KS KD",), {}),
    "check_take_pile": (("7H 7S 4C", ["KH KS KD"], 0, "5D 7C"), {}),
    "meld_facts": (([Card("KH"), Card("KS"), Card("KD")], CLASSIC), {}),
    "score_hand": ((["KH KS KD"],), {}),
}


@pytest.mark.parametrize("function", sorted(NOTATION_CALLS))
def test_a_call_the_compiled_twin_does_not_decide_goes_to_the_fallback_it_was_handed(function):
    """What tests/compiled.py's deciding_alone relies on: attaching hands the module the fall-back it is given."""
    from compiled import twins

    compiled, pure = twins(function)
    args, kwargs = NOTATION_CALLS[function]
    asked = []

    def spy(*a, **k):
        asked.append(a)
        return pure(*a, **k)

    try:
        assert speedups.attach(function, force=True, fallback=spy) is compiled
        answer = compiled(*args, **kwargs)
    finally:
        speedups.attach(function, force=True)
    assert len(asked) == 1 and asked[0][0] == args[0] and answer == pure(*args, **kwargs)
    compiled(*args, **kwargs)  # attached again as the engine attaches it: the spy is asked no more
    assert len(asked) == 1
