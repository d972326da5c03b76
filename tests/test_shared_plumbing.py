"""What every game shares is written once: the games are found (sim.rooms), one Lineup seats their
strategies, one driver plays their batches and one set of helpers tells their recorded games."""

import numpy as np
import pytest

from sim import rooms
from sim.cli.common import GAMES
from sim.runner import games as registry
from sim.shared import game as descriptions
from sim.shared import narrate as shared
from strategies.lineup import Lineup

def entry_and_narrate(game: str):
    found = descriptions.find(game)
    return found.part("game"), found.part("narrate")


def test_the_games_are_found_once_for_every_list():
    folders = tuple(sorted(p.parent.name for p in rooms._SIM.glob("*/adapter.py")
                           if (rooms._SIM / "rules" / p.parent.name / "rules.toml").is_file()))   # a game has rules
    assert rooms.game_names()[0] == rooms.DEFAULT_GAME and sorted(rooms.game_names()) == list(folders)
    assert rooms.game_names() == descriptions.names() == GAMES
    assert all(registry.adapter(g) is descriptions.find(g).adapter for g in GAMES)
    assert set(rooms.GAMES) == set(GAMES)
    assert all(f"sim.{g}" in dict(rooms.ROOMS)["games"] for g in GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_one_lineup_type_seats_each_game(game):
    entry, _ = entry_and_narrate(game)
    lineup = entry.Lineup.of(["simple", "random"], 2)
    assert isinstance(lineup, Lineup) and entry.Lineup.game == game
    assert lineup.params.shape == (2, entry.Lineup.width) and lineup.restrict.tolist() == [0, 0]
    kinds, params, restrict = lineup.seated(np.array([1, 0]), 5)
    assert kinds.tolist() == [lineup.kinds[1], lineup.kinds[0], 0, 0, 0] and params.shape == (5, entry.Lineup.width)
    with pytest.raises(ValueError, match="3 strategies for 2 players: give one per seat"):
        entry.Lineup.of(["simple"] * 3, 2)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_tells_the_same_shape_of_events(game):
    """Both games' --json events: turn, event name, arguments and the sentence `story` prints."""
    entry, narrate = entry_and_narrate(game)
    played = entry.play_one(5, 3, ["simple"])
    events = narrate.event_dicts(played)
    assert events and all(set(e) == {"turn", "event", "args", "text"} for e in events)
    assert {"setup", "turn"} <= {e["event"] for e in events} and all(len(e["args"]) == 6 for e in events)
    told = [e["text"] for e in events if e["text"] is not None]
    story = narrate.story(played)
    assert len(story) >= len(told)
    assert all(line in (text, f"  {text}") for line, text in zip(story, told, strict=False))


def test_tell_indents_events_under_their_turn():
    rows = np.array([[0, 0, 4, 0, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0], [1, 2, 7, 0, 0, 0, 0, 0],
                     [1, 3, 0, 0, 0, 0, 0, 0]])
    line = {0: "setup", 1: "Turn 1", 2: "a bid of 7", 3: None}
    told = shared.tell(rows, lambda code, *args: line[code], turn_code=1)
    assert told == ["  setup", "Turn 1", "  a bid of 7"]
    dicts = shared.event_dicts(rows, lambda code, *args: line[code], {0: "setup", 1: "turn", 2: "bid", 3: "x"})
    assert dicts[2] == {"turn": 1, "event": "bid", "args": [7, 0, 0, 0, 0, 0], "text": "a bid of 7"}


@pytest.mark.parametrize("game", GAMES)
def test_the_driver_labels_each_seat_with_its_lineup_slot(game):
    """Seats rotate: game i's seat s holds slot (s + i) % players or the like, each slot once."""
    from sim.rules import Ruleset

    entry, _ = entry_and_narrate(game)
    rs = Ruleset.load(game=game)
    lineup = entry.Lineup.of(["simple", "random", "simple"], 3)
    games, seats, turns = entry.play_many(3, 6, 3, lineup, rs)
    slots = seats[:, :, entry.batch.SEAT_COLUMNS.index("strategy")]
    assert games.shape[0] == 6 and turns.shape[0] == 0
    assert all(sorted(row) == [0, 1, 2] for row in slots.tolist())
    with pytest.raises(ValueError, match="players: .* is for"):
        entry.play_many(3, 1, 9, lineup, rs)
