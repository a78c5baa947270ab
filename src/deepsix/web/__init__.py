"""A multiplayer web server and browser client for Deep Six (``pip install "deepsix[web]"``).

``deepsix serve`` (or ``python -m deepsix.web``) starts it;
:func:`deepsix.web.app.create_app` gives the ASGI application to run under
any ASGI server.  Tables are made and joined over HTTP and played over a
WebSocket per connection (:mod:`deepsix.web.protocol`), each seat proven by
a credential kept in an ``HttpOnly`` cookie; friends come by invite link;
empty seats, absent players and failing bots are played by bots thinking in
worker processes; every move is stored (:mod:`deepsix.web.store`) before
anyone sees it.  See the "Build a front end" page of the documentation for
the whole walk-through, the protocol and the threat model.

``import deepsix`` never imports this package, and importing this package
itself imports nothing more: the modules that need the ``web`` extra
(Starlette, uvicorn, websockets) are imported when used, so that the
``deepsix`` command can offer ``serve`` -- and say what to install -- even
where the extra is missing.
"""
