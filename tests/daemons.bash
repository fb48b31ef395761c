# Configuration files of the daemons that tests and benches start: sshd
# and Slurm.  Plain bash (no Bats), sourced by tests/helpers.bash and by
# bench scripts.

# write_sshd_config FILE ADDRESS PORT DIR PIDFILE: the configuration of an
# sshd for tests: key login only, with DIR's host_key and authorized_keys.
# Its sessions get the caller's PATH and DIR as their HOME, so that the
# shell on the host finds what the caller finds and reads no start-up file
# of the user's: a ~/.bashrc that takes long or waits on a lock (one left
# by a session a test killed) would make every login slow.
write_sshd_config() {
	cat > "$1" <<CONF
Port $3
ListenAddress $2
HostKey $4/host_key
AuthorizedKeysFile $4/authorized_keys
PidFile $5
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
MaxStartups 100:30:200
MaxSessions 100
LogLevel INFO
SetEnv "HOME=$4" "PATH=$PATH"
CONF
}

# slurm_conf_common DIR: the slurm.conf lines every test cluster shares
# (munge in DIR, root as the Slurm user, no accounting, no cgroups).
slurm_conf_common() {
	cat <<CONF
AuthType=auth/munge
AuthInfo=socket=$1/munge.socket
CredType=cred/munge
StateSaveLocation=$1/state
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SlurmUser=root
SlurmdUser=root
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
CONF
}
