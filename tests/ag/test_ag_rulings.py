"""American Gangsters rulings read again from the French text, one scenario per ruling and its
option (default as the French reads): AG-T1 (selling renown when it pays), AG-B4 (where the
Prostitution Baron may move a henchman; buying the move only when it helps), AG-G2 (the FBI pawn
on the renown ladder or its own track), AG-H1 (the hospital's minimum of bosses), AG-V2 (the
roulette winner's pistol), AG-K4 ("un quartier", the boss's successor), AG-K2 (the cost cursor),
AG-V1 (bids of 0; presets bid what the prize is worth)."""

from ag_scenario import BRONX, Table, card_id

from sim.ag import bargain as B
from sim.ag.chapters import base
from sim.ag.chapters import hospital
from sim.ag.chapters import placement
from sim.ag.chapters import titles
from sim.ag.chapters import wounds as wounds_rules
from strategies.ag import policy as P
from sim.ag import state as S
from sim.ag.env import E_AUCTION, E_ROULETTE
from strategies.ag.policy import PARAMETRIC
from sim.rules import Ruleset


def test_ag_t1_a_preset_sells_a_level_when_the_bags_buy_back_its_killer():
    t = Table(2, kind=PARAMETRIC)
    t.pl[0, S.RENOWN] = 2
    t.pl[0, S.KILLERS] = 0
    t.set_bags(0, 0)                                   # the killer costs 1 bag: selling pays
    t.trades()
    assert t.pl[0, S.C_TRADES_DOWN_BAGS] == 1 and t.pl[0, S.RENOWN] == 1
    assert S.bag_count(t.game, 0) == 2
    assert t.pl[1, S.C_TRADES_DOWN_BAGS] == 0          # seat 1 lacks nothing: it keeps its renown
    t.check()


def test_ag_b4_the_hospital_is_a_lieu_unless_the_ruling_says_cards_only():
    for move_to, first in (("any_location", 0), ("cards", 1)):
        t = Table(2, overrides={"powers.move_to": move_to})
        t.show(card_id("casino"), card_id("bank"))
        t.put(1, 1, hench=1)
        n = titles.list_moves(t.game, t.env, t.opts)
        targets = sorted(row[4] for row in t.options(n) if row[0] != 0)
        assert targets == [t for t in (0, 2) if t >= first]


def test_ag_b4_a_die_sent_to_the_hospital_is_a_rivals_taken_off_the_movers_card():
    """AG-B4 under the default reading (any_location): the Prostitution Baron (seat 0, a preset)
    sharing the bakery with a rival crew takes one of the rival's henchmen off it; sent to the
    hospital the die does nothing this turn, which is the move's point for the Baron (its own dice
    stay where they are). Under "cards" the same henchman goes to the other card instead."""
    bakery = card_id("bakery")
    for move_to, to in (("any_location", 0), ("cards", 2)):
        t = Table(2, kind=PARAMETRIC, overrides={"powers.move_to": move_to})
        t.g[S.BARON0 + S.PROSTITUTION] = 0
        t.show(bakery, card_id("bank"))
        t.put(1, 0, boss=1, hench=2, killer=1)
        t.put(1, 1, boss=1, hench=2, killer=1)
        before = B.expected_share(t.game, t.env, 1, bakery, 0, 0.0, False)
        titles.prostitution_baron(t.game, t.env, t.opts, t.ctx)
        assert t.pl[0, S.C_POWER_USES] == 1
        assert (t.at[1, 0, S.HENCH], t.at[1, 1, S.HENCH], t.at[to, 1, S.HENCH]) == (2, 1, 1)
        assert B.expected_share(t.game, t.env, 1, bakery, 0, 0.0, False) > before


