#!/usr/bin/env python3
"""The Python peer of Coffer's `POST /api/v2/in_app_provisioning/issuer_data`: what a team would write instead.

FastAPI served by uvicorn, SQLite in WAL mode with synchronous=FULL, pyca/cryptography with the keys loaded once per
worker. Each request does the work Coffer's endpoint does: Basic authentication by the SHA-256 of the API token
(constant-time compare), the client's tag with its pass, user and pass type in one query, the binding JSON (sorted
keys, unescaped slashes), a detached CMS signature (SHA-256, signing certificate + WWDR intermediate, signing time),
then in one durable transaction: the binding stored on the pass, the pass's open sessions ended and the new session
(its SHA-256) inserted. It answers only after the commit.

Subcommands (the work folder holds the keys, the database and the seed):
  keys WORK            generate root, WWDR-like intermediate and pass certificate + RSA-2048 key (once)
  seed WORK --tags N   create the database (once) with one client, one API token and N tags; prints JSON
  self-check WORK URL  one request, its signature checked with `openssl cms -verify` against the generated root,
                       plus the 400/401/404 answers
The app itself is `issuer_data_peer:app` (uvicorn, with PEER_WORK_DIR set); start-issuer-peer.sh runs it.
PEER_ENDPOINT=thread serves the endpoint as a plain `def` (FastAPI's thread pool, one SQLite connection per thread)
instead of the default `async def` that runs the blocking work on the worker's event loop.
"""

import argparse
import base64
import binascii
import datetime
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

