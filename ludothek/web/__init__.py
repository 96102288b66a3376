"""The web app: play every Ludothek game in the browser (``ludothek serve``)."""

from .app import create_app

__all__ = ["create_app"]
