"""The blunder audit of New York Kings: decisions a player at the table would call mistakes.

A game is driven through the forward model (sim.nyk.forward) with every seat halting at the
decision kinds the checks watch. At each halt the seat's own policy is asked, on a copy of the
record, which option it takes (`policy_pick`), each check watching that kind judges the pick,
and the policy then plays it (`apply_policy`), so the audited game is the batch game of the same
seed and game id.

Each check answers two questions about one decision: was the mistake *possible and avoidable*
here (an opportunity: a mistaken option and a sound one were both on the list), and was it
*made*. The checks read the board as the rules do (the engine's own `questionable`, the hand
tables of the ruleset), never the policy's valuations, so a policy cannot pass by agreeing with
itself. The list and what each check means: docs/blunders.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import product

import numpy as np

from sim.nyk import hands
from sim.nyk import state as S
from sim.nyk.state import carries_risk, group_at
from sim.shared.audit import Check, Pending, judge_decision
from sim.shared.audit import Tally as AuditTally
from strategies.nyk.policy import choose
from sim.nyk.chapters.police import questionable
from sim.nyk.decisions import (
    ANY_CARD, CTX_CREW, CTX_DISTRICT, CTX_GROUP, CTX_MODE, CTX_OTHER_CREW, CTX_STAGE,
    D_ACTION, D_DEAL, D_DEAL_ACCEPT, D_DISCARD, D_FOLD, D_HESITATE, D_MOVE, D_POLICE, D_RESIST, D_STEP,
    DECISIONS, MODE_HELI, MODE_NORMAL, MODE_SUBWAY, OP_ACCOMPLISH, OP_END, OP_JOURNEY, OP_PLAY, OP_POLICE,
    OP_PROVOKE, OP_RECRUIT, OP_STEP,
)
from sim.nyk.compiled import (
    E_EXTRA_MOVE, E_MISSION_BONUS, E_POACH_HENCHMAN, P_MOVE_STEPS, P_POLICE_QUESTIONED, P_RESIST_DICE,
    P_SUBWAY_IGNORES_POLICE, P_SUBWAY_STEPS, QUESTIONED_ALL,
)
from sim.nyk.env import RP_R_KIND, RP_R_PARAMS
from sim.rules.nyk.content import MAX_PARAMS


LINEUP = "simple,balanced,tuned,enforcer,runner,networker,cautious,corrupter,meta:equilibrium"  # the CLI's default

CHECKS = (
    Check("car_onto_own_crew", "NYK-P4", (D_POLICE, D_STEP, D_DEAL, D_DEAL_ACCEPT),
          "a police car moved onto one's own at-risk crew, which it questions, while another move did not"),
    Check("walk_into_check", "NYK-M2", (D_STEP,),
          "an at-risk crew walked onto a police district that is not its destination (a check and an "
          "interrogation) while it could stop or step elsewhere"),
    Check("fold_ahead", "NYK-A4", (D_FOLD,),
          "a fold with the better hand and more than an even chance to win the fight with the dice to come"),
    Check("mission_left", "NYK-A2", (D_ACTION,),
          "the actions ended while a mission could be accomplished"),
    Check("fast_car_skipped", "NYK-C5", (D_MOVE, D_STEP, D_ACTION),
          "set out without the playable Fast Car (extra steps) and then paid two cards or more for steps of "
          "that journey that the car's steps (one card) would have made (not past a police check, NYK-P2)"),
    Check("fought_on_alone", "NYK-A5", (D_ACTION, D_FOLD, D_RESIST),
          "the affranchi alone in a fight (NYK-A4) or an interrogation (NYK-P5) fought on or resisted at less "
          "than an even chance to win: losing or tying ends the player's game, folding or custody does not"),
    Check("spent_in_last_turn", "NYK-E1", (D_ACTION, D_HESITATE),
          "money paid for a henchman (a recruit, a poach card, a hesitation) in the last turn, where fortune "
          "alone wins and the henchman cannot earn it back"),
    Check("fast_car_wasted", "NYK-C5", (D_MOVE, D_STEP, D_ACTION),
          "a Fast Car (extra_move card) played, then the journey it lengthens made no step beyond the "
          "ordinary ones (or none set out)"),
    Check("juicy_job_thrown", "NYK-M8", (D_STEP, D_DISCARD),
          "a Juicy Job (mission_bonus card) discarded for a bonus step while another card could pay, or for a "
          "step that does not bring the crew onto its mission's destination"),
    Check("path_paid_twice", "NYK-M8", (D_MOVE, D_STEP, D_ACTION),
          "a card paid for a step that the player already paid this turn for another group that set out from "
          "the same district the same way, where the two could have travelled as one (one's route a start of "
          "the other's, none at risk): travelling together, one card serves all (NYK-M4)"),
    Check("own_car_check", "NYK-M2", (D_POLICE, D_STEP, D_DEAL),
          "a crew with a job stepped onto a police car its own player drove there this turn (a check that "
          "stops it, off the job's destination unless at risk) while a step paid alike, at least as close to "
          "that destination, had no car"),
)
WATCHED = tuple(sorted({k for c in CHECKS for k in c.kinds}))


@dataclass
class Tally(AuditTally):
    """The audit's tally (sim.shared.audit.Tally) and what these checks remember between
    decisions: `journey`, `armed` (fast_car_skipped), `fight` (the provocation's district), `fast`
    (a Fast Car journey: its mode and free steps), `paying` (a card-paid step awaiting its card),
    `trip` and `trips` (path_paid_twice: the journey under way, the turn's finished ones),
    `driven` (the cars a seat drove this turn, and where)."""
    checks: int = len(CHECKS)
    journey: dict = field(default_factory=dict)
    armed: dict = field(default_factory=dict)
    fight: int | None = None
    fast: dict = field(default_factory=dict)
    paying: dict = field(default_factory=dict)
    trip: dict = field(default_factory=dict)
    trips: dict = field(default_factory=dict)
    driven: dict = field(default_factory=dict)


def policy_pick(fw) -> Pending:
    """The pending decision and the option the seat's policy takes there (asked on a copy of the
    record, so the policy's own coin is drawn again, identically, when it plays)."""
    work = fw.work[0]
    seat, kind, n = int(work.fw[S.FW_SEAT]), int(work.fw[S.FW_KIND]), int(work.fw[S.FW_NOPTS])
    copy = fw.work.copy()[0]
    pick = int(choose(copy, fw.env[0], seat, copy.fw_opts, n, copy.fw_ctx))
    pick = pick if 0 <= pick < n else 0  # as `ask` does with an index out of range
    return Pending(seat, kind, np.array(work.fw_opts[:n]), np.array(work.fw_ctx), pick)


# --- the checks: (opportunity, blunder) for one decision ------------------------------------------

def car_arrivals(game, d: Pending) -> list[int | None]:
    """Where each option sends a police car (None: no car arrives)."""
    if d.kind == D_DEAL_ACCEPT:  # option 1 takes the money and moves the buyer's car (NYK-E2)
        return [None, int(d.ctx[CTX_DISTRICT])][:len(d.opts)]
    return [int(r[2]) if r[0] == OP_POLICE and r[2] != S.NO else None for r in d.opts]


def questions_own(game, env, p: int, to: int) -> bool:
    """A car arriving on `to` questions p's crew (NYK-P4): p has an at-risk crew there that may
    be questioned, and no rival's is there for the mover to pick instead (`police.questioned =
    one`), or every such crew is questioned (`all`)."""
    if not questionable(game, env, p, to):
        return False
    if env.rp[P_POLICE_QUESTIONED] == QUESTIONED_ALL:
        return True
    return not any(q != p and game.pl[q, S.ALIVE] and questionable(game, env, q, to)
                   for q in range(game.g[S.N_PLAYERS]))


def car_onto_own_crew(game, env, d: Pending, tally: Tally):
    harmful = [to is not None and questions_own(game, env, d.seat, to) for to in car_arrivals(game, d)]
    return any(harmful) and not all(harmful), harmful[d.pick]


def walk_into_check(game, env, d: Pending, tally: Tally):
    group = int(d.ctx[CTX_GROUP])
    if d.ctx[CTX_MODE] != MODE_NORMAL or not carries_risk(game, group):
        return False, False
    goals = {int(game.ms[game.ch[c, S.MISSION], S.M_DEST]) for c in range(S.N_CHARS)
             if (group >> c) & 1 and game.ch[c, S.MISSION] != S.NO}
    risky = [r[0] == OP_STEP and S.police_at(game, int(r[1])) > 0 and int(r[1]) not in goals for r in d.opts]
    return any(risky) and not all(risky), risky[d.pick]


def fold_ahead(game, env, d: Pending, tally: Tally):
    left = 3 - int(d.ctx[CTX_STAGE])  # NYK-A4: one die more at each later stage
    mine, theirs = int(d.ctx[CTX_CREW]), int(d.ctx[CTX_OTHER_CREW])
    table = np.asarray(env.table)
    ahead = strength_of(mine, table) > strength_of(theirs, table) and win_chance(mine, theirs, left, table) > 0.5
    return ahead, ahead and d.pick == 1


def mission_left(game, env, d: Pending, tally: Tally):
    possible = bool((d.opts[:, 0] == OP_ACCOMPLISH).any())
    return possible, possible and d.row[0] == OP_END


def fast_car_skipped(game, env, d: Pending, tally: Tally):
    """One verdict a journey that set out with a Fast Car playable and not played ("skipped") or
    just played ("played"), given once it is over (its seat's next movement menu or action, or the
    game's end: `skip_verdict`). Its card-paid steps short of a police check (NYK-P2: past one only
    a card goes on) are the steps the car's would have made; one card a step (NYK-M8) against one
    card for all the car's steps (NYK-C5): setting out without it is a mistake only where they
    cost two cards or more. Paying one card keeps the Fast Car in hand for a longer way."""
    if d.kind == D_STEP:
        trip = tally.journey.get(d.seat)
        if trip is not None and d.row[0] == OP_STEP:
            if d.row[2] == ANY_CARD and not stopped(game, int(d.ctx[CTX_GROUP])):
                trip["paid"] += 1
            elif d.row[2] == S.NO:
                trip["free"] += 1
        return False, False
    verdict = skip_verdict(tally, d.seat)
    if d.kind == D_MOVE:
        extra = [r[0] == OP_PLAY and r[2] == E_EXTRA_MOVE for r in d.opts]
        if extra[d.pick]:
            tally.armed[d.seat] = car_steps(env, int(d.row[1]))
        elif d.row[0] == OP_JOURNEY and (d.seat in tally.armed or any(extra)):
            played = tally.armed.pop(d.seat, None)   # skipped: judged by the longest car playable
            steps = played if played is not None else max(
                car_steps(env, int(row[1])) for row, car in zip(d.opts, extra, strict=True) if car)
            tally.journey[d.seat] = {"skipped": played is None, "steps": steps, "paid": 0, "free": 0,
                                     "ordinary": ordinary_steps(env, int(d.row[3]))}
        elif d.row[0] == OP_END:
            tally.armed.pop(d.seat, None)
    else:  # the actions: the movement is over, a card played and given no journey lapsed
        tally.armed.pop(d.seat, None)
    return verdict


def car_steps(env, card: int) -> int:
    """The districts an extra_move card adds to a journey (its `steps`, NYK-C5)."""
    return int(env.rp[RP_R_PARAMS + MAX_PARAMS * card])


def skip_verdict(tally: Tally, seat: int):
    """(opportunity, blunder) of the seat's journey with a Fast Car at hand, once it is over: an
    opportunity where its steps beyond the ordinary ones short of a check, at most the car's, were
    two or more (the car saves a card there); a blunder where the car was skipped."""
    trip = tally.journey.pop(seat, None)
    if trip is None:
        return False, False
    beyond = trip["paid"] + max(0, trip["free"] - trip["ordinary"])
    opportunity = min(beyond, trip["steps"]) >= CARDS_SAVED_FROM
    return opportunity, opportunity and trip["skipped"]


CARDS_SAVED_FROM = 2  # the Fast Car is one card: paying one card for one step costs no more


def stopped(game, group: int) -> bool:
    return any((group >> c) & 1 and game.ch[c, S.STOPPED] for c in range(S.N_CHARS))


# --- the affranchi's life, the last turn (NYK-A5, NYK-E1) -------------------------------------------

def dice_to_come(stage: int) -> int:
    return 3 - stage  # NYK-A4: one die more at each of the two later stages


def affranchi_alone(game, p: int, d: int | None) -> bool:
    """p's side on d is its affranchi (character p) and nobody else."""
    return d is not None and int(group_at(game, p, d)) == 1 << p


def fought_on_alone(game, env, d: Pending, tally: Tally):
    """Judged at a fold (the fight's district remembered from the provocation) and at a resist
    (NYK-P5: a lost or tied resist costs a character present, here the affranchi)."""
    if d.kind == D_ACTION:
        if d.row[0] == OP_PROVOKE:
            tally.fight = int(d.row[1])
        return False, False
    table = np.asarray(env.table)
    mine, theirs = int(d.ctx[CTX_CREW]), int(d.ctx[CTX_OTHER_CREW])
    if d.kind == D_FOLD:
        where, fight_on, dice = tally.fight, 0, dice_to_come(int(d.ctx[CTX_STAGE]))
    else:
        where, fight_on, dice = int(d.ctx[CTX_DISTRICT]), 1, int(env.rp[P_RESIST_DICE])
    if len(d.opts) < 2 or not affranchi_alone(game, d.seat, where):
        return False, False
    losing = win_chance(mine, theirs, dice, table) < EVEN
    return losing, losing and d.pick == fight_on


EVEN = 0.5  # an even chance: below it, fighting on alone is more likely to end the game than not


def last_turn(game) -> bool:
    """NYK-T5: the end card is out and this turn is the last; after it fortune alone counts (NYK-E1)."""
    return bool(game.g[S.END_REVEALED]) and game.g[S.TURN] >= game.g[S.LAST_TURN]


def spent_in_last_turn(game, env, d: Pending, tally: Tally):
    if not last_turn(game):
        return False, False
    if d.kind == D_HESITATE:  # the last option pays the offer and more (NYK-A6)
        return len(d.opts) > 1, len(d.opts) > 1 and d.pick == len(d.opts) - 1
    buys = [buys_henchman(r) for r in d.opts]
    return any(buys) and not all(buys), buys[d.pick]


def buys_henchman(row) -> bool:
    return row[0] == OP_RECRUIT or (row[0] == OP_PLAY and row[2] == E_POACH_HENCHMAN)


# --- journeys (NYK-M1, M2, M4, M8, C5) -----------------------------------------------------------

def fast_car_wasted(game, env, d: Pending, tally: Tally):
    """One verdict per Fast Car played, given at its seat's next menu: the journey it lengthened
    (the next one set out) made a free step beyond the ordinary ones, or the steps lapsed."""
    state, turn = tally.fast.get(d.seat), int(game.g[S.TURN])
    if d.kind == D_STEP:
        if state and state[0] == "going" and d.row[0] == OP_STEP and d.row[2] == S.NO:
            tally.fast[d.seat] = ("going", state[1], state[2] + 1)
        return False, False
    if d.kind == D_MOVE and state and state[0] == "armed" and game.pl[d.seat, S.EXTRA_STEPS] == 0:
        del tally.fast[d.seat]  # the card was cancelled (a cancel_card): no steps to waste
        state = None
    if d.kind == D_MOVE and state and state[0] == "armed" and state[1] == turn and d.row[0] != OP_END:
        if d.row[0] == OP_JOURNEY:  # the journey the steps go to (police moves, cards: still to come)
            tally.fast[d.seat] = ("going", ordinary_steps(env, int(d.row[3])), 0)
        return False, False
    verdict = fast_car_verdict(tally, d.seat)
    if d.kind == D_MOVE and d.row[0] == OP_PLAY and d.row[2] == E_EXTRA_MOVE:
        tally.fast[d.seat] = ("armed", turn)
    return verdict


def ordinary_steps(env, mode: int) -> int:
    """The districts a journey goes without a card (NYK-M1, M6; M7: the helicopter's is a flight)."""
    return {MODE_NORMAL: int(env.rp[P_MOVE_STEPS]), MODE_SUBWAY: int(env.rp[P_SUBWAY_STEPS]), MODE_HELI: 0}[mode]


def fast_car_verdict(tally: Tally, seat: int):
    """(opportunity, blunder) of the seat's Fast Car whose journey is over (none pending: no verdict)."""
    state = tally.fast.pop(seat, None)
    if state is None:
        return False, False
    if state[0] == "armed":  # played and never given a journey: its steps lapsed
        return True, True
    return True, state[2] <= state[1]


def juicy_job_thrown(game, env, d: Pending, tally: Tally):
    """The step is remembered at its pick; the card is judged at the discard that pays it."""
    if d.kind == D_STEP:
        if d.row[0] == OP_STEP and d.row[2] == ANY_CARD:
            tally.paying[d.seat] = (int(d.row[1]), int(d.ctx[CTX_GROUP]))
        return False, False
    step = tally.paying.pop(d.seat, None)
    kinds = [int(env.rp[RP_R_KIND + int(r[1])]) for r in d.opts]
    if step is None or E_MISSION_BONUS not in kinds:
        return False, False
    thrown = kinds[d.pick] == E_MISSION_BONUS
    another = any(k != E_MISSION_BONUS for k in kinds)
    return True, thrown and (another or step[0] not in mission_destinations(game, step[1]))


def mission_destinations(game, group: int) -> set[int]:
    return {int(game.ms[game.ch[c, S.MISSION], S.M_DEST]) for c in members(group) if game.ch[c, S.MISSION] != S.NO}


def members(group: int) -> list[int]:
    return [c for c in range(S.N_CHARS) if (group >> c) & 1]


def path_paid_twice(game, env, d: Pending, tally: Tally):
    """Judged once a journey is over (its seat's next movement menu or action, or the game's
    end): each card it paid for a step is an opportunity where an earlier journey of the turn,
    set out from the same district in the same mode, went that same way to that step, and the two
    could have been one: one's route a start of the other's (NYK-M4: travel together, the first
    dropped where its route ends), neither carrying a job at risk (beside one, the others share
    its interrogation, NYK-P4). A blunder where that journey paid a card for the step too: one
    card serves all the characters that move together (NYK-M8)."""
    if d.kind == D_STEP:
        follow_trip(tally.trip.get(d.seat), d)
        return False, False
    verdict = trip_verdict(tally, d.seat)
    if d.kind == D_MOVE and d.row[0] == OP_JOURNEY:
        group = int(d.row[2])
        tally.trip[d.seat] = {"turn": int(game.g[S.TURN]), "mode": int(d.row[3]), "route": [int(d.row[1])],
                              "paid": set(), "risky": bool(carries_risk(game, group))}
    return verdict


def follow_trip(trip, d: Pending) -> None:
    """The journey's route so far (a helicopter's landing included) and the steps it paid cards for."""
    if trip is None:
        return
    here = int(d.ctx[CTX_DISTRICT])
    if trip["route"][-1] != here:
        trip["route"].append(here)
    if d.row[0] == OP_STEP:
        if d.row[2] == ANY_CARD:
            trip["paid"].add(len(trip["route"]) - 1)
        trip["route"].append(int(d.row[1]))


def trip_verdict(tally: Tally, seat: int):
    """(opportunities, blunders) of the seat's journey that is over, against the turn's earlier ones."""
    trip = tally.trip.pop(seat, None)
    if trip is None:
        return 0, 0
    earlier = tally.trips.setdefault((seat, trip["turn"]), [])
    mergeable = [k for k in earlier if one_journey(trip, k)]
    shared = [i for i in sorted(trip["paid"]) if any(i + 1 < len(k["route"]) for k in mergeable)]
    twice = [i for i in shared if any(i in k["paid"] for k in mergeable)]
    earlier.append(trip)
    return len(shared), len(twice)


def one_journey(a: dict, b: dict) -> bool:
    """Two journeys of a turn that could have travelled as one (NYK-M4)."""
    short, long = sorted((a["route"], b["route"]), key=len)
    return (a["mode"] == b["mode"] and not (a["risky"] or b["risky"])
            and long[:len(short)] == short)


def own_car_check(game, env, d: Pending, tally: Tally):
    """The cars a seat drives this turn by its own choice are remembered with where it drove them
    (a police step, a step it bought on a deal; not a deal it accepted, whose step the buyer
    chose). A crew with a job then has the opportunity where its step list holds a step onto a
    district one of those cars still stands on (a check that stops it, NYK-M2: off the job's
    destination unless at risk) and a step paid alike onto a district without a car, at least as
    close to the job's destination: walking onto its own car there is the blunder. With no such
    step, the way had no other road, and the car is no mistake of this step."""
    turn = int(game.g[S.TURN])
    if d.kind != D_STEP or d.row[0] == OP_POLICE:
        car = driven_car(d)
        if car is not None:
            tally.driven.setdefault((d.seat, turn), set()).add(car)
        return False, False
    own = own_cars_at(game, tally.driven.get((d.seat, turn), ()))
    group = int(d.ctx[CTX_GROUP])
    goals = mission_destinations(game, group)
    if not own or not goals or (d.ctx[CTX_MODE] == MODE_SUBWAY and env.rp[P_SUBWAY_IGNORES_POLICE]):
        return False, False
    harmless = goals if not carries_risk(game, group) else set()
    steps = [(int(r[1]), int(r[2])) for r in d.opts if r[0] == OP_STEP]
    blocked = {(to, paid) for to, paid in steps if to in own and to not in harmless}
    if not any(open_alike(game, env, step, steps, goals) for step in blocked):
        return False, False
    return True, d.row[0] == OP_STEP and (int(d.row[1]), int(d.row[2])) in blocked


def own_cars_at(game, driven) -> set[int]:
    """The districts where a car the seat drove this turn stands where it drove it."""
    return {to for car, to in driven if int(game.g[S.POLICE0 + car]) == to}


def open_alike(game, env, step, steps, goals) -> bool:
    """Another step, paid alike (a card or none, NYK-M8), onto a district without a car, at least
    as close to one of the job's destinations as `step`."""
    to, paid = step
    near = min(int(env.dist[to, g]) for g in goals)
    return any(p == paid and S.police_at(game, x) == 0 and min(int(env.dist[x, g]) for g in goals) <= near
               for x, p in steps)


def driven_car(d: Pending) -> tuple[int, int] | None:
    """The car a pick of a police decision moves by the seat's own choice, and where, if any."""
    if d.row[0] == OP_POLICE and d.row[2] != S.NO:
        return int(d.row[1]), int(d.row[2])
    return None


JUDGES = (car_onto_own_crew, walk_into_check, fold_ahead, mission_left, fast_car_skipped, fought_on_alone,
          spent_in_last_turn, fast_car_wasted, juicy_job_thrown, path_paid_twice, own_car_check)
assert [j.__name__ for j in JUDGES] == [c.name for c in CHECKS]


# --- hands, brute force (independent of the policy's tables of multisets) -------------------------

def strength_of(packed: int, table) -> int:
    return int(hands.packed_strength(packed, table))


@cache
def rolls(dice: int) -> tuple[int, ...]:
    """Every ordered roll of `dice` dice as packed counts (6**dice of them, made once)."""
    return tuple(sum(1 << (4 * v) for v in roll) for roll in product(range(hands.N_RANKS), repeat=dice))


def win_chance(mine: int, theirs: int, dice: int, table) -> float:
    """P(mine beats theirs) once each side rolls `dice` more dice: every roll of both, counted."""
    if dice <= 0:
        return float(strength_of(mine, table) > strength_of(theirs, table))
    mine_s = np.array([strength_of(mine + r, table) for r in rolls(dice)])
    theirs_s = np.array([strength_of(theirs + r, table) for r in rolls(dice)])
    return float((mine_s[:, None] > theirs_s[None, :]).mean())


def check_index(name: str) -> int:
    return next(i for i, c in enumerate(CHECKS) if c.name == name)


# --- one game -------------------------------------------------------------------------------------

def audit_game(ruleset, strategies, seed: int, game_id: int, players: int) -> tuple[list[str], Tally, dict]:
    """Play one game through the forward model and judge every watched decision of every seat:
    the seats' strategy names, the tally and the game's result."""
    from sim.nyk.forward import Forward

    fw = Forward.new(ruleset, strategies, seed=seed, game_id=game_id, stop=range(players), players=players,
                     kinds=[DECISIONS[k] for k in WATCHED])
    tally = Tally(players)
    while not fw.over:
        judge_decision(tally, fw.game, fw.env[0], policy_pick(fw), CHECKS, JUDGES)
        fw.apply_policy()
    for seat in range(players):  # a Fast Car or a journey still pending when the game ended
        tally.count(seat, check_index("fast_car_wasted"), *fast_car_verdict(tally, seat))
        tally.count(seat, check_index("fast_car_skipped"), *skip_verdict(tally, seat))
        tally.count(seat, check_index("path_paid_twice"), *trip_verdict(tally, seat))
    return list(fw.names), tally, fw.result()
