import Foundation
import HTTPTypes
import Hummingbird
import Secrets
import WalletServices

/// The public landing page of a landing link, and its "not found" twin: one self-contained HTML document each (inline
/// CSS and script allowed by a per-response nonce, no third-party asset), mobile-first and accessible.
///
/// The page shows an "Add to Apple Wallet" badge drawn here as inline SVG after Apple's badge guidelines (two lines on
/// a black rounded rectangle with a thin grey outline, a wallet glyph, clear space of a tenth of its height, one per
/// page). It is a real `<button>`: tapping it posts to the page's own `/session` path and opens the fresh Wallet URL
/// the server answers, so the issuer data is seconds old when Wallet reads it.
enum LandingPage {
    /// The page for a link that works, naming the organization whose pass it adds.
    static func page(organizationName: String, nonce: String) -> String {
        let organization = escaped(organizationName)
        return document(
            title: "Add your pass to Apple Wallet", nonce: nonce,
            main: """
                <h1>Add your pass to Apple Wallet</h1>
                <p class="lead">\(organization) has a pass for you. Open this page on your iPhone and tap the button \
                to add the pass to Wallet.</p>
                <div class="badge-area">
                <button type="button" id="add-to-wallet" class="badge" aria-describedby="status">\
                <span class="visually-hidden">Add to Apple Wallet</span>\(badge)</button>
                </div>
                <p id="status" class="status" role="status" aria-live="polite"></p>
                <noscript><p class="status">Turn on JavaScript for this page to add the pass.</p></noscript>
                """,
            footer: "This link is personal: please do not forward it.", script: script)
    }

    /// The page for a token that does not work, whether unknown, mistyped or expired: it says which it may be, never
    /// which it is.
    static func notFound(nonce: String) -> String {
        document(
            title: "This link does not work", nonce: nonce,
            main: """
                <h1>This link does not work</h1>
                <p class="lead">It may have expired, or it may not have been copied in full. Ask whoever sent it to \
                you for a new link.</p>
                """,
            footer: "No pass was added to Wallet.", script: nil)
    }

    /// The page for a visitor who asked too often (for this link, or from this address).
    static func tooManyRequests(nonce: String) -> String {
        document(
            title: "Too many tries", nonce: nonce,
            main: """
                <h1>Too many tries</h1>
                <p class="lead">This page was opened too often in a short time. Wait a minute, then open it again.</p>
                """,
            footer: "No pass was added to Wallet.", script: nil)
    }

    /// The response headers of every page, with the nonce its inline style and script carry; `postsToItself` lets
    /// its form post back to the page's own origin (a single-use share link's button).
    static func headers(nonce: String, postsToItself: Bool = false, formRedirectsTo: String? = nil) -> HTTPFields {
        [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: contentSecurityPolicy(
                nonce: nonce, postsToItself: postsToItself, formRedirectsTo: formRedirectsTo),
            .cacheControl: "no-store",
            referrerPolicy: "no-referrer",
            .xContentTypeOptions: "nosniff",
            frameOptions: "DENY",
            openerPolicy: "same-origin",
            permissionsPolicy: "camera=(), geolocation=(), microphone=()",
        ]
    }

    /// Header names HTTPTypes does not define.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    private static let frameOptions = HTTPField.Name("X-Frame-Options")!
    private static let openerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
    private static let permissionsPolicy = HTTPField.Name("Permissions-Policy")!

    /// Nothing may load but what the page carries: its own style and script (by nonce), and requests to its own
    /// origin; no frames, plugins, base URL or embedding elsewhere, and no forms unless `postsToItself` (then only to
    /// its own origin, and to `formRedirectsTo` where its answer redirects).
    static func contentSecurityPolicy(nonce: String, postsToItself: Bool = false, formRedirectsTo: String? = nil)
        -> String
    {
        let forms = postsToItself ? "'self'" + (formRedirectsTo.map { " " + $0 } ?? "") : "'none'"
        return "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; connect-src 'self'; "
            + "base-uri 'none'; form-action \(forms); frame-ancestors 'none'"
    }

    /// A fresh nonce: 16 random bytes, Base64.
    static func makeNonce() -> String { SecureRandom.bytes(count: 16).base64EncodedString() }

