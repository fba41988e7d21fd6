"""The floor of issuer data's durable write on this machine: Python's sqlite3 (the same SQLite, no server, no
Swift) runs the statements of Coffer's provisioning group commit (SQLWalletRepository+BatchedWrites.swift) on a
copy of a seeded database, in batches as large as the load's connections allow, each committed and synced
(`synchronous = FULL`). Prints "issuances/s cpu_us_per_issuance": what SQLite alone needs per issuance.

Usage: python3 Benchmarks/write-floor.py DATABASE [--batch 16] [--seconds 5]
"""

import argparse
import os
import random
import sqlite3
import tempfile
import time


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("database")
    arguments.add_argument("--batch", type=int, default=16)
    arguments.add_argument("--seconds", type=float, default=5)
    options = arguments.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "floor.sqlite")
        with sqlite3.connect(options.database) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        database = sqlite3.connect(copy, isolation_level=None)
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
            database.execute("PRAGMA " + pragma)
        passes = [row[0] for row in database.execute("SELECT id FROM apple_passes")]
        issued, started, cpu = 0, time.monotonic(), time.process_time()
        while time.monotonic() - started < options.seconds:
            issued += commit(database, random.sample(passes, min(options.batch, len(passes))))
        elapsed, cpu = time.monotonic() - started, time.process_time() - cpu
        print(f"{issued / elapsed:.0f} {cpu / issued * 1e6:.1f}")


def commit(database, passes):
    """One batch as Coffer commits it: the passes' binding data, their open sessions ended, the new ones opened."""
    now = int(time.time() * 1000)
    marks = ",".join("?" * len(passes))
    database.execute("BEGIN IMMEDIATE")
    database.execute(
        "UPDATE apple_passes SET account_binding_data = CASE id "
        + " ".join("WHEN ? THEN ?" for _ in passes)
        + " END, updated_at = CASE id "
        + " ".join("WHEN ? THEN ?" for _ in passes)
        + f" END WHERE id IN ({marks})",
        # About the size of the binding data Coffer records (its JSON, ~600 bytes).
        [value for pass_id in passes for value in (pass_id, os.urandom(600))]
        + [value for pass_id in passes for value in (pass_id, now)]
        + passes,
    )
    database.execute(f"DELETE FROM provisioning_sessions WHERE pass_id IN ({marks}) AND used_at IS NULL", passes)
    database.execute(
        "INSERT INTO provisioning_sessions (id_hash, pass_id, created_at, expires_at, used_at) VALUES "
        + ",".join(["(?, ?, ?, ?, NULL)"] * len(passes)),
        [value for pass_id in passes for value in (os.urandom(32), pass_id, now, now + 600_000)],
    )
    database.execute("COMMIT")
    return len(passes)


if __name__ == "__main__":
    main()
