import ArgumentParser
import Foundation
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

extension AdminCommand.PassTypeCommands {
    /// `coffer admin pass-type template`.
    struct Template: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "template",
            abstract: "Set the template (a pass folder or .pkpasstemplate) that new passes of a pass type start from.",
            discussion: """
                The folder holds pass.json and its images, as for `coffer pass build`; a Pass Designer \
                .pkpasstemplate (a folder or a ZIP of one) works too. The checks of `coffer pass lint` run on a pass \
                made from it: errors refuse it, warnings are printed. Passes made through the \
                management API (POST /api/v2/passes) start from it, their fields set from the request. With a \
                personalization.json, Wallet asks users to sign up (rewards enrollment) and the server personalizes \
                the pass: fields keyed personalization.fullName, personalization.emailAddress, … show what they \
                entered.
                """)
        @Option(help: "The pass type (default: the only one).") var passType: String?
        @Argument(help: "The template folder or .pkpasstemplate.") var folder: String
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let template = PassTemplate(
                package: try CommandFailure.mapping { try PassPackage(contentsOf: StoreOptions.absoluteURL(folder)) })
            let warnings = try await AdminCommand.withAdministration(server) { administration in
                let passTypeID: UUID
                if let passType {
                    passTypeID = try AdminCommand.identifier(passType, of: "pass type")
                } else {
                    passTypeID = try await administration.defaultPassType().id
                }
                return try await administration.setTemplate(passTypeID: passTypeID, template: template)
            }
            for warning in warnings { Output.note("\(warning)") }
            Output.note("new passes of this pass type start from \(folder)")
        }
    }
}
