"""docs/python.md runs as written: each python block in order in one namespace, and what it
prints equals the text block under it."""

import contextlib
import io
import re

from conftest import ROOT

BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def test_the_walk_through_runs_as_written():
    doc = (ROOT / "docs" / "python.md").read_text()
    blocks = BLOCK.findall(doc)
    namespace: dict = {}
    ran = 0
    for i, (kind, code) in enumerate(blocks):
        if kind != "python":
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"docs/python.md block {i}", "exec"), namespace)
        ran += 1
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if following and following[0] == "text":
            assert out.getvalue() == following[1], f"block {i} printed:\n{out.getvalue()}"
        else:
            assert out.getvalue() == "", f"block {i} printed output the page does not show"
    assert ran >= 8
