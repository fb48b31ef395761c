#!/usr/bin/env bats
# fiberrun --mem-limit: a memory cgroup per worker command (per --each
# runner) where one can be made, else RLIMIT_AS; a task that runs out of
# memory fails with a reason that says so.

load helpers

# The folder in which fiberrun makes its memory cgroups here (as it looks
# for one: cgroup v2 where our group or its parent hands memory down, else
# below our group of the v1 memory hierarchy), or nothing.
memcg_parent() {
	local root mnt own p
	read -r root mnt < <(awk '/ - cgroup2 / {print $4, $5; exit}' /proc/self/mountinfo)
	if [ -n "$mnt" ]; then
		own=$(sed -n 's/^0:://p' /proc/self/cgroup)
		[ "$root" = / ] || own=${own#"$root"}
		p=$mnt${own%/}
		for p in "$p" "${p%/*}"; do
			if grep -qw memory "$p/cgroup.subtree_control" 2>/dev/null && [ -w "$p/cgroup.procs" ]; then
				echo "$p"
				return 0
			fi
		done
	fi
	read -r root mnt < <(awk '/ - cgroup cgroup / && $NF ~ /(^|,)memory(,|$)/ {print $4, $5; exit}' /proc/self/mountinfo)
	[ -n "$mnt" ] || return 1
	own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3; exit}' /proc/self/cgroup)
	[ "$root" = / ] || own=${own#"$root"}
	p=$mnt${own%/}
	[ -w "$p" ] && echo "$p"
}

need_memcg() {
	MEMCG=$(memcg_parent) ||
		skip "no memory cgroup can be made here (it needs a writable memory controller: root, or a delegated cgroup v2 subtree)"
}

# A C worker (lines protocol) that fills N MiB for each task N.
c_worker() {
	command -v cc > /dev/null || skip "no C compiler"
	cat > fill.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char line[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		size_t n = strtoull(line, NULL, 10) << 20;
		char *p = malloc(n);

		memset(p, 1, n);	/* NULL when over RLIMIT_AS: SIGSEGV */
		printf("%zu\n", n + (size_t)p[n - 1] - 1);
		free(p);
	}
	return 0;
}
EOF
	cc -O0 -o fill fill.c
}

PY_FILL='import sys; bytearray(int(sys.argv[1]) << 20)'

@test "--mem-limit: bad sizes are usage errors; it is a pool option" {
	run --separate-stderr fiberrun --pool --mem-limit 12 -- true
	assert_failure 2
	[[ $stderr == *"bad memory limit '12'"* ]]
	run --separate-stderr fiberrun --mem-limit 1G -- true
	assert_failure 2
}

@test "--mem-limit, memory cgroup, --each: a command over the limit fails 'out of memory' (record and joblog); the others run in the group; it is removed at the end" {
	need_memcg
	run --separate-stderr bash -c "printf '10\n600\n10\n' | fiberrun --each --lines -k -n 1 -j log --mem-limit 300M -- \
		sh -c 'cat \"\$FIBERRUN_MEM_CGROUP/memory.max\" 2>/dev/null || cat \"\$FIBERRUN_MEM_CGROUP/memory.limit_in_bytes\"; echo \"\$FIBERRUN_MEM_CGROUP\" > where; exec python3 -c \"\$0\" \"\$1\"' '$PY_FILL' {}"
	assert_failure 1
	assert_line --index 0 --regexp '"id":1,"status":"ok","result":"314572800"'
	assert_line --index 1 --regexp '"id":2,"status":"error",.*"error":"out of memory: the command was killed by the kernel at its --mem-limit of 314572800 bytes \(memory cgroup\)"'
	assert_line --index 2 --regexp '"id":3,"status":"ok","result":"314572800"'
	grep -q '"id":2,"status":"error",.*"error":"out of memory: the command was killed by the kernel' log
	group=$(cat where)
	[[ $group == "$MEMCG"/fiberrun-* ]]
	[ ! -e "$group" ]
}

