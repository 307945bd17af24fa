"""`formulary-fsm serve` as a subprocess on 127.0.0.1 for the HTTP benchmarks: start, wait ready, stop."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One `formulary-fsm serve` process group (its own session, so stopping it stops its workers too)."""

    def __init__(self, env: dict[str, str], *, workers: int = 1, log: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env
        self.workers = workers
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, ready_timeout_s: float = 90.0, poll_s: float = 0.2) -> Server:
        out = open(self.log, "wb") if self.log else subprocess.DEVNULL  # noqa: SIM115 (closed with the process)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(self.workers), "--log-level", "warning"],
            cwd=REPO_ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + ready_timeout_s
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"formulary-fsm serve exited with {self.proc.returncode}{self._tail()}")
                try:
                    # Every worker listening: a worker still starting gets none of the connections opened now.
                    if client.get(f"{self.url}/ready").status_code == 200 and \
                            _listening_sockets(self.port) >= self.workers:
                        return self
                except httpx.HTTPError:
                    pass
                time.sleep(poll_s)
        self.stop()
        raise RuntimeError(f"formulary-fsm serve was not ready within {ready_timeout_s:.0f} s{self._tail()}")

    def _tail(self) -> str:
        if self.log and self.log.is_file():
            return ":\n" + "\n".join(self.log.read_text(errors="replace").splitlines()[-8:])
        return ""

    def worker_pids(self) -> list[int]:
        """The serving processes: the server itself with one worker, else its children (uvicorn's workers)."""
        assert self.proc is not None
        if self.workers == 1:
            return [self.proc.pid]
        children: list[int] = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                fields = stat.rsplit(")", 1)[1].split()
                if int(fields[1]) == self.proc.pid:
                    children.append(int(entry.name))
        return children

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def __enter__(self) -> Server:
        # `with Server(…).start(poll_s=…) as server:` has started it already: a second start would spawn a second
        # server and leave the first running after the block (the startup group leaked three per bench run).
        if self.proc is not None and self.proc.poll() is None:
            return self
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def rss_mib(pid: int) -> dict[str, float]:
    """VmRSS (now) and VmHWM (peak) of a process, in MiB, from /proc/<pid>/status."""
    found: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) / 1024
    return found


def _established_inodes(port: int) -> set[str]:
    """Socket inodes of established TCP connections whose local port is `port` (/proc/net/tcp and tcp6)."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":  # 01: ESTABLISHED
                found.add(fields[9])
    return found


def connections_per_worker(server: Server) -> list[int]:
    """How many of the server's established connections each worker process holds, largest first."""
    inodes = _established_inodes(server.port)
    counts: list[int] = []
    for pid in server.worker_pids():
        held = 0
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    held += 1
        except OSError:
            continue
        counts.append(held)
    # The supervisor's children include multiprocessing's resource tracker, which holds no connection.
    return sorted(counts, reverse=True)[:server.workers]


def _listening_sockets(port: int) -> int:
    """TCP sockets listening on `port` (one per worker with per-worker sockets, engine/http/listen.py)."""
    found = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            return 1 << 30  # no /proc: cannot tell, do not wait on it
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found += 1
    return found
