"""The school's install as written: deploy/jupyterhub/z2jh-values.yaml against the values schema of the Zero to
JupyterHub chart version that the deploy README pins. Helm validates the chart's defaults merged with our values
against the chart's values.schema.json and refuses the install on any key the chart does not know.

tests/data/z2jh-4.2.0/ holds the chart's ``values.yaml`` (its defaults) and ``values.schema.json``, made from
``jupyterhub/values.schema.yaml`` as the chart's own ``tools/generate-json-schema.py`` makes it (descriptions
left out), at the tag 4.2.0 (commit b4b51301ac886511c643cc5d428b15ff38006bee) of
jupyterhub/zero-to-jupyterhub-k8s (BSD-3-Clause, its LICENSE beside them).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy" / "jupyterhub"
CHART = Path(__file__).resolve().parent / "data" / "z2jh-4.2.0"


def merged(defaults: dict, values: dict) -> dict:
    """Helm's merge of a chart's defaults and the values given: maps merge key by key, anything else replaces."""
    out = dict(defaults)
    for key, value in values.items():
        out[key] = merged(defaults[key], value) if isinstance(value, dict) and isinstance(defaults.get(key),
                                                                                             dict) else value
    return out


def problems(values: dict) -> list[str]:
    """What the chart's values schema says of ``values`` (the chart's defaults merged with them), as 'path: what'."""
    schema = json.loads((CHART / "values.schema.json").read_text())
    defaults = yaml.safe_load((CHART / "values.yaml").read_text())
    validator = jsonschema.Draft7Validator(schema)
    return sorted(f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(merged(defaults, values)))


def ours() -> dict:
    return yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())


def test_the_readme_pins_the_chart_version_whose_schema_is_here():
    readme = (DEPLOY / "README.md").read_text()
    pinned = set(re.findall(r"helm upgrade --install \S+ jupyterhub/jupyterhub --version (\S+)", readme))
    in_values = set(re.findall(r"--version (\S+)", (DEPLOY / "z2jh-values.yaml").read_text()))
    assert pinned == in_values == {CHART.name.removeprefix("z2jh-")}


def test_the_chart_knows_every_key_of_our_values():
    assert problems(ours()) == []


@pytest.mark.parametrize("path, value", [(("singleuser", "notebookDir"), "/opt/canasta-tutor/lessons"),
                                         (("singleuser", "storage", "kind"), "none"),
                                         (("culling",), {"enabled": True})])
def test_a_key_the_chart_does_not_know_is_refused(path, value):
    values = copy.deepcopy(ours())
    node = values
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    found = problems(values)
    assert len(found) == 1 and f"{path[-1]!r} was unexpected" in found[0], found


def test_the_keys_the_readme_tells_the_admin_to_edit_exist_in_the_chart():
    """Every ``singleuser.*`` / ``hub.*`` / ``cull.*`` path the deploy README names is a key of the chart."""
    schema = json.loads((CHART / "values.schema.json").read_text())
    named = set(re.findall(r"`((?:singleuser|hub|cull|proxy|scheduling)(?:\.[A-Za-z_]+)+)", (DEPLOY / "README.md")
                           .read_text()))
    assert {"singleuser.image", "singleuser.extraEnv", "cull.timeout"} <= named
    for path in named:
        node = schema
        for key in path.split("."):
            props = node.get("properties", {})
            if key in props:
                node = props[key]
            elif node.get("additionalProperties") is True or node.get("patternProperties"):
                break   # free-form below here (hub.config: any traitlets configuration)
            else:
                pytest.fail(f"the deploy README names {path}, which the chart does not know ({key!r})")


def test_the_lessons_folder_is_set_through_the_hub_and_is_where_the_image_puts_them():
    spawner = ours()["hub"]["config"]["Spawner"]
    workdir = re.search(r"^WORKDIR (\S+)$", (DEPLOY / "Dockerfile").read_text(), re.M).group(1)
    copied = re.search(r"^COPY \S+ \. (\S+)$", (DEPLOY / "Dockerfile").read_text(), re.M).group(1)
    assert spawner["notebook_dir"] == workdir == f"{copied}/lessons"
    assert "notebookDir" not in ours()["singleuser"]
