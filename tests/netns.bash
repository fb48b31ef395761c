# Test hosts that are really separate: each host is a network namespace
# with its own network stack, joined to the others by veth pairs on a
# private bridge, and running its own sshd.  Load with `load netns` after
# `load helpers`.
#
#	netns_up 4	# hosts h0 (the master's) and h1..h4, in setup_file
#	on h0 fiberrun --bind "$(netns_addr 0):0" -H "$NETNS/hosts" ...
#	netns_down	# in teardown_file
#
# Layout, all inside namespaces named rlk<pid>-*: a bridge in rlk<pid>-br;
# host i in rlk<pid>-h<i> with address 10.77.0.(10+i)/24 on its veth.
# Nothing is added to the machine's own network stack, so concurrent test
# files (each with its own pid) use the same addresses without meeting,
# and traffic stays on the test hosts.  Each host's sshd listens on port
# 22 of its address; "$NETNS/ssh_config" names the hosts h1..hN with a key
# made for the test.  Everything goes on netns_down, and namespaces left by
# an earlier run that was killed (their owner pid gone) go at the next
# netns_up.
#
# NETNS_OWNER (default: this shell's pid) is the pid that owns the
# namespaces.  Needs root and iproute2; netns_skip_reason says why not.

NETNS_SUBNET=10.77.0

# netns_skip_reason: empty when namespaces can be made here, else why not.
netns_skip_reason() {
	[ "$(id -u)" = 0 ] || { echo "needs root (network namespaces)"; return; }
	command -v ip > /dev/null || { echo "needs iproute2 (ip)"; return; }
	command -v /usr/sbin/sshd > /dev/null || { echo "needs sshd (openssh-server)"; return; }
	local probe="rlk$$-probe"
	ip netns add "$probe" 2> /dev/null || { echo "ip netns add is not permitted here"; return; }
	ip netns del "$probe"
}

netns_addr() {
	echo "$NETNS_SUBNET.$((10 + $1))"
}

# on HOST COMMAND...: run COMMAND in host HOST's network namespace (h0,
# h1, ...).  Only the network is switched (not `ip netns exec`, which also
# remounts /sys and so hides the cgroup tree that slurmd needs).
on() {
	local h=$1
	shift
	nsenter --net="/run/netns/$NETNS_PREFIX-$h" -- "$@"
}

# Remove the namespaces of runs whose owner is gone.
netns_reap_stale() {
	local ns owner
	for ns in $(ip netns list | awk '{print $1}' | grep '^rlk[0-9]*-'); do
		owner=${ns%%-*}
		owner=${owner#rlk}
		kill -0 "$owner" 2> /dev/null && continue
		netns_del_one "$ns"
	done
}

# Kill what runs in one namespace (its processes only), then delete it.
netns_del_one() {
	local pids
	pids=$(ip netns pids "$1" 2> /dev/null)
	# shellcheck disable=SC2086
	if [ -n "$pids" ]; then
		kill -CONT $pids 2> /dev/null
		kill -KILL $pids 2> /dev/null
	fi
	ip netns del "$1" 2> /dev/null
	return 0
}

# setup_file of a suite whose tests need N hosts: makes them, or notes why
# the suite is skipped (netns_test_setup says it).
netns_file_setup() {
	local why
	why=$(netns_skip_reason)
	if [ -n "$why" ]; then
		mkdir -p "$BATS_FILE_TMPDIR/netns"
		echo "$why" > "$BATS_FILE_TMPDIR/netns/skip"
		return 0
	fi
	netns_up "$1"
}

# setup of each test: its own folder, the skip noted by netns_file_setup,
# and MASTER, the master's address on h0.
netns_test_setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	[ ! -f "$BATS_FILE_TMPDIR/netns/skip" ] || skip "$(cat "$BATS_FILE_TMPDIR/netns/skip")"
	MASTER=$(netns_addr 0)
}

