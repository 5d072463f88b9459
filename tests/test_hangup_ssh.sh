#!/bin/sh
# A dropped SSH connection in every phase of run and of the TUI (setup,
# the duration estimate, a long flush, sampling, the analysis, the export):
# ticklab exits, 129, and what it kept reads back. A real sshd on loopback
# only, with its own config and keys in the test's directory, ended by its
# PID; the driver is tests/hangup_ssh.py, which prints the seconds per phase.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to drive ssh"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || skip_all "sshd is not installed (openssh-server; .ci/deps.sh installs it)"
command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || skip_all "ssh or ssh-keygen is not installed"
[ -r /proc/self/status ] || skip_all "no /proc: the phases cannot be observed"
# sshd run by root wants its privilege separation directory, which a
# booted system's tmpfiles make; a container may not have it.
made_run=
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
	mkdir -m 0755 /run/sshd 2>/dev/null && made_run=1 || skip_all "cannot create /run/sshd for a root sshd"
fi
"$PY" "$TL_TOP_SRCDIR/tests/hangup_ssh.py" "$TL_BIN" "$tmp"; rc=$?
[ -n "$made_run" ] && rmdir /run/sshd 2>/dev/null
exit $rc
