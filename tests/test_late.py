"""A call bound late (sim.shared.late): the target's result and effects at any arity, no copy of the target in
the caller's code, a clear typing error for other argument types, and both engines' decision
interface bound so (their rule functions do not carry the policy)."""

import sys

import numpy as np
import pytest
from numba import njit, types
from numba.core.errors import TypingError

from sim.shared import late
from sim.shared.game import names

GAME = np.dtype([("g", np.int64, (4,)), ("opts", np.int64, (8, 5)), ("ctx", np.int64, (3,))])
ENV = np.dtype([("rp", np.int64, (2,))])


@njit
def toy_decide(game, env, p, opts, n, ctx):
    game.g[0] += 1
    return p * 100 + n * 10 + opts[0, 0] + env.rp[0] + ctx[2]


toy_ask = late.late(toy_decide, late.decision_signature(GAME, ENV))


@njit
def toy_rule(game, env):
    return toy_ask(game, env, 2, game.opts, 3, game.ctx)   # literal integers: passed as int64


@njit
def toy_rule_with_buffers_of_its_own(game, env, opts, ctx):
    return toy_ask(game, env, 2, opts, 3, ctx)


@njit
def toy_rule_with_a_float_seat(game, env):
    return toy_ask(game, env, 2.5, game.opts, 3, game.ctx)


@njit
def toy_walk(game, slot, total, out):
    out[slot] += total * game.g[1]
    return out[slot]


toy_walk_late = late.late(toy_walk, (late.record(GAME), types.int64, types.float64, types.float64[::1]))


@njit
def toy_threats(game, out):
    return toy_walk_late(game, 1, 2.5, out) + toy_walk_late(game, np.int32(1), 1.0, out)


@njit
def toy_threats_on_an_integer_total(game, out):
    return toy_walk_late(game, 1, 2, out)


def records():
    game, env = (np.zeros(1, dtype).view(np.recarray)[0] for dtype in (GAME, ENV))
    game.opts[0, 0], env.rp[0], game.ctx[2] = 4, 5, 6
    return game, env


def test_a_late_call_returns_the_targets_result_and_keeps_its_effects():
    game, env = records()
    assert toy_rule(game, env) == 200 + 30 + 4 + 5 + 6
    assert game.g[0] == 1
    assert toy_rule(game, env) == 245 and game.g[0] == 2
    opts, ctx = game.opts.copy(), game.ctx.copy()
    opts[0, 0] = 7
    assert toy_rule_with_buffers_of_its_own(game, env, opts, ctx) == 248 and len(toy_decide.overloads) == 1


def test_the_caller_declares_the_target_and_carries_no_copy_of_it():
    game, env = records()
    toy_rule(game, env)
    caller = next(iter(toy_rule.overloads.values())).library.get_llvm_str().splitlines()
    signature, compiled = next(iter(toy_decide.overloads.items()))
    target = compiled.fndesc.mangled_name
    assert any(line.startswith("declare") and late.symbol_of(toy_decide, signature) in line for line in caller)
    assert not any(line.startswith("define") and target in line for line in caller)


def test_the_symbol_is_the_same_in_a_process_that_compiled_other_functions_first():
    """A caller cached by one process names the target's symbol; a worker that compiled other
    functions first must publish the same name (numba's mangled name counts them)."""
    import subprocess
    import sys

    other = "import numba\nnumba.njit(lambda x: x + 1)(1)\n"
    mine = ("from tests.test_late import toy_decide\nfrom sim.shared.late import symbol_of\n"
            "print(symbol_of(toy_decide, next(iter(toy_decide.overloads))))")
    seen = {subprocess.run([sys.executable, "-c", first + mine], capture_output=True, text=True,
                           check=True).stdout.strip() for first in ("", other)}
    here = late.symbol_of(toy_decide, next(iter(toy_decide.overloads)))  # pytest names the module otherwise
    assert len(seen) == 1 and seen.pop().endswith(here.split(".", 2)[-1].split("test_late.", 1)[-1])


def test_other_argument_types_are_a_typing_error_naming_the_bound_signature():
    game, env = records()
    with pytest.raises(TypingError, match="toy_decide is bound late for other types: p is float64, not int64"):
        toy_rule_with_a_float_seat(game, env)


def test_a_late_call_of_any_arity_passes_the_targets_own_parameters():
    game, _ = records()
    game.g[1] = 2
    out = np.zeros(3)
    assert toy_threats(game, out) == 5.0 + 7.0 and list(out) == [0.0, 7.0, 0.0]
    assert len(toy_walk.overloads) == 1   # an int32 slot reaches the one int64 target
    with pytest.raises(TypingError, match="toy_walk is bound late for other types: total is int64, not float64"):
        toy_threats_on_an_integer_total(game, out)


def test_a_target_whose_parameters_clash_with_the_calls_own_names_is_refused():
    with pytest.raises(ValueError, match="not plain names of their own"):
        late.of_arity(("game", "typer"), None, "late_toy")


def binds_late(game_name: str) -> bool:
    """Whether a module of the game's (loaded) engine makes a late boundary (sim.shared.late): the
    large engines do; Pig's, a few small functions, links its player and compiles in seconds."""
    return any(vars(module).get("late") is late.late for name, module in list(sys.modules.items())
               if module is not None and name.startswith(f"sim.{game_name}."))


def linked(dispatcher):
    """The LLVM module a compiled function links: its own code and every callee not bound late."""
    return next(iter(dispatcher.overloads.values())).library._get_module_for_linking()


@pytest.mark.parametrize("game_name", names())
def test_each_engine_plays_without_its_policy_linked_into_the_turn(game_name):
    """The game loop calls the engine's pieces by symbol; no piece links the policy (each asks by
    symbol); nor does American Gangsters' rules or policy link the shoot-out's walk (its threat
    models' bottom)."""
    from sim.shared.game import find

    find(game_name).part("game").play_one(0, find(game_name).players, None)
    if not binds_late(game_name):
        pytest.skip(f"{find(game_name).title} links its player into the turn (no late boundary)")
    engine = find(game_name).part("engine")
    assert any(f.name.startswith("mobsim.late.") for f in linked(engine.play).functions)
    pieces = [linked(d) for d in vars(engine).values() if hasattr(d, "overloads") and d.overloads]
    defined = [f.name for m in pieces for f in m.functions if not f.is_declaration]
    assert defined and not any("policy" in name for name in defined)
    assert any(f.name.startswith("mobsim.late.") and "decide" in f.name for m in pieces for f in m.functions)
    assert not any("walked_values" in name for name in defined)