@test "--mem-limit, memory cgroup, --each: a process the command started is killed; the command's own end is named" {
	need_memcg
	run --separate-stderr bash -c "echo 600 | fiberrun --each --lines -n 1 --mem-limit 300M -- sh -c 'python3 -c \"\$0\" \"\$1\"; exit 3' '$PY_FILL' {}"
	assert_failure 1
	assert_output --regexp '"status":"error",.*"error":"out of memory: the kernel killed a process of the command at its --mem-limit of 314572800 bytes \(memory cgroup\), and the command ended with exit 3"'
}

@test "--mem-limit, memory cgroup, pool: a C worker over the limit is lost 'out of memory', its task fails so after its retries, the next task runs" {
	need_memcg
	c_worker
	run --separate-stderr bash -c "printf '10\n600\n20\n' | fiberrun --pool --protocol lines --lines -k -n 1 -r 2 -j log --mem-limit 300M -- ./fill"
	assert_failure 1
	assert_line --index 0 --regexp '"id":1,"status":"ok","result":"10485760"'
	assert_line --index 1 --regexp '"id":2,"status":"failed",.*"error":"out of memory: the worker was killed by the kernel at its --mem-limit of 314572800 bytes \(memory cgroup\)",.*"attempts":2'
	assert_line --index 2 --regexp '"id":3,"status":"ok","result":"20971520"'
	[[ $stderr == *"lost: out of memory: the worker was killed by the kernel"* ]]
	grep -q '"id":2,"status":"failed",.*"error":"out of memory: the worker was killed' log
}

@test "--mem-limit, memory cgroup, pool: a worker whose process was killed and that answers with an error: the error says 'out of memory' first" {
	need_memcg
	run --separate-stderr bash -c "printf '10\n600\n20\n' | fiberrun --pool --protocol lines --lines -k -n 1 --mem-limit 300M -- \
		sh -c 'while read n; do if python3 -c \"\$0\" \"\$n\"; then echo \"ok \$n\"; else echo \"!task \$n failed\"; fi; done' '$PY_FILL'"
	assert_failure 1
	assert_line --index 0 --regexp '"id":1,"status":"ok","result":"ok 10"'
	assert_line --index 1 --regexp '"id":2,"status":"error",.*"error":"out of memory: the kernel killed a process of the worker at its --mem-limit of 314572800 bytes \(memory cgroup\): task 600 failed"'
	assert_line --index 2 --regexp '"id":3,"status":"ok","result":"ok 20"'
}

@test "--mem-limit, memory cgroup: groups left by a fiberrun that is gone are removed when the next one starts beside them; others stay" {
	need_memcg
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	! alive "$dead"
	mkdir "$MEMCG/fiberrun-$dead-0" "$MEMCG/fiberrun-$$-7"
	run --separate-stderr bash -c "echo 1 | fiberrun --each --lines -n 1 --mem-limit 100M -- true"
	assert_success
	[ ! -e "$MEMCG/fiberrun-$dead-0" ]
	[ -d "$MEMCG/fiberrun-$$-7" ]
	rmdir "$MEMCG/fiberrun-$$-7"
}

@test "--mem-limit, memory cgroup: a run stopped by SIGTERM removes its workers' groups (the agent's signal handler), pool and --each" {
	need_memcg
	echo 1 | fiberrun --pool --protocol lines --lines -n 1 --mem-limit 100M -- sh -c 'echo "$FIBERRUN_MEM_CGROUP" > where; exec sleep 1000' > out 2> err &
	pid=$!
	wait_file where
	group=$(cat where)
	[[ $group == "$MEMCG"/fiberrun-* ]]
	[ -d "$group" ]
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	wait_for test ! -e "$group"
	# --each: the group is the agent's; the runner puts each command in it, not itself.
	rm where
	echo 1 | fiberrun --each --lines -n 1 --mem-limit 100M -- sh -c 'cat /proc/$PPID/cgroup > runner; cat /proc/self/cgroup > self; echo "$FIBERRUN_MEM_CGROUP" > where; exec sleep 1000' > out 2> err &
	pid=$!
	wait_file where
	group=$(cat where)
	[[ $group == "$MEMCG"/fiberrun-* ]]
	grep -q "/${group##*/}\$" self
	! grep -q "/${group##*/}\$" runner
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	wait_for test ! -e "$group"
}

