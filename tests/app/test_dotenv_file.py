"""The ``.env`` file's lines: what python-dotenv would drop or read otherwise than written
(a line it cannot parse, a bare name, ``NAME:value``, a name set twice, an unset ``${NAME}``),
each refused or said in one line naming the file and the line (``app.settings.env``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings.config import ConfigError, Settings
from app.settings.env import load_settings


def _dotenv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_dotenv_file_that_is_not_text_is_a_config_error_naming_it(tmp_path):
    # It surfaced as "run failed: UnicodeDecodeError" (exit 1), from every command.
    env_file = tmp_path / ".env"
    env_file.write_bytes(b"garbage\n\x00\xff\n")
    with pytest.raises(ConfigError, match=r"\.env: cannot be read as UTF-8 text"):
        load_settings(env={}, env_file=env_file)


def test_a_dotenv_line_that_cannot_be_parsed_is_a_config_error_naming_it(tmp_path):
    # python-dotenv warned without naming the file and dropped the line
    env_file = tmp_path / ".env"
    env_file.write_text("RESEARCH_ROUNDS=3\nRESEARCH_MODEL offline\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\.env: line 2 is not NAME=value"):
        load_settings(env={}, env_file=env_file)
    # trial 28: a setting's name alone on a line was read as no value, the default kept
    env_file.write_text("RESEARCH_ROUNDS=3\nRESEARCH_SEARCH_K\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\.env: line 2 names RESEARCH_SEARCH_K without a "
                                          r"value; write RESEARCH_SEARCH_K=value"):
        load_settings(env={}, env_file=env_file)


def test_bad_value_in_the_dotenv_file_is_an_error_too(tmp_path):
    with pytest.raises(ConfigError, match="RESEARCH_MAX_CONCURRENCY"):
        load_settings(env={}, env_file=_dotenv(tmp_path, "RESEARCH_MAX_CONCURRENCY=0\n"))


def test_a_shell_variable_no_one_expanded_in_a_path_setting_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # trial 35, F3: .env expands ${HOME} (python-dotenv) but not $HOME, and
    # RESEARCH_DATA_DIR=$HOME/x made a folder named '$HOME' where the command ran
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    expanded = load_settings(env={}, env_file=_dotenv(tmp_path, "RESEARCH_DATA_DIR=${HOME}/d\n"))
    assert expanded.data_dir == f"{tmp_path / 'home'}/d"
    for line in ("RESEARCH_DATA_DIR=$HOME/d\n", "RESEARCH_CORPORA=docs=$HOME/docs\n"):
        with pytest.raises(ConfigError, match=r"holds \$HOME, which nothing expanded \(a \.env "
                           r"file expands \$\{HOME\}, not \$HOME") as info:
            load_settings(env={}, env_file=_dotenv(tmp_path, line))
        assert str(info.value).startswith(line.split("=")[0] + ": ")
    with pytest.raises(ConfigError, match="holds \\$TMPDIR"):
        Settings(data_dir="$TMPDIR/x")  # a flag or code, single-quoted: the same line


def test_a_setting_set_twice_in_dotenv_is_warned_about(tmp_path: Path) -> None:
    # trial 35, F3: RESEARCH_ROUNDS=1 then RESEARCH_ROUNDS=3 silently used the last
    lines: list[str] = []
    env_file = _dotenv(tmp_path, "RESEARCH_ROUNDS=1\nRESEARCH_SEARCH_K=4\nRESEARCH_ROUNDS=3\n"
                                 "RESEARCH_SEARCH_K=4\nOPENAI_API_KEY=sk-a\nOPENAI_API_KEY=sk-b\n")
    assert load_settings(env={}, env_file=env_file, warn=lines.append).rounds == 3
    assert lines == [
        f"warning: {env_file}: RESEARCH_ROUNDS is set on line 1 and again on line 3, to "
        "another value; the last one is used",
        f"warning: {env_file}: OPENAI_API_KEY is set on line 5 and again on line 6, to "
        "another value; the last one is used"]  # the same value twice says nothing
    assert not any("sk-" in line for line in lines)  # a key is never shown


def test_dotenv_typos_that_were_ignored_silently_are_said(tmp_path: Path) -> None:
    # Trial 46, F4: NAME:value, lower case, dashes and an unset ${NAME} all left the default
    env_file = _dotenv(tmp_path, "RESEARCH_ROUNDS:3\n")
    with pytest.raises(ConfigError, match=r"\.env: line 1 is not NAME=value \(a colon"):
        load_settings(env={}, env_file=env_file)
    lines: list[str] = []
    env_file = _dotenv(tmp_path, "research_rounds=3\nRESEARCH-SEARCH-K=4\n"
                                 "RESEARCH_MODEL=${NO_SUCH_MODEL}\n"
                                 "RESEARCH_SEARCH_K=${SET_BEFORE}\n")
    with pytest.MonkeyPatch.context() as mp:  # python-dotenv expands from os.environ
        mp.setenv("SET_BEFORE", "4")
        load_settings(env={}, env_file=env_file, warn=lines.append)
    assert lines == [
        f"warning: {env_file}: line 3: ${{NO_SUCH_MODEL}} is not set, so RESEARCH_MODEL has it "
        "as nothing",
        "warning: RESEARCH-SEARCH-K is not a setting and is ignored; did you mean "
        "RESEARCH_SEARCH_K?",
        "warning: research_rounds is not a setting and is ignored; did you mean "
        "RESEARCH_ROUNDS?"], lines
    env_file = _dotenv(tmp_path, "RESEARCH_DATA_DIR=${NO_SUCH_HOME}/research\n")  # "/research"
    with pytest.raises(ConfigError, match=r"\$\{NO_SUCH_HOME\} is not set, so RESEARCH_DATA_DIR "
                                          r"has it as nothing; set NO_SUCH_HOME"):
        load_settings(env={}, env_file=env_file)


def test_an_unset_name_in_a_dotenv_path_is_refused_only_where_the_path_is_used(tmp_path: Path
                                                                               ) -> None:
    # Trial 48, F1: RESEARCH_DATA_DIR=${NOPE}/x stopped a command given --data-dir, and
    # RESEARCH_CORPUS=${NOPE}/docs stopped `threads`, which reads no corpus
    env_file = _dotenv(tmp_path, "RESEARCH_DATA_DIR=${NO_SUCH_HOME}/x\n")
    assert load_settings(env={}, env_file=env_file, flags={"data_dir"}).data_dir != "/x"
    assert load_settings(env={"RESEARCH_DATA_DIR": str(tmp_path / "d")},
                         env_file=env_file).data_dir == str(tmp_path / "d")
    lines: list[str] = []
    env_file = _dotenv(tmp_path, "RESEARCH_CORPUS=${NO_SUCH_HOME}/docs\n")
    load_settings(env={}, env_file=env_file, warn=lines.append, needed={"data_dir"})
    assert len(lines) == 1 and "${NO_SUCH_HOME} is not set" in lines[0], lines
    with pytest.raises(ConfigError, match=r"\$\{NO_SUCH_HOME\} is not set, so RESEARCH_CORPUS"):
        load_settings(env={}, env_file=env_file)
    # F2: ${NAME-default} (no colon) is no default in python-dotenv: the value was empty
    env_file = _dotenv(tmp_path, "RESEARCH_DATA_DIR=${NO_SUCH_HOME-/srv}/x\n")
    with pytest.raises(ConfigError, match=r"\$\{NO_SUCH_HOME-/srv\} is not set"):
        load_settings(env={}, env_file=env_file)


def test_a_lower_case_shell_variable_is_no_misspelt_setting(tmp_path: Path) -> None:
    # Trial 48, F3: the shell's own research_notes was "not a setting ... did you mean" on
    # every command; in the .env file, research_rounds is one
    lines: list[str] = []
    load_settings(env={"research_notes": "~/notes"}, env_file=_dotenv(tmp_path, "research_rounds"
                                                                        "=3\n"),
                  warn=lines.append)
    assert lines == ["warning: research_rounds is not a setting and is ignored; did you mean "
                     "RESEARCH_ROUNDS?"], lines
