-- wrk's end-of-run report as one JSON line (bench/measure.py reads it): requests, errors, p50 and p95 in ms.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "errors": %d, "seconds": %.3f, "p50_ms": %.1f, "p95_ms": %.1f, "p99_ms": %.1f}\n',
    summary.requests, e.connect + e.read + e.write + e.status + e.timeout, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
