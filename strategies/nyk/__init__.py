"""New York Kings players: the knobs (params.py), the jitted policies (policy.py), the presets."""
