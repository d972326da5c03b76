"""`mobsim odds ...`: exact odds of recruitment, interrogation and provocation (New York Kings)
and of location rolls (American Gangsters)."""

import json
from fractions import Fraction

import click
import numpy as np

from sim.nyk import hands, odds
from sim.cli.common import OutPath, ruleset_from_options, ruleset_options
from sim.cli.files import target_file, write_whole

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


VALUES_HELP = "9, 10, J, Q, K, A"


def _parse_rank(text: str) -> int:
    """One value label; ints are not accepted on the command line (0 is not a value)."""
    label = str(text).strip().upper()
    if label not in hands.RANK_LABELS:
        raise ValueError(f"{str(text).strip()!r} is not a value among {VALUES_HELP}")
    return hands.RANK_LABELS.index(label)


class RankList(click.ParamType):
    """A comma-separated list of values among 9, 10, J, Q, K, A."""

    name = "values"

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        try:
            ranks = [_parse_rank(v) for v in str(value).replace(" ", ",").split(",") if v.strip()]
        except ValueError as err:
            self.fail(str(err), param, ctx)
        if not ranks:
            self.fail(f"a crew needs at least one value among {VALUES_HELP}", param, ctx)
        return ranks


class Rank(click.ParamType):
    """One value among 9, 10, J, Q, K, A."""

    name = "value"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            return _parse_rank(value)
        except ValueError as err:
            self.fail(str(err), param, ctx)


class Probability(click.FloatRange):
    """A probability from 0 to 1; nan (which compares false with both bounds) is refused."""

    def __init__(self):
        super().__init__(0, 1)

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail("nan is not a probability (give a number from 0 to 1, e.g. 0.9)", param, ctx)
        return number


def _plain(value):
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _exact(result: dict) -> dict:
    return {k: f"{v.numerator}/{v.denominator}" for k, v in result.items()
            if isinstance(v, Fraction)}


def _emit(result: dict, as_json: bool, text: str):
    click.echo(json.dumps(_plain(result)) if as_json else text)


def _percent(p) -> str:
    return f"{100 * float(p):6.2f}%"


