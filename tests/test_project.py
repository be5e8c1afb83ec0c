"""The project's shape: dependencies in step, layers kept apart, README and CI in step."""

import ast
import doctest
import re
import subprocess
import sys
import tomllib
from pathlib import Path

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


#: The layers, bottom to top (docs/architecture.md): each imports only the layers below it (and itself).
LAYERS = ("engine", "game", "bots", "puzzles", "classroom", "web", "widgets")
#: Outside packages only some layers may use: Jupyter's front end only in widgets/, the servers in web/ and widgets/.
ONLY_IN = {"ipywidgets": {"widgets"}, "IPython": {"widgets"}, "anywidget": {"widgets"},
           "traitlets": {"web", "widgets"},
           "voila": {"web", "widgets"}, "jupyter_server": {"web", "widgets"}, "tornado": {"web", "widgets"},
           "jupyterhub": {"web", "widgets"}}


def _imports(path, package):
    """Every module ``path`` imports (module level or inside a function): absolute dotted names."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target
            yield from (f"{target}.{alias.name}" for alias in node.names)   # "from . import db": the module db


def layer_problems(root) -> list[str]:
    problems = []
    package_root = root / "canasta_tutor"
    for path in sorted(package_root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mine = parts[1] if len(parts) > 1 and parts[1] in LAYERS else None   # None: the top (cli, __init__)
        for target in _imports(path, package):
            names = target.split(".")
            if names[0] == "canasta_tutor" and len(names) > 1 and mine is not None:
                theirs = names[1] if names[1] in LAYERS else None
                if theirs is None and (package_root / f"{names[1]}.py").is_file():
                    problems.append(f"{path.relative_to(root)}: imports {target}, above every layer")
                elif theirs is not None and LAYERS.index(theirs) > LAYERS.index(mine):
                    problems.append(f"{path.relative_to(root)} ({mine}) imports {target} ({theirs}, a layer above)")
            elif names[0] in ONLY_IN and (mine or "top") not in ONLY_IN[names[0]]:
                problems.append(f"{path.relative_to(root)} ({mine or 'top'}) imports {names[0]}")
    return sorted(set(problems))


def test_every_module_imports_only_the_layers_below_it(root):
    modules = list((root / "canasta_tutor").rglob("*.py"))
    assert len(modules) > 60 and all((root / "canasta_tutor" / layer / "__init__.py").is_file() for layer in LAYERS)
    assert layer_problems(root) == []


def test_the_layer_check_sees_a_layer_above_and_a_widget_import(root, tmp_path):
    import shutil

    copy = tmp_path / "tree"
    shutil.copytree(root / "canasta_tutor", copy / "canasta_tutor", ignore=shutil.ignore_patterns("*.so", "*.c"))
    melds = copy / "canasta_tutor" / "engine" / "melds.py"
    melds.write_text(melds.read_text() + "\n\ndef _late():\n    from ..game import Game\n")
    (copy / "canasta_tutor" / "game" / "peek.py").write_text("import ipywidgets\nfrom canasta_tutor import cli\n")
    assert layer_problems(copy) == [
        "canasta_tutor/engine/melds.py (engine) imports canasta_tutor.game (game, a layer above)",
        "canasta_tutor/engine/melds.py (engine) imports canasta_tutor.game.Game (game, a layer above)",
        "canasta_tutor/game/peek.py (game) imports ipywidgets",
        "canasta_tutor/game/peek.py: imports canasta_tutor.cli, above every layer",
    ]


def test_no_tracked_file_is_over_one_megabyte(root):
    """A wheel or a data dump committed by accident makes every clone slower for good."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout.split(b"\0")
    sizes = {name.decode(): (root / name.decode()).stat().st_size for name in files if name}
    assert len(sizes) > 100
    assert {name: size for name, size in sizes.items() if size > 1_000_000} == {}


def test_ruff_is_clean_and_run_by_the_test_command(root):
    assert "ruff check" in (root / "scripts" / "test.sh").read_text()
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", str(root)], cwd=root,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


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


def test_the_architecture_page_names_every_layer_and_module(root):
    """docs/architecture.md matches the code: a row per layer folder naming each of its modules and subfolders."""
    doc = (root / "docs" / "architecture.md").read_text("utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)/` \| (.*) \|$", doc, re.M)}
    assert list(rows) == list(LAYERS)
    for layer, row in rows.items():
        folder = root / "canasta_tutor" / layer
        names = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
        names |= {f"{p.name}/" for p in folder.iterdir() if p.is_dir() and not p.name.startswith("__")}
        missing = {name for name in names if f"`{name}`" not in row and f"`{name.lstrip('_')}`" not in row}
        assert not missing, (layer, sorted(missing))


def test_every_test_file_that_starts_a_server_or_a_browser_runs_in_the_servers_group(root):
    """scripts/test.sh runs two pytest workers; the files that start a web server, a browser or a hub must stay in
    tests/conftest.py's one group, else two servers meet on the same ports and under each other's time limits."""
    from conftest import SERVER_FILES

    starts = ("with serve(", "run_server(", "sync_playwright", "free_port(", "free_ports(", "Popen(")
    found = {f.name for f in (root / "tests").glob("test_*.py")
             if f.name != Path(__file__).name and any(s in f.read_text() for s in starts)}
    assert found - SERVER_FILES == set(), "add these files to SERVER_FILES in tests/conftest.py"
    assert SERVER_FILES - {f.name for f in (root / "tests").glob("test_*.py")} == set(), "no such test file"
