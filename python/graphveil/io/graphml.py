"""The ``graphml`` release (written for other tools, not read back): nodes, edges and ``p``.

Nodes ``0..n-1`` (``edgedefault="directed"`` for a directed release: the pairs are arcs), the
edge attribute ``p``, and the release header as JSON in the graph
attribute ``graphveil`` (version :data:`~graphveil.io.layout.FORMAT_VERSION`). A small streaming
writer, no library needed; ``.gz``, ``.bz2`` and ``.xz`` names compress. Read by
``networkx.read_graphml(path, node_type=int)`` and ``igraph.Graph.Read_GraphML``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from graphveil._common import atomic_path
from graphveil.io.compression import compressor
from graphveil.io.layout import TEXT_CHUNK, json_dumps, pair_chunks

__all__: list[str] = []

#: gzip level of a compressed GraphML file.
GZIP_LEVEL = 6

_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns \
http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
<key id="p" for="edge" attr.name="p" attr.type="double"/>
<key id="graphveil" for="graph" attr.name="graphveil" attr.type="string"/>
<graph id="G" edgedefault="{edges}">
<data key="graphveil">{info}</data>
"""


def write(target: Path, header: dict[str, Any], graph: Any, compress: bool) -> None:
    """Write the release ``graph`` with ``header`` as GraphML, atomically (``compress`` ignored)."""
    with (
        atomic_path(target) as tmp,
        tmp.open("wb") as raw,
        compressor(target, raw, GZIP_LEVEL) as fh,
    ):
        edges = "directed" if header.get("directed") else "undirected"
        fh.write(_HEAD.format(info=escape(json_dumps(header)), edges=edges).encode())
        for start in range(0, graph.n, TEXT_CHUNK):
            ids = range(start, min(start + TEXT_CHUNK, graph.n))
            fh.write("".join(f'<node id="{i}"/>\n' for i in ids).encode())
        for a, b, c in pair_chunks(graph):
            fh.write(
                "".join(
                    f'<edge source="{x}" target="{y}"><data key="p">{q!r}</data></edge>\n'
                    for x, y, q in zip(a, b, c)
                ).encode()
            )
        fh.write(b"</graph>\n</graphml>\n")
