"""Keep numba's on-disk cache honest across source changes.

numba re-validates a cached function against its own file only: a function that calls into an
edited module, or reads a constant of one, keeps its stale compiled copy. So the cache is
stamped, room by room, with a hash of the sources each room's jitted code imports, and a room's
entries are emptied when those change:

- a room's stamp covers the import closure of its jitted modules (a module holding an `@njit`,
  `@vectorize` ... function): every mobsim module they import when loaded, transitively, pure
  Python or not, because jitted code freezes the globals it reads when it compiles. A module no
  jitted module imports (a game's narration, the runner, the CLI) is in no stamp;
- the kernel (the jitted modules directly in `sim/`, and any jitted module no other room holds):
  every game calls into it, so a change empties the whole cache;
- each game (`sim/<game>` with `strategies/<game>`), and the search (`sim/search`): a change
  empties that room's cache folders only, so work on one game does not recompile the other.

It runs at every `import sim`, so it stays cheap: every source is read and hashed, and a source
is parsed (sim/_imports.py) only if it may hold jitted code or is in a closure, and only when
its hash is not in the memo of earlier reads (`MEMO`, beside the stamps).
"""

import hashlib
import json
import os
import shutil
from pathlib import Path

from sim import _imports

STAMP = "mobsim-sources.sha256"
MEMO = "mobsim-imports.json"  # per source: its hash, whether it is jitted, the imports it runs


def cache_subdir(source_dir) -> str:
    """The folder numba caches a source directory's functions in (numba.core.caching's
    `_UserProvidedCacheLocator`: the directory's name and the SHA-1 of its absolute path)."""
    path = os.path.abspath(source_dir)
    return f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"


def refresh_rooms(cache_dir: str, rooms: dict, kernel: str, root, tops=_imports.TOPS) -> None:
    """`rooms`: name -> (recursive folders, flat folders) holding the room's jitted modules, under
    `root`'s top packages `tops`. A room whose stamp changed loses its own cache folders; a
    changed `kernel` room empties the whole cache."""
    cache = Path(cache_dir)
    if not _writable(cache):
        return  # numba caches nothing there, and nothing there could be emptied
    sources = Sources(root, tops, cache / MEMO)
    for name, modules in stamped_modules(sources, rooms, kernel).items():
        stamp = cache / f"{STAMP}.{name}"
        current = sources.digest(modules)
        try:
            previous = stamp.read_text().strip()
        except OSError:
            previous = None
        if previous == current:
            continue
        if previous is not None:
            _empty(cache, None if name == kernel else _folders(*rooms[name]))
        _write(stamp, current)
    sources.save_memo()


def stamped_modules(sources: "Sources", rooms: dict, kernel: str) -> dict[str, set[str]]:
    """Each room's stamped modules: the import closure of the jitted modules it holds."""
    held = {name: set() for name in rooms}
    folders = {name: _prefixes(*rooms[name]) for name in rooms if name != kernel}
    for module in sources.jitted():
        path = sources.path(module)
        owners = [name for name, (deep, flat) in folders.items()
                  if path.startswith(deep) or os.path.dirname(path) in flat or path in flat]
        for name in owners or [kernel]:  # a jitted module no game holds is the kernel's
            held[name].add(module)
    return {name: _imports.closure(jitted, sources.imports) for name, jitted in held.items()}


class Sources:
    """mobsim's sources as bytes, each read with `ast` once per content (the memo)."""

    def __init__(self, root, tops=_imports.TOPS, memo: Path | None = None):
        self.modules, self.tops = _imports.find_modules(root, tops), set(tops)
        self.data = {m: _read(path) for m, (path, _) in self.modules.items()}
        self.hashes = {m: hashlib.sha1(data).hexdigest() for m, data in self.data.items()}
        self._memo_path, self._memo = memo, _read_memo(memo)
        self._facts, self._changed, self._imports = {}, False, {}

    def path(self, module: str) -> str:
        return self.modules[module][0]

    def jitted(self) -> list[str]:
        return [m for m in self.modules if self._facts_of(m)[1]]

    def imports(self, module: str) -> set[str]:
        """The modules of ours `module` imports when it is loaded."""
        if module not in self._imports:
            if self._facts_of(module)[2] is None:
                self._parse(module)
            found = _imports.resolve(map(tuple, self._facts[module][2]), self.modules)
            self._imports[module] = found - {module}
        return self._imports[module]

    def digest(self, modules) -> str:
        digest = hashlib.sha256()
        for module in sorted(modules):
            digest.update(f"{module} {self.hashes[module]}\n".encode())
        return digest.hexdigest()

    def save_memo(self) -> None:
        if self._memo_path is not None and (self._changed or self._facts.keys() != self._memo.keys()):
            _write(self._memo_path, json.dumps(self._facts, sort_keys=True))

    def _facts_of(self, module: str) -> list:
        """[hash, jitted, imports run at load or None if not read yet], from the memo if it has them."""
        if module not in self._facts:
            facts = self._memo.get(module)
            if not (isinstance(facts, list) and len(facts) == 3 and facts[0] == self.hashes[module]):
                facts = self._parse(module) if _imports.may_be_jitted(self.data[module]) else [
                    self.hashes[module], False, None]
                self._changed = True
            self._facts[module] = facts
        return self._facts[module]

    def _parse(self, module: str) -> list:
        path, package = self.modules[module]
        tree = _imports.parse(path, self.data[module])
        ours = [c for c in _imports.read_imports(tree, module, package, True) if c[1].partition(".")[0] in self.tops]
        facts = [self.hashes[module], _imports.is_jitted(tree), ours]
        self._facts[module], self._changed = facts, True
        return facts


def _writable(cache: Path) -> bool:
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(cache, os.W_OK)


def _read(path: str) -> bytes:
    with open(path, "rb") as source:
        return source.read()


def _read_memo(path: Path | None) -> dict:
    try:
        memo = json.loads(path.read_text())
    except (OSError, ValueError, AttributeError):
        return {}
    return memo if isinstance(memo, dict) else {}


def _prefixes(deep, flat) -> tuple[tuple[str, ...], set[str]]:
    """A room's folders as strings: the deep ones as prefixes, the flat ones (or modules) as they are."""
    return tuple(os.path.join(d, "") for d in map(str, deep)), set(map(str, flat))


def _folders(deep, flat) -> set[str]:
    dirs = [Path(r) if Path(r).is_dir() else Path(r).parent for r in flat]
    for root in map(Path, deep):
        if root.is_dir():
            dirs += [root, *(p for p in root.rglob("*") if p.is_dir())]
    return {cache_subdir(d) for d in dirs}


def _empty(cache: Path, only: set[str] | None) -> None:
    for entry in cache.iterdir():
        if entry.name.startswith(STAMP) or entry.name == MEMO or (only is not None and entry.name not in only):
            continue
        shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)


def _write(target: Path, text: str) -> None:
    try:
        tmp = target.with_name(f".{target.name}.{os.getpid()}")
        tmp.write_text(text)
        os.replace(tmp, target)
    except OSError:
        pass  # not written now: written at the next import
