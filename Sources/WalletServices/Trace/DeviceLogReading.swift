import Foundation

/// What a line of Wallet's device log (`POST /v1/log`) says: which pass it names and the known cause it reports.
///
/// Wallet writes lines such as `Get pass task (pass type P, serial number S, if-modified-since …; with web service
/// url U) encountered error: Authentication failure` and `Web service error for P (U): … serial number 'S' …`.
package enum DeviceLogReading {
    /// The pass type identifier and serial number the message names, if it names both.
    package static func passReference(in message: String) -> (passTypeIdentifier: String, serialNumber: String)? {
        guard let serial = value(after: "serial number ", in: message) else { return nil }
        if let passType = value(after: "pass type ", in: message) { return (passType, serial) }
        if let passType = value(after: "Web service error for ", in: message) { return (passType, serial) }
        return nil
    }

    /// What a device reports, in order of precedence: the phrases Wallet uses, each with the cause an issuer acts on.
    static let causes: [(phrases: [String], cause: String)] = [
        (
            ["authentication failure"],
            "the device holds the pass with a token the server no longer accepts (the pass was bound again or "
                + "reissued): it must add the pass again"
        ),
        (
            ["unregistered serial number"],
            "the device asked about a pass it is not registered for: it was unregistered, or the registration failed"
        ),
        (
            ["ignored the 'if-modified-since'", "but the pass was unchanged", "unchanged pass data"],
            "the device was sent a pass that had not changed: Wallet shows no update"
        ),
        (
            ["certificate", "ssl", "tls", "trust"],
            "the device does not trust the web service's TLS certificate: serve a certificate from a public CA"
        ),
        (
            ["could not connect", "timed out", "network connection was lost", "offline", "could not be found"],
            "the device could not reach the web service at the pass's webServiceURL"
        ),
        (
            ["invalid data", "signature", "manifest", "not valid", "invalid pass"],
            "the pass the device fetched was not valid: check its signature and certificates with `coffer pass lint`"
        ),
        (["response code", "status code"], "the web service answered the device with an error status"),
    ]

    /// The known cause `message` reports, if it reports one.
    package static func cause(of message: String) -> String? {
        let lowered = message.lowercased()
        return causes.first { entry in entry.phrases.contains { lowered.contains($0) } }?.cause
    }

    /// The word after `prefix` in `message`, without quotes and up to a space, comma, semicolon or parenthesis.
    private static func value(after prefix: String, in message: String) -> String? {
        guard let range = message.range(of: prefix) else { return nil }
        let rest = message[range.upperBound...].drop { $0 == "'" || $0 == "\"" }
        let word = rest.prefix { !" ,;()'\"".contains($0) }
        guard (1...256).contains(word.utf8.count) else { return nil }
        return String(word)
    }
}
