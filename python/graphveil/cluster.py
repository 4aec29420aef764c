"""Executors for the study on a cluster: a ``dask.distributed`` scheduler from one string.

:func:`graphveil.experiments.reproduce` and :func:`graphveil.measure.report.evaluate` take any
:class:`concurrent.futures.Executor`; :func:`executor_for` makes the documented one, the
executor of a ``dask.distributed`` client, from the CLI's ``--scheduler`` value.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from concurrent.futures import Executor

__all__ = ["DASK_MISSING", "executor_for"]

#: What to do when Dask is not installed.
DASK_MISSING = 'a --scheduler needs Dask: pip install "graphveil[dask]"'


@contextlib.contextmanager
def executor_for(scheduler: str) -> Iterator[Executor]:
    """An executor on a Dask cluster, closed (with any cluster it started) on exit.

    Parameters
    ----------
    scheduler : str
        ``local:N`` starts a ``LocalCluster`` of N single-threaded worker processes on this
        machine; anything else is the address of a running scheduler (``tcp://host:8786``, or
        the ``scheduler_address`` of a dask-jobqueue or Kubernetes cluster).

    Yields
    ------
    concurrent.futures.Executor
        ``Client.get_executor()``.

    Raises
    ------
    ImportError
        If ``dask.distributed`` is not installed (the message says how to install it).
    ValueError
        If ``local:N`` has no positive integer N.

    Examples
    --------
    >>> with executor_for("local:0") as pool:
    ...     pass
    Traceback (most recent call last):
    ValueError: --scheduler local:N needs a positive number of workers N, got 'local:0'
    """
    local = scheduler.startswith("local:")
    workers = 0
    if local:
        text = scheduler.split(":", 1)[1]
        if not text.isdigit() or int(text) < 1:
            raise ValueError(
                f"--scheduler local:N needs a positive number of workers N, got {scheduler!r}"
            )
        workers = int(text)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(DASK_MISSING) from None
    with contextlib.ExitStack() as stack:
        if local:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(Client(cluster))
        else:
            client = stack.enter_context(Client(scheduler))
        yield client.get_executor()
