import Foundation

/// Asks for a passphrase on the controlling terminal with echo turned off.
enum TerminalPrompt {
    /// Reads one line from `/dev/tty` without echoing it, or returns `nil` when there is no terminal.
    static func readSecret(prompt: String) -> String? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0 else { return nil }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(descriptor, TCSAFLUSH, &silent)
        defer {
            tcsetattr(descriptor, TCSAFLUSH, &original)
            _ = write(descriptor, "\n", 1)
        }
        _ = prompt.withCString { write(descriptor, $0, strlen($0)) }
        var line = [UInt8]()
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
