"""Build SecGraph's Percolation and NS modules from source, for benchmarks/bench_secgraph.py.

SecGraph (Ji, Li, Mittal, Hu, Beyah, USENIX Security 2015) is Java; its sources are in
``sohomdatta1/secgraph-fork`` (``src/``, MIT licence). Bring them here and build:

    git --git-dir=/work/.mirror/sohomdatta1+secgraph-fork/repo archive HEAD src License.txt \\
        | tar x -C /tmp/secgraph-src          # (mkdir -p /tmp/secgraph-src first)
    python benchmarks/build_secgraph.py /tmp/secgraph-src /tmp/secgraph-build
    export GRAPHVEIL_SECGRAPH=/tmp/secgraph-build

It needs ``javac`` (Debian: ``apt-get install default-jdk-headless``) and Apache Commons Math 3
(Debian: ``apt-get install libcommons-math3-java``, ``/usr/share/java/commons-math3.jar``; NS's
eccentricity uses its StandardDeviation); nothing is downloaded. It compiles the two modules the
benchmark races (``deAnonymize/Percolation.java``, ``deAnonymize/UndirectionedPropagation.java``,
the latter being what SecGraph's command line runs for ``-a NS``), the SecGraph classes they use
(``common.Graph`` and what it needs, found by ``javac -sourcepath``) and the timing driver
``benchmarks/secgraph/GraphveilRace.java``. SecGraph's whole command line
(``commandLine.commandLineMode``) does not build from the repository's sources: it imports
``convenience.RTED`` (tree edit distance, for RandomizedSpanningTree), which ships only inside the
prebuilt ``secGraphCLI.jar`` and is packaged neither in the repository's ``src/`` nor in Debian.
The driver calls the same methods the command line calls for ``-a Percolation`` and ``-a NS``.

The build folder receives the classes and ``secgraph.classpath`` (the class path to run them
with). Usage: python benchmarks/build_secgraph.py SOURCE BUILD [--math3 JAR]; SOURCE is the
folder holding ``src/deAnonymize/Percolation.java`` (or ``src`` itself). Exit 2 on a missing
tool or file, with one line saying what to install or give.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

MODULES = ("deAnonymize/Percolation.java", "deAnonymize/UndirectionedPropagation.java")
DRIVER = Path(__file__).resolve().parent / "secgraph" / "GraphveilRace.java"
MATH3 = Path("/usr/share/java/commons-math3.jar")
CLASSPATH_FILE = "secgraph.classpath"


def source_root(source: Path) -> Path:
    """The folder holding deAnonymize/ and common/: SOURCE/src or SOURCE itself."""
    for root in (source / "src", source):
        if all((root / module).is_file() for module in MODULES):
            return root
    raise SystemExit(
        f"error: {source} holds no SecGraph sources (looked for src/{MODULES[0]}); give the "
        "folder of a secgraph-fork checkout"
    )


def build(source: Path, out: Path, math3: Path = MATH3) -> Path:
    """Compile the modules and the driver into ``out``; return the class path file."""
    javac = shutil.which("javac")
    if javac is None:
        raise SystemExit(
            "error: javac not found; install a JDK (apt-get install default-jdk-headless)"
        )
    if not math3.is_file():
        raise SystemExit(
            f"error: {math3} not found; install Commons Math 3 (apt-get install "
            "libcommons-math3-java) or give --math3 JAR"
        )
    root = source_root(source)
    out.mkdir(parents=True, exist_ok=True)
    files = [str(root / module) for module in MODULES] + [str(DRIVER)]
    cmd = [javac, "-nowarn", "-encoding", "UTF-8", "-d", str(out), "-cp", str(math3)]
    cmd += ["-sourcepath", str(root), *files]
    subprocess.run(cmd, check=True)
    classpath = out / CLASSPATH_FILE
    tmp = classpath.with_suffix(".tmp")
    tmp.write_text(f"{out.resolve()}{os.pathsep}{math3.resolve()}\n")
    tmp.replace(classpath)
    return classpath


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a secgraph-fork checkout (or its src folder)")
    parser.add_argument("build", type=Path, help="the folder to put the classes in")
    parser.add_argument("--math3", type=Path, default=MATH3, help="Commons Math 3 jar")
    args = parser.parse_args(argv)
    try:
        classpath = build(args.source, args.build, args.math3)
    except SystemExit as exc:
        print(exc, file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as exc:
        print(f"error: javac failed (exit {exc.returncode})", file=sys.stderr)
        return 2
    print(f"built; export GRAPHVEIL_SECGRAPH={args.build.resolve()}  ({classpath.name} written)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
