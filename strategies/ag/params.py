"""The knobs of the American Gangsters heuristic player (`parametric` policy family).

One named vector steers every decision of the engine's decision interface (strategies.ag.policy).
Each knob has a range (what a preset may set and the knob search explores: wide enough for the
defaults and every shipped preset, bounded where the policy reads a knob as a share or a
probability) and a default: the defaults are the `simple` player. Presets in
`strategies/ag/presets/*.toml` set some of them; the rest keep their defaults.
"""

from strategies.knobs import Param

PARAMS = (
    Param("val_renown", 0.0, 6.0, 3.0, "Worth of a renown level, in bags."),
    Param("val_bag", 0.0, 3.0, 1.0, "Worth of a bag of money."),
    Param("val_token", 0.0, 4.0, 1.5, "Worth of a district or traffic token (titles, AG-T5)."),
    Param("val_card", 0.0, 4.0, 1.5, "Worth of a location card won (titles, AG-T5)."),
    Param("val_occasional", 0.0, 3.0, 1.0, "Worth of an occasional henchman card."),
    Param("val_fbi_mafia", -2.0, 0.0, -0.3, "Worth of an FBI step to a mafia family (AG-G2): it hurts."),
    Param("val_fbi_informer", 0.0, 3.0, 0.0,
          "Worth of an FBI step to the informer (AG-G2); 0 plays the informer as a mafia family."),
    Param("greed", 0.0, 1.0, 0.25, "Bargaining (AG-N): the proposer's shading of its offers."),
    Param("accept", 0.0, 1.0, 0.6, "Bargaining (AG-N, offer model): the share of its fair share it accepts."),
    Param("aggression", 0.0, 1.0, 0.5, "Joins crowded cards, recruits killers and shoots rather than shares."),
    Param("min_chance", 0.0, 1.0, 0.15, "Places a piece only where its chance of success reaches this."),
    Param("bag_reserve", 0.0, 4.0, 2.0, "Bags kept back when buying renown or powers."),
    Param("title_weight", 0.0, 2.0, 1.0, "Weight of the Caid and Baron titles' points (AG-T5) in a card's worth."),
    Param("heal", 0.0, 1.0, 0.7, "Care for a wounded boss: the hospital and healing (AG-H)."),
    Param("nerve", 0.0, 1.0, 0.5, "Russian roulette: the probability of pulling the trigger."),
    Param("bid_fraction", 0.0, 1.0, 0.5, "Auctions (AG-V1): the share of the prize's worth it bids."),
    Param("patience", 0.0, 1.0, 0.9,
          "Bargaining (AG-N, alternating model): the share of the next offer's gain it gives up for nothing."),
    Param("bluff", 0.0, 0.4, 0.05,
          "Bargaining (AG-N): what it adds to its shoot-out value when stating its terms, as a share of the card."),
    Param("foresight", 0.0, 1.0, 0.5,
          "A study knob (AG-N2): how placement forecasts a bargain. Below 1/3 by threat shares (its "
          "expected BANGs' share, cut for each other family: the cheapest); up to 2/3 by the bargain "
          "over the fixed-aim shoot-out values (the default); from 2/3 by the bargain over the rule's "
          "own values (negotiation.threat: by default the exact walk of the shoot-out, several times slower).",
          searched=False),
    Param("boss_home", 0.0, 1.0, 0.0,
          "A study knob (AG-T3): the probability of keeping the boss home in a turn; home never pays.",
          searched=False),
)

NAMES = tuple(p.name for p in PARAMS)
INDEX = {name: i for i, name in enumerate(NAMES)}
DEFAULTS = tuple(p.default for p in PARAMS)

RESTRICTIONS: dict[str, int] = {}   # no mechanic can be taken away from an American Gangsters player yet

FAMILIES = ("random", "parametric", "learned")  # env.kinds values, in this order (strategies.ag.policy)
TABLE_FAMILIES = ("learned",)   # families that play from a preset's [table] file: the learned player's weights
DEFAULT_FAMILY = "parametric"        # a preset that names no family
