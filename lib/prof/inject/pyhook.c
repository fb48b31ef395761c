/*
 * _rlprof_hook: the profile hook of the rlprof Python module, in C.
 *
 * The same rules as the pure-Python hook of share/python/rlprof.py, at a
 * fraction of its cost: a thread's time belongs to the category of the
 * outermost categorized call it is in (a Python function that the module
 * classified, or a builtin function), else to "python".  Decisions are
 * cached: per code object (the module's classify_code(frame) returns a
 * category, or None while undecided) and per builtin definition
 * (classify_c(function), once per PyMethodDef).  Category changes go to
 * rlprof_cpu() of the recorder, passed in as an address.
 *
 *	start(classify_code, classify_c, rlprof_cpu_address, python_category)
 *	thread()        install the hook on the calling thread
 *	resync()        say the current category again (after fork)
 *	stop()          remove the hook from the calling thread
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>

#define STACK_MAX 512
#define CACHE_SIZE 4096		/* entries of the builtin cache, a power of 2 */

struct entry {
	PyObject *key;		/* frame or function (a reference is held) */
	int cat;
};

/* Pushes beyond STACK_MAX are dropped; their pops never match the top. */
struct tstate {
	int init, n, current;
	struct entry stack[STACK_MAX];
};

static __thread struct tstate ts;
static PyObject *classify_code, *classify_c, *code_cache;
static void (*cpu)(int);
static int python_cat;
static struct { const void *def; int cat; } cache[CACHE_SIZE];
static size_t cached;

static void cpu_set(int cat)
{
	if (cat != ts.current) {
		ts.current = cat;
		cpu(cat);
	}
}

static void push(PyObject *key, int cat)
{
	if (ts.n >= STACK_MAX)
		return;
	Py_INCREF(key);
	ts.stack[ts.n].key = key;
	ts.stack[ts.n++].cat = cat;
	if (ts.n == 1)
		cpu_set(cat);
}

static void pop_if(PyObject *key)
{
	if (ts.n == 0 || ts.stack[ts.n - 1].key != key)
		return;
	Py_DECREF(ts.stack[--ts.n].key);
	cpu_set(ts.n ? ts.stack[ts.n - 1].cat : python_cat);
}

/* A category from a classifier's result: -1 undecided (None), else >= 0. */
static int result_cat(PyObject *r)
{
	long v;

	if (!r) {
		PyErr_Clear();
		return 0;
	}
	if (r == Py_None) {
		Py_DECREF(r);
		return -1;
	}
	v = PyLong_AsLong(r);
	Py_DECREF(r);
	if (v < 0 || PyErr_Occurred()) {
		PyErr_Clear();
		return 0;
	}
	return (int)v;
}

static int code_cat(PyFrameObject *frame)
{
	PyCodeObject *code = PyFrame_GetCode(frame);
	PyObject *v = PyDict_GetItem(code_cache, (PyObject *)code);
	int cat;

	if (v) {
		cat = (int)PyLong_AsLong(v);
	} else {
		cat = result_cat(PyObject_CallOneArg(classify_code, (PyObject *)frame));
		if (cat >= 0) {
			PyObject *c = PyLong_FromLong(cat);

			if (!c || PyDict_SetItem(code_cache, (PyObject *)code, c) < 0)
				PyErr_Clear();
			Py_XDECREF(c);
		}
	}
	Py_DECREF(code);
	return cat;
}

static int c_cat(PyObject *fn)
{
	const void *def;
	size_t h;

	if (!PyCFunction_Check(fn))
		return 0;
	def = ((PyCFunctionObject *)fn)->m_ml;
	h = ((size_t)def >> 4) & (CACHE_SIZE - 1);
	while (cache[h].def && cache[h].def != def)
		h = (h + 1) & (CACHE_SIZE - 1);
	if (!cache[h].def) {
		/* A full cache stops caching: classify every time. */
		int cat = result_cat(PyObject_CallOneArg(classify_c, fn));

		if (cat < 0)
			cat = 0;
		if (cached < CACHE_SIZE / 2) {	/* else: classify every time */
			cache[h].def = def;
			cache[h].cat = cat;
			cached++;
		}
		return cat;
	}
	return cache[h].cat;
}

static int hook(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
	int cat;

	(void)obj;
	if (!ts.init) {
		ts.init = 1;
		ts.current = python_cat;
		cpu(python_cat);
	}
	switch (what) {
	case PyTrace_CALL:
		if ((cat = code_cat(frame)) > 0)
			push((PyObject *)frame, cat);
		break;
	case PyTrace_RETURN:
		pop_if((PyObject *)frame);
		break;
	case PyTrace_C_CALL:
		if (ts.n == 0 && (cat = c_cat(arg)) > 0)
			push(arg, cat);
		break;
	case PyTrace_C_RETURN:
	case PyTrace_C_EXCEPTION:
		pop_if(arg);
		break;
	}
	return 0;
}

static PyObject *py_start(PyObject *self, PyObject *args)
{
	PyObject *cc, *cf;
	unsigned long long addr;
	int pycat;

	(void)self;
	if (!PyArg_ParseTuple(args, "OOKi", &cc, &cf, &addr, &pycat))
		return NULL;
	if (!addr || !PyCallable_Check(cc) || !PyCallable_Check(cf)) {
		PyErr_SetString(PyExc_ValueError, "start: bad arguments");
		return NULL;
	}
	if (!code_cache && !(code_cache = PyDict_New()))
		return NULL;
	Py_XSETREF(classify_code, Py_NewRef(cc));
	Py_XSETREF(classify_c, Py_NewRef(cf));
	cpu = (void (*)(int))(uintptr_t)addr;
	python_cat = pycat;
	Py_RETURN_NONE;
}

static PyObject *py_thread(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	if (!cpu) {
		PyErr_SetString(PyExc_RuntimeError, "start() first");
		return NULL;
	}
	PyEval_SetProfile(hook, NULL);
	if (!ts.init) {
		ts.init = 1;
		ts.current = python_cat;
		cpu(python_cat);
	}
	Py_RETURN_NONE;
}

static PyObject *py_resync(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	if (cpu && ts.init)
		cpu(ts.current);
	Py_RETURN_NONE;
}

static PyObject *py_stop(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	PyEval_SetProfile(NULL, NULL);
	Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
	{ "start", py_start, METH_VARARGS, "start(classify_code, classify_c, cpu_address, python_category)" },
	{ "thread", py_thread, METH_NOARGS, "install the hook on the calling thread" },
	{ "resync", py_resync, METH_NOARGS, "say the current category again" },
	{ "stop", py_stop, METH_NOARGS, "remove the hook from the calling thread" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "_rlprof_hook", "profile hook of the rlprof module", -1, methods,
	NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__rlprof_hook(void);

PyMODINIT_FUNC PyInit__rlprof_hook(void)
{
	/* Built for one minor version of Python: refuse others. */
	if ((Py_Version >> 16) != (PY_VERSION_HEX >> 16)) {
		PyErr_SetString(PyExc_ImportError, "_rlprof_hook: built for another Python");
		return NULL;
	}
	return PyModule_Create(&module);
}
