/// Numbers written as ASCII decimal digits straight into a byte buffer, for the lines written by hand (the audit
/// file, log lines, timestamps).
package enum ASCIIDecimal {
    /// Appends `value` in as few digits as it takes.
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        if value >= 10 { append(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Appends the last `width` decimal digits of `value` (at least 0), zero-padded on the left.
    package static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<max(width, 1) { divisor *= 10 }
        let value = max(0, value)
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
