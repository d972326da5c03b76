"""A test over every game finds the games through their faces (sim.shared.game: `names()`,
`every()`), never through a list of names written in the test: a new game is then tested by
adding its files. Read from the tests' source with ast, nothing is run. A test of one game's own
rules names its game; a list of two games or more in a parametrisation, a fixture's params or a
loop is a list of games and fails here."""

import ast
from pathlib import Path

from sim.shared.game import names

TESTS = Path(__file__).resolve().parent


def game_names_in(node) -> set[str]:
    """The game names written as string literals anywhere inside `node`."""
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and n.value in names()}


def listed_games(tree) -> list[tuple[int, set[str]]]:
    """(line, games) of each parametrisation, fixture params or `for` loop over a literal that
    names two games or more."""
    found = []
    for node in ast.walk(tree):
        values = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "parametrize" and len(node.args) > 1:
                values.append(node.args[1])
            values += [k.value for k in node.keywords if k.arg in ("params", "argvalues")]
        elif isinstance(node, ast.For | ast.comprehension) and isinstance(node.iter, ast.List | ast.Tuple | ast.Set):
            values.append(node.iter)
        for value in values:
            games = game_names_in(value)
            if len(games) > 1:
                found.append((value.lineno, games))
    return found


def test_no_test_lists_the_games_by_name():
    offenders = [f"{path.relative_to(TESTS)}:{line}: {', '.join(sorted(games))}"
                 for path in sorted(TESTS.rglob("*.py"))
                 for line, games in listed_games(ast.parse(path.read_text(encoding="utf-8")))]
    assert offenders == [], ("tests parametrised over games written by name; use sim.shared.game.names() "
                             "or every():\n" + "\n".join(offenders))


def test_the_check_sees_a_list_of_games():
    """The check above can fail: a parametrisation over two games written out is caught."""
    two = ", ".join(repr(n) for n in names()[:2])
    sample = f"import pytest\n@pytest.mark.parametrize('game', [{two}])\ndef test_x(game): pass\n"
    looped = f"def test_y():\n    for game in ({two}):\n        pass\n"
    assert [line for line, _ in listed_games(ast.parse(sample))] == [2]
    assert len(listed_games(ast.parse(looped))) == 1
    one = f"import pytest\n@pytest.mark.parametrize('g', [{names()[0]!r}])\ndef t(g): 0\n"   # one game's test
    assert listed_games(ast.parse(one)) == []