@test "--mem-limit, RLIMIT_AS (forced by FIBERRUN_MEM_LIMIT_RLIMIT): --each: Python's MemoryError is 'out of memory'; another failure is only named" {
	export FIBERRUN_MEM_LIMIT_RLIMIT=1
	run --separate-stderr bash -c "printf '10\n600\n10\n' | fiberrun --each --lines -k -n 1 --mem-limit 300M -- sh -c 'echo \"\${FIBERRUN_MEM_CGROUP:-none}\"; exec python3 -c \"\$0\" \"\$1\"' '$PY_FILL' {}"
	assert_failure 1
	assert_line --index 0 --regexp '"id":1,"status":"ok","result":"none"'
	assert_line --index 1 --regexp '"id":2,"status":"error",.*"error":"out of memory: the command raised MemoryError at its --mem-limit of 314572800 bytes \(RLIMIT_AS\), and ended with exit 1"'
	assert_line --index 2 --regexp '"id":3,"status":"ok"'
	[[ $stderr == *MemoryError* ]]
	run --separate-stderr bash -c "echo 1 | fiberrun --each --lines -n 1 --mem-limit 300M -- sh -c 'echo failing >&2; exit 4'"
	assert_failure 1
	assert_output --regexp '"error":"command ended with exit 4 \(its address space was limited to 314572800 bytes by --mem-limit\)"'
	[[ $stderr == *failing* ]]
}

@test "--mem-limit, RLIMIT_AS: pool: a C worker that dies of SIGSEGV is 'perhaps out of memory'; a Python worker's MemoryError is 'out of memory'" {
	export FIBERRUN_MEM_LIMIT_RLIMIT=1
	c_worker
	run --separate-stderr bash -c "printf '10\n600\n' | fiberrun --pool --protocol lines --lines -k -n 1 -r 1 --mem-limit 300M -- ./fill"
	assert_failure 1
	assert_line --index 0 --regexp '"id":1,"status":"ok","result":"10485760"'
	assert_line --index 1 --regexp '"id":2,"status":"failed",.*"error":"the worker ended with signal SIGSEGV, perhaps out of memory: its address space was limited to 314572800 bytes by --mem-limit \(RLIMIT_AS\)"'
	run --separate-stderr bash -c "echo 600 | fiberrun --pool --protocol lines --lines -n 1 -r 1 --mem-limit 300M -- python3 -c 'import sys
for l in sys.stdin: print(len(bytearray(int(l) << 20)))'"
	assert_failure 1
	assert_output --regexp '"status":"failed",.*"error":"out of memory: the worker raised MemoryError at its --mem-limit of 314572800 bytes \(RLIMIT_AS\), and ended with exit 1"'
	[[ $stderr == *MemoryError* ]]
}

@test "--mem-limit: a user who may not make a memory cgroup gets RLIMIT_AS, and 'out of memory' still" {
	[ "$(id -u)" = 0 ] || skip "needs root, to run fiberrun as another user"
	command -v setpriv > /dev/null || skip "setpriv (util-linux) is not installed"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$(command -v fiberrun)" ||
		skip "the build folder cannot be reached by an unprivileged user"
	# From /, which that user can enter; nothing is written.
	run --separate-stderr bash -c "cd / && echo 600 | setpriv --reuid=65534 --regid=65534 --clear-groups \
		'$(command -v fiberrun)' --each --lines -n 1 --mem-limit 300M -- sh -c 'echo \"\${FIBERRUN_MEM_CGROUP:-none}\" >&2; exec python3 -c \"\$0\" \"\$1\"' '$PY_FILL' {}"
	assert_failure 1
	assert_output --regexp '"status":"error",.*"error":"out of memory: the command raised MemoryError at its --mem-limit of 314572800 bytes \(RLIMIT_AS\), and ended with exit 1"'
	[[ $stderr == none* ]]
}
