"""`kaleidoscope lsp` spoken to byte by byte: malformed frames and JSON, requests out of
order, cancellation and the exit status. None of it may take the server down."""
import json
import subprocess

from conftest import TOOL


class RawClient:
    def __init__(self):
        self.process = subprocess.Popen([TOOL, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def write(self, data: bytes):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            assert line, "the server closed its output"
            line = line.strip()
            if not line:
                break
            name, value = line.split(b":", 1)
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, id, method, params=None):
        self.send({"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}})
        return self.receive()

    def finish(self):
        self.process.stdin.close()
        return self.process.wait(timeout=10)


def test_requests_before_initialize_and_unknown_methods():
    client = RawClient()
    assert client.request(1, "textDocument/hover")["error"]["code"] == -32002
    assert "result" in client.request(2, "initialize", {"capabilities": {}})
    assert client.request(3, "no/such/thing")["error"]["code"] == -32601
    assert client.request(4, "textDocument/hover", {"textDocument": 5})["error"]["code"] == -32602
    assert client.finish() == 1  # the input ended without shutdown and exit


def test_malformed_frames_and_json():
    client = RawClient()
    client.request(1, "initialize", {"capabilities": {}})
    body = b"{not json"
    client.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert client.receive()["error"]["code"] == -32700
    client.write(b"X-Nothing: 1\r\n\r\n")  # no Content-Length
    assert client.receive()["error"]["code"] == -32700
    client.write(b"Content-Length: -5\r\n\r\n")
    assert client.receive()["error"]["code"] == -32700
    client.send([1, 2, 3])  # JSON, not a message
    client.send({"jsonrpc": "2.0", "id": 9})  # no method
    assert client.receive()["error"]["code"] == -32600
    # Still serving:
    assert client.request(10, "textDocument/hover", {"textDocument": {"uri": "file:///x.ks"}, "position": {"line": 0, "character": 0}})["result"] is None
    assert client.request(11, "shutdown")["result"] is None
    client.send({"jsonrpc": "2.0", "method": "exit"})
    assert client.process.wait(timeout=10) == 0


def test_cancelled_request_in_a_burst():
    client = RawClient()
    client.request(1, "initialize", {"capabilities": {}})
    # A large document keeps the server busy checking it while the burst below arrives.
    text = "def f(x) x\n" + "f(1) + f(2) * f(3)\n" * 100000
    client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///a.ks", "languageId": "kaleidoscope", "version": 1, "text": text}}})
    # Two requests and a cancellation of the first, in one write: it arrives while the
    # server is busy, so the first request is cancelled before the server reaches it.
    messages = [
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///a.ks"}, "position": {"line": 0, "character": 4}}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///a.ks"}, "position": {"line": 0, "character": 4}}},
    ]
    data = b""
    for message in messages:
        body = json.dumps(message).encode()
        data += b"Content-Length: %d\r\n\r\n" % len(body) + body
    client.write(data)
    answers = {}
    while len(answers) < 2:
        message = client.receive()
        if "id" in message:
            answers[message["id"]] = message
    assert answers[2]["error"]["code"] == -32800
    assert "def f(x)" in answers[3]["result"]["contents"]["value"]
    client.finish()


def test_huge_and_deep_documents_do_not_crash():
    client = RawClient()
    client.request(1, "initialize", {"capabilities": {}})
    deep = "(" * 20000 + "1" + ")" * 20000 + "\n"
    client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///d.ks", "languageId": "kaleidoscope", "version": 1, "text": deep}}})
    diagnostics = client.receive()
    assert diagnostics["method"] == "textDocument/publishDiagnostics"
    assert diagnostics["params"]["diagnostics"][0]["code"] == "nesting-too-deep"
    answer = client.request(2, "textDocument/semanticTokens/full", {"textDocument": {"uri": "file:///d.ks"}})
    assert "result" in answer
    client.finish()
