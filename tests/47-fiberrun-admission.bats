#!/usr/bin/env bats
# fiberrun --pool: admission of connections.  A local user holding many
# unauthenticated connections to the master's port cannot keep workers out.

load helpers

# holder PORT N: open N idle connections to 127.0.0.1:PORT, write "held" when
# they are open, and open a new one for each one the master closes.
holder() {
	python3 - "$@" <<'PY' &
import os, select, socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
def connect():
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port))
        except OSError:
            select.select([], [], [], 0.05)   # the master is not listening yet
conns = [connect() for _ in range(n)]
with open("held.tmp", "w") as f:
    f.write("%d\n" % len(conns))
os.rename("held.tmp", "held")
reopened = 0
while True:
    r, _, _ = select.select(conns, [], [])
    for s in r:
        if not s.recv(64):
            conns.remove(s); s.close()
            conns.append(connect()); reopened += 1
            with open("reopened", "w") as f:
                f.write("%d\n" % reopened)
PY
	HOLDER=$!
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

teardown() {
	[ -z "${HOLDER:-}" ] || kill "$HOLDER" 2>/dev/null || true
}

@test "--pool: 300 idle connections held during a run with replaced workers; no task fails" {
	port=$(free_port)
	holder "$port" 300
	# Each worker answers one task and exits: 40 workers and more connect while the
	# connections are held (-r: a task sent to a worker as it exits is sent again).
	# The tasks go in once the holder has seen the master close one of its
	# connections to make room (300 is over the master's list) and opened
	# another: from then on the holder keeps the list full until the end.
	{ wait_file held && wait_file reopened && seq 40; } | fiberrun --pool --protocol lines --lines -n 4 --prefetch 1 -r 1000 --bind "127.0.0.1:$port" -- \
		sh -c 'read -r n && echo "$n"' > out 2> err || status=$?
	[ "${status:-0}" -eq 0 ] || { cat err; false; }
	[ "$(wc -l < out)" -eq 40 ]
	[ "$(grep -c '"status":"ok"' out)" -eq 40 ]
	[ "$(cat held)" -eq 300 ]
}
