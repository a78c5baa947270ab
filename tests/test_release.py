"""The release files: version, changelog, release workflow and Read the Docs configuration.

The workflows cannot run here; ``nox -s lint`` lints them with actionlint, and these tests
check what they promise (a tag releases the sdist, the pure wheel and compiled wheels for three
systems through trusted publishing, after ``tools/release_check.py``).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str) -> Any:
    """A script of ``tools/``, loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release_check = _script("release_check")


def load(path: str) -> Any:
    return yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))


# -- version and changelog ---------------------------------------------------------------------


def test_the_tree_is_in_shape_for_a_release() -> None:
    assert release_check.problems(ROOT, None) == []


def released_tree(tmp_path: Path, version: str, heading: str) -> Path:
    (tmp_path / "src" / "deepsix").mkdir(parents=True)
    (tmp_path / "src" / "deepsix" / "_version.py").write_text(f'__version__ = "{version}"\n')
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    changelog = "# Changelog\n\n## [Unreleased]\n\n" + heading + "\n\n### Added\n\n- Everything.\n"
    (tmp_path / "CHANGELOG.md").write_text(changelog)
    return tmp_path


def test_a_tag_releases_only_the_version_it_names_with_its_changelog(tmp_path: Path) -> None:
    tree = released_tree(tmp_path, "0.1.0", "## [0.1.0] - 2026-12-01")
    assert release_check.problems(tree, "v0.1.0") == []
    assert any("does not name" in p for p in release_check.problems(tree, "v0.1.1"))
    dev = released_tree(tmp_path / "dev", "0.1.0.dev0", "## [0.1.0] - 2026-12-01")
    assert any("development version" in p for p in release_check.problems(dev, "v0.1.0.dev0"))
    undated = released_tree(tmp_path / "undated", "0.1.0", "## [0.1.0]")
    assert any("no date" in p for p in release_check.problems(undated, "v0.1.0"))


def test_every_version_heading_names_a_tagged_release() -> None:
    """A ``## [X.Y.Z]`` heading is a release that happened: git has its tag ``vX.Y.Z``."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout (an unpacked sdist): no tags to compare with")
    tags = subprocess.run(
        ["git", "-C", str(ROOT), "tag", "--list"], capture_output=True, text=True, check=True
    ).stdout.split()
    headings = [name for name, _, _ in release_check.changelog_headings(ROOT)]
    assert headings[0] == "Unreleased"
    untagged = [name for name in headings[1:] if f"v{name}" not in tags]
    assert untagged == [], "CHANGELOG headings of releases that never happened"


def test_the_version_is_a_development_version_of_the_first_release() -> None:
    version = release_check.package_version(ROOT)
    import deepsix

    assert deepsix.__version__ == version
    assert version.startswith("0.1.0")


# -- the release workflow ------------------------------------------------------------------------


def test_the_release_workflow_builds_everything_and_publishes_on_a_tag() -> None:
    workflow = load(".github/workflows/release.yml")
    triggers = workflow[True]  # YAML reads the key `on` as True
    assert triggers["push"]["tags"] == ["v*"]
    jobs = workflow["jobs"]
    steps = {name: "\n".join(str(step) for step in job["steps"]) for name, job in jobs.items()}
    assert "tools/release_check.py --tag" in steps["check"]
    assert "--sdist" in steps["sdist-and-pure-wheel"]
    assert "--wheel" in steps["sdist-and-pure-wheel"]
    compiled = jobs["compiled-wheels"]
    systems = compiled["strategy"]["matrix"]["os"]
    assert {s.split("-")[0] for s in systems} == {"ubuntu", "windows", "macos"}
    assert "pypa/cibuildwheel@" in steps["compiled-wheels"]
    publish = jobs["publish"]
    assert set(publish["needs"]) == {"sdist-and-pure-wheel", "compiled-wheels", "native-wheels"}
    native = jobs["native-wheels"]
    assert {s.split("-")[0] for s in native["strategy"]["matrix"]["os"]} == {
        "ubuntu",
        "windows",
        "macos",
    }
    assert "'package-dir': 'native'" in steps["native-wheels"]
    assert "--sdist" in steps["native-wheels"]
    assert publish["permissions"] == {"id-token": "write"}  # trusted publishing, no token
    assert "pypa/gh-action-pypi-publish@" in steps["publish"]
    assert "password" not in steps["publish"]
    assert workflow["permissions"] == {"contents": "read"}
    others = [name for name, job in jobs.items() if name != "publish" and "permissions" in job]
    assert others == []


def test_cibuildwheel_builds_the_compiled_wheel_and_tests_it() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    cibw = config["tool"]["cibuildwheel"]
    assert cibw["environment"] == {"HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"}
    assert cibw["test-environment"] == {"DEEPSIX_EXPECT_BUILD": "mypyc"}
    assert "pytest" in cibw["test-command"]
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    assert hook["options"]["group_name"].startswith("deepsix.")  # runtime inside the package


def test_cibuildwheel_builds_the_native_kernel_and_tests_it_with_deepsix() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "native" / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["build-system"]["build-backend"] == "scikit_build_core.build"
    cibw = config["tool"]["cibuildwheel"]
    assert cibw["test-environment"] == {"DEEPSIX_REQUIRE_NATIVE": "1"}
    command = "\n".join(cibw["test-command"])
    assert "pip install {project}" in command
    assert "tests/search/test_native.py" in command


# -- Read the Docs -------------------------------------------------------------------------------


def test_read_the_docs_builds_the_same_site_with_warnings_as_errors() -> None:
    config = load(".readthedocs.yaml")
    assert config["version"] == 2
    assert config["sphinx"] == {
        "configuration": "docs/conf.py",
        "builder": "html",
        "fail_on_warning": True,
    }
    assert config["python"]["install"] == [
        {"method": "pip", "path": ".", "extra_requirements": ["web", "postgres"]}
    ]
    assert "python -m pip install --group docs" in config["build"]["jobs"]["post_install"]
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert 'install(session, "docs", extras="[web,postgres]")' in noxfile  # nox -s docs


# -- what a newcomer reads first ---------------------------------------------------------------


def test_the_front_page_says_how_to_install_every_extra() -> None:
    import tomllib

    page = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "## Install" in page, "the docs' front page has an install section"
    section = page.split("## Install", 1)[1].split("\n## ", 1)[0]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for extra in config["project"]["optional-dependencies"]:
        assert f"| `{extra}` |" in section, extra
    assert "pip install deepsix" in section
    assert 'pip install ".[web]"' in section  # from a source checkout, before a release


def test_the_readme_states_the_end_of_the_game_as_rule_r_end_1() -> None:
    from deepsix.rulebook import RULEBOOK

    rule = RULEBOOK["R-END-1"]
    assert "500" in rule
    assert "lower total wins" in rule
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "reaches 500 or more" in readme
    assert "the team with the lower total wins" in readme
    assert "past 500" not in readme


def test_the_docs_footer_years_cover_the_project() -> None:
    """The footer said (c) 2025; the project began in 2026 (the changelog's first date)."""
    import datetime
    import re

    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    found = re.search(r'^copyright = "(\d{4})(?:[-–](\d{4}))?, ', conf, re.MULTILINE)
    assert found is not None
    first = int(found.group(1))
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    years = [int(year) for year in re.findall(r"\b(20\d\d)-\d\d-\d\d\b", changelog)]
    assert first == min(years)
    assert int(found.group(2) or first) <= datetime.date.today().year
