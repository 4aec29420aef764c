"""Executors for the study on a cluster: a ``dask.distributed`` scheduler from one string.

:func:`graphveil.experiments.reproduce` and :func:`graphveil.evaluate` take any
:class:`concurrent.futures.Executor`; :func:`executor_for` makes the documented one, a
:class:`DaskExecutor`, from the CLI's ``--scheduler`` value.

A study hands G0 (its :class:`~graphveil.measure.Original`, tens of MB on a large graph) and each
grid point's published graph to many tasks. A plain executor pickles them into every task; a
:class:`DaskExecutor` places each on the cluster once and hands the tasks a reference
(:func:`share`, :func:`result_item`). This module is the one place that knows about Dask:
:func:`sharing` turns a plain ``Client.get_executor()`` into a :class:`DaskExecutor` on the same
client, and any other executor is used as it is, its tasks getting the objects themselves.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import operator
import sys
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from typing import Any

__all__ = [
    "DASK_MISSING",
    "WORKERS_PER_CPU",
    "DaskExecutor",
    "executor_for",
    "max_local_workers",
    "result_item",
    "share",
    "sharing",
    "submit",
]

#: What to do when Dask is not installed.
DASK_MISSING = 'a --scheduler needs Dask: pip install "graphveil[dask]"'

#: ``local:N``'s bound, in workers per CPU: its workers are single-threaded threads of this
#: process, so more than a few per CPU only add start-up time and scheduling.
WORKERS_PER_CPU = 4


def max_local_workers() -> int:
    """The most workers ``local:N`` starts: :data:`WORKERS_PER_CPU` per CPU of this machine.

    >>> max_local_workers() >= WORKERS_PER_CPU
    True
    """
    import os

    return WORKERS_PER_CPU * (os.cpu_count() or 1)


class _Relayed(cf.Future[Any]):
    """A concurrent future relaying a Dask future's outcome, which it keeps as ``source``."""

    def __init__(self, source: Any) -> None:
        super().__init__()
        self.source = source


class DaskExecutor(Executor):
    """A :class:`concurrent.futures.Executor` on a ``dask.distributed`` client that shares.

    Besides :meth:`submit`, it places an object on the cluster once (:meth:`share`) or leaves
    a part of a task's result where the task ran (:meth:`result_item`); a task given the
    returned reference as an argument receives the object on its worker. Closing it does not
    close the client.

    Parameters
    ----------
    client : distributed.Client
    **kwargs
        Passed to every ``client.submit`` (``workers``, ``resources``, ``retries``, ...);
        ``pure`` defaults to False, so no argument is hashed.

    Examples
    --------
    >>> from distributed import Client, LocalCluster  # doctest: +SKIP
    >>> with LocalCluster(n_workers=2, processes=False) as cl, Client(cl) as client:  # doctest: +SKIP
    ...     pool = DaskExecutor(client)
    ...     big = pool.share(list(range(10**6)))
    ...     pool.submit(len, big).result()
    1000000
    """

    def __init__(self, client: Any, **kwargs: Any) -> None:
        self.client = client
        self._kwargs = {"pure": False, **kwargs}
        self._futures: weakref.WeakSet[Any] = weakref.WeakSet()
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        """``fn(*args, **kwargs)`` as one task; a reference among the arguments is resolved."""
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        source = self.client.submit(fn, *args, **self._kwargs, **kwargs)
        self._futures.add(source)
        future = _Relayed(source)
        future.add_done_callback(_cancel_source)
        source.add_done_callback(lambda _: _relay(future))
        return future

    def share(self, obj: Any) -> Any:
        """``obj`` sent once to every worker; returns the reference to pass as a task argument."""
        return self.client.scatter([obj], broadcast=True, hash=False)[0]

    def result_item(self, future: cf.Future[Any], index: int) -> Any:
        """A reference to ``future.result()[index]``, left on the worker that computed it."""
        if not isinstance(future, _Relayed):
            return self.share(future.result()[index])
        return self.client.submit(operator.getitem, future.source, index, pure=False)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking tasks; cancel and/or wait for the ones submitted (the client stays open)."""
        self._shutdown = True
        pending = list(self._futures)
        if cancel_futures:
            self.client.cancel(pending)
        if wait:
            from distributed import wait as dask_wait

            dask_wait(pending)


def _relay(future: _Relayed) -> None:
    """Pass the finished Dask future's outcome to its concurrent future (a callback)."""
    try:
        result = future.source.result()
    except BaseException as err:  # noqa: BLE001 - the task's own error, re-raised by .result()
        with contextlib.suppress(cf.InvalidStateError):
            future.set_exception(err)
        return
    with contextlib.suppress(cf.InvalidStateError):  # cancelled here meanwhile
        future.set_result(result)


