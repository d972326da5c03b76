"""Fault injection on `mobsim run` in real processes: the main process killed (-9), SIGTERM, a
double Ctrl-C, a worker killed. Each time the workers are gone (their pids checked), the output
is one line, and what was recorded before is intact (`mobsim verify`)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")

MOBSIM = Path(sys.executable).with_name("mobsim")
WAIT = 180  # seconds: worker start-up loads the compiled engine, slow on a busy machine


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text[text.rindex(")") + 2:].split()  # state, ppid, ...


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def wait_until(condition, timeout=WAIT, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def batches_done(out: Path) -> int:
    try:
        return len(json.loads((out / "manifest.json").read_text())["batches_done"])
    except (FileNotFoundError, ValueError, KeyError):
        return 0


def start_run(out: Path, workers: int = 2) -> subprocess.Popen:
    """A long run (never finished here) in its own session, like a command typed in a shell."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [str(MOBSIM), "run", "--games", "2000000", "--batch-size", "200", "--workers", str(workers),
         "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True)


def running_with_workers(proc: subprocess.Popen, out: Path, workers: int = 2) -> list[int]:
    """Wait until the run has recorded a batch and its workers are up: their pids."""
    wait_until(lambda: batches_done(out) >= 1 or proc.poll() is not None, what="a finished batch")
    assert proc.poll() is None, proc.communicate()
    pool = []

    def enough():
        # forked workers share the driver's command line; spawned ones run spawn_main
        pool[:] = [p for p in children(proc.pid) if "resource_tracker" not in _cmdline(p)]
        return len(pool) >= workers

    wait_until(enough, what="the worker processes")
    return list(pool)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def assert_gone(pids, timeout=15):
    wait_until(lambda: not any(alive(p) for p in pids), timeout, f"processes {pids} to end")


def finish(proc, timeout=60) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("the run did not stop") from None
    return proc.returncode, err


def assert_intact(out: Path):
    """Every batch the manifest records is sound."""
    verify = subprocess.run([str(MOBSIM), "verify", str(out)], capture_output=True, text=True,
                            timeout=WAIT)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert batches_done(out) >= 1


def test_workers_die_with_a_main_process_killed_by_sigkill(tmp_path):
    out = tmp_path / "run"
    proc = start_run(out)
    workers = running_with_workers(proc, out)
    helpers = children(proc.pid)
    assert set(workers) <= set(helpers)  # the workers and multiprocessing's resource tracker
    proc.kill()
    finish(proc)
    assert_gone(helpers)
    assert_intact(out)


def test_sigterm_stops_like_ctrl_c(tmp_path):
    out = tmp_path / "run"
    proc = start_run(out)
    workers = running_with_workers(proc, out)
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc)
    assert code == 128 + signal.SIGTERM, err
    assert err.count("\n") == 1 and "interrupted" in err and "--resume" in err, err
    assert_gone(workers)
    assert_intact(out)


def test_a_double_ctrl_c_stops_at_once(tmp_path):
    out = tmp_path / "run"
    proc = start_run(out)
    workers = running_with_workers(proc, out)
    os.killpg(proc.pid, signal.SIGINT)  # the terminal sends Ctrl-C to the whole process group
    time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    started = time.monotonic()
    code, err = finish(proc, timeout=30)
    assert time.monotonic() - started < 15
    assert code == 130, err
    assert "Traceback" not in err and "interrupted" in err, err
    assert_gone(workers)
    assert_intact(out)


def test_a_killed_worker_ends_the_run_in_one_line(tmp_path):
    out = tmp_path / "run"
    proc = start_run(out)
    workers = running_with_workers(proc, out)
    os.kill(workers[0], signal.SIGKILL)
    code, err = finish(proc)
    assert code == 1, err
    assert err.count("\n") == 1 and "worker process ended" in err and "--resume" in err, err
    assert_gone(workers)
    assert_intact(out)


def test_a_killed_pool_leaves_the_exit_hook_no_pipe_to_write_to():
    # the interpreter's exit hook (concurrent.futures.process._python_exit) writes to the wake-up
    # pipe of every manager thread it lists, without the pool's lock; a manager still ending after
    # the kill (slower than its join, on a loaded machine) closes that pipe meanwhile: "OSError: Bad
    # file descriptor" after the clean "interrupted" line. Once killed, the pool is off that list.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, process

    from sim.runner.pool import kill_pool as _kill_pool

    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    pool.submit(time.sleep, 30)
    manager = pool._executor_manager_thread
    join = manager.join
    manager.join = lambda timeout=None: None   # a manager slower to end than the join waits for
    try:
        assert manager in process._threads_wakeups
        _kill_pool(pool)
        assert manager not in process._threads_wakeups
    finally:
        join(timeout=30)
    assert not manager.is_alive()


