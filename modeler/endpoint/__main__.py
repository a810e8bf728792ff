"""`python -m modeler.endpoint [FILE.yaml ...] [--address 127.0.0.1:8000]
[--seed N] [--data-dir DIR]`: the endpoint without Django, for design files
in the workbench's YAML (a project, or another format, needs `manage.py
serve_dynamodb`). It starts in about a third of the command's time."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from modeler.endpoint.run import StartError, serve

if TYPE_CHECKING:  # the design core is imported only when a file is read
    from modeler.design import model as d

# The workbench's default (DESIGN_FILE_MAX_BYTES).
MAX_DESIGN_BYTES = 2 * 1024 * 1024


def _reader(path: str) -> Callable[[], d.Design]:
    def read() -> d.Design:
        from modeler.designfile import read_design

        file = Path(path)
        if not file.is_file():
            raise StartError(f"{path}: no such file")
        result = read_design(file.read_bytes(), max_bytes=MAX_DESIGN_BYTES)
        if result.design is None:
            problems = "; ".join(
                f"{p.path}: {p.message}"
                for p in result.problems
                if p.severity == "error"
            )
            raise StartError(f"{path}: {problems}")
        return result.design

    return read


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m modeler.endpoint",
        description="Serve DynamoDB's API with each design's table and sample data.",
    )
    parser.add_argument("designs", nargs="*", metavar="FILE", help="a YAML design file")
    parser.add_argument("--address", default="127.0.0.1:8000")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--data-dir", default="")
    args = parser.parse_args(argv)
    try:
        serve(
            address=args.address,
            designs=[(path, _reader(path)) for path in args.designs],
            seed=args.seed,
            data_dir=args.data_dir,
            say=lambda line: print(line, flush=True),
        )
    except StartError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
