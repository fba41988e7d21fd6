#!/usr/bin/env python3
"""Share links in a real browser: a desktop browser gets the badge page, an iPhone gets the pass, openssl verifies it.

It starts `coffer serve` on a free loopback port over a fresh data directory, seeds a tag (`coffer admin seed-demo
--json`) and makes a share link through the API. Headless Chromium, driven over the DevTools protocol (the helpers of
webflow_browser_test.py), opens it at desktop size: the page must show one link named "Add to Apple Wallet", load
nothing from elsewhere and raise no error; a screenshot is kept. Clicking the badge must download the pass
(application/vnd.apple.pkpass, attachment). The same link opened with an iPhone's user agent at phone size must answer
the pass at once. Each download is unzipped: every file's SHA-1 must match manifest.json, and `openssl cms -verify`
must accept the detached signature against the development root. A single-use link must serve one download and then
show the "does not work" page, and the server's log must never contain a token.

Usage: share_link_browser_test.py --coffer PATH [--chromium PATH] [--artifacts DIR]
Exits 0 when every check passes; prints what failed otherwise.
"""

import base64
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webflow_browser_test as web  # noqa: E402
from webflow_browser_test import Failure, check, evaluate, problems  # noqa: E402

DESKTOP = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}


def screenshot(page, directory, name):
    shot = page.command("Page.captureScreenshot", format="png")
    path = os.path.join(directory, name)
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    print(f"screenshot: {path}")


def intercepted_download(page, url_part, what):
    """The body and headers of the next response whose URL contains `url_part`, held at the response stage."""
    paused = page.wait_for(
        lambda e: e["method"] == "Fetch.requestPaused" and url_part in e["params"]["request"]["url"]
        and "responseStatusCode" in e["params"],
        timeout=30, what=what)
    params = paused["params"]
    headers = {h["name"].lower(): h["value"] for h in params.get("responseHeaders", [])}
    body = page.command("Fetch.getResponseBody", requestId=params["requestId"])
    data = base64.b64decode(body["body"]) if body.get("base64Encoded") else body["body"].encode()
    # The download itself is not needed: the bytes were read above.
    page.command("Fetch.failRequest", requestId=params["requestId"], errorReason="Aborted")
    return params["responseStatusCode"], headers, data


def navigate_without_waiting(page, url):
    """Starts a navigation whose answer is held at the response stage: Page.navigate answers only once it commits."""
    page.next_id += 1
    page.socket.send(json.dumps({"id": page.next_id, "method": "Page.navigate", "params": {"url": url}}))


def verify_pass(pkpass, root, work, name):
    """Checks the archive as Wallet does: manifest hashes, then the detached signature with openssl."""
    check(pkpass[:2] == b"PK", f"{name} is not a zip archive")
    with zipfile.ZipFile(io.BytesIO(pkpass)) as archive:
        files = {info.filename: archive.read(info) for info in archive.infolist() if not info.is_dir()}
    for required in ("pass.json", "manifest.json", "signature"):
        check(required in files, f"{name} has no {required}")
    manifest = json.loads(files["manifest.json"])
    for path, content in files.items():
        if path in ("manifest.json", "signature"):
            continue
        check(manifest.get(path) == hashlib.sha1(content).hexdigest(), f"{name}: {path}'s SHA-1 is not the manifest's")
    check(set(manifest) == set(files) - {"manifest.json", "signature"}, f"{name}: the manifest lists other files")
    manifest_path = os.path.join(work, f"{name}-manifest.json")
    signature_path = os.path.join(work, f"{name}-signature.der")
    with open(manifest_path, "wb") as file:
        file.write(files["manifest.json"])
    with open(signature_path, "wb") as file:
        file.write(files["signature"])
    verified = subprocess.run(
        [
            "openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", signature_path, "-content",
            manifest_path, "-CAfile", root, "-purpose", "any", "-out", os.devnull,
        ],
        capture_output=True, text=True)
    check(verified.returncode == 0, f"openssl cms -verify refused {name}'s signature: {verified.stderr}")
    return json.loads(files["pass.json"])


def make_link(base, seed, body):
    status, headers, answer = web.request(
        f"{base}/api/v2/passes/{seed['tag_id']}/share_links", body, token=seed["api_token"])
    check(status == 201, f"share_links answered {status}: {answer[:300]!r}")
    check(headers.get("Cache-Control") == "no-store", "the new link's answer may be cached")
    link = json.loads(answer)
    match = re.fullmatch(re.escape(base) + r"/wallet/pass/([A-Za-z0-9_-]{43})", link["url"])
    check(match, f"unexpected share URL {link['url']}")
    return link["url"], match.group(1)


