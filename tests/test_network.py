"""The table mode's address: found from the network interfaces (never the host name), and what a printed code's
base address will reach."""
import subprocess
import sys

import ifaddr
import pytest

from companion import network
from companion.cli import main

INTERFACES = [ip.ip for a in ifaddr.get_adapters() for ip in a.ips
              if isinstance(ip.ip, str) and not ip.ip.startswith(("127.", "169.254."))]


@pytest.mark.skipif(not INTERFACES, reason="THIS MACHINE HAS NO NETWORK INTERFACE BUT LOOPBACK: address detection "
                                           "cannot be checked here")
def test_the_lan_address_is_an_interface_address_not_loopback(capsys):
    address = network.lan_address()
    assert address in INTERFACES and not address.startswith("127.")
    assert main(["address", "--port", "5123"]) == 0
    assert capsys.readouterr().out.strip() == f"http://{address}:5123"


def test_the_address_of_a_companion_kept_to_this_machine_is_loopback(capsys):
    """`make run HOST=127.0.0.1` prints codes for the server it starts: not the LAN address it does not listen on."""
    for host, expected in (("127.0.0.1", "http://127.0.0.1:5000"), ("localhost", "http://127.0.0.1:5000"),
                           ("192.168.7.9", "http://192.168.7.9:5000"), ("::1", "http://[::1]:5000")):
        assert main(["address", "--host", host, "--port", "5000"]) == 0
        assert capsys.readouterr().out.strip() == expected, host


def test_the_host_name_is_never_asked(monkeypatch):
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError("the host name was looked up")

    monkeypatch.setattr(socket, "gethostname", refuse)
    monkeypatch.setattr(socket, "gethostbyname", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    network.lan_address()


@pytest.mark.parametrize("base,kind", [
    ("http://127.0.0.1:5000", "loopback"), ("http://localhost:5000", "loopback"), ("http://[::1]:5000", "loopback"),
    ("http://192.168.1.20:5000", "private"), ("http://10.0.0.5", "private"), ("http://172.20.1.1:8000", "private"),
    ("https://you.github.io/deck", "public"), ("http://8.8.8.8", "public"),
])
def test_base_addresses_are_told_apart(base, kind):
    assert network.base_url_kind(base) == kind


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
@pytest.mark.skipif(not INTERFACES, reason="THIS MACHINE HAS NO NETWORK INTERFACE BUT LOOPBACK")
def test_serve_on_every_interface_prints_the_address_for_phones_and_a_qr_code(tmp_path):
    from helpers.server import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "0.0.0.0", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**__import__("os").environ, "COMPANION_INSTANCE_PATH": str(tmp_path)})
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = "".join(lines)
    assert f"Phones on this Wi-Fi: http://{network.lan_address()}:{port}" in text
    assert "▀" in text or "█" in text or "▄" in text  # the terminal QR code follows


def test_make_run_builds_the_codes_for_the_host_it_serves_on():
    """`make run HOST=...` asks `companion address` for that host, and serves on it."""
    import shutil
    from pathlib import Path

    if not shutil.which("make"):
        pytest.skip("no make on this machine")
    root = Path(__file__).resolve().parent.parent
    dry = subprocess.run(["make", "-n", "run", "HOST=127.0.0.1", "PORT=5077"], cwd=root,
                         capture_output=True, text=True, check=True).stdout
    assert "companion address --host 127.0.0.1 --port 5077" in dry and "serve --host 127.0.0.1 --port 5077" in dry
