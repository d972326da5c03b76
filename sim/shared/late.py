"""A jitted call bound late, by symbol, for a large function called from many places.

numba links a jitted callee's whole compiled code into each caller's module, then optimises it
and generates its machine code again, caller by caller. A game's decision interface (`ask`, with
the player's whole policy beneath it) is called from some forty rule functions, and each one
re-optimised the policy: two thirds of an engine's cold compile (docs/architecture.md, "Where a
cold compile goes"). `late(target, signature)` compiles the target once, for one signature, when
its module is imported, publishes its entry point as a process-wide symbol
(`llvmlite.binding.add_symbol`, as numba publishes its own runtime) and returns a call that holds
an external reference to that symbol instead of a copy of the target. A caller loaded from the
cache resolves the reference in the process that loads it, where importing the caller's module
has imported the target's and published it again.

Two such boundaries: each game's decision interface (`decide`, called as `ask` by the rules), and
American Gangsters' threat models (the exact shoot-out's walk beneath them, called by the rules'
negotiation and by the players' placement). The call takes the target's own parameters (numba
lowers no intrinsic of variable arity, so one of the target's arity is written for it); integers
arrive as int64 (a literal compiles no second target) and arrays as plain C arrays; any other
types are a typing error naming the arguments that differ.
"""

import hashlib
import inspect

import llvmlite.binding as ll
import numba
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

_PUBLISHED = {}   # symbol -> entry point address (the dispatcher keeps the code alive)


def decision_signature(game_dtype, env_dtype) -> tuple:
    """The types of (game, env, p, opts, n, ctx) as the engine passes them: records, and the
    game record's own option table and context."""
    game = record(game_dtype)
    return tuple(formal((game, record(env_dtype), types.int64, game.typeof("opts"), types.int64,
                         game.typeof("ctx"))))


def record(dtype):
    """numba's type of one record of a structured numpy dtype (a game's or an env's)."""
    return numba.from_dtype(dtype)


def formal(args):
    """The types a late call passes: integers as int64, arrays as plain C arrays (a record's own
    table, typed with its shape, is the same value as an array: the engine's calls and a test's
    call with buffers of its own reach the same compiled target)."""
    for a in args:
        if isinstance(a, types.Integer):
            yield types.int64
        elif isinstance(a, types.Boolean):   # a literal True or False too
            yield types.boolean
        elif isinstance(a, types.Array) and a.layout == "C":
            yield types.Array(a.dtype, a.ndim, "C")
        else:
            yield a


def publish(target, signature: tuple):
    """Compile (or load from the cache) `target` for `signature` and publish its entry point:
    (the symbol, the compiled result)."""
    target.compile(signature)
    cres = target.overloads[signature]
    symbol = symbol_of(target, signature)
    if symbol not in _PUBLISHED:
        _PUBLISHED[symbol] = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
        ll.add_symbol(symbol, _PUBLISHED[symbol])
    return symbol, cres


def symbol_of(target, signature: tuple) -> str:
    """The target's published name, the same in every process: its module, name and signature.
    (numba's mangled name carries a counter of the functions compiled before it in this process,
    so a caller cached by one process would name a symbol another never publishes.)"""
    key = hashlib.sha256(repr(signature).encode()).hexdigest()[:16]
    return f"mobsim.late.{target.py_func.__module__}.{target.py_func.__qualname__}.{key}"


def as_passed(context, builder, value, actual, passed):
    """A value as the late call passes it: a record's table is already an array's value (numba's
    array casts are for read-only views), an integer is widened."""
    if isinstance(actual, types.Array) and context.get_value_type(actual) == context.get_value_type(passed):
        return value
    return context.cast(builder, value, actual, passed)


def late(target, signature: tuple):
    """The call of the jitted `target` through its published symbol (see the module); the target
    itself when numba is off (NUMBA_DISABLE_JIT=1, the plain-Python engine)."""
    if not hasattr(target, "compile"):
        return target
    symbol, cres = publish(target, signature)
    restype = cres.signature.return_type
    name = target.py_func.__qualname__
    names = tuple(inspect.signature(target.py_func).parameters)

    def typer(typingctx, args):
        passed = tuple(formal(args))
        wrong = [f"{arg} is {a}, not {b}" for arg, a, b in zip(names, passed, signature, strict=True) if a != b]
        if wrong:
            raise TypingError(f"{name} is bound late for other types: " + "; ".join(wrong))

        def codegen(context, builder, sig, values):
            values = [as_passed(context, builder, v, t, f) for v, t, f in zip(values, sig.args, passed, strict=True)]
            fnty = context.call_conv.get_function_type(restype, passed)
            fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
            status, result = context.call_conv.call_function(builder, fn, restype, passed, values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result

        return restype(*args), codegen

    return intrinsic(of_arity(names, typer, f"late_{target.py_func.__name__}"))


def of_arity(names: tuple, typer, label: str):
    """A typing function of exactly the parameters `names` that hands them to `typer` as one
    tuple: numba types and lowers an intrinsic by its fixed parameters, not `*args`."""
    if not all(n.isidentifier() for n in names) or {"typingctx", "typer"} & set(names):
        raise ValueError(f"{label}: parameters {names} are not plain names of their own")
    params = ", ".join(names)
    scope = {"typer": typer}
    exec(f"def {label}(typingctx, {params}):\n    return typer(typingctx, ({params},))\n", scope)  # noqa: S102
    return scope[label]
