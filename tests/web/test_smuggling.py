"""Issue 25, item 13: a request with both Content-Length and Transfer-Encoding: chunked (the shape of a request
smuggling attempt through a proxy that reads the other header) is answered by its chunked body and its connection
is then closed, as RFC 9112 §6.1 asks; a plain keep-alive request keeps its connection. Raw sockets against a real
`companion serve`, every wait bounded."""
import socket
import time


def exchange(port: int, request: bytes) -> tuple[bytes, bool]:
    """Send one request; (what came back within a second, whether the server then closed the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        s.settimeout(1.0)
        got, closed, deadline = b"", False, time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break  # nothing more, and still open
            if not chunk:
                closed = True
                break
            got += chunk
        return got, closed


def test_content_length_with_chunked_closes_the_connection(server):
    _base, port, _proc = server
    body = b"0\r\n\r\n"
    smuggled = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    request = (b"POST /api/v1/gemas/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n" % len(body + smuggled)) + body + smuggled
    got, closed = exchange(port, request)
    assert got.startswith(b"HTTP/1.1 ") and closed, got[:200]
    assert got.count(b"HTTP/1.1 ") == 1  # the bytes after the chunked body were never read as a second request


def test_a_plain_request_keeps_its_connection(server):
    _base, port, _proc = server
    got, closed = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert got.startswith(b"HTTP/1.1 200") and not closed
