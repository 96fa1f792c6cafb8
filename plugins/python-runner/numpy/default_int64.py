"""Makes numpy's default integer 64-bit on wasm32, as it is on the 64-bit machines programs are
written for.

    default_int64.py NUMPY_SOURCE_DIR

numpy's default integer is `intp`, the size of a pointer: 32 bits on wasm32. Unchanged, the
sandbox would compute `np.arange(10**5).sum()` in 32 bits and print a wrapped-around number
where a machine prints 4999950000, and `np.array([10**12])` would be a different type. These
edits make Python ints, `int`, `np.int_`, `arange` and the upcast of small integers in sums and
products use int64, as numpy 1.x on 64-bit Windows kept `long` apart from `intp`; indices
(`argsort`, `nonzero`...) stay `intp`. Each edit must apply exactly once.
"""

import sys
from pathlib import Path

EDITS = [
    (
        "numpy/_core/src/multiarray/abstractdtypes.c",
        """int_default_descriptor(PyArray_DTypeMeta* NPY_UNUSED(cls))
{
    return PyArray_DescrFromType(NPY_INTP);""",
        """int_default_descriptor(PyArray_DTypeMeta* NPY_UNUSED(cls))
{
    return PyArray_DescrFromType(NPY_LONGLONG);""",
    ),
    (
        "numpy/_core/src/multiarray/abstractdtypes.c",
        """        if (NPY_MIN_INTP <= value && value <= NPY_MAX_INTP) {
            return PyArray_DescrFromType(NPY_INTP);
        }
        return PyArray_DescrFromType(NPY_LONGLONG);""",
        """        return PyArray_DescrFromType(NPY_LONGLONG);""",
    ),
    (
        "numpy/_core/src/multiarray/descriptor.c",
        """    else if (typ == &PyLong_Type) {
        return PyArray_DescrFromType(NPY_INTP);""",
        """    else if (typ == &PyLong_Type) {
        return PyArray_DescrFromType(NPY_LONGLONG);""",
    ),
    (
        "numpy/_core/src/multiarray/ctors.c",
        """        /* intentionally made to be at least NPY_LONG */
        dtype = PyArray_DescrFromType(NPY_INTP);""",
        """        /* intentionally made to be at least NPY_LONG */
        dtype = PyArray_DescrFromType(NPY_LONGLONG);""",
    ),
    (
        "numpy/_core/src/umath/ufunc_object.c",
        """            if (PyTypeNum_ISBOOL(typenum)) {
                typenum = NPY_INTP;
            }
            else if ((size_t)PyArray_ITEMSIZE(arr) < sizeof(npy_intp)) {
                if (PyTypeNum_ISUNSIGNED(typenum)) {
                    typenum = NPY_UINTP;
                }
                else {
                    typenum = NPY_INTP;
                }
            }""",
        """            if (PyTypeNum_ISBOOL(typenum)) {
                typenum = NPY_LONGLONG;
            }
            else if ((size_t)PyArray_ITEMSIZE(arr) < sizeof(npy_longlong)) {
                if (PyTypeNum_ISUNSIGNED(typenum)) {
                    typenum = NPY_ULONGLONG;
                }
                else {
                    typenum = NPY_LONGLONG;
                }
            }""",
    ),
    (
        "numpy/_core/include/numpy/npy_2_compat.h",
        """#if NPY_FEATURE_VERSION >= NPY_2_0_API_VERSION
    #define NPY_DEFAULT_INT NPY_INTP""",
        """#if NPY_FEATURE_VERSION >= NPY_2_0_API_VERSION
    #define NPY_DEFAULT_INT NPY_LONGLONG""",
    ),
    (
        "numpy/_core/include/numpy/npy_2_compat.h",
        """(PyArray_RUNTIME_VERSION >= NPY_2_0_API_VERSION ? NPY_INTP : NPY_LONG)""",
        """(PyArray_RUNTIME_VERSION >= NPY_2_0_API_VERSION ? NPY_LONGLONG : NPY_LONG)""",
    ),
    (
        "numpy/_core/_type_aliases.py",
        """    "int_": "intp",
    "uint": "uintp",""",
        """    "int_": "int64",
    "uint": "uint64",""",
    ),
]


def main():
    root = Path(sys.argv[1])
    for relative, old, new in EDITS:
        path = root / relative
        text = path.read_text()
        if text.count(old) != 1:
            sys.exit(f"{relative}: the text to edit occurs {text.count(old)} times, not once")
        path.write_text(text.replace(old, new))


if __name__ == "__main__":
    main()
