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
import socket
import threading
from http.server import ThreadingHTTPServer
from socketserver import BaseRequestHandler

from modeler.endpoint.protocol import response_head, signature_scope
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


def _field(head: bytes, lowered: bytes, name: bytes) -> bytes | None:
    """The value of the header field `name` (b"\\nname:", lowered) in the
    head as sent, found in `lowered`, its lowered copy of the same length;
    None when the head has no such field."""
    at = lowered.find(name)
    if at < 0:
        return None
    at += len(name)
    stop = head.find(b"\n", at)
    return head[at : stop if stop >= 0 else len(head)].strip()


class _Handler(BaseRequestHandler):
    """HTTP/1.1 with keep-alive, read straight from the socket: a request
    line, headers up to a blank line, a body of Content-Length bytes; one
    write answers. Neither http.server's BaseHTTPRequestHandler (its header
    parsing, the email package, costs more than the engine's GetItem) nor a
    buffered file over the socket (two Python-level layers on every read)
    is on the way: each request is one `recv` when the client sent it in
    one segment, as the SDKs do, and the few header fields read are found
    in the head as it came."""

    service: Service
    request: socket.socket

    def handle(self) -> None:
        received = b""
        while True:
            read = self._one_request(received)
            if read is None:
                return
            received = read

    def _one_request(self, received: bytes) -> bytes | None:
        """Answer the request at the start of `received` (reading more as
        needed); what was received beyond it, or None when the connection
        is to be closed."""
        recv = self.request.recv
        while True:
            # The head ends at its first empty line (CRLF CRLF, or bare LFs).
            end = received.find(b"\n\r\n")
            bare = received.find(b"\n\n", 0, end if end >= 0 else len(received))
            if bare >= 0:
                end, body_at = bare, bare + 2
            elif end >= 0:
                body_at = end + 3
            if bare >= 0 or end >= 0:
                break
            first_line = received.find(b"\n")
            if (first_line < 0 and len(received) > MAX_LINE) or first_line > MAX_LINE:
                return None
            if received.count(b"\n") > MAX_HEADERS:
                return self._answer(431, b"", close=True)
            chunk = recv(65536)
            if not chunk:
                return None
            received += chunk
        head = received[:end]
        line_end = head.find(b"\n")
        if line_end > MAX_LINE or (line_end < 0 and end > MAX_LINE):
            return None
        if head.count(b"\n") > MAX_HEADERS:
            return self._answer(431, b"", close=True)
        request_line = head[:line_end] if line_end >= 0 else head
        method, _, rest = request_line.partition(b" ")
        version = rest.rstrip(b"\r").rpartition(b" ")[2]
        # Field names are matched in a lowered copy (the same length), the
        # values taken from the head as sent.
        lowered = head.lower()
        connection = (_field(head, lowered, b"\nconnection:") or b"").lower()
        keep_alive = (
            connection != b"close"
            if version == b"HTTP/1.1"
            else connection == b"keep-alive"
        )
        try:
            length = int(_field(head, lowered, b"\ncontent-length:") or 0)
        except ValueError:
            return self._answer(400, b"", close=True)
        if length > MAX_BODY or length < 0:
            return self._answer(413, b"", close=True)
        missing = body_at + length - len(received)
        if missing > 0:
            chunks = [received]
            while missing > 0:
                chunk = recv(min(missing, 1 << 20))
                if not chunk:
                    return None
                chunks.append(chunk)
                missing -= len(chunk)
            received = b"".join(chunks)
        body = received[body_at : body_at + length]
        after = received[body_at + length :]
        if method == b"GET":
            return self._answer(
                200,
                b"healthy: dynamodb endpoint\n",
                close=not keep_alive,
                plain=True,
                after=after,
            )
        if method != b"POST":
            return self._answer(405, b"", close=True)
        named = _field(head, lowered, b"\nx-amz-target:")
        target = named.decode("latin-1") if named is not None else None
        status, answer = self.service.handle(target, body)
        if status == 200 and keep_alive:
            # The usual answer, sent here rather than through `_answer`.
            self.request.sendall(
                b"HTTP/1.1 200 OK\r\n%s\r\n%s" % (response_head(answer), answer)
            )
            return after
        if status >= 500:
            # Parsed for the log only: any credentials and region are accepted.
            authorization = _field(head, lowered, b"\nauthorization:")
            scope = signature_scope(
                authorization.decode("latin-1") if authorization else None
            )
            logger.error("%s failed for %s", target, scope.get("access_key", "-"))
        return self._answer(status, answer, close=not keep_alive, after=after)

    def _answer(
        self,
        status: int,
        body: bytes,
        *,
        close: bool,
        plain: bool = False,
        after: bytes = b"",
    ) -> bytes | None:
        """Send the answer; `after` (what followed the request), or None
        when the connection is closed."""
        if plain:
            fields = b"Content-Type: text/plain\r\nContent-Length: %d\r\n" % len(body)
        else:
            fields = response_head(body)
        if close:
            fields += b"Connection: close\r\n"
        reason = _REASONS.get(status, "Error").encode("ascii")
        # Status line, headers and body in one write: two small writes meet
        # the client's delayed ACK (Nagle's algorithm) and wait 40 ms.
        self.request.sendall(
            b"HTTP/1.1 %d %s\r\n%s\r\n%s" % (status, reason, fields, body)
        )
        return None if close else after


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
