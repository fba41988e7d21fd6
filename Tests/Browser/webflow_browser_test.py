#!/usr/bin/env python3
"""The web flow in a real browser: headless Chromium taps "Add to Apple Wallet" on a landing page of a real server.

It starts `coffer serve` on a free loopback port over a fresh data directory, seeds a tag (`coffer admin seed-demo
--json`), makes a landing link through the API, and loads the page in headless Chromium at phone size (390 x 844),
driven over the Chrome DevTools Protocol (its websocket, with only Python's standard library). It keeps a screenshot
(.build/artifacts/webflow/, path printed), taps the badge, and intercepts the navigation to
https://wallet.apple.com/securePassSession (the network is never reached): the fragment, split at "&", must
base64-decode to binding data and a detached CMS signature that `openssl cms -verify` accepts against the development
root, with a creationTimestamp under 300 s old. The device's callback is then played with the binding's session,
and must answer a .pkpass. The page must raise no Content-Security-Policy violation or script error, and the server's
log must not contain the landing token.

Usage: webflow_browser_test.py --coffer PATH [--chromium PATH] [--artifacts DIR]
Exits 0 when every check passes; prints what failed otherwise.
"""

import argparse
import base64
import datetime
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
IPHONE_USER_AGENT = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.0 Mobile/15E148 Safari/604.1"
)
WALLET_PREFIX = "https://wallet.apple.com/securePassSession"


