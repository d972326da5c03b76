"""Rules round 4: every parametrised card effect read at its limits (NYK-C5), the reshuffle's police
car told as it happened (NYK-P1), the Payoff's player choosing whom its car questions (NYK-P4), and
the ruling `custody.first_step` (NYK-P6)."""

import json
import tomllib

import pytest
from scenario import (
    BROADWAY, CHELSEA, GREENWICH, HARLEM, PARAM, SOHO, Table, card_ids, mission_ids,
    with_param,
)

from sim.nyk.chapters import actions, fights, movement, turn
from sim.nyk.chapters import cards as cards_rules
from sim.nyk.hands import add_value, parse_value
from sim.nyk import state as S
from sim.nyk.compiled import (
    E_BLOCK_INTERROGATION, E_CANCEL_CARD, E_CANCEL_ELIMINATION, E_DRAW_CARDS, E_EXTRA_ELIMINATION, E_EXTRA_MOVE,
    E_FIGHT_BONUS_DIE, E_FIGHT_REROLL, E_MISSION_BONUS, E_POLICE_MOVE, E_POLICE_PLACE, E_POLICE_REMOVE,
    E_RECRUIT, E_RELEASE_CUSTODY, E_STEAL_MONEY,
)
from sim.rules import RulesetError
from sim.rules.nyk.content import ENGINE_MAX_PARAM, parse_resources
from sim.rules.ruleset import game_dir

LITTLE_SAL, TEN, FURYO, LOOXY, THE_LORD = 5, 6, 7, 8, 9   # 9, 10, J, Q, K of spades
THREE = (LITTLE_SAL, FURYO, LOOXY)


def played(t, p, kind):
    return int(t.pl[p, S.C_PLAYED_BY_KIND + kind])


def packed(*labels):
    code = 0
    for label in labels:
        code = add_value(code, parse_value(label))
    return code


def neighbours(t, d):
    return [int(x) for x in t.env["nbr"][d, 1:1 + t.env["nbr"][d, 0]]]


def one_card(kind, index, value, kind_of_policy=PARAM, n_players=2):
    """A table whose first card of effect `kind` has parameter `index` set to `value`."""
    (card, *_) = card_ids(kind)
    return with_param(Table(n_players=n_players, kind=kind_of_policy), card, index, value), card


def dead(t, chars):
    return sum(t.ch[c, S.WHERE] == S.W_DEAD for c in chars)


# --- NYK-C5: the parameters the engine used to ignore (cars, count) ----------------------------

@pytest.mark.parametrize("cars", [1, 4])
def test_nyk_c5_bent_cop_moves_up_to_its_cars_each_a_different_car(cars):
    """police_move cars N: the car the card was played for, then each next car picked by its
    first step; with steps = 1 each car moves one district."""
    t, card = one_card(E_POLICE_MOVE, 0, cars, kind_of_policy=0)
    with_param(t, card, 1, 1)
    start = [HARLEM, SOHO, CHELSEA, GREENWICH]
    t.police(*start)
    t.give(0, card)
    t.begin(0)
    listed = [neighbours(t, d) for d in start]
    # the played car's first step, then each time the first step listed: the lowest car unmoved
    picks = [(1 + len(listed[0]), 1)] + [(1 + sum(len(x) for x in listed[k:]), 1) for k in range(1, 4)]
    t.steer(*picks, seat=0)
    movement.movement_card(t.game, t.env, 0, card, E_POLICE_MOVE, 0)
    moved = [k for k in range(4) if t.cars()[k] != start[k]]
    assert moved == list(range(cars)) and t.pl[0, S.C_POLICE_MOVES] == cars
    assert all(t.cars()[k] == listed[k][0] for k in moved) and t.hand(0) == []
    t.check()


