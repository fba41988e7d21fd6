// An API client whose OAuth 2.0 client credentials live in Coffer's encrypted store and whose requests carry
// short-lived access tokens from PublicRequestAuthenticator.
//
// Usage: APIClientExample <token-url> <api-base-url> <path>...
// The store is $COFFER_STORE_DIR (else $XDG_DATA_HOME/coffer/secrets), unlocked with $COFFER_PASSPHRASE; the
// credential is at oauth/credential (save one with OAuthCredential.clientCredentials(…)). Prints each path's
// status and body; the token itself is never printed.
import Foundation
import Secrets
import TokenAuthentication

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 4, let tokenURL = URL(string: arguments[1]), let apiURL = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: APIClientExample <token-url> <api-base-url> <path>...\n".utf8))
    exit(2)
}

do {
    let configuration = SecretsConfiguration(environment: ProcessInfo.processInfo.environment)
    guard let passphrase = ProcessInfo.processInfo.environment["COFFER_PASSPHRASE"] else {
        throw TokenAuthenticationError.missingCredential("set COFFER_PASSPHRASE to open the store")
    }
    let store = AggregateSecretsStore(
        backend: try EncryptedFileBackend(
            directory: configuration.storeDirectory, key: .passphrase(Passphrase(passphrase)),
            options: .init(createIfMissing: false)),
        configuration: configuration)
    let client = APIClient(
        baseURL: apiURL,
        authenticator: PublicRequestAuthenticator(
            endpoint: TokenEndpoint(url: tokenURL), storage: AccessTokenStorage(store: store)),
        session: URLSession(configuration: .ephemeral))
    for path in arguments.dropFirst(3) {
        let (status, body) = try await client.get(path)
        print("\(path) \(status) \(String(decoding: body, as: UTF8.self))")
    }
} catch {
    FileHandle.standardError.write(Data("APIClientExample: \(error)\n".utf8))
    exit(1)
}
