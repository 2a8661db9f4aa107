"""Whether a model spec (``--model``, ``RESEARCH_MODEL``, ``RESEARCH_<ROLE>_MODEL``) names a
model ``init_chat_model`` can build, by its form alone: the check the settings' declarations
carry (``check=``), so every command treats a bad one as it treats any bad setting (refused by
a command that runs a model, warned about by ``threads``, ``inspect`` and ``prune``, hostile
trial H). What needs the provider (a key, a package, a server) is checked when the model is
built (:func:`app.llm.models.make_model`).
"""

from __future__ import annotations

from app.settings.spec import shown

__all__ = ["NAME_PREFIXES", "PROVIDERS", "check_model_spec", "no_model_name", "unknown_provider"]


def no_model_name(spec: str) -> str:
    """The line refusing ``"openai:"`` (it sent ``"model": ""`` to the provider)."""
    return (f"cannot use model {shown(spec)}: no model name after the provider; write "
            "provider:model (e.g. openai:gpt-4.1-mini) or offline")


def unknown_provider(spec: str) -> str:
    """The line refusing a spec whose provider LangChain cannot tell (its own line lists ~30
    providers: 330 characters)."""
    return (f"cannot use model {shown(spec)}: unknown provider; write provider:model (e.g. "
            "openai:gpt-4.1-mini, ollama:MODEL) or offline")


PROVIDERS = frozenset({
    "anthropic", "anthropic_bedrock", "azure_ai", "azure_openai", "baseten", "bedrock",
    "bedrock_converse", "bedrock_mantle_anthropic", "bedrock_mantle_openai", "cohere",
    "deepseek", "fireworks", "google_anthropic_vertex", "google_genai", "google_vertexai",
    "groq", "huggingface", "ibm", "langsmith", "litellm", "meta", "mistralai", "nvidia",
    "ollama", "openai", "openrouter", "perplexity", "together", "upstage", "xai"})
"""The providers ``init_chat_model`` documents (its ``model_provider`` argument's "Supported
values", LangChain 1.5.2): ``provider:model`` names one of them, spelled as listed.
``tests/app/test_model_spec_providers.py`` reads them from the installed LangChain's
docstring, so an upgrade that adds one fails the suite until this list has it."""

NAME_PREFIXES = ("gpt-", "o1", "o3", "claude", "amazon.", "anthropic.", "meta.", "gemini",
                 "command", "accounts/fireworks", "mistral", "mixtral", "deepseek", "grok",
                 "sonar", "solar", "chatgpt", "text-davinci")
"""The model-name prefixes from which ``init_chat_model`` documents it infers the provider of a
bare name ("Inferred providers by prefix (case-insensitive)"): ``claude-opus-4-7``."""


def check_model_spec(spec: str) -> None:
    """Refuse a spec that names no model by its form, as ``init_chat_model`` documents it
    parses one: ``provider:`` with no name, or neither a documented provider before a ``:``
    (:data:`PROVIDERS`) nor a bare name of a documented prefix (:data:`NAME_PREFIXES`):
    ``foo``, ``bogus:x``. ``offline`` and an empty spec pass (an empty one is the default, or
    refused by the flag's own check). Imports nothing: the settings of a command that runs
    no model (``threads``) are loaded without LangChain (issue 21, item 12), where this once
    imported LangChain's private ``_parse_model`` (and passed any spec had it gone).

    Raises:
        ValueError: one line (:func:`no_model_name`, :func:`unknown_provider`).
    """
    spec = spec.strip()
    if not spec or spec == "offline":
        return
    if spec.endswith(":"):
        raise ValueError(no_model_name(spec))
    provider = spec.split(":", 1)[0] if ":" in spec else None
    if provider not in PROVIDERS and not spec.lower().startswith(NAME_PREFIXES):
        raise ValueError(unknown_provider(spec))