@pytest.mark.parametrize("steps", [0, 3])
def test_nyk_c5_bent_cop_steps_at_zero_and_beyond_the_default(steps):
    t, card = one_card(E_POLICE_MOVE, 1, steps, kind_of_policy=0)
    t.police(HARLEM)
    t.give(0, card)
    t.begin(0)
    path, picks = [HARLEM], []
    for _ in range(4):  # a fourth step would be taken if it were offered
        picks.append((1 + len(neighbours(t, path[-1])), 1))
        path.append(neighbours(t, path[-1])[0])
    t.steer(*picks, seat=0)
    movement.movement_card(t.game, t.env, 0, card, E_POLICE_MOVE, 0)
    assert t.cars()[0] == path[steps] and t.pl[0, S.C_POLICE_MOVES] == steps


@pytest.mark.parametrize("cars, waiting, placed", [(1, 4, 1), (4, 4, 4), (4, 2, 2)])
def test_nyk_c5_anonymous_call_places_its_cars_while_broadway_has_one(cars, waiting, placed):
    t, card = one_card(E_POLICE_PLACE, 0, cars, kind_of_policy=0)
    t.police(*[BROADWAY] * waiting)
    t.give(0, card)
    t.begin(0)
    movement.movement_card(t.game, t.env, 0, card, E_POLICE_PLACE, S.NO)
    assert t.cars()[:waiting].count(BROADWAY) == waiting - placed
    t.check()


@pytest.mark.parametrize("cars", [1, 4])
def test_nyk_c5_payoff_sends_back_up_to_its_cars(cars):
    t, card = one_card(E_POLICE_REMOVE, 0, cars)
    t.hench(LOOXY, 1, SOHO)
    t.police(SOHO, SOHO, SOHO, SOHO)
    t.give(1, card)
    turn.start_player_turn(t.game, t.env, 0)  # seat 0's turn: red for seat 1
    assert t.cars().count(BROADWAY) == cars and played(t, 1, E_POLICE_REMOVE) == 1


def carrier_under_police(t):
    """Seat 0's Looxy carries an at-risk mission under a car at SOHO, in seat 1's turn."""
    t.hench(LOOXY, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], CHELSEA)
    t.police(SOHO, BROADWAY)
    t.g[S.ACTIVE] = 1  # an opponent's turn: a red Alibi may be played
    return t


def alibi_of(count):
    t, alibi = one_card(E_BLOCK_INTERROGATION, 0, count)
    t.give(0, alibi)
    return carrier_under_police(t)


@pytest.mark.parametrize("count", [1, 5])
def test_nyk_c5_alibi_blocks_its_count_of_interrogations_in_the_turn(count):
    t = alibi_of(count)
    for _ in range(count):
        t.interrogate(0, SOHO)
    assert t.hand(0) == [] and t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED
    assert t.pl[0, S.C_INTERROGATIONS] == count and played(t, 0, E_BLOCK_INTERROGATION) == 1
    t.force("9", "10", "9", "K", "K", "9")  # the police win if they roll
    t.interrogate(0, SOHO)
    assert t.ch[LOOXY, S.WHERE] == S.W_CUSTODY and t.dice_left() == 0


def test_nyk_c5_an_alibis_uses_left_lapse_at_the_end_of_the_turn():
    t = alibi_of(5)
    t.interrogate(0, SOHO)
    t.g[S.TURN] += 1
    t.force("9", "10", "9", "K", "K", "9")
    t.interrogate(0, SOHO)
    assert t.ch[LOOXY, S.WHERE] == S.W_CUSTODY and t.dice_left() == 0


@pytest.mark.parametrize("count", [1, 5])
def test_nyk_c5_bullet_proof_cancels_its_count_of_eliminations_in_the_turn(count):
    t, vest = one_card(E_CANCEL_ELIMINATION, 0, count)
    for c in THREE:
        t.hench(c, 0, SOHO)
    t.give(0, vest)
    fights.lose_characters(t.game, t.env, 0, SOHO, 3)
    assert dead(t, THREE) == 3 - min(count, 3) and t.hand(0) == []
    fights.lose_characters(t.game, t.env, 0, SOHO, 1)  # later in the turn: a use left, or not
    assert dead(t, THREE) == 3 - min(count, 3) + (count <= 3)
    t.check()