# netns_up N: the bridge, the master's host h0 and hosts h1..hN with sshd.
netns_up() {
	local n=$1 i ns
	export NETNS="$BATS_FILE_TMPDIR/netns"
	export NETNS_PREFIX="rlk${NETNS_OWNER:-$$}"
	export NETNS_HOSTS=$n
	mkdir -p "$NETNS" /run/sshd
	netns_reap_stale
	echo "$NETNS_PREFIX" > "$NETNS/prefix"
	ip netns add "$NETNS_PREFIX-br" || return 1
	ip -n "$NETNS_PREFIX-br" link add br0 type bridge || return 1
	ip -n "$NETNS_PREFIX-br" link set br0 up || return 1
	for ((i = 0; i <= n; i++)); do
		ns="$NETNS_PREFIX-h$i"
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up || return 1
		# The pair is made in the host's namespace, its peer then moved
		# to the bridge's: no interface ever appears in the machine's.
		ip -n "$ns" link add eth0 type veth peer name "p$i" || return 1
		ip -n "$ns" link set "p$i" netns "$NETNS_PREFIX-br" || return 1
		ip -n "$NETNS_PREFIX-br" link set "p$i" master br0 up || return 1
		ip -n "$ns" addr add "$(netns_addr "$i")/24" dev eth0 || return 1
		ip -n "$ns" link set eth0 up || return 1
	done
	ssh-keygen -q -t ed25519 -N '' -f "$NETNS/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$NETNS/id" || return 1
	cp "$NETNS/id.pub" "$NETNS/authorized_keys"
	: > "$NETNS/ssh_config"
	: > "$NETNS/hosts"
	for ((i = 1; i <= n; i++)); do
		netns_sshd_start "$i" || return 1
		printf 'Host h%d\n\tHostName %s\n' "$i" "$(netns_addr "$i")" >> "$NETNS/ssh_config"
		echo "h$i" >> "$NETNS/hosts"
	done
	cat >> "$NETNS/ssh_config" <<CONF
Host *
	User root
	IdentityFile $NETNS/id
	IdentitiesOnly yes
	UserKnownHostsFile /dev/null
	StrictHostKeyChecking no
	LogLevel ERROR
	ConnectTimeout 5
CONF
	export SSH="ssh -F $NETNS/ssh_config"
	for ((i = 1; i <= n; i++)); do
		wait_for netns_ssh_ready "$i" || { cat "$NETNS"/sshd*.log >&2; return 1; }
	done
}

netns_sshd_start() {
	local i=$1
	write_sshd_config "$NETNS/sshd$i.conf" "$(netns_addr "$i")" 22 "$NETNS" "$NETNS/sshd$i.pid"
	on "h$i" /usr/sbin/sshd -f "$NETNS/sshd$i.conf" -D -E "$NETNS/sshd$i.log" &
	echo $! > "$NETNS/sshd$i.bgpid"
	disown $!	# netns_down kills it, without a word from the shell
}

# From the master's host h0, as fiberrun will reach it.
netns_ssh_ready() {
	on h0 ssh -F "$NETNS/ssh_config" -o BatchMode=yes "h$1" true 2> /dev/null
}

# netns_down: every namespace of this run and what runs in it.
netns_down() {
	local i
	[ -n "${NETNS_PREFIX:-}" ] || return 0
	for ((i = 0; i <= ${NETNS_HOSTS:-0}; i++)); do
		netns_del_one "$NETNS_PREFIX-h$i"
	done
	netns_del_one "$NETNS_PREFIX-br"
	return 0
}

# netns_link HOST up|down: the host's link to the others.
netns_link() {
	ip -n "$NETNS_PREFIX-br" link set "p${1#h}" "$2"
}

# netns_freeze HOST / netns_thaw HOST: stop or continue every process of a
# host (its sshd, and the workers under it).
netns_freeze() {
	# shellcheck disable=SC2046
	kill -STOP $(ip netns pids "$NETNS_PREFIX-$1")
}

