"""Threads and executors: the one home of how many threads a task uses and where it runs.

:func:`default_threads` (the machine's share), :func:`task_threads` (one task's share),
:func:`pool_workers` (a local pool's size), and :func:`map_ordered` / :func:`iter_ordered`, the
one "on the caller's executor, or on an own pool" loop of graphveil: results always come back
in input order, so that no output depends on the thread count or the executor.
:mod:`graphveil.cluster` stays the one place that knows Dask (``task_threads`` asks a Dask
worker for its share, nothing more).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, TypeVar

from graphveil import _core
from graphveil._checks import check_threads

R = TypeVar("R")


def default_threads() -> int:
    """The number of threads graphveil uses when ``threads`` is 0 or None.

    In this order: ``GRAPHVEIL_NUM_THREADS`` when it is set; else ``OMP_NUM_THREADS`` when it
    is a positive count (its first entry, as OpenMP reads it; ignored otherwise), the limit
    Dask's nanny (``OMP_NUM_THREADS=1``) and joblib's loky workers (their share of the CPUs)
    set so that nested parallel code does not oversubscribe; otherwise the CPUs this process
    may run on: on Linux its affinity mask (``taskset``, a batch scheduler's pinning) capped by
    any cgroup v1 or v2 CPU quota, rounded up; elsewhere the machine's logical CPU count.
    Never below 1. The compiled kernels and graphveil's own thread pools use this same count,
    and results never depend on it. An explicit ``threads=`` argument beats all of these.

    Returns
    -------
    int
        A positive thread count.

    Raises
    ------
    ValueError
        If ``GRAPHVEIL_NUM_THREADS`` is set but is not a whole number from 1 to 65536.

    Examples
    --------
    >>> import graphveil
    >>> graphveil.default_threads() >= 1
    True
    """
    return int(_core.default_threads())


def task_threads(threads: int | None) -> int:
    """Threads of one task: ``threads`` if given, else a Dask worker's own share, else the machine's.

    Inside a ``dask.distributed`` worker the share is its ``nthreads``; elsewhere
    :func:`default_threads`. Results never depend on it. The one thread policy of a task, here
    beside :func:`default_threads`, so that every layer (anonymize, measure, the study) can ask
    it; it names ``distributed`` only to ask a worker for its share.
    """
    if threads:
        return int(threads)
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return default_threads()


def pool_workers(threads: int | None) -> int:
    """Workers of a graphveil thread pool: ``threads`` if positive, else :func:`default_threads`."""
    return check_threads(threads) or default_threads()


def map_ordered(
    executor: Executor | None,
    threads: int | None,
    fn: Callable[..., R],
    items: Iterable[Any],
    *,
    star: bool = False,
    on_done: Callable[[], None] | None = None,
    name: str = "graphveil",
) -> list[R]:
    """``fn(item)`` for every item (``fn(*item)`` with ``star``), the results in input order.

    On ``executor`` when one is given (every item submitted at once; ``fn`` and the items must
    then suit it, e.g. pickle for a process pool, and with ``star`` a Dask client resolves the
    futures among the arguments); else on an own pool of ``threads`` workers
    (:func:`pool_workers`: 0 or None is :func:`default_threads`) named ``name``, closed on
    return; inline in this thread when that is one worker or there is at most one item.
    ``on_done`` is called once per finished item (a progress bar). If an item fails, the items
    not yet started are cancelled and its exception raised.

    Examples
    --------
    >>> map_ordered(None, 2, lambda x: x * x, range(5))
    [0, 1, 4, 9, 16]
    >>> map_ordered(None, 1, max, [(1, 5), (7, 2)], star=True)
    [5, 7]
    """
    items = list(items)
    call: Callable[[Any], R] = (lambda item: fn(*item)) if star else fn
    if executor is not None:
        return _collect(executor, fn, items, star, on_done)
    workers = min(pool_workers(threads), len(items))
    if workers <= 1:
        out = []
        for item in items:
            out.append(call(item))
            if on_done is not None:
                on_done()
        return out
    with ThreadPoolExecutor(workers, thread_name_prefix=name) as pool:
        return _collect(pool, fn, items, star, on_done)


def _collect(
    pool: Executor,
    fn: Callable[..., R],
    items: list[Any],
    star: bool,
    on_done: Callable[[], None] | None,
) -> list[R]:
    futures: list[Future[R]] = [
        pool.submit(fn, *item) if star else pool.submit(fn, item) for item in items
    ]
    if on_done is not None:
        for future in futures:
            future.add_done_callback(lambda _f: on_done())
    try:
        return [future.result() for future in futures]
    except BaseException:
        for future in futures:
            future.cancel()
        raise


def iter_ordered(
    threads: int | None, fn: Callable[[Any], R], items: Iterable[Any], *, name: str = "graphveil"
) -> Iterator[R]:
    """``fn(item)`` for every item, in input order, lazily: at most ``threads`` held at once.

    The lazy twin of :func:`map_ordered` on an own pool, for results too large to hold all of
    them (an obfuscation attempt holds a whole uncertain graph): ``threads`` items run side by
    side, and the next starts only when the oldest result is taken. Inline for one thread.

    >>> list(iter_ordered(2, str, range(3)))
    ['0', '1', '2']
    """
    workers = pool_workers(threads)
    if workers == 1:
        yield from map(fn, items)
        return
    with ThreadPoolExecutor(workers, thread_name_prefix=name) as pool:
        running: deque[Future[R]] = deque()
        try:
            for item in items:
                running.append(pool.submit(fn, item))
                if len(running) == workers:
                    yield running.popleft().result()
            while running:
                yield running.popleft().result()
        finally:
            for future in running:
                future.cancel()
