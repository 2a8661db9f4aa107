"""Whether a model spec (``--model``, ``RESEARCH_MODEL``, ``RESEARCH_<ROLE>_MODEL``) names a
model ``init_chat_model`` can build, by its form alone: the check the settings' declarations
carry (``check=``), so every command treats a bad one as it treats any bad setting (refused by
a command that runs a model, warned about by ``threads``, ``inspect`` and ``prune``, hostile
trial H). What needs the provider (a key, a package, a server) is checked when the model is
built (:func:`app.llm.models.make_model`).
"""

from __future__ import annotations

from app.settings.spec import shown

__all__ = ["check_model_spec", "no_model_name", "unknown_provider"]


def no_model_name(spec: str) -> str:
    """The line refusing ``"openai:"`` (it sent ``"model": ""`` to the provider)."""
    return (f"cannot use model {shown(spec)}: no model name after the provider; write "
            "provider:model (e.g. openai:gpt-4.1-mini) or offline")


def unknown_provider(spec: str) -> str:
    """The line refusing a spec whose provider LangChain cannot tell (its own line lists ~30
    providers: 330 characters)."""
    return (f"cannot use model {shown(spec)}: unknown provider; write provider:model (e.g. "
            "openai:gpt-4.1-mini, ollama:MODEL) or offline")


def check_model_spec(spec: str) -> None:
    """Refuse a spec that names no model by its form: ``provider:`` with no name, or a provider
    ``init_chat_model`` cannot tell (``foo``, ``bogus:x``; LangChain's own parse of the spec,
    ``langchain.chat_models.base._parse_model``). ``offline`` and an empty spec pass (an empty
    one is the default, or refused by the flag's own check).

    Raises:
        ValueError: one line (:func:`no_model_name`, :func:`unknown_provider`).
    """
    spec = spec.strip()
    if not spec or spec == "offline":
        return
    if spec.endswith(":"):
        raise ValueError(no_model_name(spec))
    try:
        from langchain.chat_models.base import _parse_model
    except ImportError:  # pragma: no cover - another LangChain: left to init_chat_model
        return
    try:
        _parse_model(spec, None)
    except ValueError:
        raise ValueError(unknown_provider(spec)) from None
