"""Borrowed views of arrays for numba's hot loops.

numba counts references to every array it passes around: each time a kernel hands an array
to a helper (inlined or not) it may emit an atomic increment and decrement of the array's
reference count, and its pruning pass keeps them whenever the helper has loops or several
exits.  In the rules kernels those atomics cost more than the rules themselves (measured on
one dice game's roll and end of turn: 44 ns with them, 7 ns without).

``borrowed(a)`` is ``a`` without its owner record (``meminfo``): the same data, shape and
strides, but numba's reference counting skips it (its increments see no owner and return).
Use it only for arrays whose owner outlives the view -- the arguments and local arrays of the
kernel that makes the views, used inside that kernel and the functions it calls -- and never
return one or store one in a container.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, array):
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        source = context.make_array(array)(context, builder, value=args[0])
        view = context.make_array(array)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen
