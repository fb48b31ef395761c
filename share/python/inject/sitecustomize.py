"""Loaded at start-up by every Python that rlprof-record runs (it puts this
folder first on PYTHONPATH): starts the automatic CPU categories of the
rlprof module, makes "import rlprof" work, then runs the sitecustomize that
this one hides, if any."""

import importlib.machinery
import importlib.util
import os
import sys


def _rlprof_start():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "rlprof", os.path.join(os.path.dirname(here), "rlprof.py"))
    if spec is not None and "rlprof" not in sys.modules:
        mod = importlib.util.module_from_spec(spec)
        sys.modules["rlprof"] = mod
        spec.loader.exec_module(mod)
        mod.start_categories()
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.origin and os.path.dirname(os.path.abspath(spec.origin)) != here:
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)


_rlprof_start()
del _rlprof_start
