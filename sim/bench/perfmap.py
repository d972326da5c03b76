"""Name numba's jitted functions for `perf`, so a profile of a game says where its time goes.

perf names JIT-compiled code through /tmp/perf-PID.map (address, size, name per line). numba's
own JIT listener (NUMBA_ENABLE_PROFILING) announces only the code it compiles in the process,
and mobsim's engines come from numba's on-disk cache. So `record_cache_loads` notes each
library numba loads from its cache with the object code it was loaded from, and
`write_perf_map` places every function symbol of that object code at its address: an exported
symbol of the same section tells where the loader put the section.

    perf record -g -- mobsim bench --profile runner,enforcer,networker,balanced --games 30000
    perf report --no-children --sort sym
"""

import os
import struct
from pathlib import Path

_LOADED: list = []  # (library, object code) of every library loaded from the cache since recording began

SHT_SYMTAB, STT_FUNC = 2, 2


def record_cache_loads() -> None:
    """From now on, keep the object code of each library numba loads from its cache (call it
    before the first game: a function loaded earlier is left out of the map)."""
    from numba.core import codegen

    if getattr(codegen.CPUCodegen.unserialize_library, "_records_loads", False):
        return
    original = codegen.CPUCodegen.unserialize_library

    def unserialize_library(self, serialized):
        library = original(self, serialized)
        _, kind, data = serialized
        if kind == "object":
            _LOADED.append((library, data[0]))
        return library

    unserialize_library._records_loads = True
    codegen.CPUCodegen.unserialize_library = unserialize_library


def function_symbols(elf: bytes) -> list[tuple[int, int, int, str]]:
    """(value, size, section index, name) of each function symbol of an ELF64 object."""
    (shoff,) = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    out = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != SHT_SYMTAB:
            continue
        names_at = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name, info, _, shndx, value, length = struct.unpack_from("<IBBHQQ", elf, at)
            if info & 0xF == STT_FUNC and 0 < shndx < 0xFF00:
                end = elf.index(b"\0", names_at + name)
                out.append((value, length, shndx, elf[names_at + name:end].decode()))
    return out


def write_perf_map(folder: str = "/tmp") -> tuple[Path, int]:
    """Write perf's map for this process: (its path, the number of functions named)."""
    rows = {}
    for library, elf in _LOADED:
        engine = library._codegen._engine
        symbols = function_symbols(elf)
        base = {}
        for value, _, section, name in symbols:
            if section not in base:
                address = engine.get_function_address(name)  # 0 for a local symbol: not exported
                if address:
                    base[section] = address - value
        for value, size, section, name in symbols:
            if section in base and size:
                rows[base[section] + value] = (size, name)
    path = Path(folder) / f"perf-{os.getpid()}.map"
    path.write_text("".join(f"{a:x} {size:x} {name}\n" for a, (size, name) in sorted(rows.items())))
    return path, len(rows)

