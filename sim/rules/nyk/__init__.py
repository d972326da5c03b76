"""New York Kings data files (TOML): board, characters, missions, resources, rules."""
