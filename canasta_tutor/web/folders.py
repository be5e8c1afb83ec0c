"""Where the app's folders are: the lessons beside the package (a checkout or an editable install), else in the
current folder. Apart from ``app`` so that a lesson's kernel can ask without importing the server (Jupyter
server, tornado and jinja2: about 0.8 s and several MB in each of a class's kernels)."""

from __future__ import annotations

from pathlib import Path


def default_lessons_dir() -> Path:
    here = Path(__file__).resolve().parents[2] / "lessons"
    return here if here.is_dir() else Path.cwd() / "lessons"
