"""Filling a response format's JSON schema with quoted, cited sentences.

Array fields get between ``minItems``/``maxItems`` items (or what their description says: "two to
five", "at most 3"); in an item, ref-like string fields (``ref``, ``source``, ``citation``...) get
the sentence's ``ref`` and the first other string the sentence itself. Local ``$ref``s and
``Optional`` (``anyOf`` with null) are followed.
"""

from __future__ import annotations

import re
from typing import Any

from app.llm.offline.relevance import code_stems, entry_stems, select
from app.llm.offline.sentences import Sentence
from app.llm.offline.words import META_WORDS, STOPWORDS, asked_stems, stems

__all__ = ["SchemaFiller"]

# How many items an array field gets when neither its JSON schema nor its description says.
_DEFAULT_MIN_ITEMS = 1
_DEFAULT_MAX_ITEMS = 3

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_N = r"(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)"
_RANGE = re.compile(rf"\b{_N}\s*(?:to|-|–|—|or)\s*{_N}\b", re.IGNORECASE)
_AT_MOST = re.compile(rf"\b(?:up to|at most|no more than|maximum of)\s+{_N}\b", re.IGNORECASE)
_AT_LEAST = re.compile(rf"\b(?:at least|minimum of)\s+{_N}\b", re.IGNORECASE)
_REF_TOKENS = frozenset(
    {"ref", "refs", "reference", "references", "source", "sources", "citation", "citations", "cite"}
)


def _num(token: str) -> int:
    return int(token) if token.isdigit() else _NUMBER_WORDS[token.lower()]


def _bounds(schema: dict[str, Any]) -> tuple[int, int]:
    """How many items an array gets: ``minItems``/``maxItems``, else hints in its description."""
    low, high = _DEFAULT_MIN_ITEMS, _DEFAULT_MAX_ITEMS
    description = str(schema.get("description") or "")
    if m := _RANGE.search(description):
        low, high = sorted((_num(m.group(1)), _num(m.group(2))))
    if m := _AT_MOST.search(description):
        high = _num(m.group(1))
    if m := _AT_LEAST.search(description):
        low = _num(m.group(1))
        high = max(high, low)
    if isinstance(schema.get("minItems"), int):
        low = schema["minItems"]
        high = max(high, low)
    if isinstance(schema.get("maxItems"), int):
        high = schema["maxItems"]
        low = min(low, high)
    return low, high


_SKIP = object()  # "leave this optional property out"


def _is_ref_name(name: str) -> bool:
    tokens = re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", name)
    return any(t.lower() in _REF_TOKENS for t in tokens if t)


