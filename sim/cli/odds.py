"""`mobsim odds ...`: exact odds of the kernel."""

import click


@click.group("odds")
def odds_group():
    """Exact odds (enumeration, never sampling) of recruitment, interrogation and provocation."""


COMMANDS = [odds_group]
