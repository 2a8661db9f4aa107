"""``python -m app``: see :mod:`app.cli`."""

from app.cli import main

raise SystemExit(main())
