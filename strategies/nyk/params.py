"""The parameters of the New York Kings heuristic player (`param` policy family).

One named vector drives every decision of the engine's decision interface. Each parameter has a
range (what tuning searches) and a default: the defaults are the `balanced` player. Presets in
`strategies/nyk/presets/*.toml` set some of them; the rest keep their defaults.

The index constants (K_*) are read by the jitted policy (strategies.nyk.policy).
"""

from strategies.knobs import Param


PARAMS = (
    Param("bid", 0.0, 1.0, 0.25,
          "First player card (NYK-T1): share of the largest bid it could make that it puts down."),
    Param("mission_weight", 0.0, 2.0, 1.0,
          "Missions: weight of a mission's reward in its value (dollars per dollar)."),
    Param("travel_cost", 0.0, 5000.0, 1000.0,
          "Missions: value lost per district to travel (to the accept address, then the destination)."),
    Param("crew2_cost", 0.0, 8000.0, 2000.0,
          "Missions: value lost when a job needs two characters."),
    Param("risk_cost", 0.0, 8000.0, 2000.0,
          "Missions: value lost by an at-risk job per police car within two districts of its destination."),
    Param("secret_cost", 0.0, 8000.0, 1500.0,
          "Missions: value lost for a secret ('?') destination, drawn only at acceptance."),
    Param("accept_min", -4000.0, 10000.0, 1000.0,
          "Missions: accept a job only if its value reaches this."),
    Param("provoke_edge", -0.5, 1.0, 0.25,
          "Provoke (NYK-A4) when P(win) - P(lose) of the fusillade (exact odds) reaches this; 1 = never."),
    Param("affranchi_care", 0.0, 1.0, 0.4,
          "Extra edge wanted before a fight that could cost the affranchi (its death ends the game)."),
    Param("fold_below", 0.0, 1.0, 0.3,
          "Fold a provocation when the exact chance of winning from the dice on the table is below this."),
    Param("resist_min", 0.0, 1.0, 0.5,
          "Resist arrest (NYK-P5) when the exact chance of winning the extra dice reaches this."),
    Param("recruit_drive", 0.0, 1.0, 0.5,
          "Recruitment (NYK-A6): how much a new henchman is worth against other actions (0 = never)."),
    Param("recruit_min_p", 0.0, 1.0, 0.6,
          "Recruitment: offer the cheapest amount whose exact success chance reaches this."),
    Param("reserve", 0.0, 20000.0, 4000.0,
          "Cash kept back: recruits, hesitations and helicopter fares never spend below it."),
    Param("family", 0.0, 1.0, 0.5,
          "Suit families (NYK-T2): preference for henchmen that raise the resource draw or are phone books."),
    Param("hesitate_pay", 0.0, 1.0, 0.7,
          "A hesitating henchman: pay the extra if cash after it stays above (1 - this) x reserve."),
    Param("police_block", 0.0, 1.0, 0.5,
          "First player (NYK-M5): weight on moving cars toward rivals' at-risk destinations."),
    Param("police_clear", 0.0, 1.0, 0.5,
          "First player: weight on moving cars away from its own at-risk destinations."),
    Param("card_moves", 0.0, 1.0, 0.5,
          "Resource cards spent as bonus moves (NYK-M8) or custody steps: willingness (0 = never)."),
    Param("heli_min_dist", 1.0, 12.0, 5.0,
          "Helicopter (NYK-M7) when the goal is at least this many districts away."),
    Param("subway", 0.0, 1.0, 0.7,
          "Subway (NYK-M6): willingness to ride when the goal is beyond a normal move."),
    Param("avoid_police", 0.0, 1.0, 0.5,
          "Movement: reluctance to step onto a police district without a job at risk (a check stops it)."),
    Param("cancel_cards", 0.0, 1.0, 0.5,
          "Cancel an opponent's card (cancel_card) when that opponent is at least this close to leading."),
    Param("card_events", 0.0, 1.0, 0.8,
          "Play income, draw and steal cards for their events as soon as it can (probability-free threshold)."),
)

NAMES = tuple(p.name for p in PARAMS)
INDEX = {name: i for i, name in enumerate(NAMES)}
DEFAULTS = tuple(p.default for p in PARAMS)

# knob indices (K_*: the P_* names are the ruleset's)
(K_BID, K_MISSION_WEIGHT, K_TRAVEL_COST, K_CREW2_COST, K_RISK_COST, K_SECRET_COST, K_ACCEPT_MIN,
 K_PROVOKE_EDGE, K_AFFRANCHI_CARE, K_FOLD_BELOW, K_RESIST_MIN, K_RECRUIT_DRIVE, K_RECRUIT_MIN_P,
 K_RESERVE, K_FAMILY, K_HESITATE_PAY, K_POLICE_BLOCK, K_POLICE_CLEAR, K_CARD_MOVES, K_HELI_MIN_DIST,
 K_SUBWAY, K_AVOID_POLICE, K_CANCEL_CARDS, K_CARD_EVENTS) = range(len(PARAMS))

# Restrictions: switches that take one mechanic away from any strategy (its value is measured by
# playing the restricted player against the same strategy unrestricted).
RESTRICTIONS = {
    "no-provoke": 1, "no-recruit": 2, "no-risky-missions": 4, "no-cards-as-moves": 8,
    "min-bid": 16, "no-police-control": 32, "no-subway-heli": 64,
}
(R_NO_PROVOKE, R_NO_RECRUIT, R_NO_RISKY, R_NO_CARD_MOVES, R_MIN_BID, R_NO_POLICE,
 R_NO_SUBWAY_HELI) = RESTRICTIONS.values()

FAMILIES = ("random", "simple", "param", "learned")  # env.kinds values, in this order (strategies.nyk.policy)
TABLE_FAMILIES = ("learned",)   # families that play from a preset's [table] file: the learned player's weights
DEFAULT_FAMILY = "param"                  # a preset that names no family
