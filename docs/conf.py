"""Sphinx configuration for the deepsix documentation.

Build with ``nox -s docs`` (HTML with warnings as errors, then every
doctest), or directly::

    sphinx-build -W --keep-going -b html docs docs/_build/html
    sphinx-build -W --keep-going -b doctest docs docs/_build/doctest
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

import deepsix  # noqa: E402  (the path above must be set first)

project = "deepsix"
author = "The deepsix developers"
copyright = "2026, the deepsix developers"
release = deepsix.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_nb",  # MyST Markdown, and the pages that are notebooks run in a real kernel
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_autodoc_typehints",
    "sphinx_copybutton",
    "deepsix_docs",
]

source_suffix = {".md": "myst-nb", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_scripts", "matches", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# -- MyST ---------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "fieldlist", "attrs_inline"]
myst_heading_anchors = 3

# -- notebook pages (myst-nb) ----------------------------------------------------
# A page whose front matter says ``file_format: mystnb`` (docs/pictures.md) is a notebook: its
# ``{code-cell}`` blocks run, in order, in one IPython kernel when the docs are built, and each
# shows what Jupyter shows for its value -- a picture only for an object that gives one
# (``_repr_svg_``, ``_repr_html_``), its text otherwise.  Nothing is cached or committed, and
# a cell that raises fails the build.
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 300
nb_merge_streams = True

# -- HTML (furo: light and dark mode, search built in) -------------------------
html_theme = "furo"
html_title = f"deepsix {release}"
html_static_path = ["_static"]
html_css_files = ["deepsix.css"]
html_theme_options = {
    "source_repository": "",
    "navigation_with_keys": True,
}
html_show_sourcelink = False

# -- source pages (viewcode) -----------------------------------------------------
# A name documented where it is re-exported (LegalActions on the engine's page) would get a
# "[docs]" back-link, from its defining module's source page, to an anchor that does not exist
# there: the source links stay with the module that defines each name.
viewcode_follow_imported_members = False

# -- autodoc and type hints ----------------------------------------------------
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "signature"
typehints_use_signature = True
typehints_use_signature_return = True
typehints_document_rtype = False
always_document_param_types = False
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True

# Every cross-reference must resolve (-W turns a broken one into an error).
# intersphinx cannot reach docs.python.org offline, so standard-library and
# typing targets are declared unresolvable on purpose.
nitpicky = True
_BUILTINS = (
    "int|str|bool|bytes|object|None|type|tuple|list|dict|set|frozenset|range|float"
    "|Exception|ValueError|TypeError|KeyError"
)
_STDLIB = (
    "typing|typing_extensions|collections\\.abc|enum|random|types|attrs|attr|abc|pathlib"
    "|concurrent\\.futures|contextlib|argparse|io|json|asyncio|_asyncio|sqlite3|secrets|starlette"
    "|logging|multiprocessing"
)
_BARE = (
    "Final|TypeAlias|Iterable|Iterator|Sequence|Mapping|Callable|Random|Enum|IntEnum"
    "|Path|ProcessPoolExecutor|Executor|TextIO"
)
nitpick_ignore_regex = [
    (r"py:(class|obj|data|exc|func|meth|mod)", rf"(builtins\.)?({_BUILTINS})"),
    (r"py:(class|obj|data|func|meth|mod)", rf"({_STDLIB})(\..*)?"),
    (r"py:(class|obj)", rf"({_BARE})"),
    (r"py:class", r"attrs\.Attribute.*|Attribute"),
    # Private helpers that appear in public signatures but are not part of the API:
    # a TypeVar, and two internal aliases (reported to the lead).
    # Type variables of generic helpers.
    (r"py:class", r"deepsix\.(io\.serialization|io\.codec|io\.wire|play\.bots|play\.workers)\.T"),
    (r"py:class", r"deepsix\.compiled\._T"),
    (r"py:(class|obj)", r"deepsix\.web\.services\.(R|R_contra)"),  # the rooms served
    # The command line's terminal output types (rich has no inventory offline).
    (r"py:class", r"rich\..*"),
    # The JSON codec's converter (cattrs has no inventory offline).
    (r"py:class", r"cattrs\..*"),
    # The web server's Literal aliases (their values are listed where they are used).
    (r"py:class", r"(deepsix\.web\.\S+\.)?(TableStatus|Presence|Kind|Status)"),
]  # fmt: skip

# -- doctest -------------------------------------------------------------------
# Examples in the pages and in the library's docstrings run in this namespace.
doctest_global_setup = """
from deepsix import *
from deepsix.cards import *
from deepsix.actions import *
from deepsix.melds import *
from deepsix.tricks import *
from deepsix.scoring import *
from deepsix.rules import *
from deepsix.engine import *
from deepsix.state import *
from deepsix.errors import *
from deepsix.hands import pack
"""

# -- copy buttons: copy the code, not the prompts or the output ------------------
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_exclude = ".linenos, .gp, .go"
