"""JSON: the one home of how graphveil writes and reads JSON.

:func:`dumps` writes every JSON graphveil makes (release headers and sidecars, run records,
the study's files, the command line's ``--json``), with numpy scalars and arrays as Python
numbers and lists and paths as strings (:func:`jsonable`). Its NaN policy is the caller's
choice, by what reads the file: ``nan="keep"`` writes NaN and infinities as Python's ``json``
does (``NaN``, read back by Python; headers, records, the study's state and study.json), and
``nan="null"`` writes them as ``null`` (strict JSON, for other tools: ``--json``, a report's
JSON). :func:`load_json` reads JSON from a file, refusing crafted nesting.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Literal

import numpy as np


def jsonable(value: Any) -> Any:
    """``value`` as a JSON-able Python value: numpy scalars and arrays, paths; else TypeError.

    The ``default`` hook of :func:`dumps`.

    >>> jsonable(np.int64(3)), jsonable(np.arange(2))
    (3, [0, 1])
    """
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    raise TypeError(f"{type(value).__name__} is not JSON-serialisable")


def finite(value: Any) -> Any:
    """``value`` with NaN and infinities as None (JSON has neither), through dicts and lists.

    >>> finite({"a": [1.0, float("nan")]})
    {'a': [1.0, None]}
    """
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def dumps(
    value: Any,
    *,
    nan: Literal["keep", "null"] = "keep",
    sort_keys: bool = False,
    indent: int | None = None,
    lenient: bool = False,
) -> str:
    """``value`` as JSON text: numpy values as Python's (:func:`jsonable`), NaN by ``nan``.

    ``nan="keep"`` writes NaN and infinities as ``NaN`` / ``Infinity`` (Python reads them
    back), ``nan="null"`` as ``null``. A value :func:`jsonable` cannot convert is a TypeError,
    or its ``str`` with ``lenient`` (a run record is written whatever a report holds).

    >>> dumps({"b": np.float64("nan"), "a": np.int32(1)}, sort_keys=True)
    '{"a": 1, "b": NaN}'
    >>> dumps([float("inf"), np.arange(2)], nan="null")
    '[null, [0, 1]]'
    """
    null = nan == "null"

    def default(item: Any) -> Any:
        try:
            out = jsonable(item)
        except TypeError:
            if not lenient:
                raise
            return str(item)
        return finite(out) if null else out

    return json.dumps(
        finite(value) if null else value,
        default=default,
        sort_keys=sort_keys,
        indent=indent,
        allow_nan=not null,
    )


#: The deepest nesting a JSON value read from a file may have (a release's ``params``, a run
#: record's report): deeper is a crafted file, refused before anything recurses over it.
MAX_JSON_DEPTH = 32


def load_json(text: str | bytes, what: str) -> Any:
    """JSON ``text`` read from a file; ValueError naming ``what`` if invalid or nested too deeply.

    >>> load_json('{"a": [1, 2]}', "x.json")
    {'a': [1, 2]}
    >>> load_json("[" * 40 + "]" * 40, "x.json")
    Traceback (most recent call last):
    ...
    ValueError: x.json: JSON nested deeper than 32 levels (a crafted file?)
    """
    too_deep = f"{what}: JSON nested deeper than {MAX_JSON_DEPTH} levels (a crafted file?)"
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(too_deep) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"{what}: not valid JSON ({err})") from None
    level = [value]
    for _ in range(MAX_JSON_DEPTH):
        level = [
            item
            for node in level
            if isinstance(node, (dict, list))
            for item in (node.values() if isinstance(node, dict) else node)
        ]
        if not level:
            return value
    raise ValueError(too_deep)
