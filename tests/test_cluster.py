"""graphveil.cluster: a Dask executor that is a plain Executor and shares large inputs."""

from __future__ import annotations

import concurrent.futures as cf

import pytest

from graphveil.cluster import DaskExecutor, result_item, share, sharing

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client(two_workers):
    with two_workers(False) as c:
        yield c


def _fail(text: str) -> None:
    raise KeyError(text)


def _pair(x: int) -> tuple[int, str]:
    return x * x, "report"


def test_it_is_a_concurrent_executor(client):
    pool = DaskExecutor(client)
    futures = [pool.submit(pow, 2, i) for i in range(5)]
    assert isinstance(futures[0], cf.Future)
    assert sorted(f.result() for f in cf.as_completed(futures, timeout=60)) == [1, 2, 4, 8, 16]
    assert [f.result() for f in futures] == [1, 2, 4, 8, 16]
    assert list(pool.map(abs, [-1, -2])) == [1, 2]
    with pytest.raises(KeyError, match="lost"):
        pool.submit(_fail, "lost").result()
    pool.shutdown()
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(abs, 1)


def test_a_shared_object_is_on_every_worker_once(client):
    pool = DaskExecutor(client)
    big = list(range(1000))
    ref = share(pool, big)
    assert isinstance(ref, distributed.Future)
    assert len(client.who_has([ref])[ref.key]) == 2  # broadcast: each worker holds one copy
    assert pool.submit(sum, ref).result() == sum(big)
    # an executor that cannot share gets the object itself
    assert share(None, big) is big


def test_a_result_item_stays_where_it_was_computed(client):
    pool = DaskExecutor(client)
    made = pool.submit(_pair, 7)
    item = result_item(pool, made, 0)
    assert isinstance(item, distributed.Future)
    distributed.wait([item])
    where = client.who_has([item, made.source])
    assert where[item.key] == where[made.source.key]  # no transfer to make it
    assert pool.submit(int.__neg__, item).result() == -49
    assert result_item(None, made, 1) == "report"


def test_a_plain_client_executor_becomes_a_sharing_one(client):
    plain = client.get_executor(retries=1)
    pool = sharing(plain)
    assert isinstance(pool, DaskExecutor) and pool.client is client
    assert pool._kwargs == {"pure": False, "retries": 1}  # the submit options are kept
    other = cf.ThreadPoolExecutor(1)
    assert sharing(other) is other and sharing(None) is None
    other.shutdown()
