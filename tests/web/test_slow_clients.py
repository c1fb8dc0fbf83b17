"""Nobody on the network can lock the table out: hundreds of idle sockets and half-sent requests held open against
a real `companion serve` (on loopback, bounded in count and time) while a normal phone is still answered at once."""
import socket
import time
import urllib.request

import pytest


@pytest.mark.slow
def test_idle_and_half_sent_connections_do_not_lock_out_a_phone(server):
    base, port, _ = server
    held = []
    try:
        for _ in range(300):  # idle: not even a byte
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        for _ in range(100):  # a request that never finishes its headers
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /rules/gemas HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(s)
        start = time.perf_counter()
        with urllib.request.urlopen(f"{base}/healthz", timeout=5) as r:
            assert r.status == 200
        assert time.perf_counter() - start < 1.0
    finally:
        for s in held:
            s.close()
