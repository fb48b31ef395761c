# The C extension of rlkit.atari: the emulator's sources from the toolkit's
# tree (lib/), the same list as share/python/rlkit.mk.  Build from the tree:
#   pip install share/python
import glob
import os

from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
# The sources through a link in this folder (setuptools wants relative
# paths, and puts the objects of "../../lib" outside its build folder).
lib = "_lib"
if not os.path.exists(os.path.join(here, lib)):
    os.symlink(os.path.join("..", "..", "lib"), os.path.join(here, lib))
sources = ["rlkit/_atari.c"] + sorted(glob.glob(os.path.join(lib, "atari", "*.c"))) + \
    [os.path.join(lib, "core", f) for f in ("error.c", "grow.c", "sys.c")]

setup(ext_modules=[Extension(
    "rlkit._atari", sources=sources, include_dirs=[lib],
    define_macros=[("_GNU_SOURCE", None)],
    extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden", "-ffp-contract=off"],
    extra_link_args=["-pthread"], libraries=["m"])])
