"""The JupyterHub extension's old name, kept for deployments that name it: it is :mod:`canasta_tutor.web.hub`."""
from .web.hub import _jupyter_server_extension_points, _load_jupyter_server_extension  # noqa: F401
