"""Exact odds of American Gangsters' location rolls (AG-T4), by convolution of exact fractions.

A crew on a location rolls henchman dice (AG-C10: 4 CLIC, 2 BANG), killer dice (2 CLIC, 4 BANG)
and occasional henchman dice (AG-C11: 2 CLIC, 2 BANG, 2 FBI; the FBI face is a joker, a CLIC
here) and counts CLICs toward the card's target. Each boss present may once have every failed
die re-rolled. Re-rolling only failed dice never loses a CLIC, so re-rolling "when short" reaches
the target exactly when re-rolling always would: with r re-rolls each die succeeds independently
with probability 1 - (1 - p)^(r + 1), and the CLIC count is a sum of independent Bernoulli dice.

    faces = DiceFaces.from_ruleset(Ruleset.load(game="ag"))
    success_odds(Crew(2, 1, 0), target=3, faces=faces, rerolls=1)   # Fraction
"""

import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

KINDS = ("H", "K", "O")   # henchman, killer, occasional henchman
MAX_CREW = 20             # dice on one location (5 families of 2 henchmen, a killer, occasionals)


@dataclass(frozen=True)
class DiceFaces:
    """Faces of each die out of 6 (AG-C10, AG-C11); every face not listed is a BANG."""

    henchman_clics: int = 4
    killer_clics: int = 2
    occasional_clics: int = 2
    occasional_fbi: int = 2

    @classmethod
    def from_ruleset(cls, rs) -> "DiceFaces":
        return cls(rs["dice.henchman_clics"], rs["dice.killer_clics"], rs["dice.occasional_clics"],
                   rs["dice.occasional_fbi"])

    def clic(self, kind: str) -> Fraction:
        """Chance that one die of this kind counts as a CLIC on a location (FBI is a joker)."""
        faces = {"H": self.henchman_clics, "K": self.killer_clics,
                 "O": self.occasional_clics + self.occasional_fbi}[kind]
        return Fraction(faces, 6)

    def bang(self, kind: str) -> Fraction:
        """Chance that one die of this kind counts as a BANG in a shoot-out (FBI is a joker)."""
        faces = {"H": 6 - self.henchman_clics, "K": 6 - self.killer_clics,
                 "O": 6 - self.occasional_clics}[kind]
        return Fraction(faces, 6)


@dataclass(frozen=True)
class Crew:
    henchmen: int = 0
    killers: int = 0
    occasional: int = 0

    @property
    def dice(self) -> int:
        return self.henchmen + self.killers + self.occasional

    def counts(self) -> dict[str, int]:
        return {"H": self.henchmen, "K": self.killers, "O": self.occasional}

    def label(self) -> str:
        return ",".join(f"{n}{k}" for k, n in self.counts().items() if n) or "no dice"


def parse_crew(text: str) -> Crew:
    """'2H,K,O' or 'HHKO' (H henchman, K killer, O occasional henchman) -> Crew.

    Raises ValueError with a one-line reason."""
    counts = dict.fromkeys(KINDS, 0)
    for token in re.split(r"[,\s]+", str(text).strip().upper()):
        if not token:
            continue
        match = re.fullmatch(r"(\d*)([HKO]+)", token)
        if not match or (match.group(1) and len(match.group(2)) != 1):
            raise ValueError(f"{token!r} is not a crew part: use H (henchman), K (killer), O "
                             f"(occasional henchman), with a count before one letter, e.g. 2H,K,O")
        times = int(match.group(1) or 1)
        for letter in match.group(2):
            counts[letter] += times
    crew = Crew(counts["H"], counts["K"], counts["O"])
    if crew.dice == 0:
        raise ValueError("a crew needs at least one die: e.g. 2H,K")
    if crew.dice > MAX_CREW:
        raise ValueError(f"a crew of {crew.dice} dice: at most {MAX_CREW} on one location")
    return crew


