"""Seeds: the one home of reading a user's seed and deriving every seed from another.

Every ``seed`` argument of graphveil is read by :func:`seed_to_u64`; every seed derived from
another (a part's, a grid point's, an attempt's, the id permutation's, METIS's) is made here,
by one of the functions below, so that the same seed gives the same numbers on any thread,
process or executor. The derivations differ on purpose (each was fixed when its output was
first published, and changing one would change the files it makes), and each says which
outputs depend on it.
"""

from __future__ import annotations

import hashlib

import numpy as np

#: What every ``seed`` argument takes (one home: :func:`seed_to_u64`).
SeedLike = (
    int
    | np.integer
    | np.random.Generator
    | np.random.BitGenerator
    | np.random.SeedSequence
    | np.random.RandomState
    | None
)

#: METIS reads its seed as a C int: seeds of :func:`metis_seed` lie in ``[0, METIS_SEED_MAX]``.
METIS_SEED_MAX = 2**31 - 1

#: The key of the id permutation's stream in :func:`permutation_seed`.
_PERMUTATION_KEY = 0x9E_17


def seed_to_u64(seed: SeedLike) -> int:
    """Reduce a user seed to the one 64-bit integer handed to the C++ kernels.

    The one place every ``seed`` argument of graphveil is read, accepting what numpy,
    scikit-learn and networkx users hold:

    - ``None``: fresh OS entropy (a different result every call);
    - an integer in ``[0, 2**64)`` (numpy integers too; ValueError outside, since reducing a
      larger seed modulo 2**64 would make two seeds one stream);
    - a ``numpy.random.Generator`` or ``BitGenerator``: advanced by one 64-bit draw, so
      successive calls with the same generator give different, reproducible streams;
    - a legacy ``numpy.random.RandomState`` (scikit-learn's ``random_state``): likewise;
    - a ``numpy.random.SeedSequence``: its first 64-bit word (not advanced: a SeedSequence is
      a fixed seed; ``spawn`` it for independent streams).

    Examples
    --------
    >>> seed_to_u64(7)
    7
    >>> ss = np.random.SeedSequence(7)
    >>> seed_to_u64(ss) == seed_to_u64(np.random.SeedSequence(7))
    True
    >>> seed_to_u64(np.random.default_rng(1)) == seed_to_u64(np.random.default_rng(1))
    True
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    if isinstance(seed, np.random.BitGenerator):
        seed = np.random.Generator(seed)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**64, dtype=np.uint64))
    if isinstance(seed, np.random.RandomState):
        return int(seed.randint(0, 2**64, dtype=np.uint64))
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, dtype=np.uint64)[0])
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            "seed must be an int, None, a numpy.random.Generator, BitGenerator, SeedSequence "
            f"or RandomState, not {type(seed).__name__}"
        )
    if not 0 <= seed < 2**64:
        # Taking a larger seed modulo 2**64 would make two different seeds one stream.
        raise ValueError(f"seed must lie in [0, 2**64), got {seed}; pass an integer in that range")
    return int(seed)


def keyed_rng(seed: int, *keys: int) -> np.random.Generator:
    """The generator of the stream ``(seed, *keys)``: independent per key, on any thread.

    An obfuscation attempt's (keys: sigma step, attempt) and, through :func:`part_seed`, a
    part's stream.

    Examples
    --------
    >>> a, b = keyed_rng(7, 0, 1), keyed_rng(7, 0, 1)
    >>> int(a.integers(100)) == int(b.integers(100))
    True
    """
    return np.random.default_rng(np.random.SeedSequence([seed, *keys]))


def part_seed(seed: int, part: int) -> int:
    """The 64-bit seed of part ``part``'s own random stream, derived from the run's one seed.

    A function of ``(seed, part)`` only, so a part's result does not depend on which thread,
    process or executor runs it, nor on the other parts (Partition's parts).

    Examples
    --------
    >>> part_seed(7, 0) == part_seed(7, 0) != part_seed(7, 1)
    True
    """
    return seed_to_u64(keyed_rng(seed, part))


def derived_seed(master: int, key: str) -> int:
    """A 64-bit seed derived from ``master`` and a text ``key`` (SHA-256), independent per key.

    The seed of a study's grid point (its key), of its statistics and attacks, and of a
    scheme's once-per-study preparation.

    Examples
    --------
    >>> derived_seed(1, "a") == derived_seed(1, "a") != derived_seed(1, "b")
    True
    """
    digest = hashlib.sha256(f"{master}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def permutation_seed(seed: int | None) -> int | None:
    """The id permutation's seed for a command run with ``--seed``: its own stream of that seed.

    The same command and seed then write the same bytes; without ``--seed`` (None) both the
    scheme and the permutation draw fresh entropy.

    Examples
    --------
    >>> permutation_seed(None) is None, permutation_seed(3) == permutation_seed(3) != 3
    (True, True)
    """
    if seed is None:
        return None
    return seed_to_u64(np.random.SeedSequence([seed, _PERMUTATION_KEY]))


def reduced_seed(seed: SeedLike, seed_max: int) -> int:
    """``seed`` (read by :func:`seed_to_u64`) modulo ``seed_max + 1``: a partitioner's seed.

    For a library that reads a smaller seed than 64 bits (METIS and KaMinPar: a C int,
    ``seed_max = 2**31 - 1``).

    >>> reduced_seed(2**31 + 5, 2**31 - 1)
    5
    """
    return seed_to_u64(seed) % (seed_max + 1)


def metis_seed(seed: SeedLike) -> int | None:
    """METIS's seed (a C int, ``[0, 2**31)``) from a user seed; None (METIS's own) for None.

    A Generator is advanced by one draw below the limit; any other seed is read by
    :func:`seed_to_u64` (and checked as every seed is) and reduced modulo ``2**31``.

    Examples
    --------
    >>> metis_seed(None) is None, metis_seed(2**31 + 5)
    (True, 5)
    """
    if seed is None:
        return None
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, METIS_SEED_MAX, endpoint=True))
    return reduced_seed(seed, METIS_SEED_MAX)


def evaluation_seeds(seed: SeedLike, statistics_seed: SeedLike) -> tuple[int, int, int]:
    """``(root, sample_seed, statistics_seed)`` of one evaluation of a published graph.

    ``root`` is ``seed`` read by :func:`seed_to_u64`; the possible worlds are drawn from
    ``sample_seed`` and the statistics (BFS sources, HyperBall hashes) from the statistics
    seed: ``statistics_seed`` when given, else a second draw of ``root``'s stream. One
    statistics seed for G0 and every sample (common random numbers): the estimation errors
    then largely cancel in ``|mean - original|`` instead of adding noise to rel.err.

    Examples
    --------
    >>> evaluation_seeds(5, None) == evaluation_seeds(5, None)
    True
    >>> evaluation_seeds(5, 9)[2]
    9
    """
    root = seed_to_u64(seed)
    rng = np.random.default_rng(root)
    sample_seed = int(rng.integers(0, 2**63))
    stat_seed = (
        int(rng.integers(0, 2**63))
        if statistics_seed is None
        else int(seed_to_u64(statistics_seed))
    )
    return root, sample_seed, stat_seed
