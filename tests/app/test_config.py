"""Settings: CLI flag > environment > ``.env`` > default, conversions and bounds, one declaration
of each setting, and that no key is ever shown (the model factory's: test_model_factory.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from app.settings.config import ENV_VARS, ConfigError, Settings
from app.settings.credentials import DEFAULT_OPENAI_MODEL, web_key
from app.settings.env import load_settings

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-test-CONFIGCANARY-0123456789abcdef"


def _dotenv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")
    return path


# --- precedence ---------------------------------------------------------------------------------

def test_defaults_with_nothing_set(tmp_path):
    s = load_settings(env={}, env_file=tmp_path / "missing.env")
    assert s.model == "offline"
    assert (s.max_concurrency, s.rounds, s.max_attempts) == (4, 2, 3)
    assert (s.retry_interval, s.requests_per_second, s.timeout) == (0.5, 2.0, 60.0)
    assert s.max_tokens is None and s.openai_api_key is None and s.data_dir == ".data"
    assert s.search_k == 5 and s.corpus is None and s.report_out is None
    for role in ("planner", "worker", "report"):
        assert s.model_for(role) == "offline"


def test_flag_beats_env_beats_dotenv_beats_default(tmp_path):
    env_file = _dotenv(tmp_path, "RESEARCH_MODEL=openai:from-file\nRESEARCH_ROUNDS=5\n"
                       "RESEARCH_MAX_CONCURRENCY=7\nRESEARCH_TIMEOUT=9\n")
    env = {"RESEARCH_MODEL": "openai:from-env", "RESEARCH_ROUNDS": "3"}
    s = load_settings(env=env, env_file=env_file)
    assert s.model == "openai:from-env"  # env > file
    assert s.rounds == 3  # env > file
    assert s.max_concurrency == 7 and s.timeout == 9.0  # file > default
    assert s.max_attempts == 3  # default
    flagged = s.with_overrides(model="openai:from-flag", rounds=None, max_concurrency=1)
    assert flagged.model == "openai:from-flag"  # flag > env
    assert flagged.rounds == 3  # an absent flag (None) changes nothing
    assert flagged.max_concurrency == 1  # flag > file


def test_env_var_set_but_empty_beats_the_file_and_means_default(tmp_path):
    env_file = _dotenv(tmp_path, "RESEARCH_MODEL=openai:from-file\nRESEARCH_ROUNDS=5\n")
    s = load_settings(env={"RESEARCH_MODEL": "", "RESEARCH_ROUNDS": "  "}, env_file=env_file)
    assert s.model == "offline" and s.rounds == 2


def test_env_file_none_skips_the_file(tmp_path):
    env_file = _dotenv(tmp_path, "RESEARCH_ROUNDS=5\n")
    assert load_settings(env={}, env_file=None).rounds == 2
    assert load_settings(env={}, env_file=env_file).rounds == 5


def test_default_env_file_is_dotenv_in_the_working_directory(tmp_path, monkeypatch):
    _dotenv(tmp_path, "RESEARCH_ROUNDS=4\n")
    monkeypatch.chdir(tmp_path)
    assert load_settings(env={}).rounds == 4


def test_openai_key_alone_selects_the_openai_default(tmp_path):
    s = load_settings(env={"OPENAI_API_KEY": KEY}, env_file=None)
    assert s.model == DEFAULT_OPENAI_MODEL == "openai:gpt-4.1-mini"
    assert s.openai_api_key == KEY
    # ... also from the .env file
    s = load_settings(env={}, env_file=_dotenv(tmp_path, f"OPENAI_API_KEY={KEY}\n"))
    assert s.model == DEFAULT_OPENAI_MODEL
    # an explicit model wins, offline included
    s = load_settings(env={"OPENAI_API_KEY": KEY, "RESEARCH_MODEL": "offline"}, env_file=None)
    assert s.model == "offline"


def test_role_models_fall_back_to_the_main_model():
    s = load_settings(env={"RESEARCH_MODEL": "openai:main", "RESEARCH_REPORT_MODEL": "offline",
                           "RESEARCH_PLANNER_MODEL": "openai:planner"}, env_file=None)
    assert s.model_for("planner") == "openai:planner"
    assert s.model_for("worker") == "openai:main"
    assert s.model_for("report") == "offline"


# --- the key is never shown ---------------------------------------------------------------------

def test_settings_never_show_the_key():
    s = load_settings(env={"OPENAI_API_KEY": KEY}, env_file=None)
    assert KEY not in repr(s) and KEY not in str(s)
    assert s.redacted()["openai_api_key"] == "set"
    assert KEY not in repr(s.redacted())


def test_env_example_lists_every_variable():
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.MULTILINE))
    assert set(ENV_VARS) <= listed, sorted(set(ENV_VARS) - listed)
    for name in ENV_VARS:  # each with a comment above it
        lines = text.splitlines()
        index = next(i for i, line in enumerate(lines) if re.match(rf"^#?\s*{name}=", line))
        above = lines[:index]
        assert any(line.startswith("#") and not re.match(r"^#\s*[A-Z_]+=", line)
                   for line in above[-6:]), name
    assert "sk-" not in text.replace("sk-...", "")  # no real-looking key in the example


# --- one declaration: the run context, the variables, the flags ---------------------------------

def test_search_k_is_a_setting_from_env_and_flag():
    from app.cli import build_parser, flag_overrides

    assert load_settings(env={"RESEARCH_SEARCH_K": "9"}, env_file=None).search_k == 9
    with pytest.raises(ConfigError, match="RESEARCH_SEARCH_K"):
        load_settings(env={"RESEARCH_SEARCH_K": "0"}, env_file=None)
    args = build_parser().parse_args(["research", "t", "--search-k", "3"])
    assert load_settings(env={"RESEARCH_SEARCH_K": "9"}, env_file=None).with_overrides(
        **flag_overrides(args)).search_k == 3  # flag > env


def test_every_flag_and_variable_comes_from_the_declaration():
    from app.cli import build_parser
    from app.settings.config import SETTINGS

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices
    for command in ("research", "resume"):
        flags = {o for a in sub[command]._actions for o in a.option_strings}
        assert {s.flag for s in SETTINGS if s.flag} <= flags, command
    assert set(ENV_VARS) == {s.env for s in SETTINGS if s.env}
    assert {s.name for s in SETTINGS if s.env or s.flag} == {s.name for s in SETTINGS}


def test_the_run_context_is_plain_json_and_carries_no_credentials():
    import dataclasses
    import json

    from app.settings.config import OPERATOR_ONLY, RunContext

    s = load_settings(env={"OPENAI_API_KEY": KEY, "RESEARCH_CORPUS": "docs"}, env_file=None)
    context = s.with_overrides(fail_workers=("critic:1",), rounds=3).context()
    text = json.dumps(dataclasses.asdict(context))
    assert KEY not in text and "openai_api_key" not in text
    # issue 18: the context holds a client's choices only, no path, key, fault or bound
    assert not set(dataclasses.asdict(context)) & OPERATOR_ONLY
    assert {"data_dir", "corpus", "report_out", "fail_rate", "database_url"} <= OPERATOR_ONLY
    again = RunContext(**json.loads(text))  # what LangGraph Server's coercion does
    assert again == context and again.rounds == 3
    assert Settings(data_dir=Path("/tmp/x")).data_dir == "/tmp/x"


@pytest.mark.parametrize(("field", "value"), [("rounds", 0), ("max_concurrency", "4"),
                                              ("durability", "never"), ("fail_rate", 2.0),
                                              ("crash_at", "lunch")])
def test_a_bad_context_value_is_a_one_line_error_naming_the_field(field, value):

    with pytest.raises(ConfigError) as info:
        Settings(**{field: value})
    assert "\n" not in str(info.value)
    assert field.replace("_", "-").split("-")[0] in str(info.value).replace("_", "-")


def test_a_misspelt_research_variable_is_warned_about_with_the_closest_name(tmp_path: Path):
    # issue 21 item 9: "RESEARCH_ROUND=3 is ignored silently"
    env_file = tmp_path / ".env"
    env_file.write_text("RESEARCH_MAX_CONCURENCY=2\n", encoding="utf-8")
    lines: list[str] = []
    settings = load_settings(env={"RESEARCH_ROUND": "3", "RESEARCH_ROUNDS": "4",
                                  "RESEARCH_DEBUG": "1", "OTHER_THING": "x"},
                             env_file=env_file, warn=lines.append)
    assert settings.rounds == 4  # the real one still applies; the typo changes nothing
    assert lines == [
        "warning: RESEARCH_MAX_CONCURENCY is not a setting and is ignored; did you mean "
        "RESEARCH_MAX_CONCURRENCY?",
        "warning: RESEARCH_ROUND is not a setting and is ignored; did you mean RESEARCH_ROUNDS?",
    ]
    quiet: list[str] = []
    load_settings(env={name: "" for name in ENV_VARS}, env_file=None, warn=quiet.append)
    assert quiet == []  # every declared variable is known, whoever declared it
    odd: list[str] = []  # trial 70: "RESEARCH_FOO ...; did you mean RESEARCH_CORPORA?"
    load_settings(env={"RESEARCH_FOO": "1"}, env_file=None, warn=odd.append)
    assert odd == ["warning: RESEARCH_FOO is not a setting and is ignored"]


def test_a_near_twin_of_a_providers_variable_is_warned_about_its_own_are_not():
    # trial 70: OPENAI_BASEURL in .env sent a run meant for a local server to api.openai.com
    lines: list[str] = []
    load_settings(env={"OPENAI_BASEURL": "http://127.0.0.1:8000/v1", "TAVILY_APIKEY": "k",
                       "OPENAI_ORG_ID": "org", "OPENAI_PROJECT_ID": "p", "OPENAI_LOG": "debug",
                       "OPENAI_API_BASE": "http://x/v1", "LANGSMITH_API_KEY": "ls"},
                  env_file=None, warn=lines.append)
    assert lines == [
        "warning: OPENAI_BASEURL is not a setting and is ignored; did you mean OPENAI_BASE_URL?",
        "warning: TAVILY_APIKEY is not a setting and is ignored; did you mean TAVILY_API_KEY?"]


def test_the_operators_lists_come_from_comma_separated_variables():
    settings = load_settings(env={"RESEARCH_CORPORA": "handbook=/srv/h, specs=/srv/s",
                                  "RESEARCH_ALLOWED_MODELS": "offline,openai:gpt-test"},
                             env_file=None)
    assert settings.named_corpora() == {"handbook": "/srv/h", "specs": "/srv/s"}
    assert settings.models_allowed() == ("offline", "openai:gpt-test")
    assert settings.corpus_folder("specs") == "/srv/s"
    with pytest.raises(ConfigError, match="^corpus_name: RESEARCH_CORPORA has no corpus named"):
        settings.corpus_folder("/etc")
    with pytest.raises(ConfigError, match="RESEARCH_CORPORA: expected NAME=FOLDER"):
        load_settings(env={"RESEARCH_CORPORA": "/srv/h"}, env_file=None)


def test_a_name_given_twice_with_two_values_is_refused_naming_where_it_was_set(tmp_path):
    # issue 21: RESEARCH_CORPORA=docs=/a,docs=/b ran on /b without a word (the last won); so
    # did a TOKEN of RESEARCH_API_TOKENS given to two users. The token itself is never shown.
    corpora = "docs=/srv/a, docs=/srv/b"
    with pytest.raises(ConfigError) as info:
        load_settings(env={"RESEARCH_CORPORA": corpora}, env_file=None)
    assert str(info.value) == ("RESEARCH_CORPORA: NAME 'docs' is given twice, with FOLDER "
                               "'/srv/a' and '/srv/b'; give each NAME once (set in the "
                               "environment)")
    token = "tok-CANARY-0123"
    dotenv = _dotenv(tmp_path, f"RESEARCH_API_TOKENS={token}=alice,{token}=bob\n")
    with pytest.raises(ConfigError, match=r"a TOKEN is given twice, with USER 'alice' and "
                       r"'bob'.*\(set in .*\.env\)$") as info:
        load_settings(env={}, env_file=dotenv)
    assert token not in str(info.value)
    with pytest.raises(ConfigError, match="NAME 'docs' is given twice"):
        Settings(corpora=("docs=/srv/a", "docs=/srv/b"))  # made in code: the same check
    same = load_settings(env={"RESEARCH_CORPORA": "docs=/srv/a,docs=/srv/a"}, env_file=None)
    assert same.named_corpora() == {"docs": "/srv/a"}  # said twice alike: no contradiction


def test_one_redaction_masks_every_secret_setting():
    from app.settings.credentials import redact

    settings = load_settings(env={
        "OPENAI_API_KEY": KEY, "TAVILY_API_KEY": "tvly-abcdef123456",
        "RESEARCH_DATABASE_URL": "postgresql://app:hunter2secret@db/research",
        "RESEARCH_API_TOKENS": "alice-token-7f3a=alice"}, env_file=None)
    text = redact(f"{KEY} tvly-abcdef123456 hunter2secret alice-token-7f3a", settings)
    for secret in (KEY, "tvly-abcdef123456", "hunter2secret", "alice-token-7f3a"):
        assert secret not in text, text
    shown = settings.redacted()
    assert shown["openai_api_key"] == shown["api_tokens"] == shown["database_url"] == "set"


def test_the_search_provider_and_its_url_are_checked_where_they_are_read():
    # issue 20 §2: RESEARCH_SEARCH_PROVIDER=tavily|searxng (default tavily) and SEARXNG_URL
    assert load_settings(env={}, env_file=None).search_provider == "tavily"
    s = load_settings(env={"RESEARCH_SEARCH_PROVIDER": "searxng",
                           "SEARXNG_URL": "http://127.0.0.1:8888"}, env_file=None)
    assert (s.search_provider, s.searxng_url) == ("searxng", "http://127.0.0.1:8888")
    assert web_key(s) == "http://127.0.0.1:8888"  # no Tavily key needed
    with pytest.raises(ConfigError, match="^--web with RESEARCH_SEARCH_PROVIDER=searxng needs "
                                          "SEARXNG_URL"):
        web_key(replace(s, searxng_url=None))
    with pytest.raises(ConfigError, match="must be one of tavily, searxng, got 'bing'"):
        load_settings(env={"RESEARCH_SEARCH_PROVIDER": "bing"}, env_file=None)
    with pytest.raises(ConfigError, match="^SEARXNG_URL: expected the instance's http"):
        load_settings(env={"SEARXNG_URL": "127.0.0.1:8888"}, env_file=None)


def test_a_flag_wins_over_a_bad_variable_and_unused_bad_values_only_warn(tmp_path):
    # a new user's trial: RESEARCH_SEARCH_K=abc in .env stopped even `threads`, and
    # `research --search-k 3` too, though the flag wins (flag > env > .env > default)
    env_file = _dotenv(tmp_path, "RESEARCH_SEARCH_K=abc\n")
    with pytest.raises(ConfigError, match=r"RESEARCH_SEARCH_K .*'abc' \(set in .*\.env\)$"):
        load_settings(env={}, env_file=env_file)
    with pytest.raises(ConfigError, match=r"got 'x' \(set in the environment\)$"):
        load_settings(env={"RESEARCH_SEARCH_K": "x"}, env_file=env_file)
    assert load_settings(env={}, env_file=env_file, flags={"search_k"}).search_k == 5
    warned: list[str] = []
    s = load_settings(env={}, env_file=env_file, warn=warned.append, needed={"data_dir"})
    assert s.search_k == 5 and len(warned) == 1 and "RESEARCH_SEARCH_K" in warned[0]
    assert warned[0].startswith("warning: ") and "not used by this command" in warned[0]


@pytest.mark.parametrize("name", ["OPENAI_BASE_URL", "TAVILY_BASE_URL", "SEARXNG_URL"])
def test_an_http_urls_credentials_are_masked_or_refused(name: str) -> None:
    # the sibling of the database URL's masking (issue 21): an OpenAI-compatible proxy behind
    # basic auth printed its password in any error line that quoted the URL
    from app.settings.credentials import redact

    settings = load_settings(env={name: "https://bob:s3cret-pw@proxy.local:8443/v1?token=t0ken-x"},
                             env_file=None)
    line = redact("POST https://bob:s3cret-pw@proxy.local:8443/v1?token=t0ken-x failed", settings)
    assert "s3cret-pw" not in line and "t0ken-x" not in line and "proxy.local:8443" in line
    # a '/', '#' or second '@' the client would misread: its error would print the password's
    # start as a port ("Invalid port: 'pa'"), which no masking knows; refused, never shown
    for url in ("https://bob:pa/ss@proxy.local/v1", "https://bob:pa#ss@proxy.local/v1",
                "https://bob:12/ss@proxy.local/v1", "https://bob:p@ss@proxy.local/v1"):
        with pytest.raises(ConfigError, match=f"^{name}: the URL does not read as") as info:
            load_settings(env={name: url}, env_file=None)
        assert "ss@" not in str(info.value)
    assert load_settings(env={name: "https://bob:pa%2Fss@proxy.local/v1"}, env_file=None)


def test_a_home_tilde_is_expanded_in_every_path_setting_wherever_it_is_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # trial 10, finding 30: RESEARCH_DATA_DIR=~/research-data in .env (never shell-expanded)
    # made a folder named '~' in the working directory; RESEARCH_CORPUS=~/c4 was "not found"
    from app.cli.parser import build_parser, flag_overrides
    from app.settings.spec import specs_of

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    env_file = _dotenv(tmp_path, "RESEARCH_DATA_DIR=~/research-data\nRESEARCH_CORPUS=~/c4\n"
                                 "RESEARCH_CORPORA=docs=~/docs,specs= ~/specs\n")
    s = load_settings(env={"RESEARCH_MCP_CONFIG": "~/mcp.json"}, env_file=env_file)
    assert (s.data_dir, s.corpus, s.mcp_config) == (
        f"{home}/research-data", f"{home}/c4", f"{home}/mcp.json")
    assert s.corpora == (f"docs={home}/docs", f"specs={home}/specs")
    args = build_parser().parse_args(["research", "t", "--data-dir=~/d", "--out", "~/r/",
                                      "--run-log", "~/log", "--corpus", "~other-user-x/c"])
    flags = flag_overrides(args)
    s = Settings(**flags)
    assert (s.data_dir, s.report_out, s.run_log) == (f"{home}/d", f"{home}/r/", f"{home}/log")
    assert s.corpus == "~other-user-x/c"  # no such user: left as written, then "not found"
    assert Settings(data_dir=Path("~/p")).data_dir == f"{home}/p"  # code, too
    paths = {spec.name for spec in specs_of(Settings) if spec.path}
    assert paths == {"data_dir", "corpus", "corpora", "report_out", "mcp_config", "run_log"}


def test_a_local_server_with_no_model_named_is_said_not_run_offline_silently():
    # trial 23, finding 15: OPENAI_BASE_URL alone ran offline without a word
    from app.settings.env import LOCAL_SERVER_UNNAMED

    local = {"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}
    lines: list[str] = []
    assert load_settings(env=local, env_file=None, warn=lines.append).model == "offline"
    assert lines == [LOCAL_SERVER_UNNAMED] and "--model openai:NAME" in lines[0]
    for quiet_case in ({**local, "RESEARCH_MODEL": "openai:llama3.1"},
                       {**local, "OPENAI_API_KEY": "sk-x"}):
        said: list[str] = []
        load_settings(env=quiet_case, env_file=None, warn=said.append)
        assert said == [], quiet_case
    said = []
    load_settings(env=local, env_file=None, warn=said.append, flags={"model"})
    load_settings(env=local, env_file=None, warn=said.append, needed={"data_dir"})
    assert said == []  # --model given, or a command that runs no model


@pytest.mark.parametrize("raw", ["1_0", "\u0663", "\uff15", "+5", "0x10", "5.0", "1e2"])
def test_a_whole_number_is_written_in_ascii_digits(raw: str) -> None:
    # trial 35, F4: int() read "1_0" as 10 (a typo of 1 or 10?) and "٣" or "５" as digits
    with pytest.raises(ConfigError, match=re.escape(f"ROUNDS must be a whole number, got {raw!r}")):
        load_settings(env={"RESEARCH_ROUNDS": raw}, env_file=None)
    assert load_settings(env={"RESEARCH_ROUNDS": " 7 "}, env_file=None).rounds == 7
    assert load_settings(env={"RESEARCH_TIMEOUT": "1.5e1"}, env_file=None).timeout == 15.0

