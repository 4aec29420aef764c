"""CLI manners: deprecated spellings, closed pipes, ``--json -``, short options, progress, logging."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest
from graph_zoo import cli_parsers

from graphveil.cli import build_parser, main


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHVEIL_DATA_DIR", str(tmp_path / "cache"))


def test_each_short_option_means_one_thing_across_commands():
    meaning: dict[str, set[str]] = {}
    where: dict[str, list[str]] = {}
    for path, parser in cli_parsers(build_parser()):
        for action in parser._actions:
            for flag in action.option_strings:
                if len(flag) == 2 and flag[0] == "-" and flag != "-h":
                    meaning.setdefault(flag, set()).add(action.dest)
                    where.setdefault(flag, []).append(" ".join(path))
    clashes = {flag: dests for flag, dests in meaning.items() if len(dests) > 1}
    assert not clashes, {flag: where[flag] for flag in clashes}
    assert meaning["-q"] == {"quiet"} and meaning["-v"] == {"verbose"}


def test_every_command_has_json_and_quiet():
    for path, parser in cli_parsers(build_parser()):
        if any(isinstance(a, argparse._SubParsersAction) for a in parser._actions) or not path:
            continue
        flags = {f for a in parser._actions for f in a.option_strings}
        assert {"--json", "-q", "-v"} <= flags, path


def test_old_scheme_spellings_still_work_with_a_warning(capsys):
    code = main(
        ["anonymize", "switch", "--dataset", "karate_club", "-s", "20", "--seed", "1", "--json"]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert "`anonymize switch` is deprecated" in err and "use `anonymize edge_switch`" in err
    assert json.loads(out)["scheme"] == "edge_switch"
    code = main(
        [
            "anonymize",
            "partition",
            "--dataset",
            "karate_club",
            "--parts",
            "2",
            "--scheme",
            "randwalk-mod",
            "--params",
            '{"t": 2}',
            "--seed",
            "1",
            "-q",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and "--scheme randwalk-mod is deprecated" in err
    assert json.loads(out)["params"]["scheme"] == "randwalk_mod"


def test_json_dash_is_stdout_not_a_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(["stats", "--dataset", "karate_club", "--basic", "--json", "-"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["edges"] == 78
    code = main(["datasets", "list", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and "karate_club" in {row["name"] for row in json.loads(out)}
    path = tmp_path / "ug.npz"
    assert (
        main(
            [
                "anonymize",
                "edge_switch",
                "--dataset",
                "karate_club",
                "-s",
                "10",
                "--seed",
                "1",
                "-o",
                str(path),
                "--keep-ids",
                "-q",
            ]
        )
        == 0
    )
    capsys.readouterr()
    code = main(
        [
            "evaluate",
            "--dataset",
            "karate_club",
            str(path),
            "--samples",
            "1",
            "--k",
            "2",
            "--seed",
            "1",
            "--json",
            "-",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["samples"] == 1
    assert not (tmp_path / "-").exists()
    report = tmp_path / "r.json"
    assert (
        main(
            [
                "evaluate",
                "--dataset",
                "karate_club",
                str(path),
                "--samples",
                "1",
                "--k",
                "2",
                "--seed",
                "1",
                "--json",
                str(report),
            ]
        )
        == 0
    )
    assert "original" in capsys.readouterr().out and json.loads(report.read_text())["samples"] == 1


def _cli(*argv, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "graphveil", *argv],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
        **kwargs,
    )


_STATS_SCRIPT = (
    "import sys; from graphveil.cli import main; "
    "sys.exit(main(['stats', '--dataset', 'karate_club', '--basic']))"
)


def test_closed_pipe_exits_quietly():
    # `graphveil datasets list | head -1`: the reader closes after one line.
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _STATS_SCRIPT,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )
    proc.stdout.close()  # nobody reads: every write meets a closed pipe
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = proc.wait(timeout=300)
    assert code == 141, err
    assert "Traceback" not in err and "Broken pipe" not in err and "BrokenPipe" not in err


def test_closed_pipe_through_head():
    run = subprocess.run(
        f"{sys.executable} -m graphveil datasets list | head -1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
    )
    assert run.stdout.startswith("name") and run.stdout.count("\n") == 1
    assert run.returncode in (0, 141)  # 0 if the whole list fit in the pipe before head left
    assert run.stderr == ""


def test_no_progress_bars_when_stderr_is_not_a_terminal():
    run = _cli(
        "anonymize",
        "maxvar",
        "--dataset",
        "karate_club",
        "--n-potential",
        "20",
        "--parts",
        "2",
        "--seed",
        "1",
    )
    assert run.returncode == 0, run.stderr
    assert "\r" not in run.stderr and "%|" not in run.stderr


def test_quiet_and_verbose_set_the_logger():
    import logging

    assert main(["datasets", "list", "-q", "--json", os.devnull]) == 0
    assert logging.getLogger("graphveil").level == logging.WARNING
    assert main(["datasets", "list", "-v", "--json", os.devnull]) == 0
    assert logging.getLogger("graphveil").level == logging.DEBUG
