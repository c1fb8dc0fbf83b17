"""waitress as `companion serve` runs it, with the one guard it lacks.

A request carrying both `Content-Length` and `Transfer-Encoding: chunked` is what a request-smuggling attempt looks
like: a proxy that goes by the length forwards bytes that we, going by the chunks, would read as the next request on
the same connection. waitress reads the chunks (as RFC 9112 §6.1 says) but keeps the connection open; the RFC also
says to close it after answering, which this parser does, so whatever followed the chunked body is never read.
"""
from __future__ import annotations

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer, create_server


class GuardedParser(HTTPRequestParser):
    def parse_header(self, header_plus):
        """waitress's header parsing; a request with Content-Length and chunked both then closes its connection."""
        super().parse_header(header_plus)
        if self.chunked and "CONTENT_LENGTH" in self.headers:
            self.connection_close = True
            self.headers["CONNECTION"] = "close"  # what waitress looks at when it decides to close after answering


class GuardedChannel(HTTPChannel):
    parser_class = GuardedParser


def serve(app, **settings) -> None:
    """Serve `app` with waitress (`settings`: its adjustments, host and port) until stopped; OSError if it cannot
    listen."""
    server = create_server(app, **settings)
    for listener in (server, *getattr(server, "map", {}).values()):  # one socket, or several (IPv4 and IPv6)
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = GuardedChannel
    server.run()
