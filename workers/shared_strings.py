"""One object per distinct string across a run's envelopes.

A run's envelopes stay in graph state, payload and all, until ``persist`` (the whole run when it
goes in waves), and they cite the same passages again and again: the same text, title, ref and
source in task after task, each a copy of its own (every search reads its rows anew, and
``Envelope.to_state`` copies every string of the payload). In a 300-task offline run a row's
strings came to 1,521 characters, of which 160 were new to the run. The worker node hands each
envelope to its run's :class:`SharedStrings`, which keeps the first object of each distinct
string and puts it in place of the later equal ones: the same values, held once.

The table belongs to the run (:attr:`workers.base.RunScope.strings`), so it lets go of the strings
when the run's objects go; ``sys.intern`` is not used, since interned strings are immortal on
some Python versions (3.12), and a long-lived server would keep every passage it ever cited.

The results store's read-back shares the strings of the rows it decodes with the same table
(:meth:`SharedStrings.object_hook`, ``app.storage.results``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SharedStrings"]


class SharedStrings:
    """A run's table of distinct strings (thread-safe: one ``dict.setdefault`` per string).

    Example:
        >>> table = SharedStrings()
        >>> a = table.share({"items": [{"text": "".join(["Send ", "dispatches"])}]})
        >>> b = table.share({"items": [{"text": "".join(["Send ", "dispatch", "es"])}]})
        >>> a["items"][0]["text"] is b["items"][0]["text"], len(table)
        (True, 1)
    """

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def object_hook(self, obj: dict[str, Any]) -> dict[str, Any]:
        """``json.loads``'s ``object_hook``: ``obj``'s string values, changed in place to the
        table's equal ones (its nested objects come shared already: JSON is decoded inside
        out). 12,000 rows decoded with a copy of each string took about 60 MB.

        Example:
            >>> import json
            >>> table = SharedStrings()
            >>> a, b = json.loads('[{"t": "Send"}, {"t": "Send"}]', object_hook=table.object_hook)
            >>> a["t"] is b["t"]
            True
        """
        for key, value in obj.items():
            if type(value) is str:
                obj[key] = self._kept.setdefault(value, value)
        return obj

    def share(self, value: Any) -> Any:
        """``value`` with each string in it (a dict's values, a list's items, at any depth)
        replaced by the table's equal one, kept first if new. Dicts and lists are changed in
        place and returned; a plain string returns its shared object; anything else (a str
        subclass, a number, a tuple) is returned as it is. Raises nothing."""
        if type(value) is str:
            return self._kept.setdefault(value, value)
        if isinstance(value, dict):
            for key, item in value.items():
                value[key] = self.share(item)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                value[i] = self.share(item)
        return value
