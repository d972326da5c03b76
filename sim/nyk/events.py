"""Event codes of the game log. The engine writes `[turn, code, a, b, c, d, e, f]` rows when a game
is recorded; `sim.nyk.narrate` turns them into words. Codes are shared, texts live with the reader.
"""

(EV_SETUP, EV_TURN, EV_BID, EV_FIRST, EV_DRAW, EV_RESHUFFLE, EV_DISCARD, EV_CUSTODY_STEP,
 EV_RELEASED, EV_POLICE_MOVE, EV_JOURNEY, EV_STEP, EV_CHECK, EV_INTERROGATION, EV_RESIST,
 EV_ARREST, EV_ESCAPE, EV_ACCEPT, EV_ACCOMPLISH, EV_REVEAL, EV_EXPIRE, EV_END_CARD, EV_PROVOKE,
 EV_STAGE, EV_FOLD, EV_FUSILLADE, EV_LOSE, EV_AFFRANCHI_DIES, EV_RECRUIT, EV_RECRUIT_RESULT,
 EV_PART, EV_CARD, EV_CARD_MOVE, EV_HELI, EV_MISSION_LOST, EV_POLICE_BACK, EV_GAME_END, EV_RANK,
 EV_CANCELLED, EV_NO_TILE, EV_DEAL, EV_CARD_EFFECT, EV_CUSTODY_CARD) = range(43)
# EV_CARD_EFFECT: p, effect kind, target (a seat or a character), amount, the target's owner
