"""Each answer of the command line on the shipped puzzles equals the Python answer."""

import json

import pegflip
import pytest
from conftest import ROOT, cli

SHIPPED = pegflip.shipped()


def colours(name: str) -> int:
    """The puzzle's number of colours, as `check --json` gives it."""
    return json.loads(cli("check", name, "--json").stdout).get("modulus", 2)


# The package answers puzzles of two colours; those of more are refused by name.
TWO_COLOURS = [n for n in SHIPPED if colours(n) == 2]


def a_board(name: str) -> str:
    """The puzzle's start, or a board `generate` draws at distance 3."""
    puzzle = pegflip.Puzzle.load(name)
    if puzzle.start is not None:
        return puzzle.start
    out = cli("generate", name, "--distance", "3", "--seed", "1")
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_every_shipped_puzzle_is_listed():
    listed = [line.split()[0] for line in cli("list").stdout.splitlines()[1:]]
    assert SHIPPED == listed


def test_a_puzzle_of_more_colours_is_refused_by_name():
    more = [n for n in SHIPPED if n not in TWO_COLOURS]
    assert more
    for name in more:
        with pytest.raises(pegflip.UsageError, match="colours"):
            pegflip.Puzzle.load(name)


@pytest.mark.parametrize("name", TWO_COLOURS)
def test_solve_json_is_the_command_lines_byte_for_byte(name):
    board = a_board(name)
    out = cli("solve", name, "--json", "--", board)
    answer = pegflip.Puzzle.load(name).solve(board)
    assert answer.to_json() == out.stdout
    assert answer.solvable == (out.returncode == 0)
    text = cli("solve", name, "--", board).stdout
    assert answer.text == text
    assert pegflip.Puzzle.load(name).verify(answer)


@pytest.mark.parametrize("name", [n for n in TWO_COLOURS if pegflip.Puzzle.load(n).linear])
def test_analyze_agrees(name):
    cli_json = json.loads(cli("analyze", name, "--json").stdout)
    analysis = pegflip.Puzzle.load(name).analyze()
    assert (analysis.rank, analysis.nullity) == (cli_json["rank"], cli_json["nullity"])
    assert analysis.solvable == int(cli_json["solvable_states"])
    assert len(analysis.quiet) == analysis.nullity


@pytest.mark.parametrize("name", ["flip4x4", "pebble12", "merlin", "petersen", "triangle15", "painter"])
def test_counts_histograms_and_listings_agree(name):
    puzzle = pegflip.Puzzle.load(name)
    assert puzzle.count() == int(cli("states", name, "--count").stdout)
    histogram = {
        int(d): int(n) for d, n in (line.split() for line in cli("states", name, "--histogram").stdout.splitlines())
    }
    assert puzzle.histogram() == histogram
    # The command line writes a fewest-pieces state's answer beside it.
    assert list(puzzle.states()) == [line.split()[0] for line in cli("states", name).stdout.splitlines()]


@pytest.mark.parametrize(
    "name,sample",
    [
        ("flip4x4", "flip4x4-poj1753"),
        ("pebble12", "pebble12-uva10651"),
        ("poj1222", "poj1222"),
        ("fliptile", "fliptile-poj3279"),
        ("painter", "painter-poj1681"),
    ],
)
def test_batch_gives_the_judges_samples(name, sample):
    text = (ROOT / "tests" / "data" / f"{sample}.in").read_text()
    expected = (ROOT / "tests" / "data" / f"{sample}.out").read_text()
    assert pegflip.Puzzle.load(name).batch(text) == expected
    assert cli("batch", name, stdin=text).stdout == expected


@pytest.mark.parametrize("name,distance", [("flip4x4", "5"), ("lights-out", "9"), ("english33", "7"), ("pebble12", "max")])
def test_generate_draws_what_the_command_line_draws(name, distance):
    out = json.loads(cli("generate", name, "--distance", distance, "--count", "10", "--seed", "3", "--json").stdout)
    generated = pegflip.Puzzle.load(name).generate(distance if distance == "max" else int(distance), count=10, seed=3)
    assert generated.boards == out["boards"]
    assert (generated.distance, generated.uniform, generated.method) == (out["distance"], out["uniform"], out["method"])
    puzzle = pegflip.Puzzle.load(name)
    for board in generated.boards:
        answer = puzzle.solve(board)
        got = answer.pieces if answer.pieces is not None else answer.length
        assert got == generated.distance


def test_overrides_are_set_as_on_the_command_line():
    seven = pegflip.Puzzle.load("lights-out", board={"rows": 7, "cols": 7})
    dotted = pegflip.Puzzle.load("lights-out", {"board.rows": 7, "board.cols": 7})
    cli_json = json.loads(cli("analyze", "lights-out", "--set", "board.rows=7", "--set", "board.cols=7", "--json").stdout)
    assert seven.analyze().nullity == dotted.analyze().nullity == cli_json["nullity"]
    moves = pegflip.Puzzle.load("english33", metric="moves")
    assert moves.metric == "moves"
    assert moves.solve().length == 18
