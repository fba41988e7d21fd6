import Foundation
import WalletServices

extension LandingPage {
    /// The page a share link shows: the "Add to Apple Wallet" badge, no script. For a link that works many times it
    /// is a plain link that downloads the pass (Safari on a Mac adds it to the iPhone's Wallet through iCloud); for a
    /// single-use link, every browser gets this page and the badge is a form's button that posts back, so that only a
    /// person's tap spends the link, never a link scanner's visit.
    static func sharedPass(organizationName: String, singleUse: Bool, nonce: String) -> String {
        let organization = escaped(organizationName)
        let once = singleUse ? " This link works once: the first download uses it up." : ""
        let button =
            singleUse
            ? """
            <form method="post"><button type="submit" id="add-to-wallet" class="badge">\
            <span class="visually-hidden">Add to Apple Wallet</span>\(badge)</button></form>
            """
            : """
            <a id="add-to-wallet" class="badge" href="?download=1" rel="nofollow">\
            <span class="visually-hidden">Add to Apple Wallet</span>\(badge)</a>
            """
        return document(
            title: "Add your pass to Apple Wallet", nonce: nonce,
            main: """
                <h1>Add your pass to Apple Wallet</h1>
                <p class="lead">\(organization) has a pass for you. Open this page on your iPhone and tap the button, \
                or click it here in Safari on a Mac signed in to your Apple Account, to add the pass to \
                Wallet.\(once)</p>
                <div class="badge-area">
                \(button)
                </div>
                """,
            footer: "This link is personal: please do not forward it.", script: nil)
    }

    /// The page a share link shows an Android browser when the pass is also in Google Wallet: an "Add to Google
    /// Wallet" button that opens `saveURL` (a link that works many times), or, for a single-use link (`saveURL` is
    /// `nil`), a form's button that posts back, so that only a person's tap spends the link.
    static func sharedGooglePass(organizationName: String, saveURL: String?, nonce: String) -> String {
        let organization = escaped(organizationName)
        let label = "<span class=\"google\">Add to Google Wallet</span>"
        let button =
            saveURL.map {
                """
                <a id="add-to-google-wallet" class="badge" href="\(escaped($0))" rel="nofollow noopener">\(label)</a>
                """
            }
                ?? """
                <form method="post"><input type="hidden" name="wallet" value="google">\
                <button type="submit" id="add-to-google-wallet" class="badge">\(label)</button></form>
                """
        let once = saveURL == nil ? " This link works once: the first tap uses it up." : ""
        return document(
            title: "Add your pass to Google Wallet", nonce: nonce,
            main: """
                <h1>Add your pass to Google Wallet</h1>
                <p class="lead">\(organization) has a pass for you. Tap the button to save it to Google \
                Wallet.\(once)</p>
                <div class="badge-area">
                \(button)
                </div>
                """,
            footer: "This link is personal: please do not forward it.", script: nil)
    }
}
