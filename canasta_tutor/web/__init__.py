"""The web app: the Voilà server of ``canasta-tutor serve``, its request handlers and the JupyterHub extension."""
