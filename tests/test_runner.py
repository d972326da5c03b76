"""The batch runner: same tables whatever the workers and batches, resume, safety, files, CLI."""

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import sim
from sim.cli import main
from sim.runner import RunError, load, run, store
from sim.shared.game import find
from sim.shared.game import names as game_names

MIXED = ("simple", "random", "simple", "random")
MOBSIM = Path(sys.executable).with_name("mobsim")


def play(**kw):
    args = dict(players=4, strategies=MIXED, games=240, seed=11, workers=1, progress=False)
    args.update(kw)
    return run(**args)


@pytest.fixture(scope="module")
def reference():
    """240 games in one process and one batch, kept in memory."""
    return play(batch_size=240)


def same(a, b):
    for name in ("games", "seats"):
        x = getattr(a, name).sort_values(["game_id"] + (["seat"] if name == "seats" else []))
        y = getattr(b, name).sort_values(["game_id"] + (["seat"] if name == "seats" else []))
        pd.testing.assert_frame_equal(x.reset_index(drop=True), y.reset_index(drop=True))


# --- reproducibility -----------------------------------------------------------------------------

def test_tables_are_the_same_whatever_the_workers(reference, tmp_path):
    same(reference, play(workers=2, batch_size=50, out=tmp_path / "two"))


@pytest.mark.parametrize("size", [50, 120])
def test_tables_are_the_same_whatever_the_batch_size(reference, size):
    got = play(batch_size=size)
    assert got.manifest["batches"] == -(-240 // size)
    same(reference, got)


def test_dask_local_cluster_gives_the_same_tables(reference, tmp_path):
    pytest.importorskip("distributed")
    got = play(scheduler="local", workers=2, batch_size=80, out=tmp_path / "dask")
    same(reference, got)
    assert sorted(got.manifest["tallies"]) == ["0", "1", "2"]  # counted by the runner from the tables
    pd.testing.assert_frame_equal(load(tmp_path / "dask").win_rates(), reference.win_rates())


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_kept_in_memory_is_the_stored_run_read_back(game, workers, tmp_path):
    """A temporary run (no `out`) keeps its batches' tables in memory instead of writing Parquet
    and reading it back: the same tables, column types and order included, turns too."""
    names = find(game).showcase
    kw = dict(game=game, players=4, strategies=names, games=90, seed=5, batch_size=40, workers=workers,
              record_turns=True, progress=False)
    stored, kept = run(out=tmp_path / "stored", **kw), run(**kw)
    assert kept.path is None and kept.manifest["batches_done"] == [0, 1, 2]
    assert kept.manifest["tallies"] == stored.manifest["tallies"]
    for name in ("games", "seats", "turns"):
        pd.testing.assert_frame_equal(getattr(kept, name), getattr(stored, name), check_exact=True)


def test_tables_have_compact_dtypes_and_names(reference):
    games, seats = reference.games, reference.seats
    assert len(games) == 240 and len(seats) == 960
    assert list(games.game_id) == list(range(240))
    assert games["decided_by"].dtype == "category"
    assert seats["strategy"].dtype == "category"
    assert set(seats["strategy"].cat.categories) == {"simple", "random"}
    assert seats["won"].dtype == bool
    for df in (games, seats):
        for col, dtype in df.dtypes.items():
            assert dtype != "int64" and dtype != "float64", col
    # every game has a winner, and its winner_seat holds rank 1
    winners = seats[seats.won].groupby("game_id").seat.min()
    assert (games.set_index("game_id").winner_seat.loc[winners.index] >= 0).all()


def test_seats_rotate_so_each_strategy_sits_in_each_seat_equally_often(reference):
    seats = reference.seats
    per_slot = seats.groupby(["slot", "seat"]).size()
    assert len(per_slot) == 16 and per_slot.nunique() == 1
    per_name = seats.groupby(["strategy", "seat"], observed=True).size()
    assert per_name.nunique() == 1


def test_fixed_seating_keeps_the_given_order():
    got = play(games=40, rotate=False)
    assert (got.seats.slot == got.seats.seat).all()
    assert list(got.seats.strategy[:4]) == list(MIXED)


def test_record_turns_gives_each_seat_fortune_after_each_turn():
    got = play(games=20, record_turns=True)
    turns = got.turns
    assert list(turns.columns) == ["game_id", "turn", "seat", "fortune"]
    rows = turns.groupby("game_id").size()
    assert (rows.values == (got.games.turns.values + 1) * 4).all()
    assert play(games=20).turns is None


# --- files ---------------------------------------------------------------------------------------

def test_load_round_trip_and_plain_pandas_read(reference, tmp_path):
    out = tmp_path / "run"
    made = play(out=out, batch_size=100)
    assert sorted(p.name for p in out.iterdir()) == ["games.parquet", "manifest.json",
                                                     "seats.parquet"]
    assert sorted(p.name for p in (out / "seats.parquet").iterdir()) == [
        "part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]
    loaded = sim.load(out)
    same(reference, loaded)
    same(made, loaded)
    pd.testing.assert_frame_equal(pd.read_parquet(out / "games.parquet"), loaded.games)
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and m["batches_done"] == [0, 1, 2]
    assert m["seed"] == 11 and m["games"] == 240 and m["players"] == 4
    assert m["strategies"]["names"] == list(MIXED)
    assert m["ruleset"]["fingerprint"] == reference.manifest["ruleset"]["fingerprint"]
    assert m["mobsim_version"] == sim.__version__
    assert m["started"] and m["finished"]


def test_parts_read_back_as_written_whole_numbers_delta_encoded(tmp_path):
    """Every column type a table holds comes back the same (values and dtypes); the whole
    numbers are delta-encoded, the categories dictionary-encoded, statistics kept for game_id."""
    import numpy as np
    import pyarrow.parquet as pq

    from sim.runner import store

    n = 500
    df = pd.DataFrame({
        "game_id": np.arange(n, dtype=np.int32),
        "seat": (np.arange(n) % 4).astype(np.int8),
        "fortune": (np.arange(n, dtype=np.int32) * 977) % 90000 - 5000,
        "turns": (np.arange(n) % 40).astype(np.int16),
        "won": np.arange(n) % 4 == 0,
        "strategy": pd.Categorical.from_codes(np.arange(n) % 3, categories=["simple", "runner", "x"]),
    })
    store.write_part(tmp_path, "seats", 0, df)
    path = store.part_path(tmp_path, "seats", 0)
    pd.testing.assert_frame_equal(store.read_part(tmp_path, "seats", 0).to_pandas(), df)
    pd.testing.assert_frame_equal(pd.read_parquet(path), df)
    group = pq.read_metadata(path).row_group(0)
    columns = {group.column(i).path_in_schema: group.column(i) for i in range(group.num_columns)}
    for name in ("game_id", "seat", "fortune", "turns"):
        assert "DELTA_BINARY_PACKED" in columns[name].encodings, name
    assert any("DICTIONARY" in e for e in columns["strategy"].encodings)
    assert columns["game_id"].statistics.min == 0 and columns["game_id"].statistics.max == n - 1
    assert not columns["fortune"].is_stats_set


@pytest.mark.parametrize("game", game_names())
def test_parts_written_from_columns_are_the_parts_of_the_dataframes(game, tmp_path):
    """Workers write the columns of `play_columns` without building DataFrames: the same parts,
    byte for byte, as `play`'s DataFrames written the usual way (every table, turns included)."""
    from sim.runner import store
    from sim.runner.games import adapter
    from sim.rules import Ruleset

    a, names = adapter(game), find(game).showcase   # the game's own four-seat lineup
    # the second lineup names its strategies in another order: its parts take the first's schema
    for part, lineup in enumerate((names, names[::-1])):
        plan = a.plan(Ruleset.load(game=game), 4, lineup, "random")
        columns, frames = a.play_columns(plan, 3, 100, 60, True), a.play(plan, 3, 100, 60, True)
        assert list(columns) == list(frames) == ["games", "seats", "turns"]
        for table in columns:
            assert (store.write_part(tmp_path / "columns", table, part, columns[table])
                    == store.write_part(tmp_path / "frames", table, part, frames[table]))
            assert (store.part_path(tmp_path / "columns", table, part).read_bytes()
                    == store.part_path(tmp_path / "frames", table, part).read_bytes())


def test_compact_block_is_compact_column_by_column():
    import numpy as np

    from sim.shared.columns import compact, compact_block

    block = np.array([[0, 5, -3, 1], [1, 300, 7, 0], [0, 9, 2, 1]], dtype=np.int64)
    names, types = ("a", "b", "c", "d"), ("bool", "int16", None, "int8")
    got = compact_block(block, names, types)
    assert list(got) == ["a", "b", "d"]
    for j, (name, dtype) in enumerate(zip(names, types, strict=True)):
        if dtype is not None:
            want = compact(name, block[:, j], dtype)
            assert got[name].dtype == want.dtype and (got[name] == want).all()
    with pytest.raises(OverflowError, match="column b holds 300, out of range for int8"):
        compact_block(block, names, ("bool", "int8", None, "int8"))
    assert compact_block(block[:0], names, types)["b"].dtype == np.int16


def test_sim_run_is_the_runner():
    assert sim.run is run and sim.load is load


def test_overrides_change_the_fingerprint_and_are_recorded():
    got = play(games=10, overrides={"provocation.stake": 3000})
    assert got.manifest["ruleset"]["defaults_changed"] == {"provocation.stake": 3000}


# --- safety and resume ---------------------------------------------------------------------------

def interrupt_after(k):
    seen = []

    def hook(batch_id):
        seen.append(batch_id)
        if len(seen) == k:
            raise KeyboardInterrupt

    return hook


def test_resume_after_an_interruption_equals_an_uninterrupted_run(reference, tmp_path):
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        play(out=out, batch_size=50, _after_batch=interrupt_after(2))
    half = load(out)
    assert half.manifest["status"] == "running" and half.manifest["batches_done"] == [0, 1]
    assert len(half.games) == 100
    with pytest.raises(RunError, match="--resume.*--force"):
        play(out=out, batch_size=50)
    done = play(out=out, resume=True)  # the run's own batch size
    assert done.manifest["status"] == "complete"
    assert done.manifest["batches_done"] == [0, 1, 2, 3, 4]
    same(reference, done)
    same(reference, load(out))


def test_resume_plays_a_missing_batch_again(reference, tmp_path):
    out = tmp_path / "run"
    play(out=out, batch_size=50)
    (out / "seats.parquet" / "part-000004.parquet").unlink()
    with pytest.raises(RunError, match="part-000004.parquet.*--resume"):
        _ = load(out).seats
    m = json.loads((out / "manifest.json").read_text())
    m["batches_done"].remove(3)
    store.write_manifest(out, m)
    with pytest.warns(UserWarning, match="batch 4"):
        done = play(out=out, resume=True)
    assert done.manifest["batches_done"] == [0, 1, 2, 3, 4]
    same(reference, load(out))


def seat_counts(result):
    """Win rates counted from the seats table itself (what the tallies stand for)."""
    return type(result)(result.path, {**result.manifest, "tallies": {}}).win_rates()


def test_the_summary_adds_the_batches_tallies_and_they_are_the_seats_counts(tmp_path):
    out = tmp_path / "run"
    result = play(out=out, strategies=("simple", "random", "tuned"), players=3, games=150,
                  batch_size=40, workers=2)
    assert sorted(result.manifest["tallies"]) == ["0", "1", "2", "3"]
    counted = seat_counts(load(out))
    pd.testing.assert_frame_equal(load(out).win_rates(), counted)
    assert counted["seats"].sum() == 450  # seat_counts read the seats: the tallies were bypassed
    in_memory = play(strategies=("simple", "random", "tuned"), players=3, games=150)
    pd.testing.assert_frame_equal(in_memory.win_rates(), counted)


def test_a_run_written_before_tallies_resumes_and_counts_from_its_seats(reference, tmp_path):
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        play(out=out, batch_size=50, _after_batch=interrupt_after(2))
    m = json.loads((out / "manifest.json").read_text())
    del m["tallies"]
    store.write_manifest(out, m)
    done = play(out=out, resume=True)
    assert sorted(done.manifest["tallies"]) == ["2", "3", "4"]
    pd.testing.assert_frame_equal(done.win_rates(), reference.win_rates())


def test_resume_refuses_another_study(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=20)
    with pytest.raises(RunError, match="seed is 11 in the run, 12 now"):
        play(out=out, games=20, seed=12, resume=True)
    with pytest.raises(RunError, match="strategies"):
        play(out=out, games=20, strategies=("simple",), resume=True)
    with pytest.raises(RunError, match="ruleset"):
        play(out=out, games=20, overrides={"provocation.stake": 3000}, resume=True)


def test_non_empty_directory_refused_and_force_replaces(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=20, seed=1)
    with pytest.raises(RunError, match="not empty.*--resume.*--force"):
        play(out=out, games=20)
    got = play(out=out, games=30, force=True)
    assert len(load(out).games) == 30 and got.manifest["seed"] == 11
    other = tmp_path / "notes"
    other.mkdir()
    (other / "thesis.txt").write_text("keep me")
    with pytest.raises(RunError, match="not a mobsim run"):
        play(out=other, games=10, force=True)
    assert (other / "thesis.txt").exists()


def test_corrupt_manifest_is_one_clear_error(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=20)
    (out / "manifest.json").write_text('{"seed": 1, "batches_')
    with pytest.raises(RunError, match=r"manifest.json is corrupt .*--force") as err:
        load(out)
    assert "\n" not in str(err.value)
    with pytest.raises(RunError, match="manifest.json is corrupt"):
        play(out=out, games=20, resume=True)


def test_corrupt_part_file_is_one_clear_error(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=100, batch_size=50)
    part = out / "games.parquet" / "part-000001.parquet"
    part.write_bytes(b"not parquet at all")
    with pytest.raises(RunError, match=r"part-000001.parquet is damaged.*--resume") as err:
        _ = load(out).games
    assert "\n" not in str(err.value)
    with pytest.warns(UserWarning, match="batch 1"):
        play(out=out, games=100, batch_size=50, resume=True)
    assert len(load(out).games) == 100


def test_bad_requests_are_one_line_errors():
    with pytest.raises(RunError, match="unknown strategy 'nobody'"):
        play(strategies=("nobody",))
    with pytest.raises(RunError, match="3 strategies for 4 players"):
        play(strategies=("simple", "random", "simple"))
    with pytest.raises(RunError, match="unknown game"):
        play(game="chess")
    with pytest.raises(RunError, match="scheduler"):
        play(scheduler="carrier-pigeon")


# --- command line --------------------------------------------------------------------------------

def cli(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_run_json(tmp_path, reference):
    out = tmp_path / "run"
    result = cli("run", "--players", "4", "--strategies", ",".join(MIXED), "--games", "240",
                 "--seed", "11", "--out", str(out), "--workers", "1", "--batch-size", "100",
                 "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["status"] == "complete" and summary["games"] == 240
    assert summary["files"]["seats"] == str(out / "seats.parquet")
    rates = {r["strategy"]: r for r in summary["win_rates"]}
    assert rates["simple"]["seats"] == 480
    assert rates["simple"]["wins"] == int(reference.seats[reference.seats.strategy == "simple"]
                                          .won.sum())
    same(reference, load(out))


def test_cli_text_summary(tmp_path):
    result = cli("run", "--games", "20", "--out", str(tmp_path / "r"), "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "sim.load(" in result.output


def test_cli_bad_arguments_exit_2_with_one_line(tmp_path):
    out = tmp_path / "r"
    cases = [
        ["run", "--games", "10", "--out", str(out), "--strategies", "nobody"],
        ["run", "--games", "10", "--out", str(out), "--set", "nonsense"],
        ["run", "--games", "0", "--out", str(out)],
        ["run", "--games", "10", "--out", str(out), "--resume", "--force"],
    ]
    for args in cases:
        proc = subprocess.run([str(MOBSIM), *args], capture_output=True, text=True)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("mobsim: error:")


# --- damaged results --------------------------------------------------------------------------------

def flip_byte(path: Path, at: float = 0.5):
    """Flip one byte in the middle of the file's data (the footer at the end stays readable)."""
    data = bytearray(path.read_bytes())
    data[int(len(data) * at)] ^= 0x01
    path.write_bytes(bytes(data))


def test_every_part_has_its_checksum_in_the_manifest(tmp_path):
    from sim.runner import store

    out = tmp_path / "run"
    play(out=out, games=100, batch_size=50)
    m = json.loads((out / "manifest.json").read_text())
    assert m["format"] == 3 and sorted(m["checksums"]) == ["0", "1"]
    for b in (0, 1):
        for table in ("games", "seats"):
            assert m["checksums"][str(b)][table] == store.file_checksum(store.part_path(out, table, b))


def test_a_flipped_byte_is_refused_everywhere_and_resume_plays_its_batch_again(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=100, batch_size=50)
    clean = load(out).seats.copy()
    part = out / "seats.parquet" / "part-000001.parquet"
    flip_byte(part)
    with pytest.raises(RunError, match=r"part-000001.parquet is damaged .*checksum.*--resume") as err:
        load(out)
    assert "\n" not in str(err.value)
    verify = cli("verify", str(out))
    assert verify.exit_code == 2   # a damaged run is bad input for every command (docs/cli.md)
    assert "part-000001.parquet: its checksum differs" in verify.output
    assert "1 damaged or missing parts" in verify.output and "--resume" in verify.output
    for args in (["report", str(out), "--out", str(tmp_path / "rep")],
                 ["compare", str(out), str(out)], ["replay", str(out), 60, "--html", tmp_path / "r.html"]):
        proc = subprocess.run([str(MOBSIM), *map(str, args)], capture_output=True, text=True)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "part-000001.parquet is damaged" in proc.stderr and "--resume" in proc.stderr
    with pytest.warns(UserWarning, match="batch 1 will be played again.*checksum"):
        play(out=out, games=100, batch_size=50, resume=True)
    pd.testing.assert_frame_equal(load(out).seats, clean)
    assert cli("verify", str(out)).exit_code == 0


def test_a_run_without_checksums_is_checked_by_its_footers(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=100, batch_size=50)
    m = json.loads((out / "manifest.json").read_text())
    m["format"] = 1
    del m["checksums"]
    store.write_manifest(out, m)
    result = cli("verify", str(out))
    assert result.exit_code == 0, result.output
    assert "4 parts have no checksum" in result.output and "footers" in result.output
    assert len(load(out).games) == 100
    (out / "games.parquet" / "part-000000.parquet").write_bytes(b"PAR1 truncated")
    assert cli("verify", str(out)).exit_code == 2


def test_verify_json_and_bad_directories(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=20)
    got = json.loads(cli("verify", str(out), "--json").output)
    assert got["ok"] and got["checked_by_checksum"] == 2 and got["damaged"] == []
    (out / "games.parquet" / "part-000000.parquet").unlink()
    result = cli("verify", str(out), "--json")
    assert result.exit_code == 2 and json.loads(result.output)["damaged"][0]["problem"] == "missing"
    proc = subprocess.run([str(MOBSIM), "verify", str(tmp_path / "nothing")], capture_output=True, text=True)
    assert proc.returncode == 2 and "no such run directory" in proc.stderr


@pytest.mark.parametrize("edit, message", [
    (lambda m: m["batches_done"].append(0), "batches_done lists batch 0 more than once"),
    (lambda m: m.update(games="many"), "games is 'many', not a whole number"),
    (lambda m: m.update(batches=7), "batches is 7, but 100 games in batches of 50 make 2"),
    (lambda m: m["batches_done"].append(9), "batches_done lists batch 9, outside 0..1"),
    (lambda m: m.update(checksums=[1]), "checksums is not a table"),
    (lambda m: m["tallies"]["0"].update(simple=[1]), "tallies is not a table"),
])
def test_a_hand_edited_manifest_is_one_line(tmp_path, edit, message):
    out = tmp_path / "run"
    play(out=out, games=100, batch_size=50)
    m = json.loads((out / "manifest.json").read_text())
    edit(m)
    store.write_manifest(out, m)
    with pytest.raises(RunError, match=message):
        load(out)
    proc = subprocess.run([str(MOBSIM), "report", str(out), "--out", str(tmp_path / "rep")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


# --- output paths, locks and OS errors ---------------------------------------------------------------

def test_force_deletes_only_what_a_run_wrote(tmp_path):
    out = tmp_path / "run"
    play(out=out, games=20)
    (out / "notes.txt").write_text("mine")
    (out / "my_analysis").mkdir()
    with pytest.raises(RunError, match=r"also holds my_analysis/, notes.txt.*not clearing"):
        play(out=out, games=20, force=True)
    assert (out / "notes.txt").read_text() == "mine" and (out / "my_analysis").is_dir()
    assert len(load(out).games) == 20  # the run is untouched too
    (out / "games.parquet" / "keep.csv").write_text("x")
    (out / "notes.txt").unlink()
    (out / "my_analysis").rmdir()
    with pytest.raises(RunError, match="games.parquet/keep.csv"):
        play(out=out, games=20, force=True)
    (out / "games.parquet" / "keep.csv").unlink()
    assert len(play(out=out, games=30, force=True).games) == 30


def test_a_second_run_on_a_busy_directory_is_refused(tmp_path):
    import fcntl

    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        play(out=out, games=100, batch_size=50, _after_batch=interrupt_after(1))
    assert not (out / ".lock").exists()  # released and removed, even after an interruption
    with open(out / ".lock", "a+") as held:  # what a running `mobsim run --resume` holds
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(RunError, match="in use by another mobsim run"):
            play(out=out, games=100, batch_size=50, resume=True)
    assert play(out=out, games=100, batch_size=50, resume=True).complete


@pytest.mark.parametrize("out, message", [
    ("", "the run directory \\(--out\\) is empty"),
    ("/dev/null", "/dev/null exists and is not a directory"),
])
def test_output_paths_that_are_not_directories_are_refused(out, message):
    with pytest.raises(RunError, match=message):
        play(games=10, out=out)


def test_os_errors_are_one_line_naming_the_path(tmp_path):
    (tmp_path / "file").write_text("x")
    cases = [
        (tmp_path / "file" / "sub", "file/sub: Not a directory"),
        (tmp_path / ("x" * 300), "File name too long"),
    ]
    for out, message in cases:
        proc = subprocess.run([str(MOBSIM), "run", "--games", "10", "--workers", "1", "--out", str(out)],
                              capture_output=True, text=True)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr   # a place that cannot be used
        assert proc.stderr.startswith("mobsim: error:") and "cannot write" in proc.stderr and message in proc.stderr


@contextlib.contextmanager
def tmpfs(mount: Path, options: str):
    """A tmpfs mounted at `mount` with `options` (root and Linux only: the test is skipped elsewhere)."""
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(mount)], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as err:
        pytest.skip(f"cannot mount a tmpfs here ({' '.join(str(err).split())[:80]})")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture
def tiny_disk(tmp_path):
    """A 256 kB tmpfs."""
    mount = tmp_path / "disk"
    mount.mkdir()
    with tmpfs(mount, "size=256k"):
        yield mount


def test_a_full_disk_keeps_the_finished_batches(tiny_disk):
    out = tiny_disk / "run"
    proc = subprocess.run([str(MOBSIM), "run", "--games", "20000", "--batch-size", "100", "--workers", "1",
                           "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert "No space left on device" in proc.stderr and "--resume" in proc.stderr
    assert load(out).manifest["batches_done"]  # what was recorded is sound and readable
    assert cli("verify", str(out)).exit_code == 0


def test_a_read_only_directory_is_one_line_and_loses_nothing(tiny_disk):
    out = tiny_disk / "run"
    play(out=out, games=100, batch_size=50)
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], check=True)
    for args in (["--resume"], ["--force"], []):
        proc = subprocess.run([str(MOBSIM), "run", "--games", "100", "--batch-size", "50", "--workers", "1",
                               "--strategies", ",".join(MIXED), "--seed", "11", "--out", str(out), *args],
                              capture_output=True, text=True)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "Read-only file system" in proc.stderr or not args, proc.stderr
    new = subprocess.run([str(MOBSIM), "run", "--games", "10", "--out", str(tiny_disk / "new")],
                         capture_output=True, text=True)
    assert new.returncode == 2 and "new: Read-only file system" in new.stderr
    assert len(load(out).games) == 100


def test_empty_strategies_scheduler_addresses_and_too_many_workers(tmp_path):
    for strategies in ("", " , ", ()):
        with pytest.raises(RunError, match="the strategies are empty"):
            play(strategies=strategies)
    for address, problem in (("tcp://", "host is missing"), ("tls://", "host is missing"),
                             ("tcp://host", "port is missing"), ("tcp://h:99999", "port is not a number")):
        with pytest.raises(RunError, match=problem):
            play(scheduler=address)
    with pytest.warns(UserWarning, match="workers on .* cores"):
        play(games=10, workers=64)
    proc = subprocess.run([str(MOBSIM), "run", "--games", "10", "--workers", "64", "--out", str(tmp_path / "w")],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "mobsim: warning: 64 workers on" in proc.stderr


def test_workers_fork_with_the_inherited_objects_frozen_and_the_driver_unfreezes():
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from sim.runner.core import _frozen_for_fork

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this system")
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        with _frozen_for_fork(True):
            inherited = pool.submit(gc.get_freeze_count).result()  # forks here
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() == 0
        assert inherited > 0


def test_the_tiebreak_key_of_the_most_henchmen_a_ruleset_allows_fits_its_column():
    """NYK-E1's third tie-break packs how many henchmen of each value a player has into one
    integer: at henchmen.max's upper bound, all of the top value, it still fits the seats table's
    column; and between equal numbers of henchmen its order is the order of the sorted values,
    highest first (brute force over random hands)."""
    import numpy as np

    from sim.nyk import state as S
    from sim.nyk.adapter import nyk_dtype
    from sim.nyk.chapters.end import tiebreak_key
    from sim.rules import Ruleset
    from sim.shared.columns import compact

    def key_of(values):
        game = np.zeros(1, S.GAME_DTYPE).view(np.recarray)[0]
        for i, v in enumerate(values):
            c = S.N_AFFRANCHI + i
            game.pl[0, S.ROSTER] |= 1 << c
            game.ch[c, S.WHERE], game.ch[c, S.VALUE] = S.W_CONTROLLED, v
        return int(tiebreak_key(game, 0, 2))

    most = Ruleset.load(game="nyk").option("henchmen.max").max
    top = key_of([5] * most)
    assert compact("henchman_values", np.array([top]), nyk_dtype("henchman_values"))[0] == top
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, most + 1))
        a, b = (sorted(rng.integers(0, 6, n).tolist(), reverse=True) for _ in range(2))
        assert np.sign(key_of(a) - key_of(b)) == (a > b) - (a < b)
