"""A printed command holding a control character works when pasted into bash (trial 28,
finding 1: a stopped run's "resume with" line printed a topic holding a newline as
``'send\\nreducers'``, which the shell reads as a backslash and an ``n``: pasted, it ran
another topic on a new thread). One owner quotes every printed command:
:func:`app.settings.hints.quote`."""

from __future__ import annotations

import pytest

from app.settings.hints import APP, thread_command


def _bash_words(line: str) -> list[str]:
    """The CLI arguments of a printed command as bash reads it when pasted (``$'...'`` too)."""
    import subprocess

    start = line.index(APP)
    out = subprocess.run(["bash", "-c", f"printf '%s\\0' {line[start:]}"], check=True,
                         capture_output=True, text=True).stdout
    words = out.split("\0")[:-1]
    assert words[:5] == APP.split(), line
    return words[5:]


def test_a_printed_command_keeps_control_characters_when_pasted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # trial 28, finding 1: a topic holding a newline was printed as 'send\nreducers' (the
    # terminal is shown escapes); pasted, the shell kept a backslash and an "n": another topic
    # on a new thread, the stopped one never resumed; a data dir holding a tab, likewise
    import app.cli
    import app.cli.commands as commands
    from app.research.text import visible
    from app.settings.config import Settings
    from app.settings.hints import research_command

    argv = ["research", "send\nreducers", "--data-dir", "/tmp/a\tb", "--seed", "it's\\"]
    monkeypatch.setattr(commands, "ARGV", argv)
    monkeypatch.setattr(commands, "RUN_AS_OF", ["2026-12-02"])
    monkeypatch.setattr(commands, "RUN_THREAD", ["t-1"])
    monkeypatch.setattr(commands, "RUN_STARTED", [True])
    _, line = app.cli._ended(KeyboardInterrupt())
    shown = visible(line)  # as the CLI prints it
    assert "\n" not in shown and _bash_words(shown) == [*argv, "--as-of", "2026-12-02"]
    # the siblings: every printed research/resume command quotes through the same owner
    note = research_command("send\u202ereducers", "2026-12-02", corpus="/my\tdocs",
                            settings=Settings(data_dir="/d\x1bx"))
    assert _bash_words(visible(note)) == [
        "research", "send\u202ereducers", "--as-of", "2026-12-02", "--corpus", "/my\tdocs",
        "--data-dir", "/d\x1bx"]
    assert _bash_words(visible(thread_command("resume", "a\nb"))) == ["resume", "a\nb"]
