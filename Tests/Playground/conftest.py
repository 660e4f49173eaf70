"""Fixtures for the playground's tests as users meet it: a real `kaleidoscope serve`, a real
browser (Debian's chromium driven by Playwright) and a real PostgreSQL server, each started
here and stopped when the tests end."""
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = os.environ.get("KALEIDOSCOPE_TOOL", str(ROOT / ".build/debug/kaleidoscope"))
CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/lib/chromium/chromium") if os.path.exists(p)), None)


class Server:
    """One `kaleidoscope serve` on a free port, with its log in a file."""

    def __init__(self, *options, database=None):
        self.directory = tempfile.mkdtemp(prefix="ks-serve-")
        self.log_path = os.path.join(self.directory, "server.log")
        database = database or os.path.join(self.directory, "snippets.sqlite")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [TOOL, "serve", "--port", "0", "--database", database, *options],
            stdout=subprocess.DEVNULL, stderr=self.log)
        self.url = wait_for_url(self.log_path, self.process)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        self.log.close()
        return self.process.returncode

    def close(self):
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def wait_for_url(log_path, process):
    """The address a starting server prints to its log (`listening on http://…/`)."""
    for _ in range(300):
        text = pathlib.Path(log_path).read_text()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+/)", text)
        if match:
            return match.group(1)
        if process.poll() is not None:
            raise RuntimeError("the server stopped: " + text)
        time.sleep(0.05)
    raise RuntimeError("the server did not start")


@pytest.fixture
def server():
    started = Server()
    yield started
    started.close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    if CHROMIUM is None:
        pytest.fail("chromium is not installed (scripts/install-deps.sh installs it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    """A page on the server that fails the test on any page error, console error or
    request that leaves the server."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and problems.append(f"console: {message.text}"))
    page.on("request", lambda request: request.url.startswith(server.url) or
            problems.append(f"external request: {request.url}"))
    page.goto(server.url)
    page.wait_for_selector(".CodeMirror")
    yield page
    context.close()
    assert problems == []


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def postgres_binaries():
    found = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else None


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster on a free port, owned by the postgres user when this
    runs as root (initdb refuses root); its URL is yielded."""
    binaries = postgres_binaries()
    if binaries is None:
        pytest.fail("PostgreSQL is not installed (scripts/install-deps.sh installs it)")
    directory = tempfile.mkdtemp(prefix="ks-postgres-")
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_user:
        shutil.chown(directory, "postgres")
    data = os.path.join(directory, "data")
    port = free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    subprocess.run(as_user + [str(binaries / "initdb"), "-D", data, "-A", "trust", "-U", "ks"], check=True, **quiet)
    subprocess.run(as_user + [str(binaries / "pg_ctl"), "-D", data, "-l", os.path.join(directory, "log"), "-w",
                              "-o", f"-p {port} -k {directory} -c listen_addresses=127.0.0.1", "start"],
                   check=True, **quiet)
    try:
        subprocess.run(as_user + [str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "ks",
                                  "playground"], check=True, **quiet)
        yield f"postgresql://ks@127.0.0.1:{port}/playground"
    finally:
        subprocess.run(as_user + [str(binaries / "pg_ctl"), "-D", data, "-m", "fast", "stop"], **quiet)
        shutil.rmtree(directory, ignore_errors=True)


def post(url, path, body, source=None):
    """POSTs JSON and returns (status, parsed body, headers)."""
    import http.client
    import json
    host, port = re.match(r"http://([^:]+):(\d+)/", url).groups()
    connection = http.client.HTTPConnection(host, int(port), timeout=60,
                                            source_address=(source, 0) if source else None)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, json.loads(data or b"null"), dict(response.getheaders())


def get(url, path):
    import json
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=30) as response:
        return response.status, json.loads(response.read())
