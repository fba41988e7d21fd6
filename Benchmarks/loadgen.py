#!/usr/bin/env python3
"""Load for Benchmarks/load-issuer-data.sh that wrk cannot make: a constant rate, and sessions to call back.

`loadgen.py rate`: open-loop HTTP/1.1 load at a constant rate, with latency percentiles corrected for coordinated
omission.

wrk sends as fast as the server answers, which measures throughput; the latency a server gives at a *given* rate
needs requests sent on a schedule whether or not earlier ones were answered. Request i is due at start + i / rate;
each of the keep-alive connections takes the next due request, waits until it is due, sends it and reads the answer.
Latency runs from when the request was due, so a server that stalls is charged for every request it delayed.

Usage: loadgen.py rate URL --rate 1500 --duration 20 [--connections 16] [-H 'Name: value']... [--body TEXT]
Prints the achieved rate and p50/p90/p99/p99.9/max latency, and one `result` line of key=value pairs for scripts.
Exits 1 if any answer is not 2xx or a connection fails.

`loadgen.py sessions`: asks the issuer-data endpoint once for each tag in a file (one reference id per line) and
writes the session identifier each answer's issuer data carries, one per line: sessions a callback load can consume.

Usage: loadgen.py sessions URL --token TOKEN --tags FILE --out FILE [--connections 16]
"""
import base64
import json
import argparse
import asyncio
import sys
import time
from urllib.parse import urlsplit


def http_request(method, url, headers, body):
    """The bytes of one HTTP/1.1 request on a keep-alive connection."""
    head = [f"{method} {url.path or '/'}{'?' + url.query if url.query else ''} HTTP/1.1",
            f"Host: {url.netloc}", f"Content-Length: {len(body)}"] + headers
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def read_body(reader):
    """Reads one HTTP/1.1 response; returns its status code and body."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    status = int(status_line.split()[1])
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    return status, (await reader.readexactly(length) if length else b"")


async def connection(host, port, request, schedule, latencies, failures, deadline):
    reader, writer = await asyncio.open_connection(host, port)
    loop = asyncio.get_running_loop()
    try:
        for due in schedule:
            if due >= deadline:
                break
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            writer.write(request)
            status, _ = await read_body(reader)
            latencies.append(loop.time() - due)
            if not 200 <= status < 300:
                failures.append(status)
    finally:
        writer.close()


def due_times(start, rate):
    """The shared schedule: request i is due at start + i / rate."""
    index = 0
    while True:
        yield start + index / rate
        index += 1


def percentile(sorted_values, fraction):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


async def issue_sessions(arguments):
    url = urlsplit(arguments.url)
    tags = [line.strip() for line in open(arguments.tags) if line.strip()]
    authorization = "Basic " + base64.b64encode(f"{arguments.token}:".encode()).decode()
    sessions, failures = [], []
    queue = iter(tags)

    async def client():
        reader, writer = await asyncio.open_connection(url.hostname, url.port or 80)
        try:
            for tag in queue:
                body = json.dumps({"tag_id": tag}).encode()
                writer.write(http_request("POST", url, [f"Authorization: {authorization}",
                                                        "Content-Type: application/json"], body))
                status, answer = await read_body(reader)
                if status != 200:
                    failures.append(status)
                    continue
                issuer_data = json.loads(base64.b64decode(json.loads(answer)["issuer_data"]))
                sessions.append(issuer_data["sessionIdentifier"])
        finally:
            writer.close()

    await asyncio.gather(*[client() for _ in range(arguments.connections)])
    with open(arguments.out, "w") as out:
        out.write("".join(session + "\n" for session in sessions))
    print(f"issued {len(sessions)} sessions for {len(tags)} tags")
    if failures:
        print(f"FAIL: {len(failures)} answers were not 200 (first: {failures[0]})", file=sys.stderr)
        return 1
    return 0


async def constant_rate(arguments):
    url = urlsplit(arguments.url)
    request = http_request(arguments.method, url, arguments.header, arguments.body.encode())

    loop = asyncio.get_running_loop()
    start = loop.time() + 0.2
    deadline = start + arguments.duration
    schedule = due_times(start, arguments.rate)
    latencies, failures = [], []
    began = time.monotonic()
    await asyncio.gather(*[
        connection(url.hostname, url.port or 80, request, schedule, latencies, failures, deadline)
        for _ in range(arguments.connections)])
    elapsed = time.monotonic() - began - 0.2

    latencies.sort()
    ms = {name: percentile(latencies, fraction) * 1000
          for name, fraction in [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999)]}
    ms["max"] = (latencies[-1] if latencies else float("nan")) * 1000
    achieved = len(latencies) / elapsed if elapsed > 0 else 0
    print(f"asked {arguments.rate:.0f} requests/s for {arguments.duration:.0f} s over {arguments.connections} "
          f"connections: {len(latencies)} answered, {achieved:.0f}/s")
    print("latency (from when each request was due): " +
          "  ".join(f"{name} {value:.2f} ms" for name, value in ms.items()))
    print("result " + " ".join([f"rate={achieved:.1f}", f"requests={len(latencies)}", f"failures={len(failures)}"] +
                               [f"{name}_ms={value:.3f}" for name, value in ms.items()]))
    if failures:
        print(f"FAIL: {len(failures)} answers were not 2xx (first: {failures[0]})", file=sys.stderr)
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    modes = parser.add_subparsers(dest="mode", required=True)
    rate = modes.add_parser("rate", help="constant-rate load with latency percentiles")
    rate.add_argument("url")
    rate.add_argument("--rate", type=float, required=True, help="requests per second")
    rate.add_argument("--duration", type=float, default=20, help="seconds")
    rate.add_argument("--connections", type=int, default=16)
    rate.add_argument("-H", "--header", action="append", default=[])
    rate.add_argument("--body", default="")
    rate.add_argument("--method", default="POST")
    sessions = modes.add_parser("sessions", help="issue one session per tag and write their identifiers")
    sessions.add_argument("url")
    sessions.add_argument("--token", required=True)
    sessions.add_argument("--tags", required=True, help="a file with one tag reference id per line")
    sessions.add_argument("--out", required=True)
    sessions.add_argument("--connections", type=int, default=16)
    arguments = parser.parse_args()
    return asyncio.run(constant_rate(arguments) if arguments.mode == "rate" else issue_sessions(arguments))


if __name__ == "__main__":
    sys.exit(main())
