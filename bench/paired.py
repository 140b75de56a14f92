"""The list pages' 100k/1k time ratios measured in pairs (run by bench/run.py after both scales are measured).

On this 2-core virtual machine a page's time moves by 30 to 100 % between runs a few seconds apart (the same empty API
list: 5.4 to 10.9 ms), more than the 1.3x budget: a ratio of two medians measured in two processes minutes apart
measured the machine. Here both databases are served at once, each by one gunicorn worker (bench.settings, nothing
kept: every list built from the database), and each page is requested from the 1k server and the 100k server in
turn, in PAIRS rounds over every page (measure): both halves of a pair run within milliseconds of each other, under
the same load, and a page's pairs are spread over the whole pass. The time is
Django's own (the X-Bench-Ms header of bench/timing.py, no HTTP in it); a page's ratio is the median of its pairs'
ratios, and its time at each scale the median of its requests.

    python bench/paired.py --small var/bench-handoff-1000.json --large var/bench-handoff-100000.json --out F
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAIRS = int(os.environ.get("BENCH_PAIRS", "30"))
WARM_UP = 2  # requests of every page at each scale before the rounds


def serve(database_url: str, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "BENCH_KEEP_NOTHING": "1",
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "theresa_permits.wsgi", f"--bind=127.0.0.1:{port}", "--workers=1"]
        + ["--log-level=warning", "--timeout=120"],
        cwd=ROOT,
        env=env,
    )


def wait_for(port: int) -> None:
    for _ in range(200):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"the bench server on port {port} did not start")


def get(port: int, url: str, cookie: str) -> tuple[int, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", url, headers={"Cookie": cookie})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, float(response.getheader("X-Bench-Ms") or "nan")


def measure(small: dict, large: dict, ports: tuple[int, int]) -> dict:
    """PAIRS rounds, each asking every page once of both servers (in turn, neither scale always first): a page's pairs
    are spread over the whole pass, not taken one after the other. Measured page by page, a few seconds when the
    machine was slower (a checkpoint, another process) fell on a few consecutive pages' every pair: their ratios
    spread from 0.75 to 1.31 for pages doing the same work at both scales. Spread over the rounds, such seconds spoil
    one or two of a page's pairs, and the median of its ratios leaves them out."""
    small_urls = {name: url for _, name, _, url in small["pages"]}
    pages = []
    for kind, name, persona, large_url in large["pages"]:
        if name in small_urls:
            cookies = (
                f"{small['cookie_name']}={small['cookies'][persona]}",
                f"{large['cookie_name']}={large['cookies'][persona]}",
            )
            pages.append((kind, name, (small_urls[name], large_url), cookies))
    for _ in range(WARM_UP):  # templates, URL resolvers, the plans and pages of both databases
        for _, _, urls, cookies in pages:
            for side in (0, 1):
                get(ports[side], urls[side], cookies[side])
    times = {name: ([], []) for _, name, _, _ in pages}
    statuses = {name: set() for _, name, _, _ in pages}
    for i in range(PAIRS):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for _, name, urls, cookies in pages:
            for side in order:
                status, ms = get(ports[side], urls[side], cookies[side])
                statuses[name].add(status)
                times[name][side].append(ms)
        if (i + 1) % 10 == 0 or i + 1 == PAIRS:
            print(f"  paired: round {i + 1} of {PAIRS}", flush=True)
    out = {}
    for kind, name, _, _ in pages:
        small_times, large_times = times[name]
        ratios = [b / a for a, b in zip(small_times, large_times, strict=True) if a > 0]
        out[name] = {
            "kind": kind,
            "statuses": sorted(statuses[name]),
            "small_ms": round(statistics.median(small_times), 2),
            "large_ms": round(statistics.median(large_times), 2),
            "ratio": round(statistics.median(ratios), 2),
        }
        print(f"  paired {name}: {out[name]}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", required=True)
    parser.add_argument("--large", required=True)
    parser.add_argument("--small-db", required=True)
    parser.add_argument("--large-db", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    small, large = json.loads(Path(args.small).read_text()), json.loads(Path(args.large).read_text())
    ports = (int(os.environ.get("BENCH_PORT_SMALL", "8771")), int(os.environ.get("BENCH_PORT_LARGE", "8772")))
    servers = [serve(args.small_db, ports[0]), serve(args.large_db, ports[1])]
    try:
        for port in ports:
            wait_for(port)
        result = measure(small, large, ports)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
    Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