@click.group("odds", invoke_without_command=True)
@click.pass_context
def odds_group(ctx):
    """Exact odds (enumeration, never sampling) of the game's dice contests."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


# --- recruit ------------------------------------------------------------------------------------

AFFRANCHI = hands.RANK_LABELS.index("A")


@odds_group.command("recruit")
@click.option("--value", type=Rank(), help="The henchman's value (9, 10, J, Q, K).")
@click.option("--offer", type=int, help="The offer in dollars (a whole number of $1,000).")
@click.option("--target", type=Probability(), help="Find the cheapest offer reaching this "
              "success probability for --value.")
@click.option("--on-hesitation", type=click.Choice(["pay", "walk"]), default="pay",
              show_default=True,
              help="On hesitation, pay the extra to recruit, or walk away keeping the money.")
@ruleset_options
@json_option
def recruit_cmd(value, offer, target, on_hesitation, ruleset, sets, as_json):
    """Recruitment odds (NYK-A6): one die per $1,000; a die above the value recruits, a die equal
    makes the henchman hesitate. Without --value and --offer: the table of every value x offer."""
    if value == AFFRANCHI:
        raise click.BadParameter("A is an affranchi, never recruited: henchmen are 9, 10, J, Q, K",
                                 param_hint="--value")
    rs = ruleset_from_options(ruleset, sets)
    terms = odds.RecruitTerms.from_ruleset(rs)
    pay = on_hesitation == "pay"
    if offer is not None and offer not in terms.offers():
        raise click.BadParameter(f"{offer} is not an offer of ${terms.min_offer:,} to "
                                 f"${terms.max_offer:,} in steps of ${terms.step:,}",
                                 param_hint="--offer")
    if target is not None:
        if value is None or offer is not None:
            raise click.UsageError("--target needs --value and no --offer")
        best = odds.cheapest_offer(value, target, terms, pay)
        result = {"value": hands.RANK_LABELS[value], "target": target, "offer": best}
        if best is None:
            text = f"no offer up to ${terms.max_offer:,} recruits {hands.RANK_LABELS[value]} " \
                   f"with probability {target:.0%} (hesitation: {on_hesitation})"
            return _emit(result, as_json, text)
        result.update(odds.recruit_odds(value, best, terms, pay))
        result["exact"] = _exact(result)
        text = (f"cheapest offer recruiting {hands.RANK_LABELS[value]} with probability at least "
                f"{target:.0%} (hesitation: {on_hesitation}): ${best:,}\n"
                + _recruit_lines(result))
        return _emit(result, as_json, text)
    if value is not None and offer is not None:
        result = odds.recruit_odds(value, offer, terms, pay)
        result = {**result, "value": hands.RANK_LABELS[value], "offer": offer,
                  "exact": _exact(result)}
        text = (f"recruit {hands.RANK_LABELS[value]} for ${offer:,} ({result['dice']} dice, "
                f"hesitation: {on_hesitation})\n" + _recruit_lines(result))
        return _emit(result, as_json, text)
    if (value is None) != (offer is None):
        raise click.UsageError("give both --value and --offer, or neither for the full table")
    result, text = _recruit_table(terms, pay)
    return _emit(result, as_json, text)


def _recruit_lines(result) -> str:
    return "\n".join(
        [f"  {k:14s} {_percent(result[k])}" for k in ("accept", "hesitate", "refuse", "success")]
        + [f"  expected cost  ${float(result['expected_cost']):,.0f}"])


def _recruit_table(terms, pay):
    values = list(range(AFFRANCHI))  # henchmen are 9..K
    offers = terms.offers()
    grid = [[odds.recruit_odds(v, o, terms, pay) for o in offers] for v in values]
    result = {"values": [hands.RANK_LABELS[v] for v in values], "offers": offers,
              "on_hesitation": "pay" if pay else "walk"}
    for key in ("success", "accept", "hesitate", "refuse", "expected_cost"):
        result[key] = [[cell[key] for cell in row] for row in grid]
    header = "value " + "".join(f"{'$' + format(o, ','):>9s}" for o in offers)
    lines = [f"success probability (hesitation: {result['on_hesitation']})", header]
    lines += [f"{hands.RANK_LABELS[v]:>5s} " + "".join(_percent(c["success"]).rjust(9) for c in row)
              for v, row in zip(values, grid, strict=True)]
    lines += ["", "expected cost", header]
    lines += [f"{hands.RANK_LABELS[v]:>5s} "
              + "".join(f"${float(c['expected_cost']):,.0f}".rjust(9) for c in row)
              for v, row in zip(values, grid, strict=True)]
    return result, "\n".join(lines)


# --- interrogation --------------------------------------------------------------------------------

@odds_group.command("interrogation")
@click.option("--crew", type=RankList(), required=True,
              help="Values of the characters present, e.g. A,Q.")
@click.option("--police", type=int, default=1, show_default=True, help="Police cars present.")
@click.option("--resist", is_flag=True,
              help="The crew resists when arrested (NYK-P5, affranchi present).")
@ruleset_options
@json_option
def interrogation_cmd(crew, police, resist, ruleset, sets, as_json):
    """Interrogation odds (NYK-P4): 3 dice + the crew against 3 dice + a J per police car; the crew
    must be strictly stronger. With --resist: 4th and 5th dice, a tie goes to the police."""
    rs = ruleset_from_options(ruleset, sets)
    max_cars, max_crew = rs["police.max_cars"], rs["henchmen.max"] + 1
    if not 1 <= police <= max_cars:
        raise click.BadParameter(f"{police} police cars: use 1 to {max_cars}",
                                 param_hint="--police")
    if len(crew) > max_crew:
        raise click.BadParameter(f"a crew of {len(crew)}: at most {max_crew} characters",
                                 param_hint="--crew")
    if resist and AFFRANCHI not in crew:
        raise click.BadParameter("only a crew with its affranchi (A) may resist",
                                 param_hint="--resist")
    table = hands.table(rs["hands.five_of_a_kind"], rs["hands.two_pairs"])
    car = hands.parse_value(rs["police.car_value"])
    result = odds.interrogation_odds(crew, police, car, table, resist)
    result = {**result, "exact": _exact(result)}
    label = ",".join(hands.RANK_LABELS[r] for r in crew)
    text = "\n".join([f"interrogation of {label} by {police} police car(s)"
                      + (" (resisting)" if resist else "")]
                     + [f"  {k:12s} {_percent(v)}" for k, v in result.items() if k != "exact"])
    _emit(result, as_json, text)


# --- provocation ---------------------------------------------------------------------------------

@odds_group.command("provocation")
@click.option("--provoker", type=RankList(), required=True,
              help="Provoking crew's values, e.g. A,K.")
@click.option("--provoked", type=RankList(), required=True, help="Provoked crew's values, e.g. A.")
@click.option("--no-fold", is_flag=True, help="Nobody folds: the odds of the fusillade itself.")
@click.option("--character-value", type=click.IntRange(0, 1_000_000), default=6000,
              show_default=True,
              help="Dollars a side would pay to keep a character (prices the fusillade's loss).")
@click.option("--save-table", type=OutPath(dir_okay=False),
              help="Write the fold tables (intimidation, artillery) to this .npz file.")
@ruleset_options
@json_option
def provocation_cmd(provoker, provoked, no_fold, character_value, save_table, ruleset, sets,
                    as_json):
    """Provocation odds (NYK-A4): intimidation (3 dice), artillery (4th), fusillade (5th).

    By default both sides fold by the subgame-perfect policy (backward induction over the dice
    states, with the ruleset's stakes); --no-fold gives the bare fusillade odds."""
    rs = ruleset_from_options(ruleset, sets)
    max_crew = rs["henchmen.max"] + 1
    for name, crew in (("--provoker", provoker), ("--provoked", provoked)):
        if len(crew) > max_crew:
            raise click.BadParameter(f"a crew of {len(crew)}: at most {max_crew}", param_hint=name)
    table = hands.table(rs["hands.five_of_a_kind"], rs["hands.two_pairs"])
    label = ",".join(hands.RANK_LABELS[r] for r in provoker) + " vs " + ",".join(
        hands.RANK_LABELS[r] for r in provoked)
    if no_fold:
        result = odds.fight_odds(provoker, provoked, table)
        result = {**result, "exact": _exact(result)}
        text = "\n".join([f"fusillade {label} (no folds)"]
                         + [f"  {k:14s} {_percent(v)}" for k, v in result.items() if k != "exact"])
        return _emit(result, as_json, text)
    stakes = odds.Stakes.from_ruleset(rs)
    solution = odds.solve_provocation(provoker, provoked, stakes, table, character_value)
    if save_table:  # numpy would add .npz to any other name: the table is written there or nowhere
        write_whole(target_file(save_table, force=True, hint="--save-table", suffixes=(".npz",), check_folder=False),
                    lambda tmp: _save_fold_tables(tmp, solution), hint="--save-table")
    result = {**solution.summary(), "stakes": {
        "stake": stakes.stake, "raise": stakes.raise_, "fold_penalty": stakes.fold_penalty,
        "tie_pot": "return" if stakes.tie_pot_returned else "bank",
        "character_value": character_value}}
    text = "\n".join(
        [f"provocation {label} (subgame-perfect folds, a character valued ${character_value:,})"]
        + [f"  {k:26s} {_percent(v)}" for k, v in result.items()
           if k not in ("stakes",) and not k.endswith(("money", "value", "lost"))]
        + [f"  {k:26s} {v:+,.0f}" for k, v in result.items() if k.endswith(("money", "value"))]
        + [f"  {k:26s} {v:.3f}" for k, v in result.items() if k.endswith("lost")])
    _emit(result, as_json, text)


# --- American Gangsters: location rolls -----------------------------------------------------------

@odds_group.command("location")
@click.option("--crew", required=True,
              help="Dice on the location: H henchman, K killer, O occasional henchman, e.g. 2H,K,O.")
@click.option("--target", type=click.IntRange(1, 99), default=None,
              help="CLICs to reach (default: every target of the deck's location cards).")
@click.option("--location", "kind", default=None, help="A location kind of the deck, e.g. bank.")
@click.option("--bosses", type=click.IntRange(0, 5), default=1, show_default=True,
              help="Bosses present: each may have the failed dice re-rolled once (AG-T4).")
@ruleset_options
@json_option
def location_cmd(crew, target, kind, bosses, ruleset, sets, as_json):
    """American Gangsters location odds (AG-T4): the chance that a crew reaches the card's CLIC
    target, without and with the bosses' re-rolls of failed dice. Exact fractions."""
    from sim.ag import odds as ag_odds

    try:
        parsed = ag_odds.parse_crew(crew)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--crew") from None
    if target is not None and kind is not None:
        raise click.UsageError("give --target or --location, not both")
    rs = ruleset_from_options(ruleset, sets, game="ag")
    faces = ag_odds.DiceFaces.from_ruleset(rs)
    cards = rs.content["locations"]
    if kind is not None:
        if kind not in cards.kinds:
            from sim.rules.errors import did_you_mean

            raise click.BadParameter(f"{kind!r} is not a location kind{did_you_mean(kind, cards.kinds)} "
                                     f"(kinds: {', '.join(cards.kinds)})", param_hint="--location")
        targets = sorted({c.target for c in cards if c.kind == kind})
    else:
        targets = [target] if target is not None else sorted({c.target for c in cards})
    rows = [ag_odds.location_odds(parsed, t, faces, bosses) for t in targets]
    if as_json:
        out = {"crew": parsed.label(), "bosses": bosses, "location": kind,
               "rows": [{**_plain(r), "exact": _exact(r)} for r in rows]}
        return click.echo(json.dumps(out))
    lines = [f"crew {parsed.label()} ({parsed.dice} dice)"
             + (f" on {kind}" if kind else "") + f", {bosses} boss(es) re-rolling failed dice",
             f"{'target':>6s} {'no re-roll':>11s} {'with re-roll':>13s}"]
    lines += [f"{r['target']:>6d} {_percent(r['success_no_reroll']):>11s} "
              f"{_percent(r['success_with_reroll']):>13s}" for r in rows]
    lines.append(f"expected CLICs of one roll: {float(rows[0]['expected_clics']):.3f}")
    click.echo("\n".join(lines))


def _save_fold_tables(path, solution):
    np.savez_compressed(
        path, fold_intimidation=solution.fold_intimidation, fold_artillery=solution.fold_artillery,
        dice_intimidation=odds.dice_space(3).packed, dice_artillery=odds.dice_space(4).packed)


COMMANDS = [odds_group]
