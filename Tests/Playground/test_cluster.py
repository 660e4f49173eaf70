"""scripts/cluster.sh as an operator uses it (SPEC §9): up, ps, down, and its mistakes."""
import os
import socket
import subprocess

from cluster import SCRIPT, Cluster
from conftest import get


def answers(port):
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_up_ps_and_down():
    cluster = Cluster(replicas=2)
    try:
        replicas = cluster.replicas()
        assert len(replicas) == 2
        for pid, port in replicas:
            os.kill(pid, 0)
            assert get(f"http://127.0.0.1:{port}/", "/api/examples")[0] == 200
        assert get(cluster.url, "/api/examples")[0] == 200
        again = subprocess.run([SCRIPT, "up"], env=cluster.environment, capture_output=True, text=True)
        assert again.returncode == 1 and "already up" in again.stderr
    finally:
        cluster.close()
    assert not answers(cluster.port)
    for pid, port in replicas:
        assert not answers(port)
        try:
            os.kill(pid, 0)
            raise AssertionError(f"replica {pid} outlived down")
        except ProcessLookupError:
            pass


def test_mistakes_are_usage_errors():
    for arguments in ([], ["start"], ["up", "--replicas"], ["ps", "extra"]):
        result = subprocess.run([SCRIPT, *arguments], capture_output=True, text=True)
        assert result.returncode == 64 and "cluster.sh up [--replicas N]" in result.stderr, arguments
    result = subprocess.run([SCRIPT, "up", "--replicas", "0"], capture_output=True, text=True)
    assert result.returncode == 1 and "--replicas takes a number from 1" in result.stderr
    assert "cluster.sh ps" in subprocess.run([SCRIPT, "--help"], capture_output=True, text=True).stdout
