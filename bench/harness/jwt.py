"""CPU per turn with a JWT bearer against a static bearer token, the same host configuration, one run.

    ../.venv/bin/python -m harness.jwt [--rounds 5]     # make bench-jwt; also a section of make bench

Two hosts run side by side from one host JSON (the echo provider, latency 0): both accept a static token and
JWTs of one issuer whose key is a local JWKS file (ES256). One lane presents the static token, the other a JWT
(the same token on every request, as an application reuses its access token until it expires: after the first
request the host finds it in its verified-token cache). Rounds alternate between the two; the medians of
server CPU per turn and of p50 are printed with their jwt/static ratios. Issue 29's aim: at most +5%.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from .quick import CONCURRENCY, TurnFigures, _turns
from .targets import BENCH, AgenticApi, TargetSpec, _base_env, server_cpus, start

__all__ = ["host_config", "jwt_token", "main", "measure"]

STATIC = "bench-static-token-" + "x" * 16
ISSUER = "https://issuer.bench.invalid"
AUDIENCE = "https://agentic-driver.bench.invalid"
KID = "bench-es256"


def _key() -> Any:
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def jwks_of(key: Any) -> dict[str, Any]:
    import jwt

    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    return {"keys": [public | {"kid": KID, "use": "sig", "alg": "ES256"}]}


def jwt_token(key: Any, lifetime_s: int = 3600) -> str:
    import jwt

    now = int(time.time())
    claims = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "bench-app",
        "iat": now,
        "exp": now + lifetime_s,
        "scope": "sessions:create sessions:read sessions:continue sessions:delete",
    }
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": KID})


def host_config(jwks_file: Path) -> dict[str, Any]:
    """The embedded default's echo instance and sessions, a static token, and one JWT issuer from a file."""
    return {
        "hostId": "bench-jwt",
        "providers": [{"id": "echo", "kind": "echo", "accountId": "local", "models": ["echo-1"]}],
        "sessions": {"retentionMs": 3_600_000},
        "tokens": [
            {
                "subject": "bench",
                "token": STATIC,
                "providers": ["*"],
                "sessions": ["create", "read", "continue", "delete"],
            }
        ],
        "auth": {
            "jwt": [
                {
                    "issuer": ISSUER,
                    "audience": AUDIENCE,
                    "jwksFile": str(jwks_file),
                    "algorithms": ["ES256"],
                    "providers": ["*"],
                }
            ]
        },
    }


def _spec(name: str, config_path: Path, token: str) -> TargetSpec:
    return TargetSpec(
        name=name,
        api=AgenticApi(token=token),
        command=lambda port: [
            sys.executable,
            "-m",
            "agentic_driver",
            "serve",
            "--config",
            str(config_path),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=_base_env(),
        cwd=BENCH,
        description=f"agentic-driver serve --config {config_path.name}, presenting a {name} bearer",
        versions=lambda: {},
    )


def measure(rounds: int = 5, log: Any = print) -> dict[str, Any]:
    """Run the two lanes alternating; the medians per concurrency and the jwt/static ratios."""
    work = BENCH / "results" / "logs" / "jwt"  # the key and host JSON of the run (ignored by git)
    work.mkdir(parents=True, exist_ok=True)
    key = _key()
    jwks_file = work / "jwks.json"
    jwks_file.write_text(json.dumps(jwks_of(key)))
    config_path = work / "host.json"
    config_path.write_text(json.dumps(host_config(jwks_file), indent=1))
    server_cores, _ = server_cpus()
    specs = [_spec("static", config_path, STATIC), _spec("jwt", config_path, jwt_token(key))]
    running = {spec.name: start(spec, BENCH / "results" / "logs", server_cores) for spec in specs}
    figures: dict[str, list[dict[int, TurnFigures]]] = {name: [] for name in running}
    try:
        for target in running.values():
            asyncio.run(_turns(target, 64, 4))  # warm-up (the JWT verified once, then cached), not recorded
        for number in range(rounds):
            for name, target in running.items():
                figures[name].append(asyncio.run(_turns(target, 128, 8)))
            log(f"  round {number + 1}/{rounds} done")
    finally:
        for target in running.values():
            target.stop()
    result: dict[str, Any] = {"rounds": rounds, "turnsPerRound": 128 * 8 * len(CONCURRENCY), "lanes": {}}
    for concurrency in CONCURRENCY:
        medians = {name: _median(figures[name], concurrency) for name in figures}
        spread = {
            name: [round(r[concurrency].cpu_us, 1) for r in figures[name]] for name in figures
        }  # every round, to judge the noise
        result["lanes"][f"c{concurrency}"] = {
            "cpuPerTurnUs": {name: round(m.cpu_us, 1) for name, m in medians.items()},
            "p50Us": {name: round(m.p50_us, 1) for name, m in medians.items()},
            "cpuPerTurnUsByRound": spread,
            "jwtOverStaticCpu": round(medians["jwt"].cpu_us / medians["static"].cpu_us, 3),
            "jwtOverStaticP50": round(medians["jwt"].p50_us / medians["static"].p50_us, 3),
        }
    return result


def _median(rounds: list[dict[int, TurnFigures]], concurrency: int) -> TurnFigures:
    return TurnFigures(
        *(statistics.median(getattr(r[concurrency], name) for r in rounds) for name in ("cpu_us", "p50_us", "p99_us"))
    )


def render(result: dict[str, Any]) -> str:
    lines = [f"JWT bearer vs static token, medians of {result['rounds']} alternating rounds"]
    lines.append("lane   CPU/turn static   CPU/turn jwt   jwt/static   p50 jwt/static")
    for lane, figures in result["lanes"].items():
        cpu = figures["cpuPerTurnUs"]
        lines.append(
            f"{lane:5} {cpu['static']:13.0f} us {cpu['jwt']:11.0f} us {figures['jwtOverStaticCpu']:11.3f}x"
            f" {figures['jwtOverStaticP50']:13.3f}x"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.jwt", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--out", default=str(BENCH / "results" / "jwt.json"))
    options = parser.parse_args(argv)
    own_cores = os.sched_getaffinity(0)
    _, client_cores = server_cpus()
    if client_cores:
        os.sched_setaffinity(0, client_cores)
    try:
        result = measure(options.rounds)
    finally:
        os.sched_setaffinity(0, own_cores)
    Path(options.out).write_text(json.dumps(result, indent=1) + "\n")
    print(render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
