"""The study's scheduler: grid points as tasks on a pool or an executor, rows as they finish.

:class:`Scheduler` runs a batch of grid points; its :meth:`~Scheduler.rows` yields each point's
row as soon as the point is complete, so that the study records it at once (an interrupted run
keeps every finished point). Each point's submitted tasks are a
:class:`~graphveil.experiments.tasks.PointTasks`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import replace
from typing import Any

from graphveil._checks import NotApplicable
from graphveil._seeds import evaluation_seeds
from graphveil.anonymize import registry
from graphveil.cluster import result_item, share, sharing, submit
from graphveil.experiments import tasks
from graphveil.experiments.config import GridPoint, StudyConfig, point_seed
from graphveil.experiments.rows import deterministic, point_id, point_row
from graphveil.experiments.tasks import PointTasks
from graphveil.measure.original import Original
from graphveil.measure.report import measure_sample, side_by_side
from graphveil.measure.scores import H1, H2_OPEN

#: The keys of the model's privacy scores in a row (:mod:`graphveil.measure.scores`).
_H1, _H2 = H1.name, H2_OPEN.name


class Scheduler:
    """Run grid points as tasks on ``executor``; :meth:`rows` yields each finished row.

    A scheme with a :attr:`~graphveil.anonymize.registry.Scheme.prepare` has it run once, as a
    task queued before its first point's anonymization, whose result every point of the scheme
    is given (on Dask it stays on the cluster); its seed and time go into :attr:`preparations`.

    On an executor every task goes there. G0's Original goes to the cluster once for the batch,
    and each point's published graph stays where its anonymization ran, if the executor can
    share (:mod:`graphveil.cluster`); otherwise every task gets them as arguments. Without an
    executor the points go one at a time: a point's samples or independent runs go side by side
    on a local pool (:func:`~graphveil.measure.report.side_by_side`) while the next point is
    anonymized beside them, so the cores are not left idle by anonymizations that run mostly
    on one thread, nor by the last samples of a point.

    Parameters
    ----------
    reference : Original
        G0, measured once.
    config : StudyConfig
    original : dict
        G0's own row (rel.err and eps are measured against it).
    total : int
        Points in the whole grid, for progress messages.
    say : callable
        Progress messages.
    executor : Executor, optional
        Where the tasks run (None: local pools).
    bar : bool
        Draw one progress bar over the batch's samples (points times samples) on stderr, with
        an ETA (tqdm); the progress messages are then written above it.
    """

    #: Where the anonymizations (and, on an executor, every task) run, and the local pool of
    #: the samples and independent runs (the executor itself on one).
    _pool: Executor
    _side: Executor
    #: The config of the sample tasks, and of every anonymization after the first.
    _task_config: StudyConfig
    _anon_config: StudyConfig
    #: G0's Original as the tasks get it (on Dask: a future of it on the cluster).
    _g0: Any

    def __init__(
        self,
        reference: Original,
        config: StudyConfig,
        original: dict[str, Any],
        total: int,
        say: Callable[[str], None],
        executor: Executor | None,
        bar: bool = False,
    ) -> None:
        self.reference = reference
        self.config = config
        self.original = original
        self.total = total
        self.say = say
        self.executor = executor
        self.bar = bar
        self._tick: Callable[[int], None] = lambda count: None
        #: Per scheme prepared in the run: its ``seed`` and ``time_s`` (once :meth:`rows` ends).
        self.preparations: dict[str, dict[str, Any]] = {}
        self._stat_seed = point_seed(config.seed, "statistics")
        self._batch: list[tuple[int, GridPoint]] = []
        self._started: dict[str, float] = {}
        self._anon: dict[str, Future[Any]] = {}
        self._rank: dict[str, int] = {}
        self._prepared: dict[str, tuple[Future[Any], Any]] = {}  # scheme: (task, what points take)
        self._queued: deque[PointTasks] = deque()  # points with tasks submitted

    # ------------------------------------------------------------------ pools
    def _open(self, stack: contextlib.ExitStack) -> int:
        """Set up the pools (closed by ``stack``); return how many points run ahead."""
        config = self.config
        if self.executor is not None:
            self._pool = self._side = sharing(self.executor) or self.executor
            self._task_config = self._anon_config = config
            ahead = len(self._batch)  # every point's tasks queued at once
        else:
            workers, per_task = side_by_side(config.threads, config.samples)
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="graphveil-anon")
            self._side = ThreadPoolExecutor(workers, thread_name_prefix="graphveil")
            for local in (self._pool, self._side):
                # interrupted: drop the queued tasks, wait for the running
                stack.callback(local.shutdown, wait=True, cancel_futures=True)
            stack.push(_stop_kernels_on_exit)  # runs first: the running tasks' kernels stop
            self._task_config = replace(config, threads=per_task)
            # The next point is anonymized while this one's samples run, on a task's share of
            # the threads: on all of them it would compete with the samples and hold more memory.
            self._anon_config = self._task_config
            ahead = 1
        self._g0 = share(self._pool, self.reference)
        return ahead

    # ------------------------------------------------------------------ the window
    def rows(self, batch: list[tuple[int, GridPoint]]) -> Iterator[tuple[int, GridPoint, dict]]:
        """Run ``batch`` (``(index in the grid, point)`` pairs); yield each point's row when done.

        A window over the batch: anonymizations run ``ahead`` points ahead of the point whose
        tasks are being queued; a point is finished (and yielded) once the next one is queued,
        or as soon as its tasks are done, so a killed cluster run keeps its points.
        """
        self._batch = batch
        with contextlib.ExitStack() as stack:
            if self.bar and batch:
                self._tick = stack.enter_context(_progress_bar(len(batch) * self.config.samples))
            ahead = self._open(stack)
            for j in range(min(ahead, len(batch))):
                self._start(j)
            for j, (i, point) in enumerate(batch):
                anonymized = self._anon[point.key]
                while self._queued and not anonymized.done():  # record what is done meanwhile
                    running = self._queued[0].running()
                    if running:
                        wait([anonymized, *running], return_when=FIRST_COMPLETED)
                    else:
                        yield self._finish_first()
                self._queued.append(self._queue(i, point))
                if j + ahead < len(batch):
                    self._start(j + ahead)
                while len(self._queued) > ahead or (self._queued and not self._queued[0].running()):
                    yield self._finish_first()
            while self._queued:
                yield self._finish_first()
            for scheme, (task, _shared) in self._prepared.items():
                self.preparations[scheme] = task.result()[1]

    def _prepare(self, j: int, scheme: str) -> Any:
        """The scheme's prepared object for its points (its task queued on first use)."""
        record = registry.scheme(scheme)
        if record.prepare is None:
            return None
        if scheme not in self._prepared:
            self.say(f"{record.title}: preparing once for all its points")
            task = submit(self._pool, 2 - 2 * j, tasks.prepare_task, self._g0, scheme, self.config)
            self._prepared[scheme] = (task, result_item(self._pool, task, 0))
        return self._prepared[scheme][1]

    def _start(self, j: int) -> None:
        """Submit the anonymization of the batch's point ``j``."""
        i, point = self._batch[j]
        shared = self._prepare(j, point.scheme)
        self.say(f"[{i}/{self.total}] {point.key}: anonymizing")
        self._started[point.key] = time.perf_counter()
        seed = point_seed(self.config.seed, point.key)
        # point j's anonymization ranks between point j-1's tasks and its own (cluster order)
        self._rank[point.key] = -2 * j
        # the first point has the machine to itself; later ones share it with samples
        alone = self.config if j == 0 else self._anon_config
        self._anon[point.key] = submit(
            self._pool, 1 - 2 * j, tasks.anonymize_task, self._g0, point, alone, seed, shared
        )

    def _queue(self, i: int, point: GridPoint) -> PointTasks:
        """The point's tasks, submitted once its anonymization is done."""
        config = self.config
        anonymized = self._anon.pop(point.key)  # dropped after this point's tasks take its graph
        result = anonymized.result()
        if isinstance(result, NotApplicable):
            self._tick(config.samples)
            return PointTasks(i, point, not_applicable=result)
        ug, report, t_anon = result
        seed = point_seed(config.seed, point.key)
        root, sample_seed, stat_seed = evaluation_seeds(
            point_seed(seed, "evaluate"), self._stat_seed
        )
        queued = PointTasks(
            i, point, ug=ug, report=report, t_anon=t_anon, root=root, sample_seed=sample_seed
        )
        rank = self._rank[point.key]
        if tasks.has_model(point):  # the Fig. 10 bar of a model: a task like the anonymization
            queued.model_tv = submit(
                self._pool, rank, tasks.model_tv_task, self._g0, point, config.threads
            )
        prefix = f"[{i}/{self.total}] {point.key}: anonymized in {t_anon:.2f} s; "
        if deterministic(ug):
            self.say(prefix + f"{config.samples} independent runs")
            queued.futures = [
                submit(
                    self._side,
                    rank,
                    tasks.independent_run,
                    self._g0,
                    point,
                    self._task_config,
                    seed if r == 0 else point_seed(seed, f"run-{r}"),
                    sample_seed,
                    stat_seed,
                    result_item(self._pool, anonymized, 0) if r == 0 else None,
                )
                for r in range(config.samples)
            ]
        else:
            self.say(prefix + f"evaluating {config.samples} samples")
            queued.futures = self._sample_tasks(anonymized, rank, sample_seed, stat_seed)
        for future in queued.futures[: config.samples]:  # the samples or runs, not eps
            future.add_done_callback(lambda _: self._tick(1))
        return queued

    def _sample_tasks(
        self, anonymized: Future[Any], rank: int, sample_seed: int, stat_seed: int
    ) -> list[Future[Any]]:
        """The tasks of a sampled point: one per sample, then its eps."""
        threads = self._task_config.threads
        published = result_item(self._pool, anonymized, 0)
        futures = [
            submit(
                self._side,
                rank,
                measure_sample,
                self._g0,
                published,
                j,
                sample_seed,
                stat_seed,
                threads,
            )
            for j in range(self.config.samples)
        ]
        futures.append(
            submit(self._side, rank, tasks.eps_task, self._g0, published, self.config.k, threads)
        )
        return futures

    def _finish_first(self) -> tuple[int, GridPoint, dict[str, Any]]:
        """The first queued point's row, once its tasks are done."""
        queued = self._queued.popleft()
        i, point = queued.index, queued.point
        if queued.not_applicable is not None:
            return i, point, {**point_id(point), "not_applicable": str(queued.not_applicable)}
        graph = self.reference.graph
        row = point_row(graph, point, self.config, self.original, queued)
        row["time_anonymize_s"] = queued.t_anon
        row["time_evaluate_s"] = time.perf_counter() - self._started[point.key] - queued.t_anon
        self.say(
            f"[{i}/{self.total}] {point.key}: done: H2_open={row[_H2]:.1f} "
            f"rel.err={row['rel_err']:.4f}"
        )
        return i, point, row


def _stop_kernels_on_exit(exc_type: type[BaseException] | None, *_: Any) -> None:
    """On Ctrl-C or SIGTERM (not an error), stop the kernels running on the study's pools.

    The signal stops the main thread, not the pool threads: their tasks' kernels are told to
    stop (``_core.stop_kernels``), so the pools' shutdown does not wait for them to finish.
    """
    if exc_type is not None and not issubclass(exc_type, (Exception, GeneratorExit)):
        from graphveil import _core

        _core.stop_kernels()


@contextlib.contextmanager
def _progress_bar(total: int) -> Iterator[Callable[[int], None]]:
    """A tqdm bar over ``total`` samples on stderr, the ``graphveil`` log lines written above it."""
    from tqdm.auto import tqdm
    from tqdm.contrib.logging import logging_redirect_tqdm

    lock = threading.Lock()  # the tasks' done callbacks run on the pools' threads
    with (
        tqdm(total=total, desc="study", unit="sample") as bar,
        logging_redirect_tqdm([logging.getLogger("graphveil")]),
    ):

        def tick(count: int) -> None:
            with lock:
                bar.update(count)

        yield tick
