import Foundation

/// A strict reader of the Prometheus text exposition format (version 0.0.4), for checking what `GET /metrics` serves:
/// it refuses what Prometheus itself would refuse (a malformed line, a sample before its family's `# TYPE`, a family
/// typed twice, a histogram whose buckets are not cumulative or whose `+Inf` bucket is not its count).
struct PrometheusText {
    /// One sample line.
    struct Sample: Hashable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Why a text is not valid exposition format.
    struct Invalid: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// Every sample, in order.
    let samples: [Sample]
    /// The type of each family, by name.
    let types: [String: String]
    /// The help text of each family that has one, by name.
    let help: [String: String]

    /// Parses `text`, checking each line and each histogram.
    init(_ text: String) throws {
        var samples: [Sample] = []
        var types: [String: String] = [:]
        var help: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[0] == "#" else { continue }  // a plain comment
                let name = String(parts[2])
                guard Self.isMetricName(name) else { throw Invalid(line: number, reason: "bad metric name \(name)") }
                switch parts[1] {
                case "TYPE":
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3])
                    else { throw Invalid(line: number, reason: "bad TYPE line") }
                    guard types[name] == nil else { throw Invalid(line: number, reason: "\(name) typed twice") }
                    guard
                        !samples.contains(where: { Self.family(of: $0.name, types: [name: String(parts[3])]) == name })
                    else { throw Invalid(line: number, reason: "TYPE of \(name) after its samples") }
                    types[name] = String(parts[3])
                case "HELP":
                    guard help[name] == nil else { throw Invalid(line: number, reason: "\(name) has two HELP lines") }
                    help[name] = parts.count == 4 ? String(parts[3]) : ""
                default:
                    continue
                }
                continue
            }
            let sample = try Self.sample(String(line), line: number)
            guard types[Self.family(of: sample.name, types: types)] != nil else {
                throw Invalid(line: number, reason: "\(sample.name) has no TYPE line before it")
            }
            samples.append(sample)
        }
        self.samples = samples
        self.types = types
        self.help = help
        try checkHistograms()
    }

    /// The value of the sample named `name` whose labels are exactly `labels`, or `nil` when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// The samples named `name`.
    func samples(named name: String) -> [Sample] { samples.filter { $0.name == name } }

    /// The values the label `label` takes across the samples named `name`.
    func labelValues(_ label: String, of name: String) -> Set<String> {
        Set(samples(named: name).compactMap { $0.labels[label] })
    }

    /// The buckets (upper bound, cumulative count) of the histogram `name` with `labels`, in order.
    func buckets(_ name: String, _ labels: [String: String] = [:]) -> [(bound: Double, count: Double)] {
        samples(named: name + "_bucket").compactMap { sample in
            var rest = sample.labels
            guard let bound = rest.removeValue(forKey: "le"), rest == labels else { return nil }
            return (Self.number(bound) ?? .nan, sample.value)
        }
    }

    private func checkHistograms() throws {
        for (name, type) in types where type == "histogram" {
            let series = Set(
                samples(named: name + "_bucket").map { sample in
                    sample.labels.filter { $0.key != "le" }
                })
            for labels in series {
                let buckets = buckets(name, labels)
                guard buckets.last?.bound == .infinity else {
                    throw Invalid(line: 0, reason: "\(name)\(labels) has no +Inf bucket")
                }
                for (earlier, later) in zip(buckets, buckets.dropFirst())
                where !(earlier.bound < later.bound && earlier.count <= later.count) {
                    throw Invalid(line: 0, reason: "\(name)\(labels) has buckets out of order or not cumulative")
                }
                guard value(name + "_count", labels) == buckets.last?.count, value(name + "_sum", labels) != nil else {
                    throw Invalid(line: 0, reason: "\(name)\(labels) has a count unlike its +Inf bucket, or no sum")
                }
            }
        }
    }

    /// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` samples belong to the histogram.
    private static func family(of name: String, types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if let type = types[base], type == "histogram" || type == "summary" { return base }
        }
        return name
    }

    private static func sample(_ line: String, line lineNumber: Int) throws -> Sample {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard isMetricName(name) else { throw Invalid(line: lineNumber, reason: "bad metric name in '\(line)'") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard !label.isEmpty, label.first?.isNumber == false else {
                    throw Invalid(line: lineNumber, reason: "bad label name in '\(line)'")
                }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else {
                    throw Invalid(line: lineNumber, reason: "expected =\" in '\(line)'")
                }
                rest = rest.dropFirst(2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        switch rest.first {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw Invalid(line: lineNumber, reason: "bad escape in '\(line)'")
                        }
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard rest.first == "\"" else {
                    throw Invalid(line: lineNumber, reason: "unterminated value in '\(line)'")
                }
                rest = rest.dropFirst()
                guard labels.updateValue(value, forKey: label) == nil else {
                    throw Invalid(line: lineNumber, reason: "label \(label) twice in '\(line)'")
                }
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw Invalid(line: lineNumber, reason: "expected a space in '\(line)'") }
        let fields = rest.dropFirst().split(separator: " ")
        guard (1...2).contains(fields.count), let value = number(String(fields[0])) else {
            throw Invalid(line: lineNumber, reason: "bad value in '\(line)'")
        }
        if fields.count == 2, Int64(fields[1]) == nil {
            throw Invalid(line: lineNumber, reason: "bad timestamp in '\(line)'")
        }
        return Sample(name: name, labels: labels, value: value)
    }

    private static func number(_ text: String) -> Double? {
        switch text {
        case "+Inf": return .infinity
        case "-Inf": return -.infinity
        case "NaN": return .nan
        default: return Double(text)
        }
    }

    private static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" || first == ":"
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ":")
        }
    }
}
