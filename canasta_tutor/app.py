"""``canasta-tutor serve``: the lessons as a web app, with Voilà.

* the landing page (``lessons/index.ipynb``) comes first: ``/`` redirects to it;
* everything is served from this machine: our ``canasta`` template is Voilà's
  ``lab`` template without its CDN stylesheets;
* learners see no source code and no traceback (``strip_sources``, ``show_tracebacks`` off);
* kernels are preheated: one kernel per notebook runs the notebook ahead of the
  first visitor, so a lesson appears as soon as it is asked for;
* idle kernels are culled (a class leaves tabs open); progress is saved on every
  answer, so culling loses nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

TEMPLATE_ROOT = Path(__file__).resolve().parent / "share" / "jupyter"
DEFAULT_PORT = 8866
STATIC_CACHE_SECONDS = 3600


def default_lessons_dir() -> Path:
    here = Path(__file__).resolve().parent.parent / "lessons"
    return here if here.is_dir() else Path.cwd() / "lessons"


def voila_arguments(lessons: Path, *, port: int, open_browser: bool, preheat: bool, cull_idle: int,
                    ip: str = "127.0.0.1") -> list[str]:
    args = [
        str(lessons),
        f"--port={port}",
        f"--Voila.ip={ip}",
        "--Voila.port_retries=0",
        "--template=canasta",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        f"--VoilaConfiguration.preheat_kernel={preheat}",
        "--VoilaConfiguration.default_pool_size=1",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle}",
        "--MappingKernelManager.cull_interval=60",
        "--MappingKernelManager.cull_connected=True",
        # Preheating runs every lesson at start-up at once; on a small machine a widget's output may take
        # longer than nbclient's default 4 s to arrive, and would then be dropped from the page.
        "--VoilaExecutor.iopub_timeout=60",
    ]
    if not open_browser:
        args.append("--no-browser")
    return args


def serve(lessons: str | os.PathLike | None = None, *, port: int = DEFAULT_PORT, open_browser: bool = True,
          preheat: bool = True, cull_idle: int = 1800) -> None:
    """Start Voilà on the lessons (blocks until stopped)."""
    lessons = Path(lessons) if lessons else default_lessons_dir()
    if not (lessons / "index.ipynb").is_file():
        raise FileNotFoundError(f"no lessons found: {lessons / 'index.ipynb'} does not exist")
    paths = [str(TEMPLATE_ROOT)] + [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(paths)

    import tornado.web
    from jupyter_server.utils import url_path_join
    from voila.app import Voila
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.static_file_handler import MultiStaticFileHandler

    class ShutdownOnLeaveHandler(VoilaShutdownKernelHandler):
        """Voilà's page asks, as it closes, for its kernel to be shut down, with a beacon that carries no
        XSRF token; without this the request is refused and the kernel lives on until it is culled."""

        def check_xsrf_cookie(self):
            return None

    class CachedStaticFileHandler(MultiStaticFileHandler):
        """Voilà's front-end bundle (about 10 MB in 90 files) may stay in the browser's cache for an
        hour, so that going from lesson to lesson does not ask for every file again."""

        def get_cache_time(self, path, modified, mime_type):
            return STATIC_CACHE_SECONDS

    class CanastaVoila(Voila):
        """Voilà whose root page is the lessons' landing page."""

        def init_handlers(self):
            handlers = []
            for handler in super().init_handlers():
                if handler[1] is MultiStaticFileHandler:
                    handler = (handler[0], CachedStaticFileHandler) + tuple(handler[2:])
                elif handler[1] is VoilaShutdownKernelHandler:
                    handler = (handler[0], ShutdownOnLeaveHandler) + tuple(handler[2:])
                handlers.append(handler)
            landing = url_path_join(self.server_url, "voila/render/index.ipynb")
            return [(self.server_url, tornado.web.RedirectHandler, {"url": landing})] + handlers

    CanastaVoila.launch_instance(argv=voila_arguments(lessons.resolve(), port=port, open_browser=open_browser,
                                                      preheat=preheat, cull_idle=cull_idle))
