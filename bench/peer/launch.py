"""Run ``langgraph dev`` exactly as its CLI does, but honour ``disable_persistence`` from langgraph.json.

langgraph-cli 0.4.40 passes ``config_json.get("disable_persistence")`` to the
in-memory server, but its config validation drops that key, so the flag in
langgraph.json never arrives and the dev server pickles every thread to
``.langgraph_api/`` from a background thread every 10 s. This wrapper keeps the
key through validation and then runs the unchanged ``langgraph dev`` command
with the arguments it was given.

    python launch.py dev --no-reload --no-browser --port P --config langgraph.json
"""

import json
import pathlib
import sys

import langgraph_cli.cli
import langgraph_cli.config

_validate = langgraph_cli.config.validate_config_file


def _validate_keeping_persistence_flag(path: pathlib.Path):  # type: ignore[no-untyped-def]
    validated = _validate(path)
    raw = json.loads(pathlib.Path(path).read_text())
    if "disable_persistence" in raw:
        validated["disable_persistence"] = bool(raw["disable_persistence"])
    return validated


langgraph_cli.config.validate_config_file = _validate_keeping_persistence_flag

if __name__ == "__main__":
    sys.exit(langgraph_cli.cli.cli(sys.argv[1:]))
