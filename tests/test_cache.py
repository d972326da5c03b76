"""The numba cache is emptied when mobsim's sources change (stale callers would survive otherwise)."""

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
    assert (cache / _cache.STAMP).read_text() == _cache.sources_digest([src])
