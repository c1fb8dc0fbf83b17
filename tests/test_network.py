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


@pytest.mark.skipif(not INTERFACES, reason="THIS MACHINE HAS NO NETWORK INTERFACE BUT LOOPBACK")
def test_serve_on_every_interface_prints_the_address_for_phones_and_a_qr_code(tmp_path):
    from conftest import free_port

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
