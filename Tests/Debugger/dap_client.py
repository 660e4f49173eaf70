"""A small Debug Adapter Protocol client, enough to drive a debugger in the tests: messages
framed by Content-Length on a child's standard streams, requests answered by sequence
number, and events kept in the order they came."""
import json
import queue
import subprocess
import threading


class DAPClient:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.sequence = 0
        self.messages = queue.Queue()
        self.events = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    self.messages.put(None)
                    return
                header += byte
            length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            self.messages.put(json.loads(stream.read(length)))

    def send(self, command, arguments=None):
        self.sequence += 1
        body = json.dumps({"seq": self.sequence, "type": "request", "command": command,
                           "arguments": arguments or {}}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return self.sequence

    def _next(self, timeout):
        message = self.messages.get(timeout=timeout)
        if message is None:
            raise RuntimeError("the debug adapter closed its output")
        if message.get("type") == "event":
            self.events.append(message)
        return message

    def request(self, command, arguments=None, timeout=30):
        """Sends a request and returns its response (events that come first are kept)."""
        sequence = self.send(command, arguments)
        while True:
            message = self._next(timeout)
            if message.get("type") == "response" and message.get("request_seq") == sequence:
                return message

    def wait_for_event(self, name, timeout=30):
        """The first event called `name` not yet waited for."""
        for index, event in enumerate(self.events):
            if event["event"] == name:
                return self.events.pop(index)
        while True:
            message = self._next(timeout)
            if message.get("type") == "event" and message["event"] == name:
                self.events.remove(message)
                return message

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
