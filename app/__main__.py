"""``python -m app``: see :mod:`app.cli`.

After the command, before the interpreter's shutdown, every object still alive is moved to the
collector's permanent generation (``gc.freeze()``): the shutdown's final collections then skip
the ~120,000 objects a run leaves tracked (most of them LangChain's, LangGraph's and pydantic's),
which took 0.8 to 1.8 s of a warm run's wall time on a loaded 2-core machine, 0.1 s after
(issue 21, item 12). Reference counting still frees and finalizes everything as usual (files,
connections); only cyclic garbage left at exit is not collected, which the OS reclaims with the
process. In-process callers of :func:`app.cli.main`
(the tests) are not affected. Source: the Python docs of ``gc.freeze``. While the CLI and a
command's libraries import, the collector is paused (:mod:`app.runs.collector`).
"""

import gc

from app.runs.collector import pause  # light: the standard library only

pause()  # no collections while the libraries import: app.runs.collector
from app.runs.stop import hold_signals  # noqa: E402 - light: no LangGraph import

# Ctrl-C and SIGTERM wait while the CLI is imported: main() handles either from its first line
# (SIGTERM's default killed the process without a word, Ctrl-C raised inside an import)
hold_signals()
from app.cli import main  # noqa: E402

code = main()
gc.freeze()
raise SystemExit(code)
