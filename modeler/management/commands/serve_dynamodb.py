"""`manage.py serve_dynamodb [DESIGN ...] [--address 127.0.0.1:8000]
[--seed N] [--data-dir DIR]`: a DynamoDB endpoint (the wire protocol of
DynamoDB and DynamoDB Streams, see modeler.endpoint) serving each design's
table loaded with its sample data, or no table at all. With --data-dir the
tables are kept across restarts; a design whose table is already there is
not loaded again."""

from __future__ import annotations

import signal
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from modeler.endpoint.designs import design_load
from modeler.endpoint.server import EndpointServer, sweep_in_background
from modeler.endpoint.service import Service
from modeler.endpoint.storage import DataDir
from modeler.engine.engine import Engine
from modeler.engine.errors import EngineError
from modeler.management.design_source import DESIGN_HELP, load_design
from modeler.sampledata import SampleDataError


def address(text: str) -> tuple[str, int]:
    """`HOST:PORT` or `PORT` (on 127.0.0.1)."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise CommandError(
            f"--address {text}: expected HOST:PORT or PORT, e.g. 127.0.0.1:8000"
        )
    return host.strip("[]") or "127.0.0.1", int(port)


class Command(BaseCommand):
    help = (
        "Serve DynamoDB's API (and DynamoDB Streams') on a port, with each "
        "design's table and sample data loaded, for any AWS SDK or the AWS CLI."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("designs", nargs="*", metavar="DESIGN", help=DESIGN_HELP)
        parser.add_argument(
            "--address",
            default="127.0.0.1:8000",
            help="HOST:PORT to listen on (port 0: a free one); default 127.0.0.1:8000",
        )
        parser.add_argument(
            "--seed",
            type=int,
            default=None,
            help="sample data seed (default: each design's)",
        )
        parser.add_argument(
            "--data-dir",
            default="",
            help="keep the tables in this directory across restarts "
            "(default: in memory only)",
        )

    def handle(self, *args: Any, designs: list[str], **options: Any) -> None:
        started = time.perf_counter()
        host, port = address(options["address"])
        engine = Engine()
        storage = DataDir(options["data_dir"]) if options["data_dir"] else None
        if storage is not None:
            replayed = storage.restore(engine)
            kept = ", ".join(sorted(engine.tables)) or "no tables"
            self.stdout.write(
                f"{storage.path}: {kept} ({replayed} writes replayed from the journal)"
            )
        for source in designs:
            design = load_design(source)
            name = design.table.name
            if name in engine.tables:
                if storage is None:
                    raise CommandError(
                        f"{source}: a table called {name} is loaded already"
                    )
                self.stdout.write(f"{name}: kept from {storage.path}, not loaded again")
                continue
            try:
                count = design_load(engine, design, seed=options["seed"])
            except (SampleDataError, EngineError) as exc:
                raise CommandError(f"{source}: {exc}") from None
            self.stdout.write(f"{name}: {count} sample items loaded from {source}")
        if storage is not None:
            storage.checkpoint(engine)
        service = Service(engine, on_write=storage.record if storage else None)
        try:
            server = EndpointServer(service, (host, port))
        except OSError as exc:
            raise CommandError(
                f"cannot listen on {host}:{port}: {exc.strerror}; choose another "
                "--address"
            ) from None
        sweep_in_background(server)
        self.stdout.write(
            f"DynamoDB endpoint on {server.url} (ready in "
            f"{time.perf_counter() - started:.2f} s); any credentials and region "
            "are accepted. Ctrl-C stops it."
        )
        self.stdout.flush()
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
