"""What the Python test drivers (signals.py, hangup_ssh.py, mutate.py)
share: their TAP lines, and whether a process holds a file's temporary."""
import os


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, desc):
        self.n += 1
        print(("ok %d - %s" if cond else "not ok %d - %s") % (self.n, desc), flush=True)
        if not cond:
            self.failed += 1
        return cond

    def done(self):
        """Prints the plan; the exit status: 1 when a check failed."""
        print("1..%d" % self.n)
        return 1 if self.failed else 0


def temp_open(pid, path):
    """A descriptor of pid on the final write's temporary: O_TMPFILE's
    '#N (deleted)' or mkstemp's .NAME.XXXXXX in path's directory."""
    d, base = os.path.split(path)
    fds = "/proc/%d/fd" % pid
    try:
        for fd in os.listdir(fds):
            try:
                t = os.readlink(os.path.join(fds, fd))
            except OSError:
                continue
            if t.startswith(d + "/") and ("(deleted)" in t or "/." + base + "." in t):
                return True
    except OSError:
        pass
    return False
