"""Bit masks of pieces, as every game's state holds them: the count and the lowest member.

Each is plain Python for the interpreter and one machine instruction once compiled (an overload
numba picks inside jitted code), so the engines and the players share one definition."""

from numba.core.extending import intrinsic, overload
from numba.cpython.unsafe.numbers import trailing_zeros


def count_bits(mask):
    """Number of set bits of a mask."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask."""
    return int(mask & -mask).bit_length() - 1


@intrinsic
def _popcount(typingctx, mask):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return mask(mask), codegen


@overload(count_bits)
def _count_bits_compiled(mask):
    return lambda mask: _popcount(mask)


@overload(lowest_bit)
def _lowest_bit_compiled(mask):
    return lambda mask: trailing_zeros(mask)
