"""The twins under test, for the tests that compare a compiled engine function with its pure-Python twin."""

import os
from contextlib import contextmanager

import pytest

# each engine module names its compiled twins (speedups.TWINS) as it is imported
from canasta_tutor.engine import counts, going_out, melds, pile, scoring, speedups  # noqa: F401


def twins(function: str):
    """``(compiled, pure)``: the compiled twin of the engine function named ``function`` (``"check_meld"``,
    ``"meld_facts"``, ``"check_take_pile"``, ``"check_go_out"``, ``"score_hand"``, the counting core's
    ``"place_every_card"`` and ``"most_meld_points"``), attached as the engine attaches
    it, also when the run asks for the pure engine (``CANASTA_TUTOR_PURE=1``), and its pure-Python twin. A failure
    in CI (gcc and the headers are there: the module must be built and fresh), a skip elsewhere when it cannot be
    used (of the whole test module when called at its top)."""
    compiled = speedups.attach(function, force=True)
    if compiled is None:
        module = speedups.TWINS[function].module
        why = f"the compiled module {module!r} of {function} is not used: {speedups.NOT_USED.get(module)}"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why, allow_module_level=True)
    return compiled, speedups.pure_twin(compiled)


@contextmanager
def deciding_alone(function: str):
    """The compiled twin of ``function`` (as :func:`twins` gives it) with nothing to fall back on while the block
    runs: a call it hands to Python fails the test. For the tests that make sure the compiled module answers the
    common call itself (one that handed every call to Python would pass every comparison and speed nothing up).
    Attached again as the engine attaches it afterwards."""
    compiled, _pure = twins(function)

    def fallback(*args, **kwargs):
        pytest.fail(f"the compiled {function} handed a call to Python: {args!r} {kwargs!r}")

    speedups.attach(function, force=True, fallback=fallback)
    try:
        yield compiled
    finally:
        speedups.attach(function, force=True)
