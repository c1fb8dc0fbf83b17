"""Where the phones at the table find this machine, and what a printed code's base address will open.

The LAN address is the one of the interface that carries the default route: connecting a UDP socket only picks a
route, it sends nothing. ifaddr lists the other interfaces. Never the host name: on Debian and Ubuntu it resolves
to 127.0.1.1."""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from .core.i18n import N_

ROUTE_PROBE = ("198.51.100.1", 9)  # a documentation address: connect() on UDP chooses a route and sends nothing


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def default_route_address() -> str | None:
    """This machine's IPv4 address on the interface of the default route, or None without a network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(ROUTE_PROBE)
            address = s.getsockname()[0]
    except OSError:
        return None
    return address if _usable(address) else None


def interface_addresses() -> list[str]:
    """Every usable IPv4 address of this machine's interfaces, in the order the system lists them."""
    out = []
    import ifaddr  # (only when asked: a build that warns of its codes' address needs no interface list)

    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and _usable(ip.ip) and ip.ip not in out:
                out.append(ip.ip)
    return out


EVERY_INTERFACE = ("0.0.0.0", "", "::")  # a --host that listens on every interface


def served_address(host: str, port: int, lan: str | None) -> str:
    """The address that opens a server listening on `host`: on every interface, `lan` (this machine's LAN address,
    looked up once by the caller; 127.0.0.1 without one); localhost as 127.0.0.1; any other host as it is given."""
    if host in EVERY_INTERFACE:
        host = lan or "127.0.0.1"
    elif host == "localhost":
        host = "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def lan_address() -> str | None:
    """The address phones on the same network use: the default route's interface, else the first other one."""
    return default_route_address() or next(iter(interface_addresses()), None)


def base_url_kind(base_url: str) -> str:
    """What a printed code's base address will reach: "loopback" (the phone itself: nothing opens), "private" (a
    LAN address: works at this table while the address stays), or "public" (a name or a public address)."""
    host = urlsplit(base_url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return "loopback"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return "public"
    if ip.is_loopback or ip.is_unspecified:
        return "loopback"
    return "private" if ip.is_private or ip.is_link_local else "public"


LOOPBACK_CODES = N_("The QR codes open %(base)s, which on a phone is the phone itself: they will open nothing. "
                    "Build with the address phones use (make run finds it; companion address prints it), or with "
                    "the address of a site or a hosted companion.")
LAN_CODES = N_("The QR codes open %(base)s, this computer on your network. They stop working if that address "
               "changes. To keep them working: reserve the address for this computer on your router, or put the "
               "rules on a site (companion site) or host the companion, and build with that address.")


def code_warning(base_url: str) -> str | None:
    """What to tell a person about codes printed with this base address (an English message id), or None."""
    return {"loopback": LOOPBACK_CODES, "private": LAN_CODES}.get(base_url_kind(base_url))