@pytest.mark.parametrize("count, cancelled", [(1, 1), (2, 2), (5, 3)])
def test_nyk_c5_informer_cancels_its_count_of_cards_in_the_turn(count, cancelled):
    t, informer = one_card(E_CANCEL_CARD, 0, count)
    t.give(1, informer)
    t.hench(LOOXY, 0, CHELSEA)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [LOOXY], CHELSEA)
    t.give(0, *card_ids(E_MISSION_BONUS))  # three Juicy Jobs
    t.g[S.ACTIVE] = 0
    t.accomplish(0, m, 1 << LOOXY)
    assert t.money(0) == 16000 + int(t.ms[m, S.M_REWARD]) + 3000 * (3 - cancelled)
    assert played(t, 0, E_MISSION_BONUS) == 3 and played(t, 1, E_CANCEL_CARD) == 1
    t.check()


# --- NYK-C5: every other parameter at its limits ---------------------------------------------------

@pytest.mark.parametrize("amount", [1000, 100_000])
def test_nyk_c5_juicy_job_pays_its_amount(amount):
    t, job = one_card(E_MISSION_BONUS, 0, amount)
    t.hench(LOOXY, 0, CHELSEA)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [LOOXY], CHELSEA)
    t.give(0, job)
    t.g[S.ACTIVE] = 0
    t.accomplish(0, m, 1 << LOOXY)
    assert t.money(0) == 16000 + int(t.ms[m, S.M_REWARD]) + amount


@pytest.mark.parametrize("steps", [0, ENGINE_MAX_PARAM["steps"]])
def test_nyk_c5_fast_car_adds_its_steps(steps):
    t, card = one_card(E_EXTRA_MOVE, 0, steps, kind_of_policy=0)
    t.give(0, card)
    t.begin(0)
    movement.movement_card(t.game, t.env, 0, card, E_EXTRA_MOVE, S.NO)
    assert t.pl[0, S.EXTRA_STEPS] == steps


@pytest.mark.parametrize("cells, cell", [(0, 3), (2, 1), (ENGINE_MAX_PARAM["cells"], 0)])
def test_nyk_c5_good_lawyer_moves_its_cells(cells, cell):
    t, card = one_card(E_RELEASE_CUSTODY, 0, cells, kind_of_policy=0)
    t.hench(LOOXY, 0, SOHO)
    t.custody(LOOXY, 3)
    t.give(0, card)
    t.begin(0)
    movement.movement_card(t.game, t.env, 0, card, E_RELEASE_CUSTODY, S.NO)
    assert t.ch[LOOXY, S.CELL] == cell
    assert (t.ch[LOOXY, S.LOC] == BROADWAY) == (cell == 0)


@pytest.mark.parametrize("bonus, discount, dice", [(0, 0, 3), (ENGINE_MAX_PARAM["dice_bonus"], 0, 8),
                                                   (2, 100_000, 2)])
def test_nyk_a8_family_business_dice_bonus_and_discount(bonus, discount, dice):
    t, card = one_card(E_RECRUIT, 0, bonus, kind_of_policy=0)
    with_param(t, card, 1, discount)
    t.peripheral(0, LOOXY)
    t.give(0, card)
    t.begin(0)
    t.force(*["9"] * 10)  # every die below the Q: refused
    t.recruit(0, LOOXY, 3000, card)
    assert 10 - t.dice_left() == dice and t.ch[LOOXY, S.OWNER] == S.NO


@pytest.mark.parametrize("dice", [0, ENGINE_MAX_PARAM["dice"]])
def test_nyk_c5_machine_gun_adds_its_dice(dice):
    t, card = one_card(E_FIGHT_BONUS_DIE, 0, dice)
    t.give(0, card)
    assert fights.fusillade_window(t.game, t.env, 0) == dice


@pytest.mark.parametrize("dice, forced, after", [(1, ("Q",), ("Q", "10", "K")),
                                                 (ENGINE_MAX_PARAM["dice"], ("Q", "Q", "J"), ("Q", "Q", "J"))])
