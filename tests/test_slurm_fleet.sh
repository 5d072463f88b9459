#!/bin/sh
# A private three-node Slurm cluster on this host (munged with its own key
# and socket, slurmctld, three slurmd as nodes n1..n3 of one host), all in
# a temporary directory on loopback and stopped by PID on exit. It runs
# `srun -N3 --ntasks-per-node=1 ticklab fingerprint --quick` with one
# node's task beside a real busy loop pinned to its sampling CPU, then
# `ticklab fleet`, which must flag that node and no other. The neighbour
# halves the thread's CPU share or worse; on a dedicated machine the twins
# keep nearly all of theirs, so the margin is wide. On a machine shared with
# other heavy work the twins' own shares wander too; the assertion is then
# on a random quantity and can fail (seen passing in every run here, under
# a load average of 5 to 7 on 2 CPUs).
#
# The three "nodes" share this host's CPUs, so the task script takes a lock
# and the nodes fingerprint one after another, as separate machines would
# (in parallel they would all pin to the same last CPU and be each other's
# noisy neighbours). Skipped (TAP SKIP, saying why) only where Slurm cannot
# start: not root, packages missing, a daemon that does not come up.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read the fleet's JSON"
BIN=$(cd "$(dirname "$TL_BIN")" && pwd)/$(basename "$TL_BIN")

[ "$(id -u)" = 0 ] || skip_all "slurmd must run as root to start tasks (this is uid $(id -u))"
for p in munged slurmctld slurmd srun sinfo flock taskset; do
	command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
		skip_all "$p is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
