"""Chaos tests (issue 34, SPEC §9): three replicas behind HAProxy on one PostgreSQL, under a
mixed load of runs, views and shares from concurrent clients, while a replica is killed, the
database restarts or a replica is stopped. Each test starts its own cluster with
scripts/cluster.sh, as an operator would."""
import http.client
import json
import os
import signal
import threading
import time

import pytest

from cluster import Cluster, Load
from conftest import get, post

# How long the balancer may take to notice a dead replica (issue 34).
NOTICE = 2.0


@pytest.fixture
def cluster():
    started = Cluster()
    yield started
    started.close()


def report(name, answers):
    """What a test saw, in pytest's output (-s) and in its log."""
    print(f"\n{name}: {len(answers)} requests, {sum(not Load.succeeded(a) for a in answers)} failed")


def test_a_killed_replica_costs_no_request_once_the_balancer_noticed(cluster):
    victim_pid, _ = cluster.replicas()[0]
    with Load(cluster.url) as load:
        time.sleep(2)
        killed = load.now()
        os.kill(victim_pid, signal.SIGKILL)
        time.sleep(5)
    answers = load.answers
    report("kill -9", answers)
    window = [a for a in answers if not Load.succeeded(a) and a.done <= killed + NOTICE]
    print(f"failures within {NOTICE} s of the kill: {len(window)} {window[:5]}")
    after = [a for a in answers if a.sent > killed + NOTICE]
    assert after, "the load stopped"
    assert [a for a in after if not Load.succeeded(a)] == []
    assert not any(a.served_by == "replica1" for a in after)
    assert {a.kind for a in after} == {"run", "example", "view", "share"}
    assert len(cluster.replicas()) == 2


def test_shares_wait_out_a_postgresql_restart_and_none_is_lost(cluster):
    with Load(cluster.url) as load:
        time.sleep(2)
        stopping = load.now()
        cluster.postgres("stop")
        stopped = load.now()
        # A share of the test's own while the database is down: the load's clients, each
        # held about 2 s by a refused share, land one in this window only by chance.
        probe = post(cluster.url, "/api/share", {"source": "share(0)\n"})
        probed = load.now()
        time.sleep(max(0.0, stopped + 3 - probed))
        starting = load.now()
        cluster.postgres("start")
        started = load.now()
        time.sleep(6)
    answers = load.answers
    report("PostgreSQL restart", answers)
    # Runs and views do not need the database: none fails, even while it is down.
    assert [a for a in answers if a.kind != "share" and not Load.succeeded(a)] == []
    # While it is down, a share is refused with 503 and Retry-After, in time.
    retry_after = {name.lower(): value for name, value in probe[2].items()}.get("retry-after")
    assert probe[0] == 503 and retry_after and probed < stopped + 3, (probe, stopped, probed)
    down = [a for a in answers if a.kind == "share" and a.sent > stopped and a.done < starting]
    assert all(a.status == 503 and a.retry_after for a in down), down
    refused = [a for a in answers if a.kind == "share" and not Load.succeeded(a)]
    assert all(a.status == 503 and a.retry_after for a in refused), refused
    # The servers reconnect by themselves: no share fails once the database is back.
    late = [a for a in refused if a.sent > started + NOTICE]
    print(f"shares refused: {len(refused)}, from {stopping:.1f} s to {max(a.done for a in refused):.1f} s; "
          f"database back at {started:.1f} s")
    assert late == []
    assert any(Load.succeeded(a) for a in answers if a.kind == "share" and a.sent > started + NOTICE)
    # Every share that was answered 201 is there.
    stored = [a.body for a in answers if a.kind == "share" and a.status == 201]
    lost = [s for s in stored if get(cluster.url, f"/api/share/{s['id']}") != (200, {"source": s["source"]})]
    assert len(stored) > 10 and lost == []


# A run that takes about 0.6 s of CPU in the debug build's interpreter: in flight when its
# replica is stopped 0.3 s after it was sent, and well within the sandbox's 2 s of CPU on a
# loaded machine (8,000,000 took 1.5 to 2.5 s and was sometimes stopped by that limit).
SLOW_RUN = 3000000


def slow_run(port, number, results):
    """A run sent to one replica: its status, what it printed and when it ended."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    source = f"def spin(n) var s = 0 in (for i = 0, i < n in s = s + 1) + s\nspin({SLOW_RUN + number})\n"
    try:
        connection.request("POST", "/api/run", json.dumps({"source": source, "engine": "interp"}),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        results[number] = (response.status, json.loads(response.read())["stdout"], time.monotonic())
    except (OSError, http.client.HTTPException) as error:
        results[number] = (0, repr(error), time.monotonic())
    finally:
        connection.close()


def test_a_stopped_replica_finishes_the_runs_in_flight(cluster):
    victim_pid, victim_port = cluster.replicas()[1]
    results = {}
    with Load(cluster.url) as load:
        time.sleep(1)
        runs = [threading.Thread(target=slow_run, args=(victim_port, n, results)) for n in range(2)]
        for run in runs:
            run.start()
        time.sleep(0.3)
        stopped = time.monotonic()
        os.kill(victim_pid, signal.SIGTERM)
        for run in runs:
            run.join(timeout=60)
        time.sleep(2)
    answers = load.answers
    report("SIGTERM", answers)
    assert {n: result[:2] for n, result in results.items()} == {n: (200, f"{SLOW_RUN + n}\n") for n in range(2)}
    assert all(ended > stopped for _, _, ended in results.values()), "a run ended before its replica was stopped"
    assert [a for a in answers if not Load.succeeded(a)] == []
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and len(cluster.replicas()) == 3:
        time.sleep(0.1)
    assert len(cluster.replicas()) == 2


def test_a_repeated_example_is_served_from_the_cache_by_another_replica(cluster):
    request = {"source": "def sq(x) x * x\nsq(99)\n"}
    first = post_through(cluster, request)
    assert first["X-Cache"] == "miss"
    for _ in range(40):
        time.sleep(0.1)  # the shared copy is written in the background
        again = post_through(cluster, request)
        if again["X-Served-By"] != first["X-Served-By"] and again["X-Cache"] == "hit":
            assert again["stdout"] == "9801\n"
            return
    pytest.fail("no other replica answered the example from the cache")


def post_through(cluster, body):
    connection = http.client.HTTPConnection("127.0.0.1", cluster.port, timeout=30)
    connection.request("POST", "/api/run", json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    assert response.status == 200
    return {"X-Cache": response.getheader("X-Cache"), "X-Served-By": response.getheader("X-Served-By"),
            "stdout": answer["stdout"]}
