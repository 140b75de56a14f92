"""Measure one seeded database (run by bench/run.py, once per scale): every list page and list API, the long-timeline
detail and admin pages, the PDFs, every scheduled job, the tax roll build, and a short loopback load test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/theresa_bench_1k python bench/measure.py --out var/bench-1k.json

Pages are requested through Django's test client against the real database (the median of repeated requests after
a warm-up, the queries of one request counted). Jobs run inside a transaction that is rolled back, so the seeded
database is reused unchanged. The tax roll is built for real (a draft roll: its lines are removed first, then built,
then rebuilt unchanged).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.pages import pages, personas  # noqa: E402
from permits.ledger.models import SpecialCharge, TaxRollBatch, TaxRollLine  # noqa: E402
from permits.models import Parcel, Permit  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "7"))


class Rollback(Exception):
    pass


def time_request(client: Client, url: str) -> dict:
    """A page's cost to build and the queries of one request."""
    response = client.get(url)  # warm-up (and the status)
    connection.queries_log.clear()  # a full log (9,000 entries) would make the capture read nothing
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    counted = len(queries.captured_queries)  # now: every request start resets the connection's log
    times = []
    for _ in range(REPEAT):
        started = time.perf_counter()
        r = client.get(url)
        if hasattr(r, "streaming_content"):
            b"".join(r.streaming_content)
        times.append(time.perf_counter() - started)
    size = (
        len(b"".join(response.streaming_content)) if hasattr(response, "streaming_content") else len(response.content)
    )
    return {
        "status": response.status_code,
        "queries": counted,
        "median_ms": round(statistics.median(times) * 1000, 2),
        "bytes": size,
    }


def wanted(name: str, only: str) -> bool:
    """--only "a,b": the pages and jobs whose name contains a or b (all of them when empty)."""
    return not only or any(part.strip().lower() in name.lower() for part in only.split(",") if part.strip())


def measure_pages(p: dict, only: str = "") -> dict:
    clients = {}
    out = {}
    for kind, name, persona, url in pages(p):
        if not wanted(name, only):
            continue
        if persona not in clients:
            clients[persona] = Client()
            clients[persona].force_login(p[persona])
        try:
            result = time_request(clients[persona], url)
        except Exception as error:  # a page that breaks is reported, not fatal to the bench
            result = {"status": 500, "error": repr(error)[:300]}
        out[name] = {"kind": kind, "url": url, "persona": persona, **result}
        print(f"  {name}: {result}", flush=True)
    return out


def scheduled_jobs() -> list[tuple[str, str]]:
    return [(name, entry["task"]) for name, entry in settings.CELERY_BEAT_SCHEDULE.items() if "drill" not in name]


def measure_jobs(only: str = "") -> dict:
    from celery import current_app

    current_app.loader.import_default_modules()
    out = {}
    for name, task_name in scheduled_jobs():
        if not wanted(name, only):
            continue
        if task_name.endswith("build_tax_roll"):
            continue  # measured on its own below (it builds the roll only in its window)
        task = current_app.tasks[task_name]
        connection.queries_log.clear()
        try:
            with transaction.atomic():
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    result = task.run()
                    elapsed = time.perf_counter() - started
                raise Rollback
        except Rollback:
            pass
        except Exception as error:
            out[name] = {"task": task_name, "error": repr(error)[:300]}
            print(f"  job {name}: {out[name]}", flush=True)
            continue
        items = result.get("items_total") if isinstance(result, dict) else result
        done = result.get("items_done") if isinstance(result, dict) else result
        out[name] = {
            "task": task_name,
            "seconds": round(elapsed, 3),
            "statements": len(queries.captured_queries),
            "items_total": items,
            "items_done": done,
        }
        print(f"  job {name}: {out[name]}", flush=True)
    return out


def measure_tax_roll() -> dict:
    from permits.ledger import tax_roll

    year = timezone.localdate().year
    today = date(year, 11, 1)
    TaxRollLine.objects.filter(batch__year=year, batch__state=TaxRollBatch.State.DRAFT).delete()
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        batch = tax_roll.build_tax_roll(year=year, today=today)
        build = time.perf_counter() - started
    build_statements = len(queries.captured_queries)
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        tax_roll.build_tax_roll(year=year, today=today)
        rebuild = time.perf_counter() - started
    if connection.vendor == "postgresql":
        # As autovacuum would after a build (it is off on this machine): the pages read the roll with its statistics.
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {TaxRollLine._meta.db_table}")
    out = {
        "charges": SpecialCharge.objects.count(),
        "lines": batch.lines.count(),
        "build_seconds": round(build, 3),
        "build_statements": build_statements,
        "rebuild_seconds": round(rebuild, 3),
        "rebuild_statements": len(queries.captured_queries),
    }
    if os.environ.get("BENCH_ROLL_PDF", "1") == "1":
        # The draft roll's PDF, as the worker renders it (never in a request).
        started = time.perf_counter()
        tax_roll.write_roll_pdf(batch)
        out["worker_pdf_seconds"] = round(time.perf_counter() - started, 2)
    print(f"  tax roll: {out}", flush=True)
    return out