def test_nyk_c5_strike_face_rerolls_up_to_its_dice(dice, forced, after):
    t, card = one_card(E_FIGHT_REROLL, 0, dice)
    t.give(0, card)
    t.force(*forced)
    assert fights.reroll_window(t.game, t.env, 0, packed("A"), packed("9", "10", "K")) == packed(*after)
    assert t.dice_left() == 0 and t.hand(0) == []


@pytest.mark.parametrize("count", [1, ENGINE_MAX_PARAM["count"]])
def test_nyk_c5_fusillade_costs_its_count_of_characters(count):
    t, card = one_card(E_EXTRA_ELIMINATION, 0, count)
    for c in THREE:
        t.hench(c, 1, SOHO)
    t.give(0, card)
    fights.press_the_win(t.game, t.env, 0, 1, SOHO)
    assert dead(t, THREE) == min(count, 3) and t.pl[1, S.ALIVE] == 1
    t.check()


@pytest.mark.parametrize("count", [1, ENGINE_MAX_PARAM["count"]])
def test_nyk_c5_draw_cards_draws_its_count(count):
    (card, *_) = card_ids(E_STEAL_MONEY)  # the deck has no draw_cards card: one plays as such
    t = with_param(Table(), card, 0, count)
    t.give(0, card)
    t.begin(0)
    actions.action_card(t.game, t.env, 0, card, E_DRAW_CARDS, S.NO)
    assert len(t.hand(0)) == count


def resources_with(card_name, **params):
    path = game_dir("nyk") / "resources.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    (entry,) = [c for c in raw["card"] if c["name"] == card_name]
    entry["params"].update(params)
    return raw


@pytest.mark.parametrize("name, param, value, allowed", [
    ("Bent Cop", "cars", 0, "an integer >= 1"), ("Bent Cop", "cars", 5, "at most 4"),
    ("Anonymous Call", "cars", 0, "an integer >= 1"), ("Alibi", "count", 0, "an integer >= 1"),
    ("Bullet Proof", "count", 6, "at most 5"), ("Informer", "count", 0, "an integer >= 1"),
])
def test_nyk_c5_card_parameters_out_of_the_engines_range_are_refused_in_one_line(name, param, value, allowed):
    with pytest.raises(RulesetError, match=f"card {name}: params.{param} = {value} .*allowed: {allowed}"):
        parse_resources(resources_with(name, **{param: value}), "resources.toml")
    top = ENGINE_MAX_PARAM[param]
    assert parse_resources(resources_with(name, **{param: top}), "resources.toml")


# --- NYK-P1: the reshuffle's police car, told as it happened --------------------------------------

@pytest.mark.parametrize("cars, told", [(2, "a police car joins at BROADWAY"),
                                        (4, "no police car joins: every car allowed is in play")])
def test_nyk_p1_narration_a_reshuffle_tells_the_car_only_when_one_comes(cars, told):
    t = Table()
    t.g[S.RECORD] = 1
    t.police(*[HARLEM] * cars)
    deck = t.deck()
    t.g[S.R_DISC0:S.R_DISC0 + len(deck)] = deck
    t.g[S.R_DISC_N], t.g[S.R_DECK_N] = len(deck), 0
    cards_rules.draw_card(t.game, t.env, 0)
    (line,) = [x for x in t.told() if "resource pile is rebuilt" in x]
    assert line.endswith(f"; {told}.")
    assert sum(d != S.PC_OFF for d in t.cars()) == min(cars + 1, 4)


# --- NYK-P4: the Payoff's player chooses whom its car questions --------------------------------------

