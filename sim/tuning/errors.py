"""The one error of the tuning room: bad study input, described in one line."""


class TuningError(ValueError):
    """A sweep, sensitivity study or search that cannot run as asked; says what to change."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))
