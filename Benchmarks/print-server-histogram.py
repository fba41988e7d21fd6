#!/usr/bin/env python3
"""Print the provisioning server's own view of its latency, from its GET /metrics.

Usage:
    python3 Benchmarks/print-server-histogram.py http://127.0.0.1:8080 [--save FILE] [--since FILE]

Scrapes <base URL>/metrics (Prometheus text format) and prints, per route pattern, the requests counted and the
p50/p90/p99 latency estimated from the coffer_http_request_duration_seconds buckets, the status codes seen, and the
same quantiles for signing and database time when the server recorded any. Quantiles are estimated the way
Prometheus's histogram_quantile() does: linear interpolation inside the bucket that holds the rank, so they are only
as fine as the buckets (a value in the last finite bucket or beyond is reported as that bucket's bound, with ">").

--save FILE writes the scrape to FILE; --since FILE subtracts such an earlier scrape, so that a load test reports only
its own requests (save before wrk runs, print with --since after). Python 3 standard library only.
"""

import argparse
import math
import re
import sys
import urllib.request

REQUESTS = "coffer_http_requests_total"
LATENCY = "coffer_http_request_duration_seconds"
OPERATIONS = [("signing", "coffer_signing_duration_seconds"), ("database", "coffer_database_duration_seconds")]

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse(text):
    """Samples as {(name, ((label, value), ...)): value}; comments and blank lines skipped."""
    samples = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = SAMPLE.match(line)
        if not match:
            raise ValueError(f"line {number} is not a Prometheus sample: {line[:80]}")
        name, labels, value = match.groups()
        pairs = tuple(sorted(
            (key, raw.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\"))
            for key, raw in LABEL.findall(labels or "")))
        samples[(name, pairs)] = float(value)
    return samples


def subtract(now, before):
    """now - before, sample by sample (a series missing before counts from zero)."""
    return {key: value - before.get(key, 0.0) for key, value in now.items()}


def histograms(samples, name, by=None):
    """{group: (sorted [(bound, cumulative count)], count)} for histogram `name`, grouped by label `by` (or one group)."""
    groups = {}
    for (sample, labels), value in samples.items():
        if sample != name + "_bucket":
            continue
        labels = dict(labels)
        bound = labels.pop("le", None)
        if bound is None:
            continue
        group = labels.get(by, "") if by else ""
        buckets = groups.setdefault(group, {})
        upper = math.inf if bound == "+Inf" else float(bound)
        buckets[upper] = buckets.get(upper, 0.0) + value
    return {group: (sorted(buckets.items()), buckets.get(math.inf, 0.0)) for group, buckets in groups.items()}


def quantile(q, buckets):
    """(seconds, is_lower_bound) for quantile q of cumulative buckets, as histogram_quantile() estimates it."""
    total = buckets[-1][1] if buckets else 0.0
    if total <= 0:
        return None, False
    rank = q * total
    lower, below = 0.0, 0.0
    for upper, cumulative in buckets:
        if cumulative >= rank:
            if math.isinf(upper):
                return lower, True
            inside = cumulative - below
            fraction = (rank - below) / inside if inside > 0 else 1.0
            return lower + (upper - lower) * fraction, False
        lower, below = upper, cumulative
    return lower, True


def milliseconds(estimate):
    value, beyond = estimate
    if value is None:
        return "-"
    return (">" if beyond else "") + f"{value * 1000:.2f}"


def statuses(samples):
    """{route: {status: count}} from the request counter."""
    by_route = {}
    for (name, labels), value in samples.items():
        if name != REQUESTS or value <= 0:
            continue
        labels = dict(labels)
        route = by_route.setdefault(labels.get("route", "?"), {})
        route[labels.get("status", "?")] = route.get(labels.get("status", "?"), 0) + value
    return by_route


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url", help="the server's base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--save", metavar="FILE", help="also write the raw scrape to FILE")
    parser.add_argument("--since", metavar="FILE", help="subtract an earlier scrape saved with --save")
    parser.add_argument("--timeout", type=float, default=10, help="seconds to wait for /metrics (default 10)")
    arguments = parser.parse_args()

    url = arguments.base_url.rstrip("/") + "/metrics"
    try:
        with urllib.request.urlopen(url, timeout=arguments.timeout) as response:
            text = response.read().decode("utf-8")
    except OSError as error:
        print(f"cannot read {url}: {error} (is the server running with --metrics on?)", file=sys.stderr)
        return 1
    if arguments.save:
        with open(arguments.save, "w", encoding="utf-8") as file:
            file.write(text)
    samples = parse(text)
    if arguments.since:
        with open(arguments.since, encoding="utf-8") as file:
            samples = subtract(samples, parse(file.read()))

    routes = histograms(samples, LATENCY, by="route")
    codes = statuses(samples)
    rows = []
    for route, (buckets, count) in sorted(routes.items(), key=lambda item: -item[1][1]):
        if count <= 0:
            continue
        seen = " ".join(f"{status}:{int(n)}" for status, n in sorted(codes.get(route, {}).items()))
        rows.append((route, int(count), *(milliseconds(quantile(q, buckets)) for q in (0.5, 0.9, 0.99)), seen))
    for label, name in OPERATIONS:
        for _, (buckets, count) in histograms(samples, name).items():
            if count > 0:
                rows.append((f"({label})", int(count), *(milliseconds(quantile(q, buckets)) for q in (0.5, 0.9, 0.99)),
                             ""))

    print(f"server-side latency from {url}" + (f", since {arguments.since}" if arguments.since else ""))
    if not rows:
        print("  no requests recorded")
        return 0
    width = max(len("route"), *(len(row[0]) for row in rows))
    print(f"  {'route':<{width}} {'requests':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}  statuses")
    for route, count, p50, p90, p99, seen in rows:
        print(f"  {route:<{width}} {count:>9} {p50:>8} {p90:>8} {p99:>8}  {seen}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
