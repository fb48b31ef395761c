/*
 * rlkit._atari: the C side of rlkit.atari, one object over struct
 * atari_vec (atari/vec.h).  The object exports its arena through the
 * buffer protocol, so that NumPy arrays over the batches keep it alive;
 * send() and recv() release the interpreter lock while they wait.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>

#include "atari/vec.h"

typedef struct {
	PyObject_HEAD
	struct atari_vec *v;
	int closed;
} VecObject;

static PyObject *raise_error(const struct core_error *err)
{
	PyObject *type = err->code == -ENOMEM ? PyExc_MemoryError :
			 err->code == -EINVAL || err->code == -ENOTSUP ? PyExc_ValueError :
			 PyExc_OSError;

	PyErr_SetString(type, err->msg[0] ? err->msg : "emulator error");
	return NULL;
}

static int vec_init(VecObject *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "rom", "game", "num_envs", "batch_size", "threads", "frame_stack",
		"same_step", "full_action_space", "frameskip", "repeat_action_probability",
		"max_frames", "noop_max", "episodic_life", "maxpool", "obs", "resize", "difficulty",
		"seed", "mode", NULL };
	struct atari_env_config cfg = ATARI_ENV_CONFIG_INIT;
	struct atari_vec_config vc = ATARI_VEC_CONFIG_INIT;
	struct core_error err = CORE_ERROR_INIT;
	const char *rom, *game = NULL;
	unsigned long long seed = 0;
	int ret, mode = -1;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "sziiiippifiippiiiK|i", names, &rom, &game,
					 &vc.n, &vc.batch_size, &vc.threads, &vc.stack,
					 &vc.same_step, &vc.full_action_space, &cfg.frameskip,
					 &cfg.repeat_action_probability, &cfg.max_frames,
					 &cfg.noop_max, &cfg.episodic_life, &cfg.maxpool, &cfg.obs,
					 &cfg.resize, &cfg.difficulty, &seed, &mode))
		return -1;
	/* Game modes: -1 (ATARI_MODE_DEFAULT) is the game's default mode. */
	cfg.mode = mode;
	cfg.seed = seed;
	if (self->v)
		atari_vec_free(self->v);
	self->v = NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = atari_vec_open(&self->v, rom, game, &cfg, &vc, &err);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		raise_error(&err);
		return -1;
	}
	return 0;
}