PASS_TYPE_IDENTIFIER = "pass.dev.coffer.bench"
TEAM_IDENTIFIER = "BENCHTEAM1"
ORGANIZATION_NAME = "Coffer Bench"
RELYING_PARTY = "127.0.0.1"
SESSION_LIFETIME_MS = 300_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS clients (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS api_users (
    id TEXT PRIMARY KEY, client_id TEXT NOT NULL REFERENCES clients(id), name TEXT NOT NULL,
    token_hash BLOB NOT NULL UNIQUE, created_at BIGINT NOT NULL, revoked_at BIGINT);
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY, client_id TEXT NOT NULL REFERENCES clients(id), external_reference TEXT,
    account_hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS pass_types (
    id TEXT PRIMARY KEY, pass_type_identifier TEXT NOT NULL UNIQUE, team_identifier TEXT NOT NULL,
    organization_name TEXT NOT NULL, signing_key_path TEXT NOT NULL, created_at BIGINT NOT NULL,
    binding_learn_more_url TEXT);
CREATE TABLE IF NOT EXISTS tags (
    id TEXT PRIMARY KEY, client_id TEXT NOT NULL REFERENCES clients(id), user_id TEXT NOT NULL REFERENCES users(id),
    reference_id TEXT, pronto_tag_id TEXT, subscription_id TEXT, created_at BIGINT NOT NULL,
    UNIQUE (client_id, reference_id), UNIQUE (client_id, pronto_tag_id), UNIQUE (client_id, subscription_id));
CREATE TABLE IF NOT EXISTS apple_passes (
    id TEXT PRIMARY KEY, tag_id TEXT NOT NULL UNIQUE REFERENCES tags(id),
    pass_type_id TEXT NOT NULL REFERENCES pass_types(id), serial_number TEXT NOT NULL,
    pass_content BLOB NOT NULL, account_binding_data BLOB, issuer_binding_data TEXT, key_hash TEXT,
    updated_at BIGINT NOT NULL, UNIQUE (pass_type_id, serial_number));
CREATE TABLE IF NOT EXISTS provisioning_sessions (
    id_hash BLOB PRIMARY KEY, pass_id TEXT NOT NULL REFERENCES apple_passes(id), created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL, used_at BIGINT);
CREATE INDEX IF NOT EXISTS provisioning_sessions_pass_id ON provisioning_sessions (pass_id);
CREATE INDEX IF NOT EXISTS provisioning_sessions_expires_at ON provisioning_sessions (expires_at);
"""

# The columns the valid id_attribute values name (Coffer's TagIDAttribute raw values).
TAG_ATTRIBUTES = {"reference_id": "reference_id", "pronto_tag_id": "pronto_tag_id",
                  "subscription_id": "subscription_id"}
TARGET_QUERY = """
SELECT tags.id, apple_passes.id, pass_types.pass_type_identifier, pass_types.team_identifier,
       pass_types.organization_name, users.account_hash
FROM tags
JOIN apple_passes ON apple_passes.tag_id = tags.id
JOIN pass_types ON pass_types.id = apple_passes.pass_type_id
JOIN users ON users.id = tags.user_id
WHERE tags.client_id = ? AND tags.{column} = ?
"""


def now_ms() -> int:
    return int(time.time() * 1000)


def connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL, synchronous=FULL."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    return connection


# MARK: keys


def generate_keys(work: Path) -> None:
    """A root CA, a WWDR-like intermediate and a pass type certificate with its RSA-2048 key, unless present."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID

    if (work / "pass-key.pem").exists():
        return
    work.mkdir(parents=True, exist_ok=True)
    start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)

    def certificate(subject, key, issuer, issuer_key, ca: bool):
        builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(start)
                   .not_valid_after(start + datetime.timedelta(days=365))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if ca:
            builder = builder.add_extension(
                x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        else:
            builder = builder.add_extension(
                x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        return builder.sign(issuer_key, hashes.SHA256())

    keys = [rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(3)]
    root_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Coffer Peer Test Root")])
    wwdr_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Coffer Peer WWDR-like Intermediate")])
    pass_name = x509.Name([
        x509.NameAttribute(NameOID.USER_ID, PASS_TYPE_IDENTIFIER),
        x509.NameAttribute(NameOID.COMMON_NAME, f"Pass Type ID: {PASS_TYPE_IDENTIFIER}"),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, TEAM_IDENTIFIER),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANIZATION_NAME),
    ])
    root = certificate(root_name, keys[0], root_name, keys[0], ca=True)
    wwdr = certificate(wwdr_name, keys[1], root_name, keys[0], ca=True)
    leaf = certificate(pass_name, keys[2], wwdr_name, keys[1], ca=False)
    for name, cert in (("root.pem", root), ("wwdr.pem", wwdr), ("pass-cert.pem", leaf)):
        (work / name).write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path = work / "pass-key.pem"
    key_path.write_bytes(keys[2].private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    key_path.chmod(0o600)


# MARK: seed


def seed(work: Path, tag_count: int) -> dict:
    """Creates the database with one client, one API token and `tag_count` tags (each with a user and a pass), once;
    later calls return what the first one made (seed.json)."""
    seed_file = work / "seed.json"
    if seed_file.exists():
        return json.loads(seed_file.read_text())
    generate_keys(work)
    database = work / "peer.sqlite"
    database.unlink(missing_ok=True)
    connection = connect(database)
    connection.executescript(SCHEMA)
    created = now_ms()
    client_id, pass_type_id = str(uuid.uuid4()).upper(), str(uuid.uuid4()).upper()
    token = secrets.token_urlsafe(32)
    # A stored pass as Coffer keeps it: pass.json of a few hundred bytes.
    content = json.dumps({"formatVersion": 1, "passTypeIdentifier": PASS_TYPE_IDENTIFIER,
                          "teamIdentifier": TEAM_IDENTIFIER, "organizationName": ORGANIZATION_NAME,
                          "description": "Benchmark ticket", "eventTicket": {"primaryFields": [
                              {"key": "event", "label": "EVENT", "value": "Swift in Concert"}]}},
                         sort_keys=True).encode()
    reference_ids = []
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("INSERT INTO clients VALUES (?, ?, ?)", (client_id, "Demo client", created))
    connection.execute("INSERT INTO api_users VALUES (?, ?, ?, ?, ?, NULL)",
                       (str(uuid.uuid4()).upper(), client_id, "load test", hashlib.sha256(token.encode()).digest(),
                        created))
    connection.execute("INSERT INTO pass_types VALUES (?, ?, ?, ?, ?, ?, NULL)",
                       (pass_type_id, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER, ORGANIZATION_NAME,
                        str(work / "pass-key.pem"), created))
    for index in range(tag_count):
        user_id, tag_id, pass_id = (str(uuid.uuid4()).upper() for _ in range(3))
        reference_id = f"ref-{index:06d}-{secrets.token_hex(4)}"
        reference_ids.append(reference_id)
        connection.execute("INSERT INTO users VALUES (?, ?, NULL, ?, ?)",
                           (user_id, client_id, secrets.token_hex(32), created))
        connection.execute("INSERT INTO tags VALUES (?, ?, ?, ?, NULL, NULL, ?)",
                           (tag_id, client_id, user_id, reference_id, created))
        connection.execute("INSERT INTO apple_passes VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, ?)",
                           (pass_id, tag_id, pass_type_id, f"SN-{index:06d}", content, created))
    connection.execute("COMMIT")
    connection.close()
    result = {"api_token": token, "tag_ids": reference_ids}
    seed_file.write_text(json.dumps(result))
    seed_file.chmod(0o600)
    return result


# MARK: the app


def create_app():
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.serialization import pkcs7
    from fastapi import Depends, FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse, Response
    from pydantic import BaseModel

    work = Path(os.environ["PEER_WORK_DIR"])
    # Loaded once per worker.
    certificate = x509.load_pem_x509_certificate((work / "pass-cert.pem").read_bytes())
    wwdr = x509.load_pem_x509_certificate((work / "wwdr.pem").read_bytes())
    key = serialization.load_pem_private_key((work / "pass-key.pem").read_bytes(), password=None)
    callback_url = os.environ.get("PEER_CALLBACK_URL", "http://127.0.0.1/api/v2/in_app_provisioning/callback")
    database = work / "peer.sqlite"
    local = threading.local()

    def db() -> sqlite3.Connection:
        connection = getattr(local, "connection", None)
        if connection is None:
            connection = local.connection = connect(database)
        return connection

    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)

    class APIError(Exception):
        def __init__(self, status: int, code: str, message: str):
            self.status, self.code, self.message = status, code, message

    @app.exception_handler(APIError)
    async def api_error(_request: Request, error: APIError):
        headers = {"WWW-Authenticate": 'Basic realm="coffer"'} if error.status == 401 else None
        return JSONResponse({"error": {"code": error.code, "message": error.message}}, status_code=error.status,
                            headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, error: RequestValidationError):
        return JSONResponse({"error": {"code": "bad_request", "message": "the body is not the expected JSON object"}},
                            status_code=400)

    class IssuerDataRequest(BaseModel):
        tag_id: str
        id_attribute: str = "reference_id"

    async def authenticate(request: Request) -> str:
        """The client of the API user whose token the Basic credentials carry (user name; empty password). `async`, so
        that FastAPI runs it on the loop (one indexed read) rather than hopping to its thread pool for it."""
        header = request.headers.get("authorization", "")
        scheme, _, encoded = header.partition(" ")
        if scheme.lower() != "basic":
            raise APIError(401, "unauthorized", "authentication required")
        try:
            token = base64.b64decode(encoded, validate=True).decode().partition(":")[0]
        except (binascii.Error, UnicodeDecodeError):
            raise APIError(401, "unauthorized", "authentication required")
        if not token:
            raise APIError(401, "unauthorized", "authentication required")
        digest = hashlib.sha256(token.encode()).digest()
        row = db().execute("SELECT token_hash, client_id, revoked_at FROM api_users WHERE token_hash = ?",
                           (digest,)).fetchone()
        if row is None or not hmac.compare_digest(row[0], digest) or row[2] is not None:
            raise APIError(401, "unauthorized", "authentication required")
        return row[1]

    def issue(client_id: str, body: IssuerDataRequest) -> Response:
        if not 1 <= len(body.tag_id) <= 256:
            raise APIError(400, "bad_request", "tag_id must be 1–256 characters")
        column = TAG_ATTRIBUTES.get(body.id_attribute)
        if column is None:
            raise APIError(400, "bad_request", "'id_attribute' is not valid")
        connection = db()
        target = connection.execute(TARGET_QUERY.format(column=column), (client_id, body.tag_id)).fetchone()
        if target is None:
            raise APIError(404, "not_found", "no pass for this tag")
        tag_id, pass_id, pass_type_identifier, team_identifier, organization_name, account_hash = target
        created = time.time()
        created_ms = int(created * 1000)
        session_id = secrets.token_hex(24)
        session_hash = hashlib.sha256(session_id.encode()).digest()
        binding = {
            "fidoProfile": {"relyingPartyIdentifier": RELYING_PARTY, "accountHash": account_hash},
            "creationTimestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created)),
            "sessionIdentifier": session_id,
            "callbackURL": callback_url,
            "passTypeIdentifier": pass_type_identifier,
            "teamIdentifier": team_identifier,
            "displayableName": organization_name,
        }
        data = json.dumps(binding, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        # Detached CMS: SHA-256, the pass certificate and the WWDR intermediate; pyca adds the signing time.
        signature = (pkcs7.PKCS7SignatureBuilder().set_data(data).add_signer(certificate, key, hashes.SHA256())
                     .add_certificate(wwdr).sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.DetachedSignature]))
        # The record keeps what was signed, with the session named by its hash (as Coffer stores it).
        binding["sessionIdentifier"] = "sha256:" + session_hash.hex()
        recorded = json.dumps(binding, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute("UPDATE apple_passes SET account_binding_data = ?, updated_at = ? WHERE id = ?",
                               (recorded, created_ms, pass_id))
            connection.execute("DELETE FROM provisioning_sessions WHERE pass_id = ? AND used_at IS NULL", (pass_id,))
            connection.execute("INSERT INTO provisioning_sessions VALUES (?, ?, ?, ?, NULL)",
                               (session_hash, pass_id, created_ms, created_ms + SESSION_LIFETIME_MS))
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        payload = json.dumps({"issuer_data": base64.b64encode(data).decode(),
                              "signature": base64.b64encode(signature).decode(), "tag_id": tag_id},
                             sort_keys=True, separators=(",", ":")).encode()
        return Response(payload, media_type="application/json; charset=utf-8")

    path = "/api/v2/in_app_provisioning/issuer_data"
    if os.environ.get("PEER_ENDPOINT", "async") == "thread":
        @app.post(path)
        def issuer_data_threaded(body: IssuerDataRequest, client_id: str = Depends(authenticate)):
            return issue(client_id, body)
    else:
        @app.post(path)
        async def issuer_data(body: IssuerDataRequest, client_id: str = Depends(authenticate)):
            return issue(client_id, body)

    return app


if "PEER_WORK_DIR" in os.environ and __name__ != "__main__":
    app = create_app()


# MARK: self-check


def self_check(work: Path, url: str) -> None:
    """One issuance verified with openssl against the generated root, the database row, and the refusals."""
    seeded = seed(work, 0)
    token, tag = seeded["api_token"], seeded["tag_ids"][0]
    endpoint = url.rstrip("/") + "/api/v2/in_app_provisioning/issuer_data"

    def post(body: bytes, authorization: str | None) -> tuple[int, bytes]:
        request = urllib.request.Request(endpoint, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        if authorization:
            request.add_header("Authorization", authorization)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    basic = "Basic " + base64.b64encode(f"{token}:".encode()).decode()
    status, body = post(json.dumps({"tag_id": tag}).encode(), basic)
    assert status == 200, (status, body)
    answer = json.loads(body)
    data, signature = base64.b64decode(answer["issuer_data"]), base64.b64decode(answer["signature"])
    binding = json.loads(data)
    assert sorted(binding) == list(binding), "keys are sorted"
    assert b"\\/" not in data and binding["callbackURL"].startswith("http"), "slashes are not escaped"
    assert len(binding["sessionIdentifier"]) == 48
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "data").write_bytes(data)
        (Path(folder) / "sig.der").write_bytes(signature)
        verified = subprocess.run(
            ["openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", f"{folder}/sig.der",
             "-content", f"{folder}/data", "-CAfile", str(work / "root.pem"), "-purpose", "any",
             "-out", "/dev/null"], capture_output=True, text=True)
        assert verified.returncode == 0, verified.stderr
        printed = subprocess.run(["openssl", "cms", "-cmsout", "-print", "-inform", "DER", "-in",
                                  f"{folder}/sig.der"], capture_output=True, text=True, check=True).stdout
        assert "signingTime" in printed and "sha256" in printed, "signing time and SHA-256 are in the signature"
        assert printed.count("Coffer Peer WWDR-like Intermediate") >= 2, "the WWDR intermediate is included"
    connection = sqlite3.connect(work / "peer.sqlite")
    session_hash = hashlib.sha256(binding["sessionIdentifier"].encode()).digest()
    (recorded,) = connection.execute(
        "SELECT account_binding_data FROM apple_passes JOIN provisioning_sessions "
        "ON provisioning_sessions.pass_id = apple_passes.id WHERE provisioning_sessions.id_hash = ?",
        (session_hash,)).fetchone()
    assert json.loads(recorded)["sessionIdentifier"] == "sha256:" + session_hash.hex()
    # A second issuance for the same tag ends the first session.
    assert post(json.dumps({"tag_id": tag}).encode(), basic)[0] == 200
    assert connection.execute("SELECT COUNT(*) FROM provisioning_sessions WHERE id_hash = ?",
                              (session_hash,)).fetchone()[0] == 0
    assert post(json.dumps({"tag_id": tag}).encode(), None)[0] == 401
    wrong = "Basic " + base64.b64encode(b"not-a-token:").decode()
    assert post(json.dumps({"tag_id": tag}).encode(), wrong)[0] == 401
    assert post(json.dumps({"tag_id": "no-such-tag"}).encode(), basic)[0] == 404
    assert post(b"{not json", basic)[0] == 400
    assert post(json.dumps({"tag_id": ""}).encode(), basic)[0] == 400
    assert post(json.dumps({"tag_id": tag, "id_attribute": "nope"}).encode(), basic)[0] == 400
    print("self-check passed: signature verified by openssl against the root, session stored hashed, "
          "401/404/400 as Coffer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("keys").add_argument("work", type=Path)
    seeding = commands.add_parser("seed")
    seeding.add_argument("work", type=Path)
    seeding.add_argument("--tags", type=int, default=20000)
    checking = commands.add_parser("self-check")
    checking.add_argument("work", type=Path)
    checking.add_argument("url")
    arguments = parser.parse_args()
    if arguments.command == "keys":
        generate_keys(arguments.work)
    elif arguments.command == "seed":
        result = seed(arguments.work, arguments.tags)
        print(json.dumps({"tags": len(result["tag_ids"])}))
    else:
        self_check(arguments.work, arguments.url)


if __name__ == "__main__":
    main()
