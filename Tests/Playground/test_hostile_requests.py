"""No request, however hostile, takes the server down (SPEC 6): random and malformed
requests get a proper status and a JSON error, and the server keeps answering."""
import http.client
import json
import random
import re
import socket

ALLOWED = {200, 201, 400, 404, 405, 413, 429}


def raw(url, data):
    """Sends bytes as they are and returns the status, or None if the server closed."""
    host, port = re.match(r"http://([^:]+):(\d+)/", url).groups()
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(data)
        reply = b""
        try:
            while chunk := connection.recv(65536):
                reply += chunk
        except socket.timeout:
            pass  # an answer, and the connection kept open
    match = re.match(rb"HTTP/1\.1 (\d+)", reply)
    return int(match.group(1)) if match else None


def request(url, method, path, body, content_type="application/json"):
    host, port = re.match(r"http://([^:]+):(\d+)/", url).groups()
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request(method, path, body, {"Content-Type": content_type})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def random_value(rng, depth=0):
    kinds = ["string", "number", "null", "bool", "list", "object", "huge", "unicode"]
    kind = rng.choice(kinds if depth < 3 else kinds[:4])
    if kind == "string":
        return "".join(chr(rng.randrange(0, 128)) for _ in range(rng.randrange(0, 40)))
    if kind == "number":
        return rng.choice([0, -1, 3, 1e308, -1e308, 2**63, 0.5])
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    if kind == "huge":
        return "x" * rng.randrange(1000, 20000)
    if kind == "unicode":
        return "".join(chr(rng.randrange(0x80, 0x2FFFF)) for _ in range(rng.randrange(1, 20)))
    return {rng.choice(["source", "stdin", "opt", "engine", "view", "target", "forSemantics", "x"]):
            random_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))}


def test_random_requests_get_proper_answers(server):
    rng = random.Random(22)
    paths = ["/api/run", "/api/view", "/api/share", "/api/share/AAAAAAAAAA", "/api/examples", "/s/x", "/nothing"]
    for _ in range(150):
        path = rng.choice(paths)
        method = rng.choice(["POST", "POST", "GET", "PUT", "DELETE"])
        body = json.dumps(random_value(rng)).encode()
        if rng.random() < 0.2:
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        status, data = request(server.url, method, path, body)
        assert status in ALLOWED, (method, path, body[:80], status, data[:200])
        if status >= 400 and path.startswith("/api/") and data:
            assert "error" in json.loads(data)
    assert request(server.url, "GET", "/healthz", None)[0] == 200


def test_broken_http_is_refused_and_the_server_lives_on(server):
    for data in [b"GARBAGE\r\n\r\n", b"POST /api/run HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n{",
                 b"POST /api/run HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                 b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\n\r\n", b"\x00\xff" * 100]:
        status = raw(server.url, data)
        assert status is None or 400 <= status < 500, (data[:60], status)
    assert request(server.url, "GET", "/healthz", None)[0] == 200


def test_a_pathological_program_gets_an_answer_in_every_view(server):
    nested = "(" * 9000 + "1" + ")" * 9000 + "\n"  # the parser's limit is 10,000 levels
    for view in ["tokens", "ast", "ir", "asm", "passes", "cfg"]:
        status, data = request(server.url, "POST", "/api/view", json.dumps({"source": nested, "view": view}))
        assert status == 200, (view, data[:200])
        assert "text" in json.loads(data)
    status, data = request(server.url, "POST", "/api/run", json.dumps({"source": nested}))
    assert status == 200 and json.loads(data)["stdout"] == "1\n"
