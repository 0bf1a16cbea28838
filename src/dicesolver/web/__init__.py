"""The local web app behind ``dicesolver serve`` (FastAPI): advisor, play, review and explore pages over
a JSON API under /api."""
