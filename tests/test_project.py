"""The project's shape: dependencies in step, layers kept apart, README and CI in step."""

import doctest
import re
import subprocess
import sys
import tomllib

import yaml


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_matches_pyproject(root):
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    wanted = {_name(r): r for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        wanted.update({_name(r): r for r in extra})
    env = yaml.safe_load((root / "environment.yml").read_text())
    have = {}
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            for r in dep.get("pip", []):
                if not r.startswith("-e"):
                    have[_name(r)] = r
        elif _name(dep) not in ("python", "pip"):
            have[_name(dep)] = dep
    assert set(have) == set(wanted)
    for name, requirement in wanted.items():
        assert requirement.replace(" ", "").lower() == have[name].replace(" ", "").lower(), name


def test_engine_imports_no_jupyter_and_no_pandas():
    code = ("import sys, canasta_tutor, canasta_tutor.cli, canasta_tutor.puzzles.format, canasta_tutor.puzzles.solver;"
            "bad = [m for m in ('ipywidgets', 'IPython', 'jupyter_core', 'pandas', 'traitlets') if m in sys.modules];"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_engine_modules_do_not_import_widgets(root):
    for path in (root / "canasta_tutor").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import|from)\s+(ipywidgets|IPython|anywidget|traitlets)", text, re.M), path


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_one(root):
    readme = (root / "README.md").read_text().splitlines()
    commands = [line.strip() for line in readme[:12] if line.startswith("    bash ")]
    assert commands == ["bash scripts/start.sh", "bash scripts/test.sh"]
    ci = (root / ".ci" / "run").read_text()
    assert "bash scripts/test.sh" in ci.splitlines()[-1]


def test_readme_examples_run(root):
    parser = doctest.DocTestParser()
    text = (root / "README.md").read_text()
    test = parser.get_doctest(text, {}, "README.md", str(root / "README.md"), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0


def test_schema_ships_with_the_package(root):
    from importlib import resources

    assert resources.files("canasta_tutor.puzzles").joinpath("schema/puzzle-set.schema.json").is_file()