# --- Load test ---------------------------------------------------------------------------------------------------


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def hammer(port: int, path: str, cookie: str, *, clients: int, seconds: float) -> dict:
    """`clients` closed-loop clients for `seconds`: wrk when it is installed (Debian's package: a C client that leaves
    the two cores to the server), else Python threads (their own CPU and GIL are then part of the figures)."""
    wrk = shutil.which("wrk")
    if wrk:
        return hammer_with_wrk(wrk, port, path, cookie, clients=clients, seconds=seconds)
    return hammer_with_threads(port, path, cookie, clients=clients, seconds=seconds)


def hammer_with_wrk(wrk: str, port: int, path: str, cookie: str, *, clients: int, seconds: float) -> dict:
    run = subprocess.run(
        [
            wrk,
            f"--threads={min(2, clients)}",
            f"--connections={clients}",
            f"--duration={max(1, round(seconds))}s",
            "--timeout=30s",
            f"--script={ROOT / 'bench' / 'wrk_report.lua'}",
            f"--header=Cookie: {settings.SESSION_COOKIE_NAME}={cookie}",
            f"http://127.0.0.1:{port}{path}",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    return {
        "tool": "wrk",
        "requests": figures["requests"],
        "errors": figures["errors"],
        "req_per_s": round(figures["requests"] / figures["seconds"], 1),
        "p50_ms": figures["p50_ms"],
        "p95_ms": figures["p95_ms"],
        "p99_ms": figures["p99_ms"],
    }


def hammer_with_threads(port: int, path: str, cookie: str, *, clients: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"})
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    errors[0] += 1
            except Exception:
                errors[0] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    p95 = latencies[int(len(latencies) * 0.95) - 1] if latencies else None
    return {
        "tool": "python threads",
        "requests": len(latencies),
        "errors": errors[0],
        "req_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "p95_ms": round(p95 * 1000, 1) if p95 else None,
    }


def settle_database() -> None:
    """The jobs measured before ran in transactions rolled back: their dead rows and dirty pages are cleaned and
    written out now (VACUUM ANALYZE, as autovacuum would, then CHECKPOINT), not by a checkpoint in the middle of the
    load test (the first page measured, the office list, had a p99 of 333 ms against 85 ms when run alone)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("CHECKPOINT")


def measure_load(p: dict, *, seconds: float, clients: int, workers: int) -> dict:
    settle_database()
    port = int(os.environ.get("BENCH_PORT", "8765"))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings"}
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "theresa_permits.wsgi",
            f"--bind=127.0.0.1:{port}",
            f"--workers={workers}",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
    )
    out = {}
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/")
                break
            except OSError:
                time.sleep(0.1)
        paths = (
            ("office list", "clerk", "/office/"),
            ("office list, bare view", "clerk", "/bench/bare/office/"),
            ("my applications", "contractor", "/permits/"),
            ("my applications, bare view", "contractor", "/bench/bare/mine/"),
            ("floor: session and user only", "clerk", "/bench/bare/floor/"),
        )
        cookies = {persona: session_cookie(p[persona]) for _, persona, _ in paths}
        # Every worker warmed on every path before any is measured: whichever path came first had a p99 of 100 to
        # 200 ms against 55 to 65 ms for the same path measured again right after (a server just started).
        for _, persona, path in paths:
            hammer(port, path, cookies[persona], clients=2 * workers, seconds=2)
        for name, persona, path in paths:
            cookie = cookies[persona]
            hammer(port, path, cookie, clients=2 * workers, seconds=1)  # and again right before it is measured
            out[name] = hammer(port, path, cookie, clients=clients, seconds=seconds)
            print(f"  load {name}: {out[name]}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=20)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--load-seconds", type=float, default=5)
    parser.add_argument("--load-clients", type=int, default=10)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--skip", default="", help="comma-separated: pages,jobs,roll,load")
    parser.add_argument("--only", default="", help="comma-separated: only the pages and jobs named with one of these")
    parser.add_argument("--handoff", help="write the list pages and each persona's session cookie (bench/paired.py)")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    p = personas()
    if args.handoff:
        lists = [row for row in pages(p) if row[0] in ("list", "report")]
        cookies = {persona: session_cookie(p[persona]) for persona in {row[2] for row in lists}}
        handoff = {"pages": lists, "cookies": cookies, "cookie_name": settings.SESSION_COOKIE_NAME}
        Path(args.handoff).write_text(json.dumps(handoff))
        return
    result = {
        "database": connection.settings_dict["NAME"],
        "permits": Permit.objects.count(),
        "events": Permit.events.rel.related_model.objects.count(),
        "parcels": Parcel.objects.count(),
        "special_charges": SpecialCharge.objects.count(),
        "measured_at": timezone.now().isoformat(),
    }
    print(f"{result['database']}: {result['permits']} permits", flush=True)
    if "roll" not in skip:
        result["tax_roll"] = measure_tax_roll()  # first: the tax-roll pages are then measured with a built roll
    if "pages" not in skip:
        result["pages"] = measure_pages(p, args.only)
    if "jobs" not in skip:
        result["jobs"] = measure_jobs(args.only)
    if "load" not in skip:
        result["load"] = measure_load(p, seconds=args.load_seconds, clients=args.load_clients, workers=args.workers)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
