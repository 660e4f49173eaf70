"""A bounded load on loopback: 8 clients, 25 small runs each, every answer correct. The
figures (runs a second, p99) are the benchmark's (benchmarks/playground.py), not asserted
here."""
import threading

from conftest import Server, post


def test_eight_clients_get_every_answer_right():
    server = Server("--rate-limit", "0")
    failures, answered = [], []
    lock = threading.Lock()

    def client(number):
        for run in range(25):
            status, body, _ = post(server.url, "/api/run", {"source": f"def f(x) x * {number}\nf({run})\n"})
            with lock:
                answered.append(status)
                if status != 200 or body["stdout"] != f"{float(number * run):g}\n":
                    failures.append((number, run, status, body))

    try:
        threads = [threading.Thread(target=client, args=(n,)) for n in range(1, 9)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert len(answered) == 200
    finally:
        server.close()