def test_ag_b4_a_preset_buys_the_move_only_when_a_move_helps_it():
    t = Table(2, kind=PARAMETRIC)
    t.g[S.BARON0 + S.PROSTITUTION] = 1
    t.show(card_id("bakery"), card_id("bank"))         # target 3: two dice and a re-roll fall short
    t.put(1, 0, boss=1, hench=1, killer=1)
    t.put(0, 0, hench=1)                               # seat 0's second henchman idles at the hospital
    assert P.best_move_gain(t.game, t.env, 0) > 0.5
    t.put(1, 0, boss=-1, hench=-1, killer=-1)
    t.put(0, 0, hench=-1)
    assert P.best_move_gain(t.game, t.env, 0) == 0.0   # seat 0 has nothing on the table
    t.set_bags(0, 10)
    titles.prostitution_baron(t.game, t.env, t.opts, t.ctx)
    assert t.pl[1, S.C_POWERS_SOLD] == 0


def test_ag_g2_the_fbi_pawn_on_the_renown_ladder_or_its_own_track():
    t = Table(2)
    assert t.g[S.FBI] == 0
    base.move_fbi(t.game, t.env, 20, 0)
    assert t.g[S.FBI] == 9                             # the ladder's last square (Parrain)
    t = Table(2, overrides={"fbi.track": "separate", "fbi.start": 1})
    assert t.g[S.FBI] == 1
    base.move_fbi(t.game, t.env, 20, 0)
    assert t.g[S.FBI] == 10                            # fbi.max


def test_ag_g2_an_informer_space_beyond_the_ladder_is_refused_in_one_line():
    try:
        Ruleset.load(game="ag", overrides={"fbi.informer": 10, "fbi.max": 12})
    except Exception as err:   # RulesetError
        assert "renown ladder" in str(err) and "\n" not in str(err)
    else:
        raise AssertionError("fbi.informer beyond the ladder was accepted")
    Ruleset.load(game="ag", overrides={"fbi.informer": 10, "fbi.max": 12, "fbi.track": "separate"})


def test_ag_h1_the_hospital_acts_only_with_its_minimum_of_bosses():
    for minimum, healed in ((1, 1), (2, 0)):
        t = Table(2, overrides={"hospital.min_bosses": minimum})
        t.put(0, 0, boss=1)
        t.pl[0, S.WOUNDS] = 1
        t.script(1)                                    # [pass, heal] -> heal
        t.hospital()
        assert t.pl[0, S.C_HEALS] == healed


def test_ag_v2_the_roulette_winners_pistol():
    for pistol, renown in (("renown", 1), ("extra_renown", 2)):
        t = Table(2, overrides={"roulette.pistol": pistol})
        t.force(0, 1)                                  # seat 0: clic; seat 1: BANG
        t.script(1, 1)
        t.event(E_ROULETTE)
        assert t.pl[0, S.RENOWN] == renown and t.pl[0, S.C_ROULETTE_WINS] == 1


def killed(overrides):
    """Seat 1's wounded boss is killed by seat 0; seat 1 is Caid of the Bronx with a Bronx card."""
    t = Table(2, overrides=overrides)
    t.win_card(card_id("casino", "Bronx"), 1)
    t.majorities()
    assert t.g[S.CAID0 + BRONX] == 1
    t.pl[1, S.WOUNDS] = 1
    wounds_rules.wound_boss(t.game, t.env, 1, 0, t.opts, t.ctx)
    return t


def test_ag_k4_un_quartier_a_card_or_a_caid_title():
    t = killed({})
    assert t.pl[0, S.WON0 + BRONX] == 1 and t.pl[1, S.WON0 + BRONX] == 0
    t = killed({"boss_death.quartier": "caid"})
    assert t.g[S.CAID0 + BRONX] == 0 and t.pl[1, S.WON0 + BRONX] == 1   # the title, not the card
    t.check()


