"""``python -m graphveil``: the same as the ``graphveil`` command."""

from graphveil.cli import main

raise SystemExit(main())
