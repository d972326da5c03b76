"""The numba cache is emptied, room by room, when the sources its jitted code imports change
(stale callers would survive otherwise), and kept when only other sources change."""

import re
from pathlib import Path

import pytest

import sim
from sim import _cache, _imports

JITTED = "from numba import njit\n{imports}\n\n@njit(cache=True)\ndef f(x):\n    return x\n"
TREE = {  # a small mobsim: a kernel, two games, a narration no jitted module imports
    "sim/__init__.py": "",
    "sim/rng.py": JITTED.format(imports=""),
    "sim/nyk/__init__.py": "",
    "sim/nyk/consts.py": "MONEY = 1\n",
    "sim/nyk/state.py": JITTED.format(imports="from sim import rng\nfrom sim.nyk.consts import MONEY"),
    "sim/nyk/narrate.py": "from sim.nyk import state\n",
    "sim/ag/__init__.py": "",
    "sim/ag/state.py": JITTED.format(imports="import sim.rng"),
    "strategies/__init__.py": "",
    "strategies/lineup.py": "SEATS = 4\n",
}


@pytest.fixture
def tree(tmp_path):
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def rooms_of(root: Path) -> dict:
    return {"kernel": ([], [root / "sim"]), "nyk": ([root / "sim" / "nyk"], []), "ag": ([root / "sim" / "ag"], [])}


def refresh(root: Path) -> dict[str, Path]:
    """Stamp the cache, then fill each room's numba folder; the folders by room."""
    cache = root / "cache"
    _cache.refresh_rooms(str(cache), rooms_of(root), kernel="kernel", root=root)
    folders = {"kernel": root / "sim", "nyk": root / "sim" / "nyk", "ag": root / "sim" / "ag"}
    return {room: cache / _cache.cache_subdir(d) for room, d in folders.items()}


def fill(folders: dict[str, Path]) -> None:
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "f.nbi").write_text("index")


def kept_after(root: Path, edit: str, text: str) -> set[str]:
    """The rooms whose cache survives rewriting `edit` with `text`."""
    fill(refresh(root))
    (root / edit).write_text(text)
    return {room for room, folder in refresh(root).items() if folder.exists()}


def test_the_same_sources_keep_the_cache(tree):
    fill(refresh(tree))
    assert {room for room, folder in refresh(tree).items() if folder.exists()} == {"kernel", "nyk", "ag"}


def test_a_pure_python_edit_no_jitted_module_imports_keeps_the_cache(tree):
    assert kept_after(tree, "sim/nyk/narrate.py", "from sim.nyk import state\nSTORY = 2\n") == {"kernel", "nyk", "ag"}
    assert kept_after(tree, "strategies/lineup.py", "SEATS = 5\n") == {"kernel", "nyk", "ag"}


def test_a_constants_module_a_jitted_module_imports_empties_its_game_only(tree):
    assert kept_after(tree, "sim/nyk/consts.py", "MONEY = 2\n") == {"kernel", "ag"}


def test_a_jitted_game_module_edit_empties_that_game_only(tree):
    assert kept_after(tree, "sim/ag/state.py", TREE["sim/ag/state.py"] + "# edited\n") == {"kernel", "nyk"}


def test_a_kernel_edit_empties_every_room(tree):
    assert kept_after(tree, "sim/rng.py", TREE["sim/rng.py"] + "# edited\n") == set()


def test_a_new_jitted_module_is_picked_up_without_being_listed(tree):
    (tree / "sim/nyk/helper.py").write_text("SIZE = 1\n")
    assert kept_after(tree, "sim/nyk/helper.py", "SIZE = 2\n") == {"kernel", "nyk", "ag"}  # nothing jitted reads it
    (tree / "sim/nyk/fresh.py").write_text(JITTED.format(imports="from sim.nyk.helper import SIZE"))
    assert kept_after(tree, "sim/nyk/helper.py", "SIZE = 3\n") == {"kernel", "ag"}


def test_a_jitted_module_no_game_holds_is_the_kernels(tree):
    (tree / "sim/shared").mkdir()
    (tree / "sim/shared/__init__.py").write_text("")
    (tree / "sim/shared/consts.py").write_text("WIDTH = 1\n")
    (tree / "sim/shared/rows.py").write_text(JITTED.format(imports="from sim.shared.consts import WIDTH"))
    assert kept_after(tree, "sim/shared/consts.py", "WIDTH = 2\n") == set()


