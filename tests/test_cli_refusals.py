"""The CLI refuses what would mislead: abbreviated options, no-op schemes, missing extras, bad seeds."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from graphveil.cli import build_parser, main
from graphveil.cli._common import Parser


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHVEIL_DATA_DIR", str(tmp_path / "cache"))


def _parsers(parser, path=()):
    """Every (command path, parser) reachable from ``parser``."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def _minimal_argv(parser: argparse.ArgumentParser) -> list[str]:
    """Arguments that satisfy ``parser``'s required options and positionals (parsing only)."""
    argv: list[str] = []
    groups = [g for g in parser._mutually_exclusive_groups if g.required]
    grouped = {id(a) for g in groups for a in g._group_actions}
    for group in groups:  # the first member of a required either-or
        action = group._group_actions[0]
        argv += [action.option_strings[0], "x"] if action.option_strings else ["x"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):  # its first command, complete
            name, sub = next(iter(action.choices.items()))
            return [*argv, name, *_minimal_argv(sub)]
        if id(action) in grouped:
            continue
        if action.option_strings and action.required:
            value = str(action.choices[0]) if action.choices else "1"
            argv += [action.option_strings[0], value]
        elif not action.option_strings and action.nargs in (None, "+"):
            argv.append("x")
    return argv


def _rejects(parser: argparse.ArgumentParser, argv: list[str], arg: str) -> bool:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        parser.parse_args(argv)
    return exit_.value.code == 2 and f"unrecognized arguments: {arg}" in err.getvalue()


def test_every_parser_refuses_abbreviations():
    for path, parser in _parsers(build_parser()):
        assert isinstance(parser, Parser) and not parser.allow_abbrev, path


def test_no_prefix_of_a_long_option_is_taken_for_it():
    """Every proper prefix of every long option of every command is refused (exit 2), bare or
    with ``=value``, unless the prefix is itself an option of that command."""
    tried = 0
    for path, parser in _parsers(build_parser()):
        argv = _minimal_argv(parser)
        parser.parse_args(argv)  # the base line parses: a refusal below is the prefix's
        # A parent's own options go before its command; a command's after its arguments.
        nested = any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)
        options = set(parser._option_string_actions)
        for option in options:
            if not option.startswith("--"):
                continue
            for end in range(3, len(option)):
                prefix = option[:end]
                if prefix in options:
                    continue
                for arg in (prefix, f"{prefix}=1"):
                    tried += 1
                    line = [arg, *argv] if nested else [*argv, arg]
                    assert _rejects(parser, line, arg), (path, arg)
    # The count of prefixes tried, for the report: every command's every long option.
    print(f"prefixes tried: {tried}")
    assert tried > 1000


def test_the_reported_prefix_of_keep_ids_is_refused(tmp_path, capsys):
    out = tmp_path / "y.npz"
    with pytest.raises(SystemExit) as exit_:
        main(
            [
                "anonymize",
                "maxvar",
                "--dataset",
                "karate_club",
                "--n-potential",
                "20",
                "--parts",
                "1",
                "--allow-fewer",
                "-o",
                str(out),
                "--k",
            ]
        )
    assert exit_.value.code == 2
    assert "unrecognized arguments: --k" in capsys.readouterr().err
    assert not out.exists()
