import ArgumentParser
import Foundation
import WalletDocuments
import WalletGoogle
import WalletPasses

extension PassCommand {
    /// `coffer pass google`.
    struct Google: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "google",
            abstract: "Show a pass as a Google Wallet class and object, and what has no place there.",
            discussion: """
                Reads a pass folder, a Pass Designer .pkpasstemplate (folder or ZIP) or a .pkpass, and prints \
                {"kind", "class", "object", "findings"} as JSON: the class and object as Google's walletobjects \
                API takes them, and each key that could not be carried, with its path in pass.json. Images need \
                --image-base-url: Google fetches them from a public URL. With --service-account, also \
                "save_link": the "Add to Google Wallet" link its key signs (skinny, naming only the object, when \
                the whole one would be longer than 1,800 characters).
                """)

        @Argument(help: "The pass folder, .pkpasstemplate or .pkpass.") var source: String
        @Option(help: "The Google Wallet issuer ID (the numbers in the Google Pay & Wallet console).")
        var issuerID = "3388000000000000000"
        @Option(help: "The public https URL the pass's images are served under (<url>/logo.png).")
        var imageBaseURL: String?
        @Option(help: "The language of pass.json's own texts.") var language = "en"
        @Flag(help: "Send the pass's locations as merchantLocations (only for an issuer Google has allowlisted).")
        var merchantLocations = false
        @Option(help: "A Google Cloud service account key file (JSON): sign a save link with it.")
        var serviceAccount: String?
        @Option(help: "A web origin whose pages show the save button (https://host); repeatable.")
        var origin: [String] = []

        /// What the command prints.
        struct Printed: Encodable {
            let kind: GoogleWalletType
            let `class`: GoogleWalletClass
            let object: GoogleWalletObject
            let findings: [LintFinding]
            let saveLink: String?
            let skinny: Bool?

            enum CodingKeys: String, CodingKey {
                case kind, `class`, object, findings
                case saveLink = "save_link"
                case skinny
            }
        }

        func run() throws {
            guard !issuerID.isEmpty, issuerID.allSatisfy(\.isNumber) else {
                throw CommandFailure("--issuer-id must be the issuer's number", status: .usage)
            }
            guard LocalizedText.isLanguage(language) else {
                throw CommandFailure("--language must be a language identifier such as en or de", status: .usage)
            }
            let package = try CommandFailure.mapping { try PassPackage(contentsOf: StoreOptions.absoluteURL(source)) }
            let pass = try CommandFailure.mapping { try package.pass }
            let conversion = GooglePassConversion(
                pass, files: package.files,
                options: .init(
                    issuerID: issuerID, imageBaseURL: imageBaseURL, defaultLanguage: language,
                    mayUseMerchantLocations: merchantLocations))
            let link = try serviceAccount.map { path in
                let account = try CommandFailure.mapping {
                    try GoogleServiceAccount(json: try IdentityOptions.read(path, what: "service account key"))
                }
                return try CommandFailure.mapping { try GoogleSaveLink(conversion, account: account, origins: origin) }
            }
            try Output.printJSON(
                Printed(
                    kind: conversion.walletClass.type, class: conversion.walletClass,
                    object: conversion.walletObject, findings: conversion.findings, saveLink: link?.url,
                    skinny: link?.isSkinny))
        }
    }
}
