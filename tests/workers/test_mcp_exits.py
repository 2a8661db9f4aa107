"""An MCP server's exit status as it was, when Python 3.11's asyncio reports 255: the
transport's close() polled the Popen and reaped the child before asyncio's child watcher did
(seen in CI: "MCP server 'gone' exited with status 255 at start-up" for status 3)."""
from __future__ import annotations

import logging
from types import SimpleNamespace as NS

from workers.mcp_exits import exit_of, install


def _reaped_by_poll(status: int) -> NS:
    """An anyio process whose Popen holds ``status`` and whose asyncio process says 255."""
    popen = NS(returncode=status)
    return NS(returncode=255, _process=NS(returncode=255, _transport=NS(_proc=popen)))


def test_the_popens_status_is_named_not_asyncios_255() -> None:
    assert exit_of([_reaped_by_poll(3)], EOFError()) == "exited with status 3"
    assert exit_of([_reaped_by_poll(-11)], EOFError()) == "was killed by SIGSEGV"
    assert exit_of([NS(returncode=4)], EOFError()) == "exited with status 4"  # no transport


def test_asyncios_warning_of_the_reaped_child_is_no_stray_line(caplog) -> None:
    install()
    log = logging.getLogger("asyncio")
    with caplog.at_level(logging.WARNING):
        log.warning("Unknown child process pid %d, will report returncode 255", 12345)
        log.warning("child process pid %d exit status already read:  will report returncode 255",
                    12345)
        log.warning("another asyncio warning")
    assert [r.getMessage() for r in caplog.records] == ["another asyncio warning"]


def test_a_sigkill_at_start_up_is_named_one_mid_run_is_the_sdks_own() -> None:
    # trial 50, F7: the out-of-memory killer's SIGKILL at start-up went unnamed
    killed = NS(returncode=-9)
    assert exit_of([killed], EOFError(), at_start=True).startswith("was killed by SIGKILL")
    assert exit_of([killed], EOFError()) is None  # mid-run: the SDK's end of a session
    assert exit_of([NS(returncode=-15)], EOFError(), at_start=True) is None


def test_the_status_is_read_from_the_popen_kept_at_spawn_after_the_transport_let_go() -> None:
    # CI, 2026-12-06: "exited with status 255" for a server that exited with 3 again: once the
    # child has exited, asyncio's transport drops its Popen (``_proc`` is None), and the only
    # status left to read was the child watcher's 255
    import asyncio
    import sys

    import anyio
    import mcp.client.stdio as stdio

    from workers.mcp_exits import returncode, watching

    install()

    async def main() -> tuple[int | None, object]:
        with watching() as spawned:
            process = await stdio._create_platform_compatible_process(
                sys.executable, ["-c", "raise SystemExit(3)"], None)
        await process.wait()
        await asyncio.sleep(0.1)  # the transport finishes and lets go of its Popen
        transport = process._process._transport
        transport._returncode = 255  # what the watcher reports when another poll reaped it
        return returncode(spawned[-1]), transport._proc

    code, left = anyio.run(main)
    assert left is None  # the case: the transport has let go
    assert code == 3


def test_the_watchers_status_is_named_not_the_popens_0_when_the_watcher_reaped_it() -> None:
    # CI, 2026-12-07: a server that exited with status 5 was named "exited with status 0": the
    # child watcher reaped it first, then the transport's close() polled the Popen, which reads
    # ECHILD as status 0 (subprocess's ``_internal_poll``, bpo-15756)
    popen = NS(returncode=0)
    process = NS(returncode=5, _process=NS(returncode=5, _transport=NS(_proc=popen)))
    assert exit_of([process], EOFError()) == "exited with status 5"
    running = NS(returncode=None, _process=NS(returncode=None, _transport=NS(_proc=popen)))
    assert exit_of([running], EOFError()) is None  # the watcher has not said yet: wait for it