def main():
    arguments = web.parse_arguments(__doc__.split("\n")[0], "share-links")
    work = tempfile.mkdtemp(prefix="coffer-share-")
    data_dir = os.path.join(work, "data")
    server = browser = None
    try:
        seed = web.seed_demo(arguments.coffer, data_dir)
        root = os.path.join(data_dir, "development-root.pem")
        server = web.Server(arguments.coffer, data_dir)
        base = f"http://127.0.0.1:{server.port}"
        url, token = make_link(base, seed, {"expires_in": 3600})

        browser = web.Chromium(arguments.chromium, os.path.join(work, "profile"))
        page = browser.page
        for domain in ("Page", "Runtime", "Log"):
            page.command(f"{domain}.enable")
        page.command("Emulation.setDeviceMetricsOverride", **DESKTOP)
        page.command("Fetch.enable", patterns=[{"urlPattern": "*download=1*", "requestStage": "Response"}])

        # A desktop browser: the page with the badge.
        page.command("Page.navigate", url=url)
        page.wait_for(lambda e: e["method"] == "Page.loadEventFired", what="load event")
        check(evaluate(page, "document.documentElement.lang") == "en", "the page has no lang=\"en\"")
        tree = page.command("Accessibility.getFullAXTree")
        links = [n for n in tree.get("nodes", []) if n.get("role", {}).get("value") == "link"]
        check([n.get("name", {}).get("value") for n in links] == ["Add to Apple Wallet"],
              f"the accessibility tree's links: {[n.get('name') for n in links]}")
        external = evaluate(
            page,
            "performance.getEntriesByType('resource').map(e => e.name).filter(u => !u.startsWith(location.origin))")
        check(external == [], f"the page loaded from elsewhere: {external}")
        box = evaluate(
            page,
            "(() => { const r = document.getElementById('add-to-wallet').getBoundingClientRect();"
            " return {x: r.x, y: r.y, width: r.width, height: r.height}; })()")
        check(box["height"] >= 44 and box["width"] >= 44, f"the badge is smaller than a finger: {box}")
        screenshot(page, arguments.artifacts, "share-link-1280x800.png")
        found = problems(page.events)
        check(not found, "the page reported problems:\n" + "\n".join(found))

        # Clicking the badge downloads the pass.
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for kind in ("mousePressed", "mouseReleased"):
            page.command("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
        status, headers, pkpass = intercepted_download(page, "download=1", "the badge's download")
        check(status == 200, f"the badge's download answered {status}")
        check(headers.get("content-type") == "application/vnd.apple.pkpass",
              f"the download's type is {headers.get('content-type')}")
        check(headers.get("content-disposition", "").startswith("attachment; filename="),
              f"the download's disposition is {headers.get('content-disposition')}")
        desktop_pass = verify_pass(pkpass, root, work, "desktop")

        # An iPhone and a link that works many times: the pass itself, at once.
        page.command("Fetch.enable", patterns=[{"urlPattern": "*/wallet/pass/*", "requestStage": "Response"}])
        page.command("Emulation.setDeviceMetricsOverride", **web.PHONE)
        page.command("Emulation.setUserAgentOverride", userAgent=web.IPHONE_USER_AGENT, platform="iPhone")
        navigate_without_waiting(page, url)
        status, headers, pkpass = intercepted_download(page, "/wallet/pass/", "the iPhone's download")
        check(status == 200 and headers.get("content-type") == "application/vnd.apple.pkpass",
              f"the iPhone got {status} {headers.get('content-type')}")
        phone_pass = verify_pass(pkpass, root, work, "iphone")
        check(phone_pass["serialNumber"] == desktop_pass["serialNumber"], "the two downloads are different passes")

        # A single-use link on an iPhone: the page, whose button a person taps; only that tap spends the link.
        page.command("Fetch.disable")
        once, once_token = make_link(base, seed, {"single_use": True})
        page.events.clear()
        page.command("Page.navigate", url=once)
        page.wait_for(lambda e: e["method"] == "Page.loadEventFired", what="load event of the single-use link")
        tree = page.command("Accessibility.getFullAXTree")
        buttons = [n for n in tree.get("nodes", []) if n.get("role", {}).get("value") == "button"]
        check([n.get("name", {}).get("value") for n in buttons] == ["Add to Apple Wallet"],
              f"the single-use page's buttons: {[n.get('name') for n in buttons]}")
        found = problems(page.events)
        check(not found, "the single-use page reported problems:\n" + "\n".join(found))
        screenshot(page, arguments.artifacts, "share-link-single-use-390x844.png")
        box = evaluate(
            page,
            "(() => { const r = document.getElementById('add-to-wallet').getBoundingClientRect();"
            " return {x: r.x, y: r.y, width: r.width, height: r.height}; })()")
        check(box["height"] >= 44 and box["width"] >= 44, f"the button is smaller than a finger: {box}")
        page.command("Fetch.enable", patterns=[{"urlPattern": "*/wallet/pass/*", "requestStage": "Response"}])
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for kind in ("mousePressed", "mouseReleased"):
            page.command("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
        status, headers, pkpass = intercepted_download(page, "/wallet/pass/", "the single-use button's download")
        check(status == 200 and headers.get("content-type") == "application/vnd.apple.pkpass",
              f"the single-use button got {status} {headers.get('content-type')}")
        once_pass = verify_pass(pkpass, root, work, "single-use")
        check(once_pass["serialNumber"] == desktop_pass["serialNumber"], "the single-use link served another pass")

        # The single-use link is spent: the "does not work" page.
        page.command("Fetch.disable")
        page.events.clear()
        page.command("Page.navigate", url=once)
        page.wait_for(lambda e: e["method"] == "Page.loadEventFired", what="load event of the spent link")
        heading = evaluate(page, "document.querySelector('h1').textContent")
        check(heading == "This link does not work", f"a spent single-use link shows {heading!r}")
        screenshot(page, arguments.artifacts, "share-link-spent-390x844.png")

        for secret in (token, once_token):
            check(secret not in server.output, "the server's log contains a share token")
        print(f"ok: the badge and the iPhone each got pass {desktop_pass['serialNumber']}, verified by openssl")
        return 0
    except Failure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        if server is not None:
            print("server log (last lines):\n" + "".join(server.lines[-15:]), file=sys.stderr)
        return 1
    finally:
        web.clean_up(browser, server, work)


if __name__ == "__main__":
    sys.exit(main())
