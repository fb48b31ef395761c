/*
 * Kernel names as a person reads them: CUPTI gives a CUDA C++ kernel's
 * mangled name (_Z6spin_ax); prof_demangle gives "spin_a(long long)", as
 * Nsight Systems and torch.profiler show it.
 *
 * The demangler is the C++ runtime's (__cxa_demangle, from libstdc++ or
 * libc++), found in the process or loaded (libstdc++.so.6) on first use;
 * without one, or for a name that is not mangled (an extern "C" kernel,
 * Triton's), the name comes back as it is.  Results are kept, one per
 * distinct name, until the process ends: the returned string stays valid
 * that long.  Thread-safe; not for signal handlers (it allocates).
 */
#ifndef PROF_DEMANGLE_H
#define PROF_DEMANGLE_H

const char *prof_demangle(const char *name);

#endif
