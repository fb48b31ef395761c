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

# on HOST COMMAND...: run COMMAND in host HOST's namespace (h0, h1, ...).
on() {
	local h=$1
	shift
	ip netns exec "$NETNS_PREFIX-$h" "$@"
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
	cat > "$NETNS/sshd$i.conf" <<CONF
Port 22
ListenAddress $(netns_addr "$i")
HostKey $NETNS/host_key
AuthorizedKeysFile $NETNS/authorized_keys
PidFile $NETNS/sshd$i.pid
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
MaxStartups 100:30:200
MaxSessions 100
LogLevel INFO
CONF
	on "h$i" /usr/sbin/sshd -f "$NETNS/sshd$i.conf" -D -E "$NETNS/sshd$i.log" &
	echo $! > "$NETNS/sshd$i.bgpid"
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
