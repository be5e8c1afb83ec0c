"""A progress bar for long command-line runs (``generate``, ``play``): shown on a terminal, never in a pipe.

>>> import io
>>> with progress(3, "puzzles", stream=io.StringIO()) as bar:   # not a terminal: nothing is written
...     for _ in range(3):
...         bar.update(1)
>>> bar.n
3
"""

from __future__ import annotations

import sys


class _Silent:
    """Counts like a bar, shows nothing (output that is not a terminal, or a run too short to bother)."""

    def __init__(self, total: int | None):
        self.total = total
        self.n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, _text: str) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def progress(total: int | None, unit: str, *, stream=None, desc: str = "", minimum: int = 1):
    """A bar counting ``total`` ``unit``\\ s on ``stream`` (default standard error) when it is a terminal and
    ``total`` is at least ``minimum``; else an object with the same ``update``/``close`` that shows nothing.
    The bar is tqdm's."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty or (total is not None and total < minimum):
        return _Silent(total)
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", desc=desc or None, file=stream, leave=False, dynamic_ncols=True)


__all__ = ["progress"]
