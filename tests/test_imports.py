"""The imports of `sim` and `strategies` go one way (sim/rooms.py): no circle, no import into a
room above, no game importing another game. Read from the source with ast (sim/_imports.py), nothing is run."""

from pathlib import Path

import pytest

from sim import _imports, rooms

ROOT = Path(__file__).resolve().parent.parent
MODULES = _imports.find_modules(ROOT)


def imports_of(module: str) -> set[str]:
    """Every module of ours `module` imports, at the top or inside a function."""
    return _imports.imports_of(module, MODULES)


GRAPH = {m: imports_of(m) for m in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def allowed(graph):
    return {m: {t for t in targets if (m, t) not in rooms.EXCEPTIONS} for m, targets in graph.items()}


def test_the_cycle_finder_finds_a_circle_and_only_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_import_circle():
    assert cycles(allowed(GRAPH)) == []


def test_every_module_is_in_a_room():
    assert [m for m in MODULES if m != "sim" and rooms.room_of(m) is None] == []


def test_imports_go_down_the_rooms():
    order = {name: i for i, (name, _) in enumerate(rooms.ROOMS)}
    upward = [f"{m} ({rooms.room_of(m)}) imports {t} ({rooms.room_of(t)})"
              for m, targets in allowed(GRAPH).items() for t in sorted(targets)
              if m != "sim" and t != "sim" and order[rooms.room_of(t)] > order[rooms.room_of(m)]]
    assert upward == []


def test_a_game_never_imports_another_game():
    crossing = [f"{m} imports {t}" for m, targets in GRAPH.items() for t in sorted(targets)
                if rooms.game_of(m) and rooms.game_of(t) and rooms.game_of(m) != rooms.game_of(t)]
    assert crossing == []


def test_the_exceptions_are_still_needed():
    """An exception whose import is gone is removed from the list, so the list stays true."""
    stale = [pair for pair in rooms.EXCEPTIONS if pair[1] not in GRAPH.get(pair[0], set())]
    assert stale == []


@pytest.mark.parametrize("source, expected", [
    ("from sim.nyk.state import MONEY", {"sim.nyk.state"}),
    ("from sim.nyk import engine, state", {"sim.nyk.engine", "sim.nyk.state"}),
    ("import sim.rng\n\ndef f():\n    from sim.runner import games", {"sim.rng", "sim.runner.games"}),
    ("from . import state", {"sim.nyk.state"}),
])
def test_imports_are_read_at_the_top_and_inside_functions(tmp_path, monkeypatch, source, expected):
    path = tmp_path / "probe.py"
    path.write_text(source)
    monkeypatch.setitem(MODULES, "sim.nyk.probe", (path, False))
    assert imports_of("sim.nyk.probe") == expected


def test_the_package_asks_one_blas_thread_before_numpy_loads():
    """sim/__init__.py sets one BLAS thread a process unless the caller chose: it works only while
    nothing the package's first lines import loads numpy (OpenBLAS reads it once, at load)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    probe = "import sys, os, sim; print('numpy' in sys.modules, os.environ['OPENBLAS_NUM_THREADS'])"
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "1"]
    env["OPENBLAS_NUM_THREADS"] = "2"   # a caller's own choice stands
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "2"]
