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
"""

from __future__ import annotations

import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from modeler.endpoint.protocol import (
    new_request_id,
    response_headers,
    signature_scope,
)
from modeler.endpoint.service import Service

logger = logging.getLogger(__name__)
# The body of one request; DynamoDB's largest (a 25-item batch of 400 KB
# items, base64) stays under it.
MAX_BODY = 32 * 1024 * 1024
# How often the TTL sweeper looks for expired items, in seconds.
SWEEP_EVERY = 1.0


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "Server"
    sys_version = ""
    service: Service

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._send(413, b"", new_request_id())
            self.close_connection = True
            return
        body = self.rfile.read(length) if length else b""
        # Parsed for the log: any credentials and region are accepted.
        scope = signature_scope(self.headers.get("Authorization"))
        target = self.headers.get("X-Amz-Target")
        status, answer = self.service.handle(target, body)
        if status >= 500:
            logger.error("%s failed for %s", target, scope.get("access_key", "-"))
        self._send(status, answer, new_request_id())

    def do_GET(self) -> None:  # noqa: N802
        body = b"healthy: dynamodb endpoint\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _send(self, status: int, body: bytes, request_id: str) -> None:
        self.send_response_only(status)
        for name, value in response_headers(body, request_id):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        logger.debug(format, *args)


class EndpointServer(ThreadingHTTPServer):
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