def _cancel_source(future: cf.Future[Any]) -> None:
    if future.cancelled() and isinstance(future, _Relayed):
        future.source.cancel()


def sharing(executor: Executor | None) -> Executor | None:
    """``executor`` able to share objects among its tasks, if it can be.

    A ``distributed`` ``Client.get_executor()`` becomes a :class:`DaskExecutor` on the same
    client, with the same submit options; any other executor (and None) is returned as it is.

    Examples
    --------
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as pool:
    ...     sharing(pool) is pool
    True
    """
    module = sys.modules.get("distributed.cfexecutor")  # imported if such an executor exists
    if module is not None and isinstance(executor, module.ClientExecutor):
        # its client and submit options have no public accessor (distributed 2023.1-2026.8)
        return DaskExecutor(executor._client, **executor._kwargs)
    return executor


def share(executor: Executor | None, obj: Any) -> Any:
    """What a task on ``executor`` takes as ``obj``: a reference, or ``obj`` itself.

    On a :class:`DaskExecutor`, ``obj`` is placed on every worker once
    (:meth:`DaskExecutor.share`); any other executor's tasks get ``obj`` as an argument.

    Examples
    --------
    >>> share(None, [1, 2])
    [1, 2]
    """
    return executor.share(obj) if isinstance(executor, DaskExecutor) else obj


def result_item(executor: Executor | None, future: cf.Future[Any], index: int) -> Any:
    """What a task on ``executor`` takes as ``future.result()[index]``: a reference, or the value.

    On a :class:`DaskExecutor` the item stays on the worker that computed it
    (:meth:`DaskExecutor.result_item`); elsewhere it is the value itself.

    Examples
    --------
    >>> done = cf.Future()
    >>> done.set_result(("ug", "report"))
    >>> result_item(None, done, 0)
    'ug'
    """
    if isinstance(executor, DaskExecutor):
        return executor.result_item(future, index)
    return future.result()[index]


def submit(
    executor: Executor, priority: int, fn: Callable[..., Any], /, *args: Any
) -> cf.Future[Any]:
    """``executor.submit(fn, *args)``, on a :class:`DaskExecutor` with a Dask ``priority``.

    Among tasks waiting on a worker, Dask runs the higher priority first; other executors run
    tasks in the order submitted. The study gives each grid point's tasks its own rank, so a
    cluster works through the points in order and holds few releases at once.

    Examples
    --------
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as pool:
    ...     submit(pool, 5, pow, 2, 10).result()
    1024
    """
    if isinstance(executor, DaskExecutor):
        return executor.submit(fn, *args, priority=priority)
    return executor.submit(fn, *args)


@contextlib.contextmanager
def executor_for(scheduler: str) -> Iterator[DaskExecutor]:
    """An executor on a Dask cluster, closed (with any cluster it started) on exit.

    Parameters
    ----------
    scheduler : str
        ``local:N`` starts a ``LocalCluster`` of N single-threaded workers in this process
        (threads: the kernels release the GIL, and worker processes would each hold their
        own copy of G0 and of the release, which crowd the shared cache: on web-NotreDame a
        sample took 1.00 s on average on each of two process workers against 0.74 s on
        thread workers, ``benchmarks/cluster_workers.py``); anything else is the address of a running scheduler (``tcp://host:8786``, or
        the ``scheduler_address`` of a dask-jobqueue or Kubernetes cluster).

    Yields
    ------
    DaskExecutor
        On a client of that scheduler.

    Raises
    ------
    ImportError
        If ``dask.distributed`` is not installed (the message says how to install it).
    ValueError
        If ``local:N`` has no positive integer N, or N above :func:`max_local_workers`.

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
        most = max_local_workers()
        if workers > most:
            raise ValueError(
                f"--scheduler local:N takes at most {most} workers (WORKERS_PER_CPU = "
                f"{WORKERS_PER_CPU} per CPU of this machine), got {scheduler!r}; for more, "
                "start a cluster and give its scheduler's address"
            )
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(DASK_MISSING) from None
    with contextlib.ExitStack() as stack:
        if local:
            import dask

            # worker-saturation inf: every task goes to a worker when ready, which runs them by
            # priority (see submit); queued on the scheduler instead, the anonymizations (tasks
            # on G0 alone) waited behind every sample, and every release was held to the end.
            # No profiler: the workers are threads of this process, and Dask's sampling
            # profiler would take the GIL from the tasks every 10 ms, for nobody.
            stack.enter_context(
                dask.config.set(
                    {
                        "distributed.scheduler.worker-saturation": "inf",
                        "distributed.worker.profile.enabled": False,
                    }
                )
            )
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=False,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(Client(cluster))
        else:
            client = stack.enter_context(Client(scheduler))
        yield DaskExecutor(client)