def test_an_interrupted_sweep_says_how_to_finish_and_resume_finishes_it(tmp_path):
    out = tmp_path / "sweep"
    command = [str(MOBSIM), "sweep", "--games", "40000", "--workers", "2", "--baseline", "first",
               "--set", "missions.reward_scale=0.8,1.2", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    wait_until(lambda: any(batches_done(m.parent) for m in out.glob("points/*/manifest.json"))
               or proc.poll() is not None, what="a finished batch")
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    code, err = finish(proc)
    assert code == 130, err
    assert err.count("\n") == 1 and "interrupted" in err and str(out) in err and "--resume" in err, err
    done = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert (out / "sweep.parquet").is_file() and len(list(out.glob("points/*/manifest.json"))) == 2


# --- every pool the project starts is tied to its parent -------------------------------------

POOLS = {
    "runner pool (fork)": "from sim.runner.pool import TiedPool\npool = TiedPool(2, 'fork')\n"
                          "futures = [pool.submit(time.sleep, 120) for _ in range(2)]",
    "runner pool (spawn)": "from sim.runner.pool import TiedPool\npool = TiedPool(2)\n"
                           "futures = [pool.submit(time.sleep, 120) for _ in range(2)]",
    "league pool": "from sim.league.match import Pool\nPool(2).map([120, 120], play=time.sleep)",
}


def descendants(pid: int) -> list[int]:
    found = children(pid)
    for child in list(found):
        found += descendants(child)
    return found


@pytest.mark.parametrize("pool", POOLS, ids=list(POOLS))
def test_the_workers_of_every_pool_die_with_a_killed_parent(pool):
    code = f"import time\n{POOLS[pool]}\ntime.sleep(120)\n"
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        wait_until(lambda: len([p for p in children(proc.pid) if "resource_tracker" not in _cmdline(p)]) >= 2,
                   what="the workers")
        helpers = descendants(proc.pid)
        proc.kill()
        proc.wait()
        assert_gone(helpers)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_every_pool_in_the_project_is_the_tied_one():
    # a pool made elsewhere would not tie its workers to the parent: sim/runner/pool.py's TiedPool is the one
    root = Path(__file__).resolve().parents[1] / "sim"
    makers = [str(p.relative_to(root)) for p in root.rglob("*.py")
              if "ProcessPoolExecutor(" in p.read_text() or "multiprocessing.Pool(" in p.read_text()]
    assert makers == [], makers


# --- the same fault gives the same exit from every command ----------------------------------

KILLED_WORKER = {   # run's own: test_a_killed_worker_ends_the_run_in_one_line
    "sweep": ["sweep", "--games", "2000000", "--workers", "2", "--set", "missions.reward_scale=0.8,1.2"],
    "sensitivity": ["sensitivity", "--games", "2000000", "--workers", "2", "--param", "provocation.stake"],
    "sensitivity --rulings": ["sensitivity", "--rulings", "--games", "2000000", "--workers", "2"],
    "meta": ["meta", "--strategies", "random,simple", "--players", "2", "--games-per-profile", "2000000",
             "--workers", "2"],
    "psro": ["strategies", "psro", "--population", "random,simple", "--players", "2", "--games-per-profile",
             "2000000", "--workers", "2"],
    "ladder": ["strategies", "ladder", "--rungs", "random,simple", "--games", "2000000", "--workers", "2"],
}


def workers_of(proc) -> list[int]:
    return [p for p in descendants(proc.pid) if "resource_tracker" not in _cmdline(p)
            and _stat(p) and int(_stat(p)[1]) != 1]


@pytest.mark.parametrize("command", KILLED_WORKER, ids=list(KILLED_WORKER))
def test_a_killed_worker_exits_1_in_one_line_from_every_command(command, tmp_path):
    out = [] if command == "ladder" else ["--out", str(tmp_path / "out")]
    proc = subprocess.Popen([str(MOBSIM), *KILLED_WORKER[command], *out],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    try:
        wait_until(lambda: len(workers_of(proc)) >= 2 or proc.poll() is not None, what="the workers")
        assert proc.poll() is None, proc.communicate()
        time.sleep(1)   # past start-up: a worker at work
        os.kill(workers_of(proc)[-1], signal.SIGKILL)
        code, err = finish(proc, timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert code == 1, err
    assert err.count("\n") == 1 and "worker process ended abruptly" in err and "refuse" not in err, err
