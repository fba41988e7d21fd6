import ArgumentParser
import Foundation
import WalletDocuments
import WalletOrders

/// `coffer order`: build, lint and verify Apple Wallet orders.
struct OrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Build, lint and verify Apple Wallet orders (.order).",
        subcommands: [
            BuildCommand<OrderDocumentKind>.self, Lint.self, VerifyCommand<OrderDocumentKind>.self,
            DevIdentityCommand<OrderDocumentKind>.self,
        ]
    )
}

extension OrderCommand {
    /// `coffer order lint`.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check an order as Wallet reads it: order.json against Apple's reference, and its files.",
            discussion: """
                Reads an order folder or a .order. Prints each finding with its path in order.json (or its file). \
                Exits 1 when there are errors (or warnings, with --strict).
                """)

        @Argument(help: "The order folder or .order.") var source: String
        @Flag(help: "Print the findings as a JSON array (code, severity, path, message, fix).") var json = false
        @Flag(help: "Exit 1 on warnings too.") var strict = false

        func run() throws {
            let report = try CommandFailure.mapping {
                try OrderPackage(contentsOf: StoreOptions.absoluteURL(source)).lint()
            }
            if json {
                try Output.printJSON(report.findings)
            } else {
                LintOutput.printFindings(report.findings)
                LintOutput.printCounts(report)
            }
            try LintOutput.finish(report, source: source, strict: strict)
        }
    }
}
