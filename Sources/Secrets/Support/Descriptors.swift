import Foundation

/// Plain POSIX file descriptors, for the few files Coffer writes without `FileHandle`.
package enum Descriptors {
    /// Writes all of `bytes` to `descriptor`, again after a write that was interrupted or wrote part of them; returns
    /// `nil` once all are written, or the `errno` of the write that failed (`EIO` for one that wrote nothing).
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            written += count
        }
        return nil
    }
}
