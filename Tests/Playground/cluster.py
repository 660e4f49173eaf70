"""A cluster as an operator starts it (`scripts/cluster.sh`), and a mixed load of concurrent
clients through its balancer, for the chaos tests (issue 34)."""
import http.client
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading
import time

from conftest import ROOT, TOOL, free_port, postgres_binaries

SCRIPT = str(ROOT / "scripts/cluster.sh")


class Cluster:
    """`scripts/cluster.sh up` in a directory of its own; `down` when closed."""

    def __init__(self, replicas=3, options=()):
        self.directory = tempfile.mkdtemp(prefix="ks-cluster-")
        os.chmod(self.directory, 0o755)  # the database's owner (postgres, under root) enters it
        self.environment = dict(os.environ, KALEIDOSCOPE_TOOL=TOOL,
                                KALEIDOSCOPE_CLUSTER_DIR=os.path.join(self.directory, "state"))
        self.port = free_port()
        started = self.script("up", "--replicas", str(replicas), "--port", str(self.port), "--", *options)
        self.url = started.stdout.strip()
        assert self.url == f"http://127.0.0.1:{self.port}/", started

    def script(self, *arguments):
        result = subprocess.run([SCRIPT, *arguments], env=self.environment, capture_output=True, text=True,
                                timeout=120)
        assert result.returncode == 0, f"cluster.sh {' '.join(arguments)}: {result.stderr}"
        return result

    def replicas(self):
        """`(pid, port)` of each running replica, as `cluster.sh ps` prints them."""
        lines = self.script("ps").stdout.split("\n")
        return [tuple(int(field) for field in line.split()) for line in lines if line.strip()]

    @property
    def state(self):
        return pathlib.Path(self.environment["KALEIDOSCOPE_CLUSTER_DIR"])

    def postgres(self, action):
        """Stops or starts the cluster's PostgreSQL, as an operator would restart it."""
        data = self.state / "postgres/data"
        port = self.state.joinpath("database").read_text().split(":")[2].split("/")[0]
        as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        command = [str(postgres_binaries() / "pg_ctl"), "-D", str(data), "-w"]
        if action == "stop":
            command += ["-m", "fast", "stop"]
        else:
            command += ["-l", str(self.state / "postgres/server.log"),
                        "-o", f"-p {port} -k {self.state / 'postgres'} -c listen_addresses=127.0.0.1", "start"]
        subprocess.run(as_user + command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def close(self):
        subprocess.run([SCRIPT, "down"], env=self.environment, capture_output=True, timeout=120)
        shutil.rmtree(self.directory, ignore_errors=True)


class Answer:
    """One request of the load and what came of it."""

    def __init__(self, kind, sent, done, status, served_by, body, retry_after):
        self.kind, self.sent, self.done, self.status = kind, sent, done, status
        self.served_by, self.body, self.retry_after = served_by, body, retry_after

    def __repr__(self):
        return f"{self.kind} {self.status} at {self.done:.2f} s by {self.served_by}: {str(self.body)[:120]}"


class Load:
    """Concurrent clients, each on its own loopback address (the replicas trust the balancer's
    X-Forwarded-For, so each has its own rate limit), sending in turn a new run, an example's
    run (cached after the first), an IR view and a share, with a short pause between them."""

    EXAMPLE = "def fib(n) if n < 3 then 1 else fib(n - 1) + fib(n - 2)\nfib(15)\n"

    def __init__(self, url, clients=6, pause=0.1):
        self.port = int(url.rsplit(":", 1)[1].strip("/"))
        self.clients, self.pause = clients, pause
        self.answers = []
        self.lock = threading.Lock()
        self.running = threading.Event()
        self.threads = []
        self.start_time = None

    def __enter__(self):
        self.start_time = time.monotonic()
        self.running.set()
        self.threads = [threading.Thread(target=self.client, args=(number,)) for number in range(self.clients)]
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_):
        self.running.clear()
        for thread in self.threads:
            thread.join(timeout=60)

    def now(self):
        return time.monotonic() - self.start_time

    def requests(self, number):
        count = 0
        while True:
            count += 1
            unique = f"{number}{count:06d}"
            yield "run", "/api/run", {"source": f"def f(x) x * {unique}\nf(2)\n"}
            yield "example", "/api/run", {"source": self.EXAMPLE}
            yield "view", "/api/view", {"source": f"def g(y) y + {unique}\n", "view": "ir"}
            yield "share", "/api/share", {"source": f"share({unique})\n"}

    def client(self, number):
        address = f"127.0.0.{10 + number}"
        connection = None
        for kind, path, body in self.requests(number):
            if not self.running.is_set():
                break
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                        source_address=(address, 0))
            sent = self.now()
            local = None
            try:
                connection.connect() if connection.sock is None else None
                local = connection.sock.getsockname()
                connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
                response = connection.getresponse()
                data = json.loads(response.read() or b"null")
                answer = Answer(kind, sent, self.now(), response.status, response.getheader("X-Served-By"),
                                data, response.getheader("Retry-After"))
                if kind == "share" and response.status == 201:
                    answer.body = {"id": data["id"], "source": body["source"]}
            except (OSError, http.client.HTTPException, ValueError) as error:
                answer = Answer(kind, sent, self.now(), 0, None, f"{error!r} from {local}", None)
                connection.close()
                connection = None
            with self.lock:
                self.answers.append(answer)
            time.sleep(self.pause)
        if connection is not None:
            connection.close()

    @staticmethod
    def succeeded(answer):
        if answer.kind == "share":
            return answer.status == 201
        if answer.kind == "view":
            return answer.status == 200 and "define" in answer.body["text"]
        return answer.status == 200 and answer.body["exitCode"] == 0 and answer.body["stdout"] != ""
