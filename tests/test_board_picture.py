"""The board picture (NYK-C1) is produced and is a real, non-trivial PNG."""

import struct

from sim.rules import Ruleset
from sim.rules.nyk.draw import draw_board


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_draw_default_board(tmp_path):
    out = draw_board(Ruleset.load(), tmp_path / "board.png")
    assert out.exists() and out.stat().st_size > 20_000
    width, height = png_size(out)
    assert width > 500 and height > 800           # Manhattan drawn upright


def test_draw_a_replaced_board(tmp_path):
    # a designer's smaller board draws too (no rivers or park given; the engine's four peripherals)
    (tmp_path / "mine.toml").write_text("""
[content.board]
tiles = 2
peripheral_order = ["N", "E", "S", "W"]
district = [
  { name = "COP", special = "police", x = 0, y = 0 },
  { name = "TRAIN", band = "white", tile = true, special = "subway", x = 1, y = 0 },
  { name = "HELI", band = "black", tile = true, special = "heliport", x = 0, y = 1 },
  { name = "N", peripheral = true, x = 1, y = -1 },
  { name = "E", peripheral = true, x = 2, y = 0 },
  { name = "S", peripheral = true, x = 0, y = 2 },
  { name = "W", peripheral = true, x = -1, y = 0 },
]
connections = { COP = ["TRAIN", "HELI", "W"], TRAIN = ["N", "E"], HELI = ["S"] }
""")
    rs = Ruleset.load(tmp_path / "mine.toml", {"start.district": "COP"})
    out = draw_board(rs, tmp_path / "small.png")
    assert png_size(out)[0] > 100


def test_draw_the_ag_board_and_name_what_is_assumed(tmp_path):
    """AG-C7: one card line per kind and district, from the content; the caption names the assumed
    content files, and only the FBI options the picture draws."""
    from sim.rules.ag.draw import caption, card_text
    from sim.rules.ag.draw import draw_board as draw_ag

    rs = Ruleset.load(game="ag")
    out = draw_ag(rs, tmp_path / "ag.png")
    width, height = png_size(out)
    assert out.stat().st_size > 20_000 and width > height
    grocery = next(c for c in rs.content["locations"] if c.kind == "grocery")
    assert card_text(grocery) == "1 CLIC · 1 bag · drugs"
    assert caption(rs) == "assumed: location rewards (locations.toml); cost-track prices and FBI steps (tracks.toml)"
    separate = Ruleset.load(game="ag", overrides={"fbi.track": "separate"})
    assert caption(separate).endswith("(tracks.toml); fbi.start, fbi.max")
