"""Running an endpoint until it is stopped: the tables restored from a data
directory, designs loaded, the port opened, the journal folded into a
snapshot on the way out. `manage.py serve_dynamodb` (designs from files or
projects) and `python -m modeler.endpoint` (design files only, without
Django: the quicker start) both run this."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from modeler.endpoint.server import EndpointServer, sweep_in_background
from modeler.endpoint.service import Service
from modeler.endpoint.storage import DataDir
from modeler.engine.engine import Engine

if TYPE_CHECKING:
    from modeler.design import model as d


class StartError(Exception):
    """The endpoint cannot start; the message says why and what to change."""


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` or `PORT` (on 127.0.0.1)."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise StartError(
            f"--address {text}: expected HOST:PORT or PORT, e.g. 127.0.0.1:8000"
        )
    return host.strip("[]") or "127.0.0.1", int(port)


def serve(
    *,
    address: str,
    designs: Iterable[tuple[str, Callable[[], d.Design]]] = (),
    seed: int | None = None,
    data_dir: str = "",
    say: Callable[[str], None],
) -> None:
    """Serve until SIGTERM or Ctrl-C. `designs`: (where from, a function
    reading it), read only when its table is not kept in `data_dir`."""
    started = time.perf_counter()
    host, port = parse_address(address)
    engine = Engine()
    storage = DataDir(data_dir) if data_dir else None
    if storage is not None:
        replayed = storage.restore(engine)
        kept = ", ".join(sorted(engine.tables)) or "no tables"
        say(f"{storage.path}: {kept} ({replayed} writes replayed from the journal)")
    for source, read in designs:
        design = read()
        name = design.table.name
        if name in engine.tables:
            if storage is None:
                raise StartError(f"{source}: a table called {name} is loaded already")
            say(f"{name}: kept from {storage.path}, not loaded again")
            continue
        # Sample data generation is imported only when a design needs it.
        from modeler.endpoint.designs import design_load

        try:
            count = design_load(engine, design, seed=seed)
        except Exception as exc:
            raise StartError(f"{source}: {exc}") from None
        say(f"{name}: {count} sample items loaded from {source}")
    if storage is not None:
        storage.checkpoint(engine)
    service = Service(engine, on_write=storage.record if storage else None)
    try:
        server = EndpointServer(service, (host, port))
    except OSError as exc:
        raise StartError(
            f"cannot listen on {host}:{port}: {exc.strerror}; choose another --address"
        ) from None
    sweep_in_background(server)
    say(
        f"DynamoDB endpoint on {server.url} (ready in "
        f"{time.perf_counter() - started:.2f} s); any credentials and region are "
        "accepted. Ctrl-C stops it."
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if storage is not None:
            with service.lock:
                storage.checkpoint(engine)
                storage.close()
