"""A multiplayer web server and browser client for Deep Six (``pip install "deepsix[web]"``).

``deepsix serve`` (or ``python -m deepsix.web``) starts it;
:func:`deepsix.web.app.create_app` gives the ASGI application to run under
any ASGI server.  Tables are created and joined over HTTP, games are
played over a WebSocket per connection, each seat holding a secret token;
empty seats are played by bots; every move is stored in SQLite before
anyone sees it.  See the "Build a front end" page of the documentation for
the whole walk-through.

``import deepsix`` never imports this package, and importing this package
itself imports nothing more: the modules that need the ``web`` extra
(Starlette, uvicorn, websockets) are imported when used, so that the
``deepsix`` command can offer ``serve`` -- and say what to install -- even
where the extra is missing.
"""
