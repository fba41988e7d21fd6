import ArgumentParser
import Foundation
import WalletServer
import WalletServices
import WalletStore

#if canImport(Glibc)
    import Glibc
#endif

extension AdminCommand.PassTypeCommands {
    /// `coffer admin pass-type nfc-key`.
    struct NFCKeyCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "nfc-key",
            abstract: "Make, import, show, export and rotate a pass type's NFC key (Value Added Services, P-256).",
            discussion: """
                Every NFC pass of the type carries the current key's public half as nfc.encryptionPublicKey; the \
                NFC reader needs the private half (export-private). A new pass type gets a key when it is imported. \
                After a rotation, passes already issued keep the old key until they are next updated, so give the \
                reader every key show lists until then.
                """,
            subcommands: [Create.self, Import.self, Show.self, ExportPrivate.self, Rotate.self])

        /// The option that names the pass type.
        struct PassTypeOption: ParsableArguments {
            @Option(help: "The pass type's identifier.") var passType: String

            var id: UUID { get throws { try AdminCommand.identifier(passType, of: "pass type") } }
        }

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create", abstract: "Make the pass type's first NFC key and print its public key.")
            @OptionGroup var passType: PassTypeOption
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let id = try passType.id
                let key = try await AdminCommand.withAdministration(server) { administration in
                    guard try await administration.nfcKeys(passTypeID: id).isEmpty else {
                        throw CommandFailure(
                            "the pass type has an NFC key already: `nfc-key rotate` makes a new one", status: .usage)
                    }
                    return try await administration.createNFCKey(passTypeID: id)
                }
                print(key.publicKey)
            }
        }

        struct Rotate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "rotate",
                abstract: "Make a new current NFC key; passes already issued keep the old one until next updated.")
            @OptionGroup var passType: PassTypeOption
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let id = try passType.id
                let key = try await AdminCommand.withAdministration(server) {
                    try await $0.createNFCKey(passTypeID: id)
                }
                print(key.publicKey)
            }
        }

        struct Import: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "import",
                abstract: "Make a reader vendor's P-256 private key (PEM) the pass type's current NFC key.")
            @OptionGroup var passType: PassTypeOption
            @Option(help: "The PEM file of the P-256 private key (PKCS#8 or SEC 1).") var key: String
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let id = try passType.id
                guard let data = FileManager.default.contents(atPath: StoreOptions.absoluteURL(key).path),
                    data.count <= 16 * 1024, let pem = String(data: data, encoding: .utf8)
                else { throw CommandFailure("cannot read the key file \(key)", status: .usage) }
                let imported = try await AdminCommand.withAdministration(server) {
                    try await $0.importNFCKey(passTypeID: id, pem: pem)
                }
                print(imported.publicKey)
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show",
                abstract: "List the pass type's NFC keys, the current one first (public keys only).")
            @OptionGroup var passType: PassTypeOption
            @Flag(help: "Print JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let id = try passType.id
                let keys = try await AdminCommand.withAdministration(server) { try await $0.nfcKeys(passTypeID: id) }
                if json { return try Output.printJSON(keys.map(KeySummary.init), snakeCaseKeys: true) }
                Output.printTable(
                    ["ID", "CREATED", "CURRENT", "PUBLIC KEY (BASE64 SPKI)"],
                    keys.enumerated().map { index, key in
                        [key.id.uuidString, Output.format(key.createdAt), index == 0 ? "yes" : "no", key.publicKey]
                    })
            }

            /// A key as `show --json` prints it: never where its private key is kept.
            struct KeySummary: Encodable {
                var id: UUID
                var publicKey: String
                var createdAt: Date

                init(_ key: PassTypeNFCKey) {
                    (id, publicKey, createdAt) = (key.id, key.publicKey, key.createdAt)
                }
            }
        }

        struct ExportPrivate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "export-private",
                abstract: "Write an NFC private key (PKCS#8 PEM) to a new file, mode 0600, for the reader vendor.")
            @OptionGroup var passType: PassTypeOption
            @Option(help: "The file to create (it must not exist).") var output: String
            @Option(help: "The key's identifier (default: the current key).") var key: String?
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let id = try passType.id
                let keyID = try key.map { try AdminCommand.identifier($0, of: "NFC key") }
                let path = StoreOptions.absoluteURL(output).path
                let pem = try await AdminCommand.withAdministration(server) {
                    try await $0.nfcPrivateKeyPEM(passTypeID: id, keyID: keyID)
                }
                let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else {
                    throw CommandFailure(
                        "cannot create \(path): \(String(cString: strerror(errno))) (it must not exist)", status: .usage
                    )
                }
                let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                try handle.write(contentsOf: Data(pem.utf8))
                try handle.synchronize()
                Output.note("wrote the NFC private key to \(path) (mode 0600): hand it only to the reader's vendor")
            }
        }
    }
}