def test_nyk_p4_the_payoff_player_chooses_whom_its_car_questions_at_broadway():
    """Seat 1 sends the SOHO car back to BROADWAY, where seats 0 (the first player) and 2 carry
    at-risk missions: seat 1 moved the car, so seat 1 picks (steered to seat 0); the first
    player's own stream (steered to seat 2) is not asked."""
    (payoff, *_) = card_ids(E_POLICE_REMOVE)
    t = Table(n_players=3)
    risky = mission_ids(crew=1, risk=1)
    t.hench(THE_LORD, 1, SOHO)
    t.hench(FURYO, 0, BROADWAY)
    t.hench(LOOXY, 2, BROADWAY)
    t.hold(risky[0], [FURYO], HARLEM)
    t.hold(risky[1], [LOOXY], CHELSEA)
    t.police(SOHO, GREENWICH)
    t.g[S.FIRST] = 0
    t.give(1, payoff)
    t.steer((2, 1), (2, 0), seat=1)  # play the Payoff, then question the first listed: seat 0
    t.steer((2, 1), seat=0)          # the first player would question seat 2
    t.force("9", "9", "10", "A", "A", "A")  # the crew questioned loses
    turn.start_player_turn(t.game, t.env, 2)  # seat 2's turn: red for seat 1
    assert t.cars()[0] == BROADWAY
    assert (t.pl[0, S.C_INTERROGATIONS], t.pl[2, S.C_INTERROGATIONS]) == (1, 0)
    assert t.ch[FURYO, S.WHERE] == S.W_CUSTODY and t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED
    t.check()


# --- NYK-P6: ruling custody.first_step ---------------------------------------------------------------

@pytest.mark.parametrize("first_step, cell_that_turn", [("own_turn", 2), ("next_turn", 3)])
def test_nyk_p6_ruling_custody_first_step_in_the_turn_of_the_arrest_or_the_next(first_step, cell_that_turn):
    t = carrier_under_police(Table(overrides={"custody.first_step": first_step}))
    t.force("9", "10", "9", "K", "K", "9")
    t.interrogate(0, SOHO)
    assert t.ch[LOOXY, S.CELL] == 3
    t.give(0, *t.deck()[:2])  # cards that could buy cells: offered only to a character that steps
    t.begin(0)
    t.steer((2, 0), seat=0)  # offered a card step: decline
    t.custody_phase(0)
    assert t.ch[LOOXY, S.CELL] == cell_that_turn and len(t.hand(0)) == 2
    t.g[S.TURN] += 1
    t.begin(0)
    t.steer((2, 0), seat=0)
    t.custody_phase(0)
    assert t.ch[LOOXY, S.CELL] == cell_that_turn - 1
    assert t.pl[0, S.C_CUSTODY_TURNS] == 4 - cell_that_turn  # the turns it stepped
    t.check()


# --- NYK-C5: a deck of other parameters plays other games, and says so -------------------------------

def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


def write_resources(path, raw):
    lines = [f"deck_size = {raw['deck_size']}"]
    for card in raw["card"]:
        lines += ["", "[[card]]"] + [f"{k} = {toml_value(v)}" for k, v in card.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


CHANGED = {"Bent Cop": {"cars": 4}, "Anonymous Call": {"cars": 3}, "Alibi": {"count": 5},
           "Bullet Proof": {"count": 5}}


def test_nyk_c5_a_deck_of_other_cars_and_counts_plays_other_games_and_is_not_labelled_defaults(tmp_path):
    import sim
    from sim.analysis.run_report import run_label
    from sim.rules import Ruleset

    raw = resources_with("Bent Cop")
    for card in raw["card"]:
        card["params"].update(CHANGED.get(card["name"], {}))
    write_resources(tmp_path / "my_resources.toml", raw)
    (tmp_path / "rules.toml").write_text('[content]\nresources = "my_resources.toml"\n', encoding="utf-8")
    assert Ruleset.load(tmp_path / "rules.toml").fingerprint != Ruleset.load().fingerprint
    runs = [sim.run(players=4, strategies=("balanced",), games=60, seed=3, workers=1, ruleset=ruleset)
            for ruleset in (None, tmp_path / "rules.toml")]
    played = [r.seats.sort_values(["game_id", "seat"]).reset_index(drop=True) for r in runs]
    assert not played[0].equals(played[1])
    assert run_label(runs[0]).endswith("(defaults)")
    assert run_label(runs[1]).endswith("(resources from my_resources.toml)")
