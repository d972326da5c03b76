"""The imports of mobsim's own modules, read from the source with `ast` (nothing is run).

Two readers share this: tests/test_imports.py holds every import (at the top or inside a
function) to the rooms' one direction (sim/rooms.py), and sim/_cache.py stamps the numba cache
with the import closure of the jitted modules (the imports run when a module is loaded: those
bind the globals jitted code freezes at compile time).
"""

import ast
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

TOPS = ("sim", "strategies")  # the top packages of mobsim's source

# numba's decorators (and calls) that compile a function: a module holding one is jitted
JIT_NAMES = frozenset({"njit", "jit", "vectorize", "guvectorize", "cfunc", "generated_jit", "stencil", "jitclass",
                       "overload", "overload_method", "overload_attribute", "intrinsic", "register_jitable"})
# a source without any of these words holds no jitted function: no need to parse it to know
JIT_HINTS = (b"jit", b"vectorize", b"cfunc", b"stencil", b"overload", b"intrinsic")

# an import as read, before it is matched to a module: (the imported name in full, its base)
Candidate = tuple[str, str]


def find_modules(root, tops: Iterable[str] = TOPS) -> dict[str, tuple[str, bool]]:
    """Every module under `root`'s top packages: dotted name -> (path, is a package's __init__).
    Plain strings and os.walk: this runs at every `import sim` (sim/_cache.py)."""
    found = {}
    root = os.fspath(root)
    for top in tops:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            package = os.path.relpath(folder, root).replace(os.sep, ".")
            for name in sorted(f for f in files if f.endswith(".py")):
                init = name == "__init__.py"
                found[package if init else f"{package}.{name[:-3]}"] = (os.path.join(folder, name), init)
    return found


def may_be_jitted(source: bytes) -> bool:
    """False for a source that holds no jitted function for sure (no need to parse it)."""
    return any(hint in source for hint in JIT_HINTS)


def parse(path, source: bytes | None = None) -> ast.Module:
    return ast.parse(Path(path).read_bytes() if source is None else source, os.fspath(path))


def read_imports(tree: ast.Module, module: str, package: bool, top_level: bool = False) -> list[Candidate]:
    """The imports of a parsed module, relative ones made absolute. `top_level`: only those run
    when the module is loaded (not inside a function, not under `if TYPE_CHECKING:`)."""
    found = []
    for node in _loaded_imports(tree.body) if top_level else ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, package)
            found += [(f"{base}.{a.name}", base) for a in node.names]
    return list(dict.fromkeys(found))


def resolve(candidates: Iterable[Candidate], modules) -> set[str]:
    """The modules of ours the imports land in (a name imported from a module is its module)."""
    found, bases = set(), set()
    for full, base in candidates:
        if full in modules:
            found.add(full)
        else:
            bases.add(base)
    found |= {_known(base, modules) for base in bases}
    found.discard(None)
    return found


def imports_of(module: str, modules, top_level: bool = False) -> set[str]:
    """Every module of ours `module` imports (see `read_imports`), itself left out."""
    path, package = modules[module]
    return resolve(read_imports(parse(path), module, package, top_level), modules) - {module}


def is_jitted(tree: ast.Module) -> bool:
    """Whether the module compiles a function with numba (`@njit`, `@vectorize`, `njit(f)` ...)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in JIT_NAMES:
            return True
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and any(_name(d) in JIT_NAMES
                                                                      for d in node.decorator_list):
            return True
    return False


def closure(starts: Iterable[str], imports: Callable[[str], set[str]]) -> set[str]:
    """`starts` and every module they import, transitively."""
    seen = set(starts)
    todo = list(seen)
    while todo:
        for target in imports(todo.pop()) - seen:
            seen.add(target)
            todo.append(target)
    return seen


def _loaded_imports(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue  # run when called, and binding no global of the module
        elif isinstance(node, ast.If) and _name(node.test) == "TYPE_CHECKING":
            yield from _loaded_imports(node.orelse)
        else:  # if, try, with, for, while, match, class bodies run at load
            for block in ("body", "orelse", "finalbody", "handlers", "cases"):
                yield from _loaded_imports(getattr(node, block, []))


def _absolute(node: ast.ImportFrom, module: str, package: bool) -> str:
    base = node.module or ""
    if not node.level:
        return base
    anchor = module if package else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        anchor = anchor.rpartition(".")[0]
    return f"{anchor}.{base}" if base else anchor


def _known(name: str, modules) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _name(node) -> str | None:
    """`njit` of `njit`, `numba.njit`, `njit(cache=True)`."""
    if isinstance(node, ast.Call):
        node = node.func
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
