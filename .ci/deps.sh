#!/bin/sh
# Installs what ticklab needs to build and test on Debian 12 (uses sudo when not root).
set -e
S=""; [ "$(id -u)" = 0 ] || S=sudo
export DEBIAN_FRONTEND=noninteractive
$S apt-get update -qq
# Installing a daemon (sshd, slurmctld, slurmd, munged) must not start it:
# a test starts its own on loopback and stops it by PID, and nothing of the
# lab's should listen on the machine's other addresses.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | $S tee /usr/sbin/policy-rc.d >/dev/null
	$S chmod +x /usr/sbin/policy-rc.d
	trap '$S rm -f /usr/sbin/policy-rc.d' EXIT
fi
$S apt-get install -y -qq --no-install-recommends \
	build-essential autoconf automake libtool pkg-config \
	libncurses-dev libpcre2-dev libgsl-dev libjansson-dev libhwloc-dev hwloc libcairo2-dev libpapi-dev papi-tools \
	tmux clang libclang-rt-14-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user \
	python3 python3-numpy jq openssh-server openssh-client \
	slurmctld slurmd slurm-client munge >/dev/null
