"""The package under test: the one on PYTHONPATH (tests/50-python-atari.bats
points it at the build), else the tree's own modules."""
import os
import sys

if "RLKIT_PYTHONPATH" in os.environ:
    sys.path.insert(0, os.environ["RLKIT_PYTHONPATH"])
