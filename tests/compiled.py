"""The compiled module under test, for the tests that compare a compiled path with its pure-Python twin."""

import os

import pytest

from canasta_tutor.engine import speedups


def compiled_module(name: str):
    """``canasta_tutor.engine._speedups.<name>``, loaded even when the run asks for the pure engine
    (``CANASTA_TUTOR_PURE=1``); a failure in CI (gcc and the headers are there: the module must be built and fresh),
    a skip elsewhere when it cannot be used."""
    module = speedups.load(name, force=True)
    if module is None:
        why = speedups.NOT_USED.get(name)
        if os.environ.get("CI"):
            pytest.fail(f"the compiled module {name!r} is not used in CI: {why}")
        pytest.skip(f"the compiled module {name!r} is not used here: {why}")
    return module