def test_ag_k4_a_henchman_takes_the_dead_boss_place_or_the_pawn_comes_back_free():
    t = killed({})
    assert t.pl[1, S.HENCHMEN] == 1 and t.pl[1, S.C_HENCH_LOST] == 1
    t.check()
    t = killed({"boss_death.successor": "free"})
    assert t.pl[1, S.HENCHMEN] == 2
    t = Table(2)                                       # every henchman placed: one leaves its card
    t.show(card_id("casino"))
    t.put(1, 1, hench=2)
    t.pl[1, S.WOUNDS] = 1
    wounds_rules.wound_boss(t.game, t.env, 1, 0, t.opts, t.ctx)
    assert t.at[1, 1, S.HENCH] == 1 and t.pl[1, S.HENCHMEN] == 1
    t.check()


def test_ag_k2_the_cost_cursor_rounds_its_ring_or_stops():
    for cursor, after in (("ring", 0), ("stop", 7)):
        t = Table(2, overrides={"tracks.cursor": cursor})
        t.pl[0, S.HENCHMEN] = 1
        t.g[S.H_COST_POS] = 7                          # the last step of the henchman track
        hospital.recruit(t.game, t.env, 0, S.HENCH)
        assert t.g[S.H_COST_POS] == after
        t.check()


def test_ag_v1_a_bid_of_zero_wins_or_not_by_the_ruling():
    for zero_wins, renown in ((True, 1), (False, 0)):
        t = Table(2, overrides={"auction.zero_wins": zero_wins})
        t.script(0, 0)                                 # both bid 0
        t.event(E_AUCTION, 1)
        assert t.pl[0, S.RENOWN] == renown             # the godfather wins the tie of zeros


def test_ag_v1_presets_bid_a_share_of_what_the_prize_is_worth():
    """`simple`: renown worth 3 bags, bid_fraction 1/2: both bid 2 (1.5 rounded); the godfather wins."""
    t = Table(2, kind=PARAMETRIC)
    t.event(E_AUCTION, 1)
    assert list(t.pl[:2, S.C_AUCTION_SPENT]) == [2, 2] and t.pl[0, S.RENOWN] == 1


def test_ag_t3_a_boss_kept_home_never_pays_the_hospital_is_always_safer():
    """Keeping the boss home costs a renown level (AG-T3); the hospital is always there and never
    sees a shoot-out, so a preset sends a wounded boss facing killers there, never home."""
    t = Table(2, kind=PARAMETRIC)
    t.show(card_id("racket"), card_id("bank"))
    t.put(1, 1, hench=2, killer=1)
    t.put(2, 1, boss=1)
    t.pl[0, S.WOUNDS] = 1
    t.ctx[:] = 0
    slot = placement.place_piece(t.game, t.env, 0, S.BOSS, True, t.opts, t.ctx)
    assert slot == S.HOSPITAL
    for wounds in (0, 1):   # the hospital's worth for a boss is never below nothing
        t.pl[0, S.WOUNDS] = wounds
        assert P.hospital_worth(t.game, t.env, 0, S.BOSS) >= 0.0


def test_mechanics_seen_in_play_ag_e1_t1_and_the_target_8_racket():
    """A study of recorded games: the presets sell renown when it pays (AG-T1: in the games where
    families see the crowds before placing, placement in sequence, some 4 sales in 100 games); no
    preset keeps its boss home; in long games (Parrain at 30, no informer) coalitions win the
    target-8 racket and every card gets won (AG-E1)."""
    from sim.ag.game import mechanics_seen

    presets = ["racketeer", "warlord", "politician", "balanced"]
    assert mechanics_seen(1, 300, 4, presets)["bosses_kept_home"] == 0
    in_sequence = Ruleset.load(game="ag", overrides={"placement.order": "sequential"})
    assert mechanics_seen(1, 300, 4, presets, in_sequence)["renown_sold_for_bags"] > 0
    long = Ruleset.load(game="ag", overrides={"renown.parrain": 30, "profiles.informer": "never"})
    seen = mechanics_seen(1, 100, 4, None, long)
    assert seen["target_8_successes"] > 0 and seen["ended_all_won"] > 0
