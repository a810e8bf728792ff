"""The HTTP server: DynamoDB's and DynamoDB Streams' JSON 1.0 protocol on
one port, on the standard library's threading http.server (HTTP/1.1,
keep-alive, as the SDKs' connection pools expect).

    server = start(Service(), ("127.0.0.1", 0))   # a free port
    server.server_address                          # ("127.0.0.1", 54321)
    ...
    server.shutdown()

Any credentials and region are accepted; a SigV4 Authorization header is
parsed, never checked. A GET answers a health line (DynamoDB Local answers
GETs too), so a load balancer or a test can see the port is up.
The server is the standard library's ThreadingHTTPServer (a thread per
connection); the requests are read by `_Handler`.
"""

from __future__ import annotations

import logging
import threading
from http.server import ThreadingHTTPServer
from io import BufferedReader
from socketserver import StreamRequestHandler

from modeler.endpoint.protocol import (
    new_request_id,
    response_head,
    signature_scope,
)
from modeler.endpoint.service import Service

logger = logging.getLogger(__name__)
# The body of one request; DynamoDB's largest (a 25-item batch of 400 KB
# items, base64) stays under it.
MAX_BODY = 32 * 1024 * 1024
# How often the TTL sweeper looks for expired items, in seconds.
SWEEP_EVERY = 1.0
MAX_LINE = 65536
MAX_HEADERS = 100
_REASONS = {
    200: "OK",
    400: "Bad Request",
    413: "Payload Too Large",
    500: "Internal Server Error",
}


class _Handler(StreamRequestHandler):
    """HTTP/1.1 with keep-alive, read and written here rather than by
    http.server's BaseHTTPRequestHandler, whose header parsing (the email
    package) costs more than the engine's GetItem: a request line, headers
    up to a blank line, a body of Content-Length bytes; one write answers."""

    service: Service
    # Buffered reads: with the default rbufsize the request's file is a
    # BufferedReader, which can peek. Answers go straight to the socket.
    rfile: BufferedReader

    def handle(self) -> None:
        while self._one_request():
            pass

    def _one_request(self) -> bool:
        """Answer one request; False when the connection is to be closed."""
        line = self.rfile.readline(MAX_LINE + 1)
        if not line or len(line) > MAX_LINE:
            return False
        method, _, rest = line.partition(b" ")
        version = rest.rstrip(b"\r\n").rpartition(b" ")[2]
        headers = self._headers()
        if headers is None:
            return self._answer(431, b"", close=True)
        connection = headers.get(b"connection", b"").strip().lower()
        keep_alive = (
            connection != b"close"
            if version == b"HTTP/1.1"
            else connection == b"keep-alive"
        )
        try:
            length = int(headers.get(b"content-length") or 0)
        except ValueError:
            return self._answer(400, b"", close=True)
        if length > MAX_BODY or length < 0:
            return self._answer(413, b"", close=True)
        body = self.rfile.read(length) if length else b""
        if method == b"GET":
            return self._answer(
                200, b"healthy: dynamodb endpoint\n", close=not keep_alive, plain=True
            )
        if method != b"POST":
            return self._answer(405, b"", close=True)
        named = headers.get(b"x-amz-target")
        target = named.strip().decode("latin-1") if named is not None else None
        status, answer = self.service.handle(target, body)
        if status >= 500:
            # Parsed for the log only: any credentials and region are accepted.
            authorization = headers.get(b"authorization")
            scope = signature_scope(
                authorization.strip().decode("latin-1") if authorization else None
            )
            logger.error("%s failed for %s", target, scope.get("access_key", "-"))
        return self._answer(status, answer, close=not keep_alive)

    def _headers(self) -> dict[bytes, bytes] | None:
        """The header fields up to the blank line, names lowered, values as
        sent (only the few read are stripped and decoded); None past
        MAX_HEADERS. When the whole head is already buffered (an SDK sends
        it in one segment) it is taken in one read and split, rather than
        read line by line: a dozen readline calls cost a tenth of a GetItem."""
        rfile = self.rfile
        buffered = rfile.peek(MAX_LINE)
        if buffered.startswith(b"\r\n"):
            rfile.read(2)
            return {}
        end = buffered.find(b"\r\n\r\n")
        if end >= 0 and buffered.count(b"\r\n", 0, end) < MAX_HEADERS:
            lines = rfile.read(end + 4)[:end].split(b"\r\n")
        else:
            lines = []
            for _ in range(MAX_HEADERS):
                header = rfile.readline(MAX_LINE + 1)
                if header in (b"\r\n", b"\n", b""):
                    break
                lines.append(header)
            else:
                return None
        headers: dict[bytes, bytes] = {}
        for header in lines:
            name, _, value = header.partition(b":")
            headers[name.strip().lower()] = value
        return headers

    def _answer(
        self, status: int, body: bytes, *, close: bool, plain: bool = False
    ) -> bool:
        if plain:
            fields = f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
        else:
            fields = response_head(body, new_request_id())
        if close:
            fields += "Connection: close\r\n"
        head = f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n{fields}\r\n"
        # Status line, headers and body in one write: two small writes meet
        # the client's delayed ACK (Nagle's algorithm) and wait 40 ms.
        # sendall on the socket itself: a buffered file's write and flush
        # add two Python-level layers to every answer.
        self.connection.sendall(head.encode("latin-1") + body)
        return not close


class EndpointServer(ThreadingHTTPServer):
    # An IPv4 socket's (host, port) or an IPv6 one's (host, port, flow,
    # scope): the host is text.
    server_address: tuple[str, int] | tuple[str, int, int, int]
    daemon_threads = True
    # A busy test suite opens connections in bursts.
    request_queue_size = 128

    def __init__(self, service: Service, address: tuple[str, int]) -> None:
        handler = type("Handler", (_Handler,), {"service": service})
        super().__init__(address, handler)
        self.service = service
        self._stopped = threading.Event()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def sweep_forever(self) -> None:
        """Delete expired items every SWEEP_EVERY seconds until shutdown."""
        while not self._stopped.wait(SWEEP_EVERY):
            try:
                self.service.sweep()
            except Exception:
                logger.exception("the TTL sweep failed")

    def shutdown(self) -> None:
        self._stopped.set()
        super().shutdown()


def sweep_in_background(server: EndpointServer) -> None:
    threading.Thread(target=server.sweep_forever, daemon=True).start()


def start(service: Service, address: tuple[str, int]) -> EndpointServer:
    """A server answering on `address` from background threads (port 0:
    a free one); `shutdown()` stops it."""
    server = EndpointServer(service, address)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sweep_in_background(server)
    return server
