"""Does what the CUDA driver does at cuInit under rlprof-record: load the
library named in CUDA_INJECTION64_PATH and call its InitializeInjection.
With an argument NAME, the call runs inside the operation NAME (C API)."""
import ctypes
import os
import sys

lib = ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"])
if len(sys.argv) > 1:
    lib.rlprof_push(sys.argv[1].encode())
print("InitializeInjection", lib.InitializeInjection())
if len(sys.argv) > 1:
    lib.rlprof_pop()
