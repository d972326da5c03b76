"""The shoot-out's remembered values change no game: the results tables of several lineups (2-5
families, the bench's lineups, the `warlord` mirror) hash as they did with the walk run for every
contest (AG-N2, the hashes recorded before the shoot-out table; recorded again, by running this
file, when the coalition partner of simultaneous placement came from the belief and `balanced`
changed its knobs, issue 51)."""

import hashlib

import numpy as np
import pytest

from sim.ag.game import Lineup, play_many
from sim.bench import AG_THREAT_SHARES
from sim.rules import Ruleset

GAMES = 200
# (players, lineup) -> sha256 of the games, seats and turns tables of games 0..GAMES-1 of run 11
LINEUPS = {
    (4, ("simple",)):
        "26c95c28db6338324cda56b4aad95573d6fda210f53c2e36a8a73795960a053a",
    (4, (AG_THREAT_SHARES,)):
        "77c2a685e601a2b569ae29975754ded9f2bb49d6e346a64bd18762bfd59501cc",
    (3, ("warlord",)):
        "d890fc837d59e5a81710a65bdc09b4fe4c9899236ac1fe8fe822eaa9d7072e4c",
    (2, ("balanced", "warlord")):
        "43c16374d1cb7ea29fa0bab571000e965087ab1bfe8848ffd7f2126273456de4",
    (5, ("balanced", "warlord", "racketeer", "politician", "informer-aware")):
        "e3f56d07d16ca0af37b42dd841ca488f74fb12102ca619ddafcda68fc83dadc4",
    (4, ("homebody", "simple", "warlord", "balanced")):
        "f03ca0195127312be73cb35229917cf4c991746875a32e7442099c1de05f835e",
}


def tables_hash(players: int, names: tuple) -> str:
    lineup = Lineup.of(list(names), players)
    tables = play_many(11, GAMES, players, lineup, Ruleset.load(game="ag"), record_turns=True)
    digest = hashlib.sha256()
    for table in tables:
        digest.update(np.ascontiguousarray(table, dtype=np.int64).tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize("players,names", list(LINEUPS), ids=lambda x: str(x))
def test_same_games_table_for_table(players, names):
    assert tables_hash(players, names) == LINEUPS[(players, names)]


if __name__ == "__main__":   # print the table of hashes (recorded once, before a change that must keep the games)
    for key in LINEUPS:
        print(f"    {key!r}: {tables_hash(*key)!r},")
