"""Does what the CUDA driver does at cuInit under rlprof-record: load the
library named in CUDA_INJECTION64_PATH and call its InitializeInjection.
With an argument NAME, the call runs inside the operation NAME (C API);
with "--term" instead, the process then kills itself with SIGTERM."""
import ctypes
import os
import signal
import sys

lib = ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"])
term = sys.argv[1:] == ["--term"]
if term:
    del sys.argv[1]
if len(sys.argv) > 1:
    lib.rlprof_push(sys.argv[1].encode())
print("InitializeInjection", lib.InitializeInjection(), flush=True)
if term:
    os.kill(os.getpid(), signal.SIGTERM)
if len(sys.argv) > 1:
    lib.rlprof_pop()
