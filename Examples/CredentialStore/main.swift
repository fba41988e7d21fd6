// Saves, reads, checks and deletes the example secrets in an encrypted file store in a temporary directory.
//
//     swift run CredentialStoreExample
import Foundation
import Secrets

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-example-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

do {
    var configuration = SecretsConfiguration(environment: ProcessInfo.processInfo.environment)
    configuration.service = "com.example.credential-store"
    let backend = try EncryptedFileBackend(directory: directory, key: .passphrase("an example passphrase"))
    let store: any SecretsStoring = AggregateSecretsStore(backend: backend, configuration: configuration)

    try store.save(OpenAISecret(apiKey: "sk-example", organization: nil))
    try store.save(NotionSecret(token: "", databaseID: "0f1e2d3c"))
    try store.save(SchwabCredentialsSecret(clientID: "client", clientSecret: "secret", updatedAt: .now))
    try store.save(TradierSecureEnvelope(accessToken: "token", accountNumbers: [], sandbox: true))

    let notion = try store.read(NotionSecret.id)
    print("read the Notion secret back: \(notion.map { "\($0)" } ?? "nothing")")  // prints <redacted>
    print("stored paths: \(try store.listAccounts().joined(separator: ", "))")

    print("preflight:")
    let findings = SecretsPreflight.run(
        on: store,
        expecting: [
            .required(OpenAISecret.self), .required(NotionSecret.self), .required(SchwabCredentialsSecret.self),
            .required(TradierSecureEnvelope.self), .optional(GeminiSecret.self),
        ])
    for finding in findings {
        print("  \(finding)")
    }

    try store.delete(OpenAISecret.id)
    print("after deleting the OpenAI key: \(try store.listAccounts().joined(separator: ", "))")
} catch {
    print("error: \(error)")
    exit(1)
}