def _convolve(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def die_success(p: Fraction, rerolls: int) -> Fraction:
    """A die that succeeds with p on each roll and is rolled again while failed, `rerolls` times."""
    return 1 - (1 - p) ** (rerolls + 1)


def clic_distribution(crew: Crew, faces: DiceFaces, rerolls: int = 0) -> list[Fraction]:
    """P(CLICs = c) for c = 0 .. crew.dice, with `rerolls` re-rolls of the failed dice."""
    dist = [Fraction(1)]
    for kind, n in crew.counts().items():
        q = die_success(faces.clic(kind), rerolls)
        for _ in range(n):
            dist = _convolve(dist, [1 - q, q])
    return dist


def success_odds(crew: Crew, target: int, faces: DiceFaces, rerolls: int = 0) -> Fraction:
    """Exact chance that the crew reaches `target` CLICs (AG-T4), re-rolling failed dice `rerolls`
    times while short."""
    if target <= 0:
        return Fraction(1)
    return sum(clic_distribution(crew, faces, rerolls)[target:], Fraction(0))


def location_odds(crew: Crew, target: int, faces: DiceFaces, bosses: int = 1) -> dict:
    """The odds of one location: without a re-roll, with the re-rolls of `bosses` bosses, and the
    expected CLICs of a single roll."""
    dist = clic_distribution(crew, faces)
    return {
        "crew": crew.label(), "target": target, "bosses": bosses,
        "success_no_reroll": success_odds(crew, target, faces, 0),
        "success_with_reroll": success_odds(crew, target, faces, bosses),
        "expected_clics": sum((Fraction(c) * p for c, p in enumerate(dist)), Fraction(0)),
    }


def success_table(faces: DiceFaces, max_h: int, max_k: int, max_o: int, max_rerolls: int,
                  max_target: int) -> np.ndarray:
    """float64[h, k, o, r, t]: P(reaching target t) for every crew and number of re-rolls (the
    engine's policies read it; exact values rounded to floats)."""
    table = np.zeros((max_h + 1, max_k + 1, max_o + 1, max_rerolls + 1, max_target + 1))
    for r in range(max_rerolls + 1):
        binomials = []   # P(CLICs = c) of n dice of one kind, for n = 0 .. max
        for kind, most in zip(KINDS, (max_h, max_k, max_o), strict=True):
            q = float(die_success(faces.clic(kind), r))
            rows = [np.array([1.0])]
            for _ in range(most):
                rows.append(np.convolve(rows[-1], [1.0 - q, q]))
            binomials.append(rows)
        for h in range(max_h + 1):
            for k in range(max_k + 1):
                hk = np.convolve(binomials[0][h], binomials[1][k])
                for o in range(max_o + 1):
                    dist = np.convolve(hk, binomials[2][o])
                    tail = np.cumsum(dist[::-1])[::-1]   # P(CLICs >= t)
                    t = min(len(tail), max_target + 1)
                    table[h, k, o, r, :t] = tail[:t]
    table[..., 0] = 1.0
    return table


# --- the shoot-out that follows a failed bargain (AG-N2, N3): each family's exact expected outcome ---

@dataclass(frozen=True)
class Party:
    """A family on a won card, as the shoot-out sees it: its dice, the hits its boss can still take
    there (0: no boss on the card), and what each hit it takes costs it, in the order it gives its
    members up (AG-N2: the victim chooses; the cheapest first)."""

    crew: Crew
    boss_lives: int = 0
    loss_occasional: Fraction = Fraction(1)
    loss_henchman: Fraction = Fraction(1)
    loss_killer: Fraction = Fraction(1)
    loss_wound: Fraction = Fraction(3, 2)
    loss_death: Fraction = Fraction(3)

    def hit_costs(self) -> list[Fraction]:
        """The cost of the 1st, 2nd, ... hit: occasional dice, henchmen, killers, the boss's wounds,
        then its death (the boss leaves the card). The family is off the card after the last."""
        costs = [self.loss_occasional] * self.crew.occasional + [self.loss_henchman] * self.crew.henchmen
        costs += [self.loss_killer] * self.crew.killers
        if self.boss_lives > 0:
            costs += [self.loss_wound] * (self.boss_lives - 1) + [self.loss_death]
        return costs


def bang_distribution(crew: Crew, faces: DiceFaces) -> list[Fraction]:
    """P(BANGs = b) of one roll of the crew in a shoot-out (an occasional die's FBI joker is a BANG)."""
    dist = [Fraction(1)]
    for kind, n in crew.counts().items():
        q = faces.bang(kind)
        for _ in range(n):
            dist = _convolve(dist, [1 - q, q])
    return dist


def aims(parties: list[Party], faces: DiceFaces) -> list[int]:
    """The family each one shoots at (the model): the other family with the most expected BANGs,
    a tie to the first tied family after the shooter in turn order, round the table (parties are
    listed in turn order), so equal families aim round a circle (AG-N2)."""
    threat = [sum((n * faces.bang(k) for k, n in p.crew.counts().items()), Fraction(0)) for p in parties]
    n = len(parties)
    out = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        out.append(max(others, key=lambda j: (threat[j], -((j - i) % n))) if others else i)
    return out


def shootout_values(parties: list[Party], total: Fraction, faces: DiceFaces,
                    second_round: bool = True) -> list[Fraction]:
    """Each family's exact expected outcome, in bags, of the shoot-out after a failed bargain: the
    bargain's disagreement point (AG-N1..N3). Everyone rolls; each family's BANGs all go to the
    family it aims at (`aims`); hits beyond a family's members are wasted; the victim loses its
    members cheapest first. Then a family left alone takes the card's gains (worth `total`);
    several survivors agree on equal shares (the Nash split when failing loses the card, AG-N3),
    or lose the card without a second round; nobody left: the card is lost."""
    n = len(parties)
    target = aims(parties, faces)
    bangs = [bang_distribution(p.crew, faces) for p in parties]
    loss, alive = [], []
    for q in range(n):
        hits = [Fraction(1)]
        for i in range(n):
            if i != q and target[i] == q:
                hits = _convolve(hits, bangs[i])
        costs = parties[q].hit_costs()
        cumulative = [sum(costs[:j], Fraction(0)) for j in range(len(costs) + 1)]
        loss.append(sum((p * cumulative[min(j, len(costs))] for j, p in enumerate(hits)), Fraction(0)))
        alive.append(sum(hits[:len(costs)], Fraction(0)))
    values = []
    for q in range(n):
        others = [j for j in range(n) if j != q]
        keep = Fraction(0)
        for pattern in range(1 << len(others)):   # which of the others survive (independent)
            chance, survivors = alive[q], 1
            for bit, j in enumerate(others):
                if (pattern >> bit) & 1:
                    chance *= alive[j]
                    survivors += 1
                else:
                    chance *= 1 - alive[j]
            if survivors == 1 or second_round:
                keep += chance * total / survivors
        values.append(keep - loss[q])
    return values


def nash_split(threats: list[Fraction], total: Fraction) -> list[Fraction]:
    """The Nash bargaining solution with transferable worth (side payments in bags): each family
    gets its disagreement value plus an equal part of the surplus; it maximises the product of the
    gains over the disagreement point among splits of `total`."""
    surplus = total - sum(threats, Fraction(0))
    return [d + surplus / len(threats) for d in threats]
