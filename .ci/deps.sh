#!/bin/sh
# Installs what ticklab needs to build and test on Debian 12 (uses sudo when not root).
set -e
S=""; [ "$(id -u)" = 0 ] || S=sudo
export DEBIAN_FRONTEND=noninteractive
$S apt-get update -qq
$S apt-get install -y -qq --no-install-recommends \
	build-essential autoconf automake libtool pkg-config \
	libncurses-dev libpcre2-dev libgsl-dev libjansson-dev libhwloc-dev hwloc libcairo2-dev libpapi-dev papi-tools \
	tmux clang libclang-rt-14-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user \
	python3 python3-numpy jq openssh-server openssh-client \
	slurmctld slurmd slurm-client munge >/dev/null