def test_the_stamps_are_the_same_read_from_the_memo_without_parsing(tree, monkeypatch):
    memo = tree / "cache" / _cache.MEMO
    fresh = _cache.stamped_modules(_cache.Sources(tree), rooms_of(tree), "kernel")
    _cache.refresh_rooms(str(tree / "cache"), rooms_of(tree), kernel="kernel", root=tree)
    assert memo.exists()

    def no_parse(*args):
        raise AssertionError("a source read with ast although its hash is in the memo")

    monkeypatch.setattr(_imports, "parse", no_parse)
    assert _cache.stamped_modules(_cache.Sources(tree, memo=memo), rooms_of(tree), "kernel") == fresh
    assert fresh["nyk"] == {"sim.rng", "sim.nyk.state", "sim.nyk.consts"}  # the closure, written out
    monkeypatch.undo()
    memo.write_text("{not json")  # a broken memo is read again from the sources
    assert _cache.stamped_modules(_cache.Sources(tree, memo=memo), rooms_of(tree), "kernel") == fresh
    _cache.refresh_rooms(str(tree / "cache"), rooms_of(tree), kernel="kernel", root=tree)
    (tree / "sim/nyk/consts.py").write_text("from strategies.lineup import SEATS\n")  # an edited source is read again
    stamped = _cache.stamped_modules(_cache.Sources(tree, memo=memo), rooms_of(tree), "kernel")
    assert stamped["nyk"] == fresh["nyk"] | {"strategies.lineup"}


@pytest.mark.parametrize("source, expected", [
    ("import sim.rng\nfrom sim.nyk import state", {"sim.rng", "sim.nyk.state"}),
    ("def f():\n    from sim.nyk import narrate\n", set()),  # run when called, binding no global
    ("class C:\n    from sim.nyk import state\n", {"sim.nyk.state"}),  # a class body runs at load
    ("try:\n    import sim.rng\nexcept ImportError:\n    from sim.nyk import state\n", {"sim.rng", "sim.nyk.state"}),
    ("if TYPE_CHECKING:\n    from sim.nyk import narrate\nelse:\n    import sim.rng\n", {"sim.rng"}),
    ("from .consts import MONEY", {"sim.nyk.consts"}),
])
def test_the_imports_run_at_load_are_read(tree, source, expected):
    path = tree / "sim/nyk/probe.py"
    path.write_text(source)
    modules = _imports.find_modules(tree)
    assert _imports.imports_of("sim.nyk.probe", modules, top_level=True) == expected


@pytest.mark.parametrize("source, jitted", [
    ("from numba import njit\n@njit\ndef f(): pass\n", True),
    ("import numba\n@numba.njit(cache=True, nogil=True)\ndef f(): pass\n", True),
    ("from numba import vectorize\n@vectorize(['f8(f8)'])\ndef f(x): return x\n", True),
    ("from numba.core.extending import overload\n@overload(len)\ndef f(x): pass\n", True),
    ("from numba import njit\ndef f(): pass\ng = njit(f)\n", True),
    ("# njit is named in a comment only\ndef jitter(): pass\n", False),
    ("import functools\n@functools.cache\ndef f(): pass\n", False),
])
def test_a_jitted_module_is_one_compiling_a_function_with_numba(source, jitted):
    import ast

    assert _imports.is_jitted(ast.parse(source)) is jitted
    assert _imports.may_be_jitted(source.encode()) or not jitted  # the shortcut never skips a jitted one


def test_the_real_nyk_stamp_holds_the_state_and_not_the_narration():
    root = Path(sim.__file__).resolve().parent.parent
    stamped = _cache.stamped_modules(_cache.Sources(root), sim._CACHE_ROOMS, "kernel")
    assert "sim.nyk.state" in stamped["nyk"] and "sim.nyk.narrate" not in stamped["nyk"]
    assert "sim.nyk.compiled" in stamped["nyk"]  # the rule constants the engine freezes
    assert "strategies.lineup" not in stamped["nyk"] and "strategies.lineup" in stamped["search"]
    for room, folder in (*((g, f"sim/{g}") for g in sim._game_names()), ("kernel", "sim")):  # a text search agrees
        paths = (root / folder).rglob("*.py") if room != "kernel" else (root / folder).glob("*.py")
        decorated = {".".join(p.relative_to(root).with_suffix("").parts) for p in paths
                     if re.search(r"^@(njit|overload)\b", p.read_text(), re.M)}
        assert decorated and decorated <= stamped[room], (room, decorated - stamped[room])
    # a game's description (sim.shared.game) is read by the rooms above, never by jitted code: its
    # edit recompiles nothing
    for game in sim._game_names():
        assert all(f"sim.{game}.description" not in modules and "sim.shared.game" not in modules
                   for modules in stamped.values())


def test_the_cache_folder_names_match_numbas(tmp_path):
    from numba.core.caching import _CacheLocator

    source = tmp_path / "pkg" / "mod.py"
    source.parent.mkdir()
    source.write_text("")
    assert _CacheLocator.get_suitable_cache_subpath(str(source)) == _cache.cache_subdir(source.parent)