PATH=$PATH:/usr/sbin
T=$tmp
chmod 700 "$T"
pids=""
cleanup() {
	for f in "$T"/busy.*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do
		i=0; while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$p" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
started=$(date +%s.%N)

# munge: its own key and socket
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge.key"
mkdir -m 700 "$T/munge"
munged --force --key-file="$T/munge.key" --socket="$T/munge/sock" --pid-file="$T/munged.pid" \
	--log-file="$T/munged.log" --seed-file="$T/munge.seed" --foreground 2>>"$T/munged.log" &
pids="$pids $!"
i=0; while [ ! -S "$T/munge/sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$T/munge/sock" ] || skip_all "munged did not start: $(tail -n 2 "$T/munged.log" 2>/dev/null)"

host=$(hostname -s)
ncpu=$(nproc --all)
mkdir -p "$T/state" "$T/spool" "$T/out"
cat > "$T/slurm.conf" <<CONF
ClusterName=ticklab
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/sock
StateSaveLocation=$T/state
SlurmctldPidFile=$T/slurmctld.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdSpoolDir=$T/spool/%n
SlurmdLogFile=$T/slurmd.%n.log
SlurmdPidFile=$T/slurmd.%n.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SlurmdTimeout=60
NodeName=n[1-3] NodeHostname=$host NodeAddr=127.0.0.1 Port=17001-17003 CPUs=$ncpu State=UNKNOWN
PartitionName=test Nodes=n[1-3] Default=YES MaxTime=10 State=UP OverSubscribe=YES
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
pids="$pids $!"
for n in n1 n2 n3; do
	mkdir -p "$T/spool/$n"
	slurmd -D -N "$n" -f "$SLURM_CONF" >"$T/slurmd.$n.out" 2>&1 &
	pids="$pids $!"
done
i=0
while [ "$(sinfo -h -o '%t' 2>/dev/null | grep -c '^idle')" != 1 ] ||
	[ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" != 3 ]; do
	sleep 0.2; i=$((i + 1))
	if [ $i -gt 150 ]; then
		diag "sinfo: $(sinfo -h -N -o '%N %t' 2>&1 | tr '\n' ' ')"
		skip_all "the Slurm nodes did not come up in 30 s: $(tail -n 2 "$T/slurmctld.log" "$T"/slurmd.n*.log 2>/dev/null | tr '\n' ' ')"
	fi
done
ok 0 "three slurmd came up as n1, n2, n3 of $host"

# The task: the sampling CPU is the last allowed one (fingerprint's default,
# made explicit); on n2 a busy loop shares it for the whole battery.
cat > "$T/task.sh" <<'TASK'
#!/bin/sh
cpu=$(taskset -cp $$ | sed 's/.*: //; s/.*[,-]//')
exec 9>"$TL_T/lock"
flock 9
if [ "$SLURMD_NODENAME" = n2 ]; then
	# two loops: the sampling thread keeps about a third of its CPU, a
	# margin that background load on a shared machine does not erase
	for i in 1 2; do
		taskset -c "$cpu" sh -c 'while :; do :; done' &
		echo $! > "$TL_T/busy.$SLURMD_NODENAME.$i.pid"
	done
fi
s=$(date +%s.%N)
"$TL_BIN_ABS" fingerprint --quick --cpu "$cpu" --json "$TL_T/out/%h-%n.json" -q
rc=$?
e=$(date +%s.%N)
echo "$SLURMD_NODENAME cpu $cpu: fingerprint --quick took $(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.1f", b - a }') s" >> "$TL_T/times"
for f in "$TL_T/busy.$SLURMD_NODENAME".*.pid; do
	[ -f "$f" ] && kill "$(cat "$f")" && rm -f "$f"
done
exit $rc
TASK
chmod +x "$T/task.sh"
TL_T=$T TL_BIN_ABS=$BIN srun -N3 --ntasks-per-node=1 -t 5 --export=ALL "$T/task.sh" \
	>"$T/srun.out" 2>&1
rc=$?
[ $rc -eq 0 ]; ok $? "srun -N3 --ntasks-per-node=1 ticklab fingerprint --quick ran on every node (status $rc)"
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/srun.out" | head -n 10
[ -f "$T/times" ] && sed 's/^/# /' "$T/times"
n=$(ls "$T/out" | grep -c "^$host-n[123]\.json$")
[ "$n" = 3 ]; ok $? "one fingerprint per node, named by %h-%n ($(ls "$T/out" | tr '\n' ' '))"

"$BIN" fleet "$T/out" --json "$T/fleet.json" >"$T/fleet.txt" 2>"$T/fleet.err"
rc=$?
sed 's/^/# /' "$T/fleet.txt"
[ $rc -eq 1 ]; ok $? "fleet exits 1: a node is flagged (status $rc)"
flagged=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(n["name"] for n in d["nodes"] if n["flagged"]))' "$T/fleet.json" 2>/dev/null)
# The busy loop is the injected truth: its signature (the sampling thread's
# CPU share, its preemptions) must flag n2 and no other node. A node may
# also be flagged for its add:2000 samples: the three fingerprints run one
# after another, and on a VM whose host clock moves between them (ns per
# ADD 0.2755..0.2956 over 15 s, seen on the Zen 5 guest) a 3.6 % shift is
# real and the fleet is right to say so, with its reason. The signature
# may come after other figures in a node's reason (CV% first, say: the
# busy loop's preemptions are also spikes).
busy=$(grep -E '^n[0-9]+: (.*; )?(CPU%|preempt|[0-9.]+x the fleet.s preemptions)' "$T/fleet.txt" | cut -d: -f1 | sort -u | tr '\n' ' ')
others_said=1
for n in $flagged; do
	grep -q "^$n: " "$T/fleet.txt" || others_said=0
done
[ "$busy" = "n2 " ] && case " $flagged " in *" n2 "*) true ;; *) false ;; esac && [ $others_said = 1 ]
ok $? "the node beside the busy loop, n2, is flagged for it and no other node is (busy: '$busy', flagged: '$flagged', each with its reason)"
grep -q '^n2: .* vs fleet ' "$T/fleet.txt"; ok $? "n2's reason is said in words, against the fleet"
ended=$(date +%s.%N)
diag "whole Slurm test: $(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }') s"
done_testing