class Failure(Exception):
    """A check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


class WebSocket:
    """A minimal RFC 6455 client: text frames out (masked), text frames in, enough for the DevTools protocol."""

    def __init__(self, url, timeout=30):
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        check(match is not None, f"unexpected DevTools websocket URL {url}")
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            check(chunk, "DevTools closed the websocket during the handshake")
            response += chunk
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        check(b" 101 " in head.split(b"\r\n")[0], f"websocket handshake refused: {head[:200]!r}")

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])
        if len(payload) < 126:
            header.append(0x80 | len(payload))
        elif len(payload) < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack("!H", len(payload))
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 16)
            check(chunk, "DevTools closed the websocket")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        """The next whole text message (continuation frames joined)."""
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = first & 0x0F
            if opcode == 0x8:
                raise Failure("DevTools closed the websocket")
            if opcode == 0x9:  # ping: answer, keep reading
                continue
            if opcode in (0x1, 0x0):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class DevTools:
    """Commands and events of one page target."""

    def __init__(self, url):
        self.socket = WebSocket(url)
        self.next_id = 0
        self.events = []

    def command(self, method, timeout=30, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = json.loads(self.socket.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise Failure(f"{method} failed: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)
        raise Failure(f"{method} got no answer within {timeout} s")

    def wait_for(self, predicate, timeout=30, what="an event"):
        """The first event (kept or new) for which `predicate` holds; the events before it stay kept."""
        for index, event in enumerate(self.events):
            if predicate(event):
                return self.events.pop(index)
        self.socket.sock.settimeout(timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = json.loads(self.socket.receive())
            except socket.timeout:
                break
            if "method" not in message:
                continue
            if predicate(message):
                return message
            self.events.append(message)
        raise Failure(f"no {what} within {timeout} s")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`coffer serve` on a free loopback port, its output collected."""

    def __init__(self, coffer, data_dir):
        self.process = subprocess.Popen(
            [coffer, "serve", "--port", "0", "--data-dir", data_dir, "--log-format", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        self.port = None
        ready = threading.Event()

        def read():
            for line in self.process.stdout:
                self.lines.append(line)
                match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
                if match and self.port is None:
                    self.port = int(match.group(1))
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        ready.wait(120)
        check(self.port is not None, "coffer serve did not say where it listens:\n" + "".join(self.lines[-20:]))

    @property
    def output(self):
        return "".join(self.lines)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def request(url, body=None, token=None, method=None):
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{token}:".encode()).decode()
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


class Chromium:
    """Headless Chromium with its DevTools endpoint on a free loopback port."""

    def __init__(self, executable, profile):
        port = free_port()
        self.process = subprocess.Popen(
            [
                executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update", "--mute-audio",
                "--hide-scrollbars", f"--user-data-dir={profile}", "--remote-debugging-address=127.0.0.1",
                f"--remote-debugging-port={port}", f"--window-size={PHONE['width']},{PHONE['height']}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        targets = None
        while time.monotonic() < deadline and targets is None:
            check(self.process.poll() is None, "chromium exited at start")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as response:
                    targets = [t for t in json.load(response) if t.get("type") == "page"]
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.2)
        check(targets, "chromium's DevTools endpoint did not answer with a page")
        self.page = DevTools(targets[0]["webSocketDebuggerUrl"])

    def stop(self):
        self.page.socket.close()
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def evaluate(page, expression):
    result = page.command("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
    check("exceptionDetails" not in result, f"evaluating {expression!r} threw: {result.get('exceptionDetails')}")
    return result["result"].get("value")


def problems(events):
    """Console errors, CSP violations and uncaught exceptions among `events`."""
    found = []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append("uncaught: " + json.dumps(params.get("exceptionDetails", {}))[:300])
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            # The page names no favicon; the browser's own request for one is not the page's doing.
            if "favicon.ico" not in entry.get("url", "") and "favicon.ico" not in entry.get("text", ""):
                found.append(f"{entry.get('source')}: {entry.get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            found.append("console: " + json.dumps(params.get("args", []))[:300])
    return found


def parse_arguments(description, artifacts):
    """--coffer, --chromium and --artifacts (default .build/artifacts/<artifacts>), the folder made."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--coffer", required=True, help="the built coffer executable")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--artifacts", default=os.path.join(os.getcwd(), ".build", "artifacts", artifacts))
    arguments = parser.parse_args()
    check(arguments.chromium, "chromium is not installed (Debian: apt-get install -y chromium)")
    os.makedirs(arguments.artifacts, exist_ok=True)
    return arguments


def seed_demo(coffer, data_dir):
    """What `coffer admin seed-demo --json` prints for a new data directory: client_id, api_token, tag_id."""
    seeded = subprocess.run(
        [coffer, "admin", "seed-demo", "--json", "--data-dir", data_dir], capture_output=True, text=True, timeout=120)
    check(seeded.returncode == 0, f"seed-demo failed: {seeded.stderr}")
    return json.loads(seeded.stdout)


def clean_up(browser, server, work):
    """Stops the browser and the server (whichever started) and removes the scratch folder."""
    if browser is not None:
        browser.stop()
    if server is not None:
        server.stop()
    shutil.rmtree(work, ignore_errors=True)


def main():
    arguments = parse_arguments(__doc__.split("\n")[0], "webflow")
    work = tempfile.mkdtemp(prefix="coffer-webflow-")
    data_dir = os.path.join(work, "data")
    server = browser = None
    try:
        seed = seed_demo(arguments.coffer, data_dir)
        server = Server(arguments.coffer, data_dir)
        base = f"http://127.0.0.1:{server.port}"

        status, _, body = request(
            f"{base}/api/v2/in_app_provisioning/landing_links", {"tag_id": seed["tag_id"], "expires_in": 3600},
            token=seed["api_token"])
        check(status == 201, f"landing_links answered {status}: {body[:300]!r}")
        landing = json.loads(body)
        match = re.fullmatch(re.escape(base) + r"/wallet/add/([A-Za-z0-9_-]{43})", landing["url"])
        check(match, f"unexpected landing URL {landing['url']}")
        token = match.group(1)

        browser = Chromium(arguments.chromium, os.path.join(work, "profile"))
        page = browser.page
        for domain in ("Page", "Runtime", "Log"):
            page.command(f"{domain}.enable")
        page.command("Emulation.setDeviceMetricsOverride", **PHONE)
        page.command("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        page.command("Emulation.setUserAgentOverride", userAgent=IPHONE_USER_AGENT, platform="iPhone")
        # Hold every request for Wallet's URL: the network is out of reach, and the fragment is what is checked.
        page.command(
            "Fetch.enable", patterns=[{"urlPattern": "https://wallet.apple.com/*", "requestStage": "Request"}])

        page.command("Page.navigate", url=landing["url"])
        page.wait_for(lambda e: e["method"] == "Page.loadEventFired", what="load event")
        check(evaluate(page, "document.documentElement.lang") == "en", "the page has no lang=\"en\"")
        check(evaluate(page, "!!document.querySelector('main') && !!document.querySelector('footer')"),
              "the page lacks its main and footer landmarks")
        # The button's accessible name, as assistive technology gets it (the badge's drawing is hidden from it).
        tree = page.command("Accessibility.getFullAXTree")
        buttons = [n for n in tree.get("nodes", []) if n.get("role", {}).get("value") == "button"]
        check([b.get("name", {}).get("value") for b in buttons] == ["Add to Apple Wallet"],
              f"the accessibility tree's buttons: {[b.get('name') for b in buttons]}")
        external = evaluate(
            page,
            "performance.getEntriesByType('resource').map(e => e.name)"
            ".filter(u => !u.startsWith(location.origin))")
        check(external == [], f"the page loaded from elsewhere: {external}")

        box = evaluate(
            page,
            "(() => { const r = document.getElementById('add-to-wallet').getBoundingClientRect();"
            " return {x: r.x, y: r.y, width: r.width, height: r.height}; })()")
        check(box["height"] >= 44 and box["width"] >= 44, f"the button is smaller than a finger: {box}")
        check(box["y"] + box["height"] <= PHONE["height"], f"the button is below the first screen: {box}")

        shot = page.command("Page.captureScreenshot", format="png")
        screenshot = os.path.join(arguments.artifacts, "landing-390x844.png")
        with open(screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {screenshot}")

        # Keyboard users: Tab reaches the button, and its focus ring shows.
        page.command("Page.bringToFront")
        evaluate(page, "document.activeElement && document.activeElement.blur(), true")
        for kind in ("keyDown", "keyUp"):
            page.command(
                "Input.dispatchKeyEvent", type=kind, key="Tab", code="Tab", windowsVirtualKeyCode=9,
                nativeVirtualKeyCode=9)
        focus = evaluate(
            page,
            "(() => { const b = document.activeElement; const s = getComputedStyle(b);"
            " return {id: b.id, visible: b.matches(':focus-visible'), outline: s.outlineStyle,"
            " width: s.outlineWidth}; })()")
        check(focus["id"] == "add-to-wallet" and focus["visible"] and focus["outline"] == "solid",
              f"Tab does not show a focus ring on the button: {focus}")
        shot = page.command("Page.captureScreenshot", format="png")
        focused = os.path.join(arguments.artifacts, "landing-focused-390x844.png")
        with open(focused, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {focused}")

        # Reduced motion is respected; in dark mode the badge gets the outline Apple asks for on dark backgrounds.
        page.command(
            "Emulation.setEmulatedMedia",
            features=[{"name": "prefers-reduced-motion", "value": "reduce"},
                      {"name": "prefers-color-scheme", "value": "dark"}])
        motion = evaluate(page, "getComputedStyle(document.getElementById('add-to-wallet')).transitionDuration")
        check(all(part.strip() == "0s" for part in motion.split(",")), f"transitions under reduced motion: {motion}")
        edge = evaluate(page, "getComputedStyle(document.querySelector('#add-to-wallet .edge')).stroke")
        check(edge == "rgb(255, 255, 255)", f"the badge's outline in dark mode is {edge}")
        shot = page.command("Page.captureScreenshot", format="png")
        dark = os.path.join(arguments.artifacts, "landing-dark-390x844.png")
        with open(dark, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {dark}")
        page.command("Emulation.setEmulatedMedia", features=[])
        evaluate(page, "document.activeElement && document.activeElement.blur(), true")

        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        tapped_at = time.time()
        page.command("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
        page.command("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
        paused = page.wait_for(
            lambda e: e["method"] == "Fetch.requestPaused"
            and e["params"]["request"]["url"].startswith("https://wallet.apple.com/"),
            timeout=30, what="navigation to wallet.apple.com")
        page.command("Fetch.failRequest", requestId=paused["params"]["requestId"], errorReason="Aborted")
        wallet = paused["params"]["request"]
        check(wallet["url"] == WALLET_PREFIX, f"the page navigated to {wallet['url']}")
        check(wallet.get("method") == "GET", f"the navigation was a {wallet.get('method')}")
        fragment = wallet.get("urlFragment", "")
        check(fragment.startswith("#") and fragment.count("&") == 1, f"unexpected fragment {fragment[:80]!r}")
        encoded_data, encoded_signature = fragment[1:].split("&")
        issuer_data = base64.b64decode(encoded_data, validate=True)
        signature = base64.b64decode(encoded_signature, validate=True)

        with open(os.path.join(work, "issuer-data.json"), "wb") as file:
            file.write(issuer_data)
        with open(os.path.join(work, "signature.der"), "wb") as file:
            file.write(signature)
        verified = subprocess.run(
            [
                "openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", os.path.join(work, "signature.der"),
                "-content", os.path.join(work, "issuer-data.json"), "-CAfile",
                os.path.join(data_dir, "development-root.pem"), "-purpose", "any", "-out", os.devnull,
            ],
            capture_output=True, text=True)
        check(verified.returncode == 0, f"openssl cms -verify refused the signature: {verified.stderr}")

        binding = json.loads(issuer_data)
        created = datetime.datetime.fromisoformat(binding["creationTimestamp"].replace("Z", "+00:00"))
        age = time.time() - created.timestamp()
        check(-5 <= age < 300, f"the issuer data is {age:.1f} s old")
        check(created.timestamp() >= tapped_at - 2, "the issuer data was made before the tap: not a fresh link")
        callback = f"{base}/api/v2/in_app_provisioning/callback"
        check(binding["callbackURL"] == callback, f"the binding calls back at {binding['callbackURL']}")

        # The device then calls the same callback as in the in-app flow.
        status, headers, pkpass = request(
            f"{callback}?sessionIdentifier={binding['sessionIdentifier']}",
            {"issuerBindingData": "0a0b0c", "keyHash": "ff00"})
        check(status == 200 and headers.get("Content-Type") == "application/vnd.apple.pkpass",
              f"the callback answered {status} {headers.get('Content-Type')}")
        check(pkpass[:2] == b"PK", "the callback's answer is not a .pkpass archive")

        found = problems(page.events)
        check(not found, "the page reported problems:\n" + "\n".join(found))
        page.events.clear()

        # The same link, tampered: the "does not work" page, in the browser too (its 404 is the only complaint).
        tampered = landing["url"][:-1] + ("A" if landing["url"][-1] != "A" else "B")
        page.command("Page.navigate", url=tampered)
        page.wait_for(lambda e: e["method"] == "Page.loadEventFired", what="load event of the tampered link")
        heading = evaluate(page, "document.querySelector('h1').textContent")
        check(heading == "This link does not work", f"a tampered link shows {heading!r}")
        shot = page.command("Page.captureScreenshot", format="png")
        not_found = os.path.join(arguments.artifacts, "landing-not-found-390x844.png")
        with open(not_found, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {not_found}")

        found = [p for p in problems(page.events) if "404" not in p]
        check(not found, "the not-found page reported problems:\n" + "\n".join(found))
        check(token not in server.output, "the server's log contains the landing token")
        print(f"ok: the badge opened {WALLET_PREFIX}#… with issuer data {age:.1f} s old, verified by openssl")
        return 0
    except Failure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        if server is not None:
            print("server log (last lines):\n" + "".join(server.lines[-15:]), file=sys.stderr)
        return 1
    finally:
        clean_up(browser, server, work)


if __name__ == "__main__":
    sys.exit(main())
