"""Jupyter widgets for canasta-tutor (ipywidgets). They depend on the engine, never the reverse."""

from .trainer import Trainer, load_puzzles

__all__ = ["Trainer", "load_puzzles"]