    /// `text` safe inside HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    static func document(title: String, nonce: String, main: String, footer: String, script: String?)
        -> String
    {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="referrer" content="no-referrer">
        <meta name="robots" content="noindex, nofollow">
        <meta name="color-scheme" content="light dark">
        <title>\(title)</title>
        <style nonce="\(nonce)">\(style)</style>
        </head>
        <body>
        <main>
        \(main)
        </main>
        <footer><p>\(footer)</p></footer>
        \(script.map { "<script nonce=\"\(nonce)\">\($0)</script>" } ?? "")
        </body>
        </html>

        """
    }

    private static let style = """
        :root{color-scheme:light dark;--bg:#f5f5f7;--card:#fff;--text:#1d1d1f;--muted:#515154;--focus:#0060df}
        @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--text:#f5f5f7;--muted:#c7c7cc;\
        --focus:#4da3ff}}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;min-height:100vh;display:flex;flex-direction:column;justify-content:center;align-items:center;\
        padding:max(1.5rem,env(safe-area-inset-top)) 1.25rem max(1.5rem,env(safe-area-inset-bottom));\
        background:var(--bg);color:var(--text);\
        font:1.0625rem/1.5 -apple-system,BlinkMacSystemFont,"SF Pro Text","Segoe UI",Roboto,"Helvetica Neue",\
        Arial,sans-serif}
        main{width:100%;max-width:26rem;background:var(--card);border-radius:1.25rem;padding:2rem 1.5rem 1.25rem;\
        text-align:center;box-shadow:0 1px 3px rgba(0,0,0,.08),0 8px 24px rgba(0,0,0,.06)}
        h1{font-size:1.625rem;line-height:1.2;margin:0 0 .75rem;letter-spacing:-.01em}
        .lead{margin:0 0 1.75rem;color:var(--muted)}
        .lead:last-child{margin-bottom:.5rem}
        .badge-area{display:flex;justify-content:center}
        .badge{display:inline-block;margin:0;padding:0;border:0;border-radius:.75rem;background:none;cursor:pointer;\
        line-height:0;-webkit-tap-highlight-color:transparent;transition:transform .12s ease,opacity .12s ease}
        .badge svg{display:block;width:13.5rem;height:auto;min-height:44px}
        .badge:active{transform:scale(.97)}
        .badge[aria-busy=true]{opacity:.6;cursor:progress}
        .badge:focus{outline:none}
        .badge:focus-visible{outline:3px solid var(--focus);outline-offset:4px}
        .badge .edge{stroke:#a6a6a6}
        .badge .google{display:block;min-width:13.5rem;min-height:44px;padding:.9rem 1.25rem;border-radius:.75rem;\
        background:#1f1f1f;color:#fff;font-size:1.0625rem;font-weight:600;line-height:1.2;text-decoration:none}
        @media (prefers-color-scheme:dark){.badge .edge{stroke:#fff}}
        .status{min-height:1.5em;margin:.75rem 0 0;color:var(--muted);font-size:.9375rem}
        footer{margin-top:1.25rem;max-width:26rem;text-align:center;color:var(--muted);font-size:.8125rem}
        footer p{margin:0}
        .visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;\
        clip:rect(0 0 0 0);white-space:nowrap;border:0}
        @media (prefers-reduced-motion:reduce){*,*::before,*::after{transition:none!important;\
        animation:none!important}.badge:active{transform:none}}
        """

    /// The badge: 160 × 50 units, black with a thin outline, a wallet glyph of stacked cards, "Add to" over
    /// "Apple Wallet". Hidden from assistive technology: the button's text names it.
    static let badge = """
        <svg viewBox="0 0 160 50" width="216" height="68" aria-hidden="true" focusable="false">\
        <rect class="edge" x=".5" y=".5" width="159" height="49" rx="8.5" fill="#000" stroke-width="1"/>\
        <g transform="translate(12 10)"><rect width="30" height="30" rx="6.5" fill="#e5e5ea"/>\
        <rect x="3.5" y="4" width="23" height="10" rx="2.5" fill="#3b9ae1"/>\
        <rect x="3.5" y="8" width="23" height="10" rx="2.5" fill="#f6b026"/>\
        <rect x="3.5" y="12" width="23" height="10" rx="2.5" fill="#3cc260"/>\
        <rect x="3.5" y="16" width="23" height="10" rx="2.5" fill="#f25f4c"/>\
        <path d="M0 18.5h9.2c1.9 0 2.8 3.6 5.8 3.6s3.9-3.6 5.8-3.6H30v5a6.5 6.5 0 0 1-6.5 6.5h-17A6.5 6.5 0 0 1 0 \
        23.5z" fill="#f7f7f7"/></g>\
        <text x="52" y="21.5" fill="#fff" font-size="10.5" textLength="31" lengthAdjust="spacingAndGlyphs" \
        font-family="-apple-system, BlinkMacSystemFont, 'SF Pro Text', 'Helvetica Neue', Arial, sans-serif">\
        Add to</text>\
        <text x="51.5" y="38.5" fill="#fff" font-size="17" font-weight="600" textLength="95" \
        lengthAdjust="spacingAndGlyphs" \
        font-family="-apple-system, BlinkMacSystemFont, 'SF Pro Display', 'Helvetica Neue', Arial, sans-serif">\
        Apple Wallet</text></svg>
        """

    /// Posts to `<this page>/session` and opens the Wallet URL it answers; says what went wrong otherwise.
    private static let script = """
        (function(){
        var button=document.getElementById('add-to-wallet'),status=document.getElementById('status'),busy=false;
        button.addEventListener('click',function(){
        if(busy){return}
        busy=true;button.setAttribute('aria-busy','true');status.textContent='Opening Apple Wallet\\u2026';
        fetch(location.pathname.replace(/\\/+$/,'')+'/session',{method:'POST',credentials:'omit',cache:'no-store',\
        headers:{'Accept':'application/json'}})
        .then(function(r){return r.json().then(function(b){return{ok:r.ok,status:r.status,body:b}})})
        .then(function(a){
        var url=a.body&&a.body.url;
        if(a.ok&&typeof url==='string'&&url.indexOf('https://wallet.apple.com/')===0){
        status.textContent='Opening Apple Wallet\\u2026 If nothing happens, open this page on your iPhone.';
        location.assign(url);return}
        status.textContent=a.status===429?'Too many tries. Wait a minute, then tap the button again.':
        a.status===404?'This link does not work any more. Ask whoever sent it to you for a new one.':
        'Something went wrong. Tap the button to try again.'})
        .catch(function(){status.textContent='Could not reach the server. Check your connection and try again.'})
        .then(function(){busy=false;button.removeAttribute('aria-busy')});
        });
        })();
        """
}
