"""The model factory (``app/llm/models.py``) from the settings: the client's retries, timeout and
shared rate limiter, the base URL named without credentials, a config error for a model that
cannot be used, and no key ever shown."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from app.llm.models import (
    LOCAL_SERVER_API_KEY,
    describe_model,
    make_model,
    model_provider,
    structured_output,
)
from app.settings.config import ConfigError, Settings

KEY = "sk-test-CONFIGCANARY-0123456789abcdef"


def _settings(**kw) -> Settings:
    return Settings(**{"model": "openai:gpt-4.1-mini", "openai_api_key": KEY, **kw})


def test_real_model_gets_no_client_retries_a_timeout_and_the_shared_rate_limiter():
    s = _settings(timeout=7.5, requests_per_second=3.0)
    a = make_model("openai:gpt-4.1-mini", s)
    b = make_model("openai:gpt-4.1-nano", s)
    assert not a.offline
    assert a.model.max_retries == 0 and a.model.root_client.max_retries == 0
    assert a.model.request_timeout == 7.5
    assert a.model.rate_limiter is not None and a.model.rate_limiter is b.model.rate_limiter
    assert a.model.openai_api_key.get_secret_value() == KEY
    assert KEY not in repr(a.model) and KEY not in a.label


def test_zero_requests_per_second_means_no_limiter():
    # No requests-per-second bucket; what is left is the provider's Retry-After gate, which
    # never waits while no server asked it to (app/llm/provider.py).
    limiter = make_model("openai:gpt-4.1-mini", _settings(requests_per_second=0)).model.rate_limiter
    assert limiter.inner is None and limiter.gate.remaining() == 0
    assert all(limiter.acquire(blocking=False) for _ in range(1000))


def test_base_url_is_passed_and_named_without_credentials():
    s = _settings(openai_base_url="http://user:secret@127.0.0.1:8000/v1?token=abc")
    choice = make_model("openai:gpt-4.1-mini", s)
    assert str(choice.model.root_client.base_url).startswith("http://user:secret@127.0.0.1:8000")
    assert choice.label == "openai:gpt-4.1-mini via http://127.0.0.1:8000/v1"
    assert "secret" not in choice.label and "token" not in choice.label


def test_local_server_needs_no_key():
    s = Settings(model="openai:llama3.1", openai_base_url="http://127.0.0.1:11434/v1")
    choice = make_model(s.model, s)
    assert choice.model.openai_api_key.get_secret_value() == LOCAL_SERVER_API_KEY


def test_openai_model_without_key_or_base_url_is_a_config_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="needs OPENAI_API_KEY"):
        make_model("openai:gpt-4.1-mini", Settings(model="openai:gpt-4.1-mini"))


@pytest.mark.parametrize("spec", ["", "   "])
def test_empty_model_is_a_config_error(spec):
    with pytest.raises(ConfigError):
        make_model(spec, _settings())


def test_unknown_provider_is_a_config_error_without_the_key():
    with pytest.raises(ConfigError) as info:
        make_model("nosuchprovider:some-model", _settings())
    assert KEY not in str(info.value)


def test_offline_model():
    choice = make_model("offline", _settings())
    assert choice.offline and choice.label == "offline (deterministic, extractive)"
    assert describe_model("offline", _settings(openai_base_url="http://x/v1")) == choice.label


def test_model_provider():
    assert model_provider("openai:gpt-4.1-mini") == "openai"
    assert model_provider("gpt-4.1-mini") == "openai"
    assert model_provider("ollama:llama3.1:8b") == "ollama"
    assert model_provider("anthropic:claude-x") == "anthropic"
    assert model_provider("llama3") is None


class _Schema(BaseModel):
    value: str


def test_structured_output_asks_for_function_calling_where_the_model_takes_a_method():
    calls = []

    class WithMethod:
        def with_structured_output(self, schema, *, include_raw=False, method="json_schema"):
            calls.append((schema, include_raw, method))

    class WithoutMethod:
        def with_structured_output(self, schema, *, include_raw=False, **kwargs):
            calls.append((schema, include_raw, kwargs))

    structured_output(WithMethod(), _Schema)
    structured_output(WithoutMethod(), _Schema)
    assert calls == [(_Schema, True, "function_calling"), (_Schema, True, {})]
