import Foundation

/// HTTP Basic authentication (RFC 7617), as Coffer's API and the token endpoints take it.
public enum HTTPBasic {
    /// The `Authorization` header's value for `user` and `password`: `Basic` and their Base64. Coffer's API takes its
    /// token as the user name, with no password.
    public static func authorization(user: String, password: String = "") -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}