static void vec_dealloc(VecObject *self)
{
	atari_vec_free(self->v);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int vec_open(VecObject *self)
{
	if (!self->v || self->closed) {
		PyErr_SetString(PyExc_RuntimeError, "the environments are closed");
		return 0;
	}
	return 1;
}

/* send(actions, env_ids=None): int32 buffers. */
static PyObject *vec_send(VecObject *self, PyObject *args)
{
	PyObject *actions, *ids = Py_None;
	Py_buffer a, b = { 0 };
	struct core_error err = CORE_ERROR_INIT;
	int ret;
	Py_ssize_t count;

	if (!PyArg_ParseTuple(args, "O|O", &actions, &ids) || !vec_open(self))
		return NULL;
	if (PyObject_GetBuffer(actions, &a, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
		return NULL;
	count = a.len / 4;
	if (a.itemsize != 4 || !a.format || (strcmp(a.format, "i") && strcmp(a.format, "=i") &&
					     strcmp(a.format, "<i"))) {
		PyBuffer_Release(&a);
		PyErr_SetString(PyExc_TypeError, "actions must be an int32 array");
		return NULL;
	}
	if (ids != Py_None) {
		if (PyObject_GetBuffer(ids, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
			PyBuffer_Release(&a);
			return NULL;
		}
		if (b.itemsize != 4 || b.len != a.len) {
			PyBuffer_Release(&a);
			PyBuffer_Release(&b);
			PyErr_SetString(PyExc_ValueError, "env_ids must be int32, one per action");
			return NULL;
		}
	} else if (count != self->v->vc.n) {
		PyBuffer_Release(&a);
		PyErr_Format(PyExc_ValueError, "%zd actions for %d environments (without env_ids, one each)",
			     count, self->v->vc.n);
		return NULL;
	}
	ret = atari_vec_send(self->v, a.buf, ids != Py_None ? b.buf : NULL, (int)count, &err);
	PyBuffer_Release(&a);
	if (ids != Py_None)
		PyBuffer_Release(&b);
	if (ret < 0)
		return raise_error(&err);
	Py_RETURN_NONE;
}

/* recv() -> the index of the batch in the arena. */
static PyObject *vec_recv(VecObject *self, PyObject *unused)
{
	struct core_error err = CORE_ERROR_INIT;
	int r;

	if (!vec_open(self))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	r = atari_vec_recv(self->v, &err);
	Py_END_ALLOW_THREADS
	if (r < 0)
		return raise_error(&err);
	return PyLong_FromLong(r);
}

/* step(actions) -> batch index: send to all and recv, in one call. */
static PyObject *vec_step(VecObject *self, PyObject *args)
{
	PyObject *r = vec_send(self, args);

	if (!r)
		return NULL;
	Py_DECREF(r);
	return vec_recv(self, NULL);
}

static PyObject *vec_seed(VecObject *self, PyObject *args)
{
	unsigned long long seed;

	if (!PyArg_ParseTuple(args, "K", &seed) || !vec_open(self))
		return NULL;
	atari_vec_seed(self->v, seed);
	Py_RETURN_NONE;
}

static PyObject *vec_seed_each(VecObject *self, PyObject *args)
{
	Py_buffer b;

	if (!PyArg_ParseTuple(args, "y*", &b))
		return NULL;
	if (!vec_open(self) || b.len != (Py_ssize_t)(sizeof(uint32_t) * (size_t)self->v->vc.n)) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_ValueError, "seed_each needs %d 32-bit seeds",
				     self->v->vc.n);
		PyBuffer_Release(&b);
		return NULL;
	}
	atari_vec_seed_each(self->v, (const uint32_t *)b.buf);
	PyBuffer_Release(&b);
	Py_RETURN_NONE;
}

/* close(): stop the workers; the arena lives while arrays use it. */
static PyObject *vec_close(VecObject *self, PyObject *unused)
{
	if (self->v && !self->closed) {
		Py_BEGIN_ALLOW_THREADS
		atari_vec_stop(self->v);
		Py_END_ALLOW_THREADS
	}
	self->closed = 1;
	Py_RETURN_NONE;
}

static PyObject *vec_layout(VecObject *self, PyObject *unused)
{
	const struct atari_vec *v = self->v;
	PyObject *acts;

	if (!vec_open(self))
		return NULL;
	acts = PyTuple_New(v->n_actions);
	if (!acts)
		return NULL;
	for (int a = 0; a < v->n_actions; a++)
		PyTuple_SET_ITEM(acts, a, PyLong_FromLong(v->actions[a]));
	return Py_BuildValue("{s:n,s:i,s:i,s:i,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:N,s:s,s:s,s:i,s:s}",
		"batch_bytes", (Py_ssize_t)v->batch_bytes, "rings", v->rings,
		"batch_size", v->vc.batch_size, "height", v->height,
		"frame_size", (Py_ssize_t)v->frame_size, "obs_size", (Py_ssize_t)v->obs_size,
		"obs", (Py_ssize_t)v->off_obs, "final_obs", (Py_ssize_t)v->off_final_obs,
		"reward", (Py_ssize_t)v->off_reward, "terminated", (Py_ssize_t)v->off_terminated,
		"truncated", (Py_ssize_t)v->off_truncated, "lives", (Py_ssize_t)v->off_lives,
		"episode_frame_number", (Py_ssize_t)v->off_episode_frame,
		"frame_number", (Py_ssize_t)v->off_frame, "env_id", (Py_ssize_t)v->off_env_id,
		"actions", acts, "game", v->game->name, "md5", v->rom.md5,
		"verified", v->game->verified, "reference", atari_game_reference_name(v->game));
}

static int vec_getbuffer(VecObject *self, Py_buffer *view, int flags)
{
	if (!self->v) {
		PyErr_SetString(PyExc_BufferError, "no environments");
		return -1;
	}
	return PyBuffer_FillInfo(view, (PyObject *)self, self->v->arena,
				 (Py_ssize_t)self->v->arena_size, 0, flags);
}

static PyBufferProcs vec_as_buffer = { (getbufferproc)vec_getbuffer, NULL };

static PyMethodDef vec_methods[] = {
	{ "send", (PyCFunction)vec_send, METH_VARARGS, "send(actions, env_ids=None)" },
	{ "recv", (PyCFunction)vec_recv, METH_NOARGS, "recv() -> batch index" },
	{ "step", (PyCFunction)vec_step, METH_VARARGS, "step(actions) -> batch index" },
	{ "seed", (PyCFunction)vec_seed, METH_VARARGS, "seed(seed): of the next reload" },
	{ "seed_each", (PyCFunction)vec_seed_each, METH_VARARGS,
	  "seed_each(bytes): a uint32 ALE random_seed per environment, for the next reload" },
	{ "close", (PyCFunction)vec_close, METH_NOARGS, "close()" },
	{ "layout", (PyCFunction)vec_layout, METH_NOARGS, "layout() -> dict" },
	{ NULL, NULL, 0, NULL }
};

static PyTypeObject VecType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "rlkit._atari.Vec",
	.tp_basicsize = sizeof(VecObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Environments stepped by worker threads (atari/vec.h).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)vec_init,
	.tp_dealloc = (destructor)vec_dealloc,
	.tp_methods = vec_methods,
	.tp_as_buffer = &vec_as_buffer,
};

/* games() -> [(name, title, md5, verified, reference)] */
static PyObject *mod_games(PyObject *self, PyObject *unused)
{
	PyObject *list = PyList_New(0);

	for (int k = 1; list && k < atari_games_count; k++) {
		const struct atari_game *g = &atari_games[k];
		PyObject *t = Py_BuildValue("(sssis)", g->name, g->title, g->md5, g->verified,
					    atari_game_reference_name(g));

		if (!t || PyList_Append(list, t) < 0) {
			Py_XDECREF(t);
			Py_DECREF(list);
			return NULL;
		}
		Py_DECREF(t);
	}
	return list;
}

static PyMethodDef mod_methods[] = {
	{ "games", mod_games, METH_NOARGS, "games() -> [(name, title, md5, verified, reference)]" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef atari_module = {
	PyModuleDef_HEAD_INIT, "rlkit._atari", "The emulator's vector environments.", -1,
	mod_methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__atari(void);

PyMODINIT_FUNC PyInit__atari(void)
{
	PyObject *m;

	if (PyType_Ready(&VecType) < 0)
		return NULL;
	m = PyModule_Create(&atari_module);
	if (!m)
		return NULL;
	Py_INCREF(&VecType);
	if (PyModule_AddObject(m, "Vec", (PyObject *)&VecType) < 0) {
		Py_DECREF(&VecType);
		Py_DECREF(m);
		return NULL;
	}
	PyModule_AddIntConstant(m, "RESET", ATARI_VEC_RESET);
	PyModule_AddIntConstant(m, "RELOAD", ATARI_VEC_RELOAD);
	PyModule_AddIntConstant(m, "OBS_NONE", ATARI_OBS_NONE);
	PyModule_AddIntConstant(m, "OBS_GRAY", ATARI_OBS_GRAY);
	PyModule_AddIntConstant(m, "OBS_RGB", ATARI_OBS_RGB);
	PyModule_AddIntConstant(m, "OBS_RAM", ATARI_OBS_RAM);
	return m;
}
