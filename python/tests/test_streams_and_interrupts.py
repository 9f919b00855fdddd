"""States stream; numpy boards; long calls free the interpreter and stop on Ctrl-C."""

import itertools
import subprocess
import sys
import textwrap
import time

import numpy as np
import pegflip


def test_states_stream_from_a_set_of_2_to_the_1000():
    row = pegflip.Puzzle.load("lights-out", board={"rows": 1, "cols": 1000})
    assert row.count() == 2**row.analyze().rank
    assert row.count() == 2**1000
    started = time.monotonic()
    first = list(itertools.islice(row.states(), 5))
    assert len(first) == 5 and len(set(first)) == 5
    assert all(len(s) == 1000 for s in first)
    assert time.monotonic() - started < 5
    for state in first:
        assert row.solve(state).solvable


def test_a_listing_that_ends_stops_and_one_dropped_early_is_let_go():
    flip = pegflip.Puzzle.load("flip4x4")
    states = flip.states()
    assert len(list(states)) == 4096
    assert next(states, None) is None
    for _ in range(50):
        next(iter(pegflip.Puzzle.load("lights-out").states()))


def test_numpy_boards_are_read_as_grids():
    flip = pegflip.Puzzle.load("flip4x4")
    board = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [1, 0, 0, 1], [1, 0, 0, 0]])
    assert flip.board(board) == "bwwb/bbwb/bwwb/bwww"
    assert flip.solve(board).length == 4
    assert flip.solve(board.astype(bool)).length == 4
    assert flip.solve(board.tolist()).length == 4
    assert flip.solve(["bwwb", "bbwb", "bwwb", "bwww"]).length == 4
    # A board with gaps: positions that are not cells are not read.
    english = pegflip.Puzzle.load("english33")
    full = np.ones((7, 7), dtype=np.uint8)
    full[3, 3] = 0
    assert english.board(full) == english.start
    # A graph board is one row.
    petersen = pegflip.Puzzle.load("petersen")
    assert petersen.solve(np.zeros(10, dtype=int)).length == 0


def test_ctrl_c_interrupts_a_long_call_within_a_second():
    script = textwrap.dedent(
        """
        import os, signal, threading, time
        import pegflip
        # A process started in the background of a shell ignores SIGINT from birth, and Python
        # then installs no handler: the test sets Python's own.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        english = pegflip.Puzzle.load("english33")
        threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        started = time.monotonic()
        try:
            english.count()
            print("finished")
        except KeyboardInterrupt:
            print("interrupted", time.monotonic() - started)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    word, *elapsed = out.stdout.split()
    assert word == "interrupted", out
    assert float(elapsed[0]) < 2.0


def test_long_calls_let_other_threads_run():
    import threading

    english = pegflip.Puzzle.load("english33")
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    # The calls are repeated until they have run a while, however fast they are;
    # a call that held the interpreter's lock would let no tick fall inside it.
    spans = []
    while sum(end - begin for begin, end in spans) < 0.3:
        begin = time.monotonic()
        english.generate(20, count=3, seed=2)
        english.solve()
        spans.append((begin, time.monotonic()))
    stop.set()
    t.join()
    inside = [x for x in ticks if any(begin < x < end for begin, end in spans)]
    assert len(inside) > 3, (len(inside), len(spans))
