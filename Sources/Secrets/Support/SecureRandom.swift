import Crypto
import Foundation

/// Random bytes from the system's cryptographically secure generator.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Lowercase hex of `byteCount` random bytes.
    public static func hex(byteCount: Int) -> String {
        bytes(count: byteCount).hexString
    }
}
