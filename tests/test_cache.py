"""The numba cache is emptied, room by room, when mobsim's sources change (stale callers would
survive otherwise)."""

from sim import _cache


def test_cache_is_kept_for_the_same_sources_and_emptied_for_others(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("x = 1\n")
    cache = tmp_path / "cache"
    _cache.refresh(str(cache), [src])
    (cache / "compiled.nbi").write_text("index")
    _cache.refresh(str(cache), [src])
    assert (cache / "compiled.nbi").exists()  # same sources: kept
    (src / "a.py").write_text("x = 2\n")
    _cache.refresh(str(cache), [src])
    assert not (cache / "compiled.nbi").exists()  # edited sources: emptied
    assert (cache / _cache.STAMP).exists()


def test_a_game_room_change_empties_that_game_only(tmp_path):
    kernel, nyk, ag = (tmp_path / n for n in ("sim", "nyk", "ag"))
    for d in (kernel, nyk, ag):
        d.mkdir()
        (d / "m.py").write_text("x = 1\n")
    rooms = {"kernel": ([], [kernel]), "nyk": ([nyk], []), "ag": ([ag], [])}
    cache = tmp_path / "cache"
    _cache.refresh_rooms(str(cache), rooms, kernel="kernel")
    folders = {d: cache / _cache.cache_subdir(d) for d in (kernel, nyk, ag)}
    for f in folders.values():
        f.mkdir()
    (ag / "m.py").write_text("x = 2\n")
    _cache.refresh_rooms(str(cache), rooms, kernel="kernel")
    assert folders[kernel].exists() and folders[nyk].exists() and not folders[ag].exists()
    (kernel / "m.py").write_text("x = 2\n")
    _cache.refresh_rooms(str(cache), rooms, kernel="kernel")
    assert not folders[kernel].exists() and not folders[nyk].exists()


def test_the_cache_folder_names_match_numbas(tmp_path):
    from numba.core.caching import _CacheLocator

    source = tmp_path / "pkg" / "mod.py"
    source.parent.mkdir()
    source.write_text("")
    assert _CacheLocator.get_suitable_cache_subpath(str(source)) == _cache.cache_subdir(source.parent)


def test_the_kernel_room_lists_every_jitted_module_directly_in_sim():
    """A jitted kernel module left out of the stamp would keep stale callers after an edit."""
    import re
    from pathlib import Path

    import sim

    here = Path(sim.__file__).parent
    jitted = {p.stem for p in here.glob("*.py") if re.search(r"^@(njit|jit)\b", p.read_text(), re.M)}
    source = (here / "__init__.py").read_text()
    listed = set(re.search(r'for m in \(([^)]*)\)', source).group(1).replace('"', "").replace(" ", "").split(","))
    assert jitted <= listed, jitted - listed


def test_rule_modules_read_by_jitted_code_are_stamped():
    """Jitted code freezes the constants it imports: their modules must be in a stamped room."""
    import re
    from pathlib import Path

    import sim

    root = Path(sim.__file__).parent
    stamped = {"sim.rules.compiled"}
    engines = [*root.joinpath("nyk").rglob("*.py"), *root.joinpath("ag").rglob("*.py"),
               *root.parent.joinpath("strategies").rglob("*.py")]
    for path in engines:
        for module in re.findall(r"from (sim\.rules[\w.]*) import", path.read_text()):
            assert module in stamped or module.startswith("sim.rules.ag") or module == "sim.rules", (path, module)
