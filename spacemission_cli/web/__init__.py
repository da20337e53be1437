"""The web page of ``spacemission serve``: a Starlette app (:func:`app.create_app`) with a
small JSON API over :class:`spacemission_cli._table.Table`, the game store and the replay
library, and the static page (``static/``: plain HTML, JavaScript and CSS, no build step).
The API is documented in docs/play.md."""
