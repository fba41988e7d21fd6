import ArgumentParser
import Foundation
import Secrets
import SecretsAudit

extension SecretsCommand {
    /// `coffer secrets migrate --from file --to secret-service`.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Copy every secret of the service from one backend to another, verifying each copy.",
            discussion: """
                Prints progress to standard error for large stores and a summary at the end. An item the \
                destination already holds with other bytes is left alone and reported (exit 4) unless \
                --overwrite is given. Interrupted, it can simply be run again.
                """)

        @OptionGroup var options: StoreOptions
        @Option(help: "The backend to copy from: file, secret-service or memory.") var from: BackendChoice
        @Option(help: "The backend to copy to: file, secret-service or memory.") var to: BackendChoice
        @Flag(help: "Delete each item from the source once its copy is verified.") var deleteSource = false
        @Flag(help: "Replace destination items that hold other bytes.") var overwrite = false

        func validate() throws {
            guard from != to else { throw ValidationError("--from and --to name the same backend") }
        }

        func run() throws {
            let configuration = options.configuration()
            let source = try options.openBackend(from, create: false)
            let migration = BackendMigration(
                from: source, to: try options.openBackend(to, create: true),
                options: .init(deleteFromSource: deleteSource, overwrite: overwrite))
            // Audited as one `migrate` of the source store, which keeps the audit key (and copies it along).
            let report = try CommandFailure.mapping {
                try options.audited(source).recording(.migrate) {
                    try migration.run(service: configuration.service, accessGroup: configuration.accessGroup) {
                        Output.progress($0.completed, of: $0.total)
                    }
                }
            }
            try Output.summarize(report, verb: "migrated", destination: to.rawValue)
        }
    }
}
