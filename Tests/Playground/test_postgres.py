"""Several stateless servers sharing one PostgreSQL database (SPEC 6): a snippet shared
through one is read through another, and survives both."""
from conftest import Server, get, post


def test_servers_share_snippets_through_postgresql(postgres):
    first, second = Server(database=postgres), Server(database=postgres)
    try:
        status, created, _ = post(first.url, "/api/share", {"source": "def f(x) x\nf(7)\n"})
        assert status == 201
        assert get(second.url, f"/api/share/{created['id']}") == (200, {"source": "def f(x) x\nf(7)\n"})
        ids = {post(server.url, "/api/share", {"source": f"{n}\n"})[1]["id"]
               for n in range(20) for server in (first, second)}
        assert len(ids) == 40
        assert first.stop() == 0
        assert second.stop() == 0
        third = Server(database=postgres)
        try:
            assert get(third.url, f"/api/share/{created['id']}")[1]["source"] == "def f(x) x\nf(7)\n"
        finally:
            third.close()
    finally:
        first.close()
        second.close()


def test_a_wrong_database_url_is_a_clear_error():
    import subprocess
    from conftest import TOOL
    result = subprocess.run([TOOL, "serve", "--port", "0", "--database", "postgresql://"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "expected postgresql://USER@HOST[:PORT]/DATABASE" in result.stderr


def test_readiness_follows_the_database(postgres):
    """/readyz is 200 while PostgreSQL answers, and 503 with Retry-After for a server whose
    database is not there (it starts all the same, serves runs, and refuses shares)."""
    import urllib.error
    import urllib.request
    from conftest import free_port

    def readiness(server):
        try:
            with urllib.request.urlopen(server.url + "readyz", timeout=30) as response:
                return response.status, response.headers.get("Retry-After")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Retry-After")

    ready = Server(database=postgres)
    missing = Server(database=f"postgresql://ks@127.0.0.1:{free_port()}/playground")
    try:
        assert readiness(ready) == (200, None)
        assert readiness(missing) == (503, "1")
        assert post(missing.url, "/api/run", {"source": "6 * 7\n"})[1]["stdout"] == "42\n"
        # Shares need the database: refused, with a time to come back, and not left hanging.
        status, body, headers = post(missing.url, "/api/share", {"source": "1\n"})
        assert (status, headers.get("Retry-After")) == (503, "2") and "try again" in body["error"]
        try:
            urllib.request.urlopen(missing.url + "api/share/AAAAAAAAAA", timeout=30)
            raise AssertionError("a snippet was read without its database")
        except urllib.error.HTTPError as error:
            assert (error.code, error.headers.get("Retry-After")) == (503, "2")
    finally:
        ready.close()
        missing.close()


def test_an_answer_one_server_computed_is_a_hit_on_another(postgres):
    """The result cache is in the shared database: a repeated example is served by another
    server than the one that computed it (issue 34's chaos case d)."""
    import time

    first, second = Server(database=postgres), Server(database=postgres)
    try:
        request = {"source": "def sq(x) x * x\nsq(12)\n"}
        status, body, headers = post(first.url, "/api/run", request)
        assert status == 200 and headers["X-Cache"] == "miss" and body["stdout"] == "144\n"
        time.sleep(0.5)  # the store's copy is written in the background
        status, body, headers = post(second.url, "/api/run", request)
        assert status == 200 and headers["X-Cache"] == "hit" and body["stdout"] == "144\n"
    finally:
        first.close()
        second.close()
