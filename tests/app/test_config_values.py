"""Setting values are checked where they are declared: types converted, bad values one line
naming the variable, every wait and size bounded (or a reason given for none), and the bounds
the run's own machinery needs (the retry policy's cap, the search's cut, the thread pool)."""

from __future__ import annotations

import pytest

from app.settings.config import ConfigError, Settings
from app.settings.env import load_settings


def test_types_are_converted():
    s = load_settings(env={"RESEARCH_DATA_DIR": "/tmp/x", "RESEARCH_CORPUS": "docs",
                           "RESEARCH_MAX_TOKENS": "5000", "RESEARCH_RETRY_INTERVAL": "0.01",
                           "RESEARCH_REQUESTS_PER_SECOND": "0"}, env_file=None)
    assert s.data_dir == "/tmp/x" and s.corpus == "docs"
    assert s.max_tokens == 5000 and s.retry_interval == 0.01 and s.requests_per_second == 0.0


@pytest.mark.parametrize(
    ("name", "value"),
    [("RESEARCH_ROUNDS", "two"), ("RESEARCH_ROUNDS", "0"), ("RESEARCH_MAX_CONCURRENCY", "0"),
     ("RESEARCH_MAX_ATTEMPTS", "-1"), ("RESEARCH_MAX_ATTEMPTS", "11"), ("RESEARCH_MAX_TOKENS", "0"),
     ("RESEARCH_TIMEOUT", "0"),
     ("RESEARCH_TIMEOUT", "nan"), ("RESEARCH_REQUESTS_PER_SECOND", "-2"),
     ("RESEARCH_RETRY_INTERVAL", "inf"), ("RESEARCH_MAX_CONCURRENCY", "1.5"),
     # above the bound every run is cut to: it was cut silently (a new user's trial)
     ("RESEARCH_ROUNDS", "1001"), ("RESEARCH_ROUNDS_LIMIT", "1000000"),
     ("RESEARCH_SEARCH_K", "51"), ("RESEARCH_SEARCH_K_LIMIT", "1000")],
)
def test_bad_values_are_one_line_errors_naming_the_variable(name, value):
    with pytest.raises(ConfigError) as info:
        load_settings(env={name: value}, env_file=None)
    message = str(info.value)
    assert name in message and "\n" not in message


@pytest.mark.parametrize(("name", "bound"), [
    ("RESEARCH_RETRY_INTERVAL", "600"), ("RESEARCH_MCP_TIMEOUT", "3600"),
    ("RESEARCH_TIMEOUT", "3600"), ("RESEARCH_MAX_FILE_BYTES", "1073741824")])
@pytest.mark.parametrize("value", ["1e308", "100000000000"])
def test_a_wait_or_size_past_its_bound_is_refused(name: str, bound: str, value: str) -> None:
    # trial 10, finding 31: RESEARCH_RETRY_INTERVAL=1e308 was taken and the first retry waited
    # forever, without a line; RESEARCH_MCP_TIMEOUT and RESEARCH_MAX_FILE_BYTES=10**29 too
    if name == "RESEARCH_MAX_FILE_BYTES" and "e" in value:
        value = str(10**29)
    with pytest.raises(ConfigError, match=rf"^{name} must be <= {bound}, got "):
        load_settings(env={name: value}, env_file=None)


def test_every_numeric_setting_has_an_upper_bound_or_a_reason_for_none():
    # a number with no upper bound is a typo that hangs a run or fills the memory (finding 31)
    from app.settings.config import Settings
    from app.settings.spec import specs_of

    unbounded = {
        "max_tokens", "max_tokens_limit",  # a token budget: a huge one means no budget
        "requests_per_second",  # a huge rate means no limit
        "seed",  # any whole number seeds --fail-rate
    }
    assert {s.name for s in specs_of(Settings)
            if s.type in (int, float) and s.maximum is None} == unbounded


def test_a_bad_number_is_named_in_words():
    with pytest.raises(ConfigError, match="RESEARCH_ROUNDS must be a whole number, got 'two'"):
        load_settings(env={"RESEARCH_ROUNDS": "two"}, env_file=None)
    with pytest.raises(ConfigError, match="RESEARCH_TIMEOUT must be a number, got 'x'"):
        load_settings(env={"RESEARCH_TIMEOUT": "x"}, env_file=None)


def test_the_search_k_bound_is_the_one_the_search_cuts_to():
    from app.settings.config import SEARCH_K_BOUND
    from workers.sources import MAX_K

    assert SEARCH_K_BOUND == MAX_K


def test_max_concurrency_above_the_runs_thread_pool_is_refused_not_capped():
    # issue 21: --max-concurrency 500 ran at most 128 workers at once (LangGraph's pool of a
    # run, THREAD_POOL_SIZE, runs every task), without a word
    from app.runs.run import THREAD_POOL_SIZE
    from app.settings.config import MAX_CONCURRENCY_BOUND

    assert MAX_CONCURRENCY_BOUND == THREAD_POOL_SIZE
    assert Settings(max_concurrency=THREAD_POOL_SIZE).max_concurrency == THREAD_POOL_SIZE
    for name in ("RESEARCH_MAX_CONCURRENCY", "RESEARCH_MAX_CONCURRENCY_LIMIT"):
        with pytest.raises(ConfigError, match=f"^{name} must be <= 128, got 129 "):
            load_settings(env={name: "129"}, env_file=None)
