import Foundation

extension Output {
    /// A progress bar on standard error: redrawn in place on a terminal, a line per tenth of the work otherwise (a
    /// log keeps its history).
    final class ProgressBar {
        private let title: String
        private let isTerminal = isatty(STDERR_FILENO) == 1
        private var lastTenth = -1
        private var drawn = false

        /// A bar for the work `title` names.
        init(title: String) {
            self.title = title
        }

        /// Shows `done` of `total`, with `detail` after the count.
        func show(done: Int, of total: Int, detail: String) {
            let fraction = total > 0 ? Double(done) / Double(total) : 1
            let line = "\(title): \(done)/\(total), \(detail)"
            if isTerminal {
                let width = 30
                let filled = Int(fraction * Double(width))
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                FileHandle.standardError.write(Data("\r[\(bar)] \(line)\u{1B}[K".utf8))
                drawn = true
            } else if Int(fraction * 10) > lastTenth {
                lastTenth = Int(fraction * 10)
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
        }

        /// Ends the bar's line.
        func finish() {
            if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}
