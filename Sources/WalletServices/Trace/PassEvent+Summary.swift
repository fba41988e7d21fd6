import Foundation
import WalletDocuments

extension PassEvent {
    /// One line for people: what happened, with the details that matter (a timeline prints it after the time).
    public var summary: String {
        var parts: [String] = []
        if let device { parts.append("device \(device)") }
        func text(_ key: String) -> String? { details[key]?.string }
        func number(_ key: String) -> String? { details[key]?.number.map { String(Int($0)) } }
        switch kind {
        case .issued, .downloaded:
            if let via = text("via") { parts.append("via \(via.replacingOccurrences(of: "_", with: " "))") }
        case .bound:
            if details["new_token"] == .bool(true) { parts.append("new token; earlier registrations dropped") }
        case .personalized:
            if case .array(let keys)? = details["fields"] {
                parts.append("entered " + keys.compactMap(\.string).joined(separator: ", "))
            }
        case .changed:
            if case .array(let fields)? = details["fields"] {
                let described = fields.compactMap { field -> String? in
                    guard case .object(let object) = field, let key = object["key"]?.string else { return nil }
                    return object["change_message"] == .bool(true) ? key : "\(key) (no changeMessage)"
                }
                if !described.isEmpty { parts.append(described.joined(separator: ", ")) }
            }
            if let voided = details["voided"], voided == .bool(true) { parts.append("voided") }
            if details["expiration_date"] == .bool(true) { parts.append("expiration date") }
            if details["relevant_date"] == .bool(true) { parts.append("relevant date") }
            if let tag = number("update_tag") { parts.append("update tag \(tag)") }
        case .registered:
            if let outcome = text("outcome") { parts.append(outcome) }
        case .unregistered:
            if details["was_registered"] == .bool(false) { parts.append("was not registered") }
        case .pushQueued:
            if let devices = number("devices") { parts.append("\(devices) device\(devices == "1" ? "" : "s")") }
        case .pushSent, .pushRefused, .pushFailed:
            if let status = number("status") { parts.append("status \(status)") }
            if let reason = text("reason") { parts.append(reason) }
            if let id = text("apns_id") { parts.append("apns-id \(id)") }
            if details["registration_removed"] == .bool(true) { parts.append("registration removed") }
            if details["abandoned"] == .bool(true) { parts.append("given up") }
            if let wait = number("retry_in_seconds") { parts.append("retry in \(wait) s") }
        case .listed:
            if let tag = number("update_tag") { parts.append("update tag \(tag)") }
        case .fetched:
            if let status = number("status") { parts.append(status == "304" ? "304 not modified" : "200") }
        case .deviceLog:
            if let message = text("message") { parts.append(message) }
        case .tokenRotated:
            parts.append("new token; registrations and share links ended")
        case .googleWritten:
            if let object = text("object_id") { parts.append(object) }
            if details["content_written"] == .bool(false) { parts.append("already current") }
            if let messages = number("messages"), messages != "0" {
                parts.append("\(messages) message\(messages == "1" ? "" : "s"), \(number("notified") ?? "0") notified")
            }
        case .googleFailed:
            if let status = number("status") { parts.append("status \(status)") }
            if let reason = text("reason") { parts.append(reason) }
            if details["abandoned"] == .bool(true) { parts.append("given up") }
            if let wait = number("retry_in_seconds") { parts.append("retry in \(wait) s") }
        case .googleSaved, .googleRemoved:
            if let object = text("object_id") { parts.append(object) }
        case .webhookFailed:
            if let type = text("event_type") { parts.append(type) }
            if let id = text("event_id") { parts.append(id) }
            if let reason = text("reason") { parts.append(reason) }
        }
        return parts.joined(separator: "; ")
    }
}
