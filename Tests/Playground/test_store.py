"""How the server starts, and how it says it cannot: the XDG default for snippets, a port in
use, an unusable database, a sandbox that cannot start."""
import os
import re
import signal
import subprocess
import tempfile

from conftest import TOOL, get, post, wait_for_url


def test_snippets_default_to_the_xdg_data_folder():
    with tempfile.TemporaryDirectory() as data:
        log_path = os.path.join(data, "log")
        with open(log_path, "w") as log:
            process = subprocess.Popen([TOOL, "serve", "--port", "0"], stderr=log, stdout=subprocess.DEVNULL,
                                       env={**os.environ, "XDG_DATA_HOME": data})
        try:
            url = wait_for_url(log_path, process)
            status, created, _ = post(url, "/api/share", {"source": "7\n"})
            assert status == 201
            assert os.path.exists(os.path.join(data, "kaleidoscope", "snippets.sqlite"))
            assert get(url, f"/api/share/{created['id']}") == (200, {"source": "7\n"})
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0


def test_a_port_in_use_and_an_unusable_database_are_clear_errors(server):
    port = re.search(r":(\d+)/", server.url).group(1)
    taken = subprocess.run([TOOL, "serve", "--port", port, "--database", os.path.join(server.directory, "b.sqlite")],
                           capture_output=True, text=True, timeout=30)
    assert taken.returncode == 1
    assert f"error: kaleidoscope serve: cannot listen on 127.0.0.1:{port}: Address already in use" in taken.stderr
    with tempfile.TemporaryDirectory() as folder:
        unusable = subprocess.run([TOOL, "serve", "--port", "0", "--database", folder],
                                  capture_output=True, text=True, timeout=30)
    assert unusable.returncode == 1
    assert f"cannot open the snippet database '{folder}'" in unusable.stderr


def test_a_sandbox_that_cannot_start_is_a_503_and_the_server_goes_on():
    server_program = os.path.join(os.path.dirname(TOOL), "kaleidoscope-serve")
    with tempfile.TemporaryDirectory() as folder:
        log_path = os.path.join(folder, "log")
        with open(log_path, "w") as log:
            process = subprocess.Popen([server_program, "--tool", "/nonexistent/kaleidoscope", "--port", "0",
                                        "--database", os.path.join(folder, "s.sqlite")], stderr=log)
        try:
            url = wait_for_url(log_path, process)
            status, body, headers = post(url, "/api/run", {"source": "1\n"})
            assert status == 503 and headers["Retry-After"] == "1"
            assert body["error"] == "cannot start a sandbox now; try again shortly"
            assert "cannot start a sandbox with /nonexistent/kaleidoscope" in open(log_path).read()
            assert get(url, "/api/examples")[0] == 200
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0
