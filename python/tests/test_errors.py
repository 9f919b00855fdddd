"""Errors are Python exceptions that say where and what: the file, line and column of bad
input, the name of a limit passed."""

import pegflip
import pytest


def test_a_bad_file_is_located():
    with pytest.raises(pegflip.InputError) as caught:
        pegflip.Puzzle.from_toml('name = "x"\n[board]\nrows = "four"\n', file="mine.toml")
    e = caught.value
    assert (e.file, e.line, e.col) == ("mine.toml", 3, 8)
    assert str(e).startswith("mine.toml:3:8: error:")
    assert e.reason and e.message == str(e)
    assert isinstance(e, pegflip.PegflipError)


def test_a_bad_board_is_located():
    puzzle = pegflip.Puzzle.load("flip4x4")
    with pytest.raises(pegflip.InputError) as caught:
        puzzle.solve("bwwb/bbxb/bwwb/bwww")
    assert (caught.value.file, caught.value.line, caught.value.col) == ("<board>", 1, 8)
    assert "unexpected character 'x'" in caught.value.reason


def test_a_bad_override_is_located():
    with pytest.raises(pegflip.InputError) as caught:
        pegflip.Puzzle.load("lights-out", board={"rows": 0})
    assert "board.rows" in str(caught.value) or "rows" in caught.value.reason
    with pytest.raises(pegflip.InputError):
        pegflip.Puzzle.load("lights-out", {"board.rows": 10**30})


def test_a_limit_is_named():
    big = pegflip.Puzzle.load("lights-out", board={"rows": 7, "cols": 7}, max_memory="100M")
    with pytest.raises(pegflip.LimitError) as caught:
        big.histogram()
    e = caught.value
    assert e.limit == "max-memory"
    assert e.maximum == 100 * 2**20
    assert e.value > e.maximum
    assert "past the limit max-memory = 104857600" in str(e)
    with pytest.raises(pegflip.LimitError) as caught:
        pegflip.Puzzle.load("lights-out", limits={"generate-work": 2**20}).generate(16, seed=1)
    assert caught.value.limit == "generate-work"


def test_requests_that_do_not_fit_are_usage_errors():
    with pytest.raises(pegflip.UsageError, match="declares no start"):
        pegflip.Puzzle.load("flip4x4").solve()
    with pytest.raises(pegflip.UsageError, match="no shipped puzzle has that name"):
        pegflip.Puzzle.load("no-such-puzzle")
    with pytest.raises(pegflip.UsageError, match="no board is at distance 7"):
        pegflip.Puzzle.load("flip4x4").generate(7, seed=1)
    with pytest.raises(pegflip.UsageError, match="GF"):
        pegflip.Puzzle.load("english33").analyze()


def test_grids_of_the_wrong_size_or_values_are_refused():
    puzzle = pegflip.Puzzle.load("flip4x4")
    with pytest.raises(pegflip.UsageError, match="4 rows of 4"):
        puzzle.solve([[0, 1], [1, 0]])
    with pytest.raises(pegflip.UsageError, match="row 1, column 2 holds 2"):
        puzzle.solve([[0] * 4, [0, 0, 2, 0], [0] * 4, [0] * 4])
    with pytest.raises(TypeError):
        puzzle.solve(["bwwb", [0, 1, 0, 1]])


def test_generate_checks_its_arguments():
    puzzle = pegflip.Puzzle.load("flip4x4")
    for bad in [dict(distance=-1), dict(distance=2**32), dict(distance=3, count=0), dict(distance=3, seed=-1)]:
        with pytest.raises(ValueError):
            puzzle.generate(**bad)
    with pytest.raises(TypeError):
        puzzle.generate("far")
