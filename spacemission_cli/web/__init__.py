"""The web page of ``spacemission serve``: a Starlette app (:func:`app.create_app`) with a
small JSON API over :class:`spacemission_cli._table.Table`, the game store and the replay
library (what it does to a request before the routes, the Host check and the body's deadline,
type and size, in ``intake``), and the static page (``static/``: plain HTML, JavaScript and
CSS, no build step). The API is documented in docs/play.md."""