class SchemaFiller:
    """Fills a JSON schema with sentences of the retrieved passages (see the module docstring)."""

    def __init__(self, root: dict[str, Any], sentences: list[Sentence], question: str) -> None:
        self.root = root
        self.sentences = sentences
        self.question = asked_stems(question)  # and the symbols it asks: "<=" (trial 117)
        self.code = code_stems(question)  # words written as code: matched whole
        self.entries = entry_stems(question)  # the words that may name an entry
        self.used: set[str] = set()  # texts already given to a field (no sentence twice)
        self.used_order: list[Sentence] = []  # the same sentences, in the order they were given

    def resolve(self, schema: Any) -> dict[str, Any]:
        """Follow local ``$ref``s and unwrap ``Optional`` (``anyOf`` with null)."""
        seen = 0
        while isinstance(schema, dict) and seen < 32:
            seen += 1
            ref = schema.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/"):
                target: Any = self.root
                for part in ref[2:].split("/"):
                    target = target.get(part, {}) if isinstance(target, dict) else {}
                extra = {k: v for k, v in schema.items() if k != "$ref"}
                schema = {**target, **extra} if isinstance(target, dict) else extra
                continue
            variants = schema.get("anyOf") or schema.get("oneOf")
            if isinstance(variants, list) and "type" not in schema:
                non_null = [
                    v for v in variants if not (isinstance(v, dict) and v.get("type") == "null")
                ]
                if non_null:
                    extra = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
                    schema = {**(non_null[0] if isinstance(non_null[0], dict) else {}), **extra}
                    continue
            return schema
        return schema if isinstance(schema, dict) else {}

    def words(self, schema: Any, depth: int = 0) -> str:
        """The descriptions of a field, of its items and of their fields."""
        schema = self.resolve(schema)
        parts = [str(schema.get("description") or "")]
        if depth < 4:
            if schema.get("type") == "array" or "items" in schema:
                parts.append(self.words(schema.get("items", {}), depth + 1))
            for prop in (schema.get("properties") or {}).values():
                parts.append(self.words(prop, depth + 1))
        return " ".join(p for p in parts if p)

    def select(self, boost: frozenset[str], bounds: tuple[int, int]) -> list[Sentence]:
        """The best ``bounds`` = ``(at least, at most)`` sentences not used yet, ranked for the
        question with the words in ``boost`` weighing more; they are marked used."""
        chosen = select(self.sentences, self.question, boost, bounds, self.used, self.code,
                        self.entries)
        self.used_order.extend(chosen)
        return chosen

    def fill(self, schema: dict[str, Any]) -> dict[str, Any]:
        """A value for the JSON schema ``schema`` (an object schema, ``$ref`` resolved)."""
        return self.fill_object(self.resolve(schema))

    def fill_object(self, schema: dict[str, Any]) -> dict[str, Any]:
        """An object: its ref-like string fields cite the sentence its first text field got."""
        props: dict[str, Any] = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        values: dict[str, Any] = {}
        used_before = len(self.used_order)
        refs = [
            n
            for n, p in props.items()
            if _is_ref_name(n) and self.resolve(p).get("type") == "string"
        ]
        for name, raw in props.items():
            if name not in refs:
                values[name] = self.fill_value(name, self.resolve(raw), name in required)
        cited = self.used_order[used_before : used_before + 1]
        for name in refs:
            if cited:
                values[name] = cited[0].ref
            else:
                values[name] = self.fill_value(name, self.resolve(props[name]), name in required)
        return {n: values[n] for n in props if values.get(n, _SKIP) is not _SKIP}

    def fill_value(self, name: str, prop: dict[str, Any], required: bool) -> Any:
        """A value for the field ``name`` of schema ``prop``: sentences for text, their refs
        for ref-like names, a default for the rest; ``_SKIP`` when optional and nothing fits."""
        kind = prop.get("type")
        # The field's own descriptions steer the choice (not the schema's docstring, which
        # describes the whole answer rather than what belongs in this field).
        boost = stems(self.words(prop), drop=STOPWORDS | META_WORDS)
        if kind == "array" or "items" in prop:
            items = self.resolve(prop.get("items", {}))
            chosen = self.select(boost, _bounds(prop))
            if items.get("type") == "object" or "properties" in items:
                return [self.fill_item(items, s) for s in chosen]
            if items.get("type", "string") == "string":
                return [s.ref if _is_ref_name(name) else s.text for s in chosen]
            return [] if required else _SKIP
        if kind == "object" or "properties" in prop:
            return self.fill_object(prop)
        if kind == "string" and "enum" not in prop:
            chosen = self.select(boost, (1, 1))
            if chosen:
                return chosen[0].ref if _is_ref_name(name) else chosen[0].text
            return "" if required else _SKIP
        return self.default(prop) if required else _SKIP

    def fill_item(self, schema: dict[str, Any], sentence: Sentence) -> dict[str, Any]:
        """One array item: ref-like strings get the ref, the first other string the sentence."""
        props: dict[str, Any] = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        out: dict[str, Any] = {}
        claim_given = False
        for name, raw in props.items():
            prop = self.resolve(raw)
            kind = prop.get("type")
            is_required = name in required
            if _is_ref_name(name) and kind == "string":
                out[name] = sentence.ref
            elif _is_ref_name(name) and kind == "array":
                out[name] = [sentence.ref]
            elif kind == "string" and "enum" not in prop and (not claim_given or is_required):
                out[name] = sentence.text
                claim_given = True
            elif is_required:
                out[name] = self.default(prop)
        return out

    def default(self, prop: dict[str, Any]) -> Any:
        """The schema's own default, else its first enum value or const, else an empty value
        of its type (``minimum`` for a number)."""
        if "default" in prop:
            return prop["default"]
        if isinstance(prop.get("enum"), list) and prop["enum"]:
            return prop["enum"][0]
        if "const" in prop:
            return prop["const"]
        kind = prop.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        return {
            "string": "",
            "integer": int(prop.get("minimum", 0)),
            "number": float(prop.get("minimum", 0)),
            "boolean": False,
            "array": [],
            "object": {},
        }.get(kind)

