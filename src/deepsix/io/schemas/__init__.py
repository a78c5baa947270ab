"""The JSON Schemas of deepsix's documents, shipped as package data.

``state.schema.json``, ``record.schema.json`` and ``view.schema.json``
describe the documents :func:`deepsix.to_json` writes for a
:class:`~deepsix.GameState`, a :class:`~deepsix.GameRecord` and a
:class:`~deepsix.PlayerView` (JSON Schema draft 2020-12).  They are
generated from the types by :func:`deepsix.json_schema`; regenerate them
with ``python -m deepsix.io.schemas --schema src/deepsix/io/schemas`` and check
them with ``--check`` (the test suite does).  Read one with
:func:`deepsix.io.schema.load_schema`.
"""