netns_thaw() {
	# shellcheck disable=SC2046
	kill -CONT $(ip netns pids "$NETNS_PREFIX-$1")
}

# netns_slurm_up: a Slurm cluster over the hosts: slurmctld on h0 (where
# the tests submit from), a slurmd on each of h1..hN as node hI, munged
# shared (its socket is a file).  Each daemon gets its own hostname (a UTS
# namespace), so that every slurmd is a node of its own.  Prints why not
# and returns 2 when a daemon is not installed, 1 when one cannot start.
netns_slurm_up() {
	local n=$NETNS_HOSTS i d
	for d in munged slurmctld slurmd; do
		command -v $d > /dev/null || command -v /usr/sbin/$d > /dev/null ||
			{ echo "needs $d (Debian's slurm-wlm and munge)"; return 2; }
	done
	export S="$NETNS/slurm" SLURM_CONF="$NETNS/slurm/slurm.conf"
	mkdir -p "$S/state"
	head -c 1024 /dev/urandom > "$S/munge.key"
	chmod 600 "$S/munge.key"
	# -f: the socket's folder is under a private temporary folder.
	munged -f -S "$S/munge.socket" --key-file="$S/munge.key" --log-file="$S/munged.log" \
		--pid-file="$S/munged.pid" --seed-file="$S/munged.seed" 2> "$S/munged.err" ||
		{ echo "munged cannot start: $(cat "$S/munged.err")"; return 1; }
	slurm_conf_common "$S" > "$SLURM_CONF"
	cat >> "$SLURM_CONF" <<CONF
ClusterName=fiberrun-netns
SlurmctldHost=h0($(netns_addr 0))
SlurmctldPort=6817
SlurmdPort=6818
SlurmdSpoolDir=$S/spool-%n
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd-%n.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd-%n.log
SlurmdTimeout=10
CONF
	for ((i = 1; i <= n; i++)); do
		echo "NodeName=h$i NodeAddr=$(netns_addr "$i") CPUs=1 State=UNKNOWN" >> "$SLURM_CONF"
	done
	echo "PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >> "$SLURM_CONF"
	on h0 unshare --uts sh -c 'hostname h0 && exec slurmctld -i' > "$S/slurmctld.out" 2>&1 ||
		{ echo "slurmctld cannot start: $(tail -3 "$S/slurmctld.log")"; return 1; }
	for ((i = 1; i <= n; i++)); do
		mkdir -p "$S/spool-h$i"
		on "h$i" unshare --uts sh -c "hostname h$i && exec slurmd" > "$S/slurmd-h$i.out" 2>&1 ||
			{ echo "slurmd cannot start on h$i: $(tail -3 "$S/slurmd-h$i.log")"; return 1; }
	done
	wait_for netns_slurm_idle "$n" ||
		{ echo "the nodes did not come up: $(on h0 sinfo -h 2>&1 | tr '\n' ' ')"; return 1; }
}

# netns_slurm_idle N: N nodes are idle.
netns_slurm_idle() {
	[ "$(on h0 sinfo -h -N -t idle -o %N 2> /dev/null | sort -u | wc -l)" -eq "$1" ]
}

# netns_slurm_down: munged (the daemons go with their namespaces).
netns_slurm_down() {
	[ -f "${S:-}/munged.pid" ] && kill "$(cat "$S/munged.pid")" 2> /dev/null
	return 0
}

# netns_kill_sshd HOST: kill the sshd processes of a host (its listener and
# the sessions it serves), nothing else; netns_sshd_start brings one back.
netns_kill_sshd() {
	local p pids=""
	for p in $(ip netns pids "$NETNS_PREFIX-$1"); do
		[ "$(cat "/proc/$p/comm" 2> /dev/null)" = sshd ] && pids="$pids $p"
	done
	# shellcheck disable=SC2086
	[ -n "$pids" ] && kill -KILL $pids
}
