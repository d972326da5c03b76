"""Replay pages: the recorded steps are the engine's own game, and the page carries them whole.

The recorder plays the game with the JIT disabled and reads the state after every event; these
tests hold it to the jitted game (same events, same end), hold each state to the event it
follows (a step puts the group where the event says, an arrest puts it in custody...), and
parse the page (HTML, inline JSON, the states rebuilt from their deltas as the page's script does).
"""

import json
import re
from functools import cache
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from sim.ag import events as AE
from sim.ag import state as AS
from sim.cli import main
from sim.nyk import events as E
from sim.nyk import state as S
from sim.replay import (
    GameSpec, ReplayError, example_spec, record_game, replay_data, render_page, spec_of_run, write_replay,
)
from sim.rules import Ruleset
from sim.shared.game import find, names


@cache
def recorded(game: str):
    """The game's example game (its face's `example_game`) under its shipped rules, recorded once."""
    spec = example_spec(game)
    rs = Ruleset.load(game=game)
    return spec, rs, record_game(spec, rs)


@pytest.fixture(scope="module", params=names())
def every_game(request):
    return recorded(request.param)


@pytest.fixture(scope="module")
def nyk():
    return recorded("nyk")


@pytest.fixture(scope="module")
def ag():
    return recorded("ag")


def bits(mask):
    return [c for c in range(S.N_CHARS) if (mask >> c) & 1]


def jitted(spec, rs):
    """The spec's game played by the game's own (jitted) engine."""
    return find(spec.game).part("game").play_one(spec.seed, spec.players, list(spec.strategies), rs,
                                                 game_id=spec.game_id)


def test_every_recorded_game_is_the_jitted_game(every_game):
    spec, rs, rec = every_game
    played = jitted(spec, rs)
    state = find(spec.game).part("state")
    n = int(played.game.g[state.N_EVENTS])
    assert rec["events"] == played.game.events[:n].tolist()
    assert rec["winner"] == int(played.game.g[state.WINNER])
    assert len(rec["snapshots"]) == len(rec["events"]) == len(rec["dice"])


def test_recorded_nyk_game_ends_as_the_jitted_game(nyk):
    spec, rs, rec = nyk
    played = jitted(spec, rs)
    final = rec["snapshots"][-1]
    for p in range(spec.players):
        assert final["money"][p] == int(played.game.pl[p, S.MONEY])
        assert final["hand"][p] == int(played.game.pl[p, S.HAND_N])
    assert final["owner"] == played.game.ch[:, S.OWNER].tolist()


def test_recorded_ag_game_ends_as_the_jitted_game(ag):
    spec, rs, rec = ag
    played = jitted(spec, rs)
    final = rec["snapshots"][-1]
    assert final["renown"] == [int(played.game.pl[p, AS.RENOWN]) for p in range(spec.players)]
    assert final["fbi"] == int(played.game.g[AS.FBI])


def test_each_nyk_state_follows_its_event(nyk):
    _, _, rec = nyk
    seen = set()
    for (_, code, a, b, c, *_), after in zip(rec["events"], rec["snapshots"], strict=True):
        if code == E.EV_STEP:          # NYK-M1: the group stands on the district it moved to
            seen.add(code)
            for ch in bits(c):
                assert after["loc"][ch] == b or after["where"][ch] == S.W_CUSTODY
        elif code == E.EV_POLICE_MOVE and after["police"][b] >= 0:   # NYK-P2
            seen.add(code)
            assert after["police"][b] == c
        elif code == E.EV_ARREST:      # NYK-P4: the crew goes to custody
            seen.add(code)
            for ch in bits(b):
                if ch != c:
                    assert after["where"][ch] == S.W_CUSTODY and after["cell"][ch] >= 1
        elif code == E.EV_ACCEPT:      # NYK-A2: the mission is held by the accepting seat
            seen.add(code)
            assert after["m_holder"][b] == a
        elif code == E.EV_RECRUIT_RESULT and c == 2:   # NYK-A6: the henchman joins
            seen.add(code)
            assert after["owner"][b] == a
    assert {E.EV_STEP, E.EV_ACCEPT} <= seen


def test_each_ag_state_follows_its_event(ag):
    _, _, rec = ag
    for (_, code, a, b, c, *_), after in zip(rec["events"], rec["snapshots"], strict=True):
        if code == AE.EV_FBI:          # AG-F: the pawn stands where the event says
            assert after["fbi"] == a
        elif code == AE.EV_PLACE:      # AG-T3: the piece is on the slot
            assert after["at"][b][a][c] >= 1 or after["turn"] > 0
        elif code == AE.EV_TITLE:      # AG-C4: the title's holder
            assert (after["barons"] if a == 0 else after["caids"])[b] == c


