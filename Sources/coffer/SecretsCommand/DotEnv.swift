import Foundation
import WalletDocuments

/// Reads and writes `.env` files: `NAME=value` lines, an optional `export `, single and double quotes, `#`
/// comments. Errors name the line, never a value.
enum DotEnv {
    /// One `NAME=value` of a file.
    struct Entry: Equatable {
        /// The variable's name.
        let name: String
        /// The variable's value, unquoted.
        let value: String
    }

    /// A line that cannot be read; the message names the line and never its value.
    struct SyntaxError: Error, CustomStringConvertible {
        /// The 1-based line number.
        let line: Int
        /// What is wrong.
        let reason: String

        var description: String { "line \(line): \(reason)" }
    }

    /// Parses `text`. Double-quoted values understand `\n`, `\r`, `\t`, `\"`, `\\`, `\$` and `` \` ``; single-quoted
    /// values are literal; both may span lines. An unquoted value ends at a ` #` comment and is trimmed.
    static func parse(_ text: String) throws -> [Entry] {
        var entries: [Entry] = []
        let characters = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))
        var index = 0
        var line = 1

        func skip(while predicate: (Character) -> Bool) {
            while index < characters.count, predicate(characters[index]) { index += 1 }
        }
        func skipToEndOfLine() {
            skip { $0 != "\n" }
        }

        while index < characters.count {
            let startLine = line
            skip { $0 == " " || $0 == "\t" }
            guard index < characters.count else { break }
            if characters[index] == "\n" {
                index += 1
                line += 1
                continue
            }
            if characters[index] == "#" {
                skipToEndOfLine()
                continue
            }
            let nameStart = index
            skip { $0 != "=" && $0 != "\n" }
            guard index < characters.count, characters[index] == "=" else {
                throw SyntaxError(line: startLine, reason: "expected NAME=value")
            }
            var name = String(characters[nameStart..<index]).trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("export ") || name.hasPrefix("export\t") {
                name = String(name.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            }
            guard SecretMapping.isValidName(name) else {
                throw SyntaxError(line: startLine, reason: "the name is not letters, digits and '_'")
            }
            index += 1
            skip { $0 == " " || $0 == "\t" }
            var value = ""
            if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
                let quote = characters[index]
                index += 1
                var closed = false
                while index < characters.count {
                    let character = characters[index]
                    index += 1
                    if character == "\n" { line += 1 }
                    if character == quote {
                        closed = true
                        break
                    }
                    if quote == "\"", character == "\\", index < characters.count {
                        let escaped = characters[index]
                        index += 1
                        switch escaped {
                        case "n": value.append("\n")
                        case "r": value.append("\r")
                        case "t": value.append("\t")
                        case "\"", "\\", "$", "`": value.append(escaped)
                        case "\n":
                            line += 1  // a line continuation, as in a shell
                        default: value.append(contentsOf: ["\\", escaped])
                        }
                        continue
                    }
                    value.append(character)
                }
                guard closed else {
                    throw SyntaxError(line: startLine, reason: "the quote opened here is never closed")
                }
                skip { $0 == " " || $0 == "\t" }
                if index < characters.count, characters[index] != "\n", characters[index] != "#" {
                    throw SyntaxError(line: line, reason: "unexpected text after the closing quote")
                }
                skipToEndOfLine()
            } else {
                let valueStart = index
                while index < characters.count, characters[index] != "\n" {
                    if characters[index] == "#", index > valueStart,
                        characters[index - 1] == " " || characters[index - 1] == "\t"
                    {
                        break
                    }
                    index += 1
                }
                value = String(characters[valueStart..<index]).trimmingCharacters(in: .whitespaces)
                skipToEndOfLine()
            }
            entries.append(Entry(name: name, value: value))
        }
        return entries
    }

    /// `NAME='value'`, quoted so that a POSIX shell's `.`/`source` sets exactly `value` and ``parse(_:)`` reads it
    /// back: single quotes unless the value holds one, else double quotes escaping `\`, `"`, `$` and `` ` ``.
    static func line(name: String, value: String) -> String {
        guard value.contains("'") else { return "\(name)='\(value)'" }
        var escaped = ""
        for character in value {
            if "\\\"$`".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return "\(name)=\"\(escaped)\""
    }
}
