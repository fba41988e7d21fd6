#!/usr/bin/env python3
"""The Python peer of Coffer's .pkpass builder: builds the typical pass in a loop on one core and prints builds/s.

The typical pass is Benchmarks/Sources/BenchmarkSupport/TypicalPass.swift's: pass.json plus icon, logo and strip at
@1x/@2x/@3x (2,000 / 6,000 / 30,000 bytes times scale squared, each after the 8-byte PNG signature, byte i being
i*7 mod 256), about 532 KB. Each build, as a Python team would write it with pyca/cryptography and keys loaded once:
pass.json serialized (its own serial number), manifest.json (SHA-1 hex of every file, as Wallet requires), a detached
CMS signature of the manifest (SHA-256, the pass certificate and the WWDR intermediate, signing time), and the zip
written in memory with zipfile (ZIP_DEFLATED by default, --store for stored entries).
--prehash hashes the images once (as Coffer's PreparedPassTemplate does) instead of on every build.

Usage: pkpass_peer.py WORK [--seconds N] [--store] [--prehash] [--incompressible] [--cpu K] [--check]
WORK holds the keys (generated once, as issuer_data_peer.py does). --check builds one pass and verifies it
(zip integrity, manifest digests, signature with openssl against the generated root) instead of measuring.
"""

import argparse
import hashlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import issuer_data_peer  # noqa: E402  (the shared key generation)

from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.serialization import pkcs7  # noqa: E402


def typical_images(incompressible: bool = False) -> dict[str, bytes]:
    """The images of TypicalPass.swift, byte for byte; or, `incompressible`, the same sizes of seeded pseudo-random
    bytes (as real PNG data is: TypicalPass's repeating pattern deflates about 60 to 1)."""
    files = {}
    generator = random.Random(16)
    for name, size in (("icon", 2_000), ("logo", 6_000), ("strip", 30_000)):
        for scale, suffix in enumerate(("", "@2x", "@3x")):
            count = size * (scale + 1) * (scale + 1)
            body = generator.randbytes(count) if incompressible else bytes((i * 7) & 0xFF for i in range(count))
            files[f"{name}{suffix}.png"] = b"\x89PNG\r\n\x1a\n" + body
    return files


def pass_json(serial: str) -> bytes:
    """An event ticket like TypicalPass.swift's, with its own serial number."""
    return json.dumps({
        "barcodes": [{"format": "PKBarcodeFormatQR", "message": serial, "messageEncoding": "iso-8859-1"}],
        "description": "Benchmark ticket",
        "eventTicket": {"primaryFields": [{"key": "event", "label": "EVENT", "value": "Swift in Concert"}]},
        "formatVersion": 1,
        "organizationName": "Coffer",
        "passTypeIdentifier": issuer_data_peer.PASS_TYPE_IDENTIFIER,
        "serialNumber": serial,
        "teamIdentifier": issuer_data_peer.TEAM_IDENTIFIER,
    }, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


class Builder:
    def __init__(self, work: Path, store: bool, prehash: bool, incompressible: bool = False):
        issuer_data_peer.generate_keys(work)
        self.certificate = x509.load_pem_x509_certificate((work / "pass-cert.pem").read_bytes())
        self.wwdr = x509.load_pem_x509_certificate((work / "wwdr.pem").read_bytes())
        self.key = serialization.load_pem_private_key((work / "pass-key.pem").read_bytes(), password=None)
        self.images = typical_images(incompressible)
        self.compression = zipfile.ZIP_STORED if store else zipfile.ZIP_DEFLATED
        self.image_hashes = ({name: hashlib.sha1(data).hexdigest() for name, data in self.images.items()}
                             if prehash else None)

    def build(self, serial: str) -> bytes:
        files = dict(self.images)
        files["pass.json"] = pass_json(serial)
        if self.image_hashes is None:
            manifest_entries = {name: hashlib.sha1(data).hexdigest() for name, data in files.items()}
        else:
            manifest_entries = dict(self.image_hashes)
            manifest_entries["pass.json"] = hashlib.sha1(files["pass.json"]).hexdigest()
        manifest = json.dumps(manifest_entries, sort_keys=True, separators=(",", ":")).encode()
        signature = (pkcs7.PKCS7SignatureBuilder().set_data(manifest)
                     .add_signer(self.certificate, self.key, hashes.SHA256()).add_certificate(self.wwdr)
                     .sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.DetachedSignature]))
        files["manifest.json"] = manifest
        files["signature"] = signature
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=self.compression) as archive:
            for name in sorted(files):
                archive.writestr(name, files[name])
        return buffer.getvalue()


def check(builder: Builder, work: Path) -> None:
    archive_bytes = builder.build("CHECK-1")
    with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
        assert archive.testzip() is None
        names = set(archive.namelist())
        expected = set(builder.images) | {"pass.json", "manifest.json", "signature"}
        assert names == expected, names ^ expected
        manifest_bytes = archive.read("manifest.json")
        manifest = json.loads(manifest_bytes)
        for name, digest in manifest.items():
            assert hashlib.sha1(archive.read(name)).hexdigest() == digest, name
        assert set(manifest) == expected - {"manifest.json", "signature"}
        signature = archive.read("signature")
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "manifest.json").write_bytes(manifest_bytes)
        (Path(folder) / "signature").write_bytes(signature)
        (Path(folder) / "pass.pkpass").write_bytes(archive_bytes)
        verified = subprocess.run(
            ["openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", f"{folder}/signature", "-content",
             f"{folder}/manifest.json", "-CAfile", str(work / "root.pem"), "-purpose", "any", "-out", "/dev/null"],
            capture_output=True, text=True)
        assert verified.returncode == 0, verified.stderr
        if shutil.which("unzip"):
            unzip = subprocess.run(["unzip", "-tq", f"{folder}/pass.pkpass"], capture_output=True, text=True)
            assert unzip.returncode == 0, unzip.stdout + unzip.stderr
    size = sum(len(data) for data in builder.images.values()) + len(pass_json("CHECK-1"))
    print(f"check passed: {len(names)} entries, {size} bytes of content, archive {len(archive_bytes)} bytes, "
          "manifest digests match, signature verified by openssl against the root")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("work", type=Path)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--store", action="store_true", help="stored entries instead of deflate")
    parser.add_argument("--prehash", action="store_true", help="hash the images once, not on every build")
    parser.add_argument("--incompressible", action="store_true",
                        help="pseudo-random image bytes of the same sizes instead of TypicalPass's pattern")
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core (default: the first allowed)")
    parser.add_argument("--check", action="store_true")
    arguments = parser.parse_args()
    cpu = arguments.cpu if arguments.cpu is not None else min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    builder = Builder(arguments.work, store=arguments.store, prehash=arguments.prehash,
                      incompressible=arguments.incompressible)
    if arguments.check:
        check(builder, arguments.work)
        return
    for index in range(20):  # warm-up
        builder.build(f"WARM-{index}")
    builds, started = 0, time.perf_counter()
    deadline = started + arguments.seconds
    size = 0
    while True:
        size = len(builder.build(f"BENCH-{builds}"))
        builds += 1
        if builds % 8 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - started
    mode = (("stored" if arguments.store else "deflate") + (", images prehashed" if arguments.prehash else "")
            + (", incompressible images" if arguments.incompressible else ""))
    print(json.dumps({"builds_per_second": round(builds / elapsed, 1), "builds": builds,
                      "seconds": round(elapsed, 2), "archive_bytes": size, "mode": mode, "cpu": cpu}))


if __name__ == "__main__":
    main()
