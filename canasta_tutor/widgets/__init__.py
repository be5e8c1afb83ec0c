"""Jupyter widgets for canasta-tutor (ipywidgets). They depend on the engine, never the reverse."""

from . import kernel_guard  # noqa: F401  (checks every message from the browser; see its docstring)
from .trainer import Trainer, load_puzzles

__all__ = ["Trainer", "load_puzzles"]
