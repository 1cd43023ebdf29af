"""Issue 17 item 2: the spec's ``backends:`` section is validated per backend.

Old behaviour: any key was accepted, so ``base_ur1:`` silently sent patient text and the key
to the default public endpoint, and ``api_key:`` was copied verbatim into manifest.json.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from clinaudit.cli.main import main
from clinaudit.errors import SpecError
from clinaudit.spec import load_spec, parse_spec_dict

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
OPENAI = yaml.safe_load((EXAMPLES / "treatment_shift-openai.yaml").read_text(encoding="utf-8"))
MOCK = yaml.safe_load((EXAMPLES / "treatment_shift-mock.yaml").read_text(encoding="utf-8"))


def _with(base: dict, model: str, **opts) -> dict:
    d = copy.deepcopy(base)
    d["backends"][model].update(opts)
    return d


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_spec_is_still_valid(path):
    spec, _ = load_spec(path)
    for model, opts in spec.backends.items():
        assert opts == yaml.safe_load(path.read_text(encoding="utf-8"))["backends"][model]


def test_typo_in_an_option_names_file_field_and_suggestion():
    d = _with(OPENAI, "openai:gpt-4o-mini", base_ur1="http://localhost:8000/v1")
    with pytest.raises(SpecError) as err:
        parse_spec_dict(d, "audit.yaml")
    msg = str(err.value)
    assert "audit.yaml" in msg
    assert "field 'backends.openai:gpt-4o-mini.base_ur1'" in msg
    assert "did you mean 'base_url'?" in msg


@pytest.mark.parametrize("field", ["api_key", "key", "openai_api_key", "token", "password"])
def test_a_key_in_the_spec_is_refused_with_a_pointer_to_api_key_env(field):
    d = _with(OPENAI, "openai:gpt-4o", **{field: "sk-live-123456789abcdef"})
    with pytest.raises(SpecError) as err:
        parse_spec_dict(d, "audit.yaml")
    msg = str(err.value)
    assert f"backends.openai:gpt-4o.{field}" in msg and "api_key_env" in msg
    assert "sk-live-123456789abcdef" not in msg


@pytest.mark.parametrize("header", ["Authorization", "api-key", "X-API-Key"])
def test_credential_headers_are_refused(header):
    d = _with(OPENAI, "openai:gpt-4o", headers={header: "Bearer sk-live-123"})
    with pytest.raises(SpecError, match="would carry a credential"):
        parse_spec_dict(d, "audit.yaml")
    ok = _with(OPENAI, "openai:gpt-4o", headers={"OpenAI-Organization": "org-1"})
    spec, _ = parse_spec_dict(ok, "audit.yaml")
    assert spec.backends["openai:gpt-4o"]["headers"] == {"OpenAI-Organization": "org-1"}


def test_a_pasted_key_as_api_key_env_is_refused():
    d = _with(OPENAI, "openai:gpt-4o", api_key_env="sk-proj-abc-123")
    with pytest.raises(SpecError, match="NAME of an environment variable"):
        parse_spec_dict(d, "audit.yaml")


def test_options_for_a_misspelt_model_or_unknown_backend_are_errors():
    d = copy.deepcopy(OPENAI)
    d["backends"]["openai:gpt-4o-mni"] = d["backends"].pop("openai:gpt-4o-mini")
    with pytest.raises(SpecError, match=r"'backends.openai:gpt-4o-mni': options for a model the spec does not use; "
                                        r"did you mean 'openai:gpt-4o-mini'\?"):
        parse_spec_dict(d, "audit.yaml")
    d = copy.deepcopy(MOCK)
    d["backends"]["opnai:x"] = {}
    with pytest.raises(SpecError, match=r"unknown model backend 'opnai'; did you mean 'openai'\?"):
        parse_spec_dict(d, "audit.yaml")


def test_option_types_are_checked_per_backend():
    d = _with(MOCK, "mock:a", embed_dim=0)
    with pytest.raises(SpecError, match=r"backends.mock:a.embed_dim': Input should be greater than or equal to 1"):
        parse_spec_dict(d, "audit.yaml")
    d = _with(MOCK, "mock:a", base_url="http://x")  # an openai option on a mock model
    with pytest.raises(SpecError, match=r"unknown option for the 'mock' backend"):
        parse_spec_dict(d, "audit.yaml")
    d = _with(OPENAI, "openai:gpt-4o", base_url="localhost:8000")
    with pytest.raises(SpecError, match="must start with http:// or https://"):
        parse_spec_dict(d, "audit.yaml")


def test_cli_run_reports_one_clear_error_and_writes_nothing(tmp_path, capsys):
    d = _with(OPENAI, "openai:gpt-4o-mini", api_key="sk-live-123456789abcdef", base_ur1="http://localhost")
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(d), encoding="utf-8")
    out = tmp_path / "run"
    assert main(["run", str(spec), "--out", str(out), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert str(spec) in err and "api_key_env" in err and "did you mean 'base_url'" in err
    assert "Traceback" not in err and "sk-live-123456789abcdef" not in err
    assert not out.exists()  # no manifest, so nothing that could hold the key


def test_plugin_backends_get_their_own_options_model_or_only_the_secret_check():
    from pydantic import BaseModel, ConfigDict

    from clinaudit.models.base import register_backend
    from clinaudit.models.mock import MockBackend

    class PlugOptions(BaseModel):
        model_config = ConfigDict(extra="forbid")
        endpoint: str = "local"

    @register_backend("testplug-free", summary="test", capabilities=["generate"])
    class Free(MockBackend):
        pass

    @register_backend("testplug-typed", summary="test", capabilities=["generate"], options_model=PlugOptions)
    class Typed(MockBackend):
        pass

    def spec(model: str, **opts) -> dict:
        return {"audit": MOCK["audit"], "models": {"target": model}, "backends": {model: opts},
                "params": MOCK.get("params", {})}

    s, _ = parse_spec_dict(spec("testplug-free:x", anything=1), "p.yaml")
    assert s.backends["testplug-free:x"] == {"anything": 1}
    with pytest.raises(SpecError, match="never put a key in a spec"):
        parse_spec_dict(spec("testplug-free:x", api_key="sk-1234567890"), "p.yaml")
    s, _ = parse_spec_dict(spec("testplug-typed:x", endpoint="remote"), "p.yaml")
    assert s.backends["testplug-typed:x"] == {"endpoint": "remote"}
    with pytest.raises(SpecError, match=r"unknown option for the 'testplug-typed' backend; did you mean 'endpoint'"):
        parse_spec_dict(spec("testplug-typed:x", endpont="remote"), "p.yaml")