def test_interrogations_and_fights_carry_their_dice(nyk):
    spec, rs, rec = nyk
    data = replay_data(spec, rs, rec)
    rolled = [e for e in data["panel"] if e["kind"] in ("interrogation", "stage", "recruitment")]
    assert rolled, "the game has no dice contest to show"
    for entry in rolled:
        assert entry["dice"] and set(entry["dice"]) <= {"9", "10", "J", "Q", "K", "A"}


class _Scripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.blocks, self._open = {}, None
        self.external = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            if "src" in attrs:
                self.external.append(attrs["src"])
            self._open = attrs.get("id", f"script{len(self.blocks)}")
            self.blocks[self._open] = ""
        if tag in ("link", "img") and ("href" in attrs or "src" in attrs):
            self.external.append(attrs.get("href") or attrs.get("src"))

    def handle_data(self, data):
        if self._open:
            self.blocks[self._open] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._open = None


def test_page_is_self_contained_and_its_states_rebuild(every_game):
    spec, rs, rec = every_game
    text = render_page(replay_data(spec, rs, rec))
    parser = _Scripts()
    parser.feed(text)
    assert parser.external == []                       # nothing fetched: works offline
    data = json.loads(parser.blocks["replay-data"])
    assert len(data["steps"]) == len(data["deltas"]) == len(rec["events"])
    state = {}
    for delta, snap in zip(data["deltas"], rec["snapshots"], strict=True):
        state = {**state, **delta}                       # as the page's script rebuilds them
        assert state == snap
    assert data["winner"] == rec["winner"]
    assert all(isinstance(s["text"], str) for s in data["steps"])
    assert [label.split(" (")[0] for label in data["seats"]] == [f"seat {p}" for p in range(1, spec.players + 1)]


def test_a_replay_that_differs_from_the_run_is_refused(nyk, tmp_path):
    spec, rs, rec = nyk
    with pytest.raises(ReplayError, match="differs from the run"):
        write_replay(spec, rs, tmp_path / "r.html", expect={"turns": rec["turns"] + 1})


def test_replay_command_writes_the_runs_game(tmp_path):
    import sim

    sim.run(players=3, strategies="simple", games=6, seed=9, out=tmp_path / "run")
    page = tmp_path / "g4.html"
    out = CliRunner().invoke(main, ["replay", str(tmp_path / "run"), "4", "--html", str(page)])
    assert out.exit_code == 0, out.output
    assert page.as_uri() in out.output
    spec, _ = spec_of_run(tmp_path / "run", 4)
    assert (spec.seed, spec.game_id, spec.players) == (9, 4, 3)
    bad = CliRunner().invoke(main, ["replay", str(tmp_path / "run"), "6"])
    assert bad.exit_code == 2 and "games 0 to 5" in bad.output
    none = CliRunner().invoke(main, ["replay", str(tmp_path), "0"])
    assert none.exit_code == 2 and "no manifest.json" in none.output


def test_play_links_its_replay(tmp_path):
    page = tmp_path / "ag.html"
    out = CliRunner().invoke(main, ["play", "--game", "ag", "--seed", "2", "--players", "2",
                                    "--strategies", "simple", "--html", str(page)])
    assert out.exit_code == 0, out.output
    assert out.output.rstrip().endswith(f"Replay: {page.as_uri()}")
    assert page.stat().st_size > 1000


def test_play_json_names_its_replay(tmp_path):
    page = tmp_path / "nyk.html"
    out = CliRunner().invoke(main, ["play", "--seed", "3", "--players", "2", "--strategies", "simple",
                                    "--json", "--html", str(page)])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["replay"] == str(page)
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page.read_text(encoding="utf-8"), re.S).group(1))
    assert (data["winner"], data["turns"]) == (result["winner"], result["turns"])
    assert [s["text"] for s in data["steps"]] == [e["text"] or "" for e in result["events"]]


@pytest.mark.parametrize("seating", ["rotate", "random"])
def test_replay_seats_the_styles_the_run_drew(seating):
    """A mixture seat plays the style the run drew for that game, under the run's seating mode."""
    from sim.nyk.game import Lineup
    from sim.replay.record import _lineup_and_seating

    names = ("runner", "enforcer", "networker", "meta:equilibrium")
    lineup = Lineup.of(names, 4, rotate=seating)
    for game_id in range(12):
        rows = lineup.seatings_for(5, game_id, 1)
        _, replayed = _lineup_and_seating(GameSpec("nyk", 5, game_id, 4, names, seating))
        assert list(replayed) == list(rows[game_id % len(rows)])
