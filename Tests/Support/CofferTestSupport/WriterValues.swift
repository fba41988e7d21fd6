import Foundation

/// What the crash-test writer (`coffer-store-writer`) stores, shared with the tests that check it.
public enum WriterValues {
    /// The service the writer stores under.
    public static let service = "crash-test"
    /// How many item slots a writer cycles through.
    public static let slots = 50

    /// The path write `index` of writer `name` goes to.
    public static func account(writer name: String, index: Int) -> String {
        "\(name)/item-\(index % slots)"
    }

    /// The value write `index` of writer `name` stores: `size` bytes, deterministic.
    public static func value(writer name: String, index: Int, size: Int) -> Data {
        let seed = Array("\(name)-\(index)|".utf8)
        return Data((0..<size).map { seed[$0 % seed.count] })
    }
}
