import CofferTestSupport
import Foundation
import Secrets
import Testing

@testable import SecretsSecretService

/// libsecret is loaded at run time: where it is missing the backend is unavailable, never a crash or a build error.
@Suite("The Secret Service without libsecret installed")
struct LibSecretLoadingTests {
    static let missingLibrary = "/nonexistent/libsecret-1.so.0"

    @Test("loading a missing library is `unavailable`, naming the package to install")
    func missingLibrary() throws {
        let result = LibSecret.load(Self.missingLibrary)
        #expect(throws: SecretsError.self) { try result.get() }
        guard case .failure(.unavailable(let reason)) = result else {
            Issue.record("expected unavailable, got \(result)")
            return
        }
        #expect(reason.contains("libsecret could not be loaded"))
        #expect(reason.contains("apt-get install libsecret-1-0"))
    }

    @Test("a library without libsecret's functions is `unavailable`, naming the missing function")
    func foreignLibrary() throws {
        guard case .failure(.unavailable(let reason)) = LibSecret.load("libc.so.6") else {
            Issue.record("libc loaded as libsecret")
            return
        }
        #expect(reason.contains("has no secret_service_get_sync"))
    }

    @Test("every operation of a backend without libsecret throws `unavailable`, and nothing reads as not found")
    func backendWithoutLibrary() throws {
        let client = LibSecretClient(timeout: 1, library: LibSecret.load(Self.missingLibrary))
        let backend = SecretServiceBackend(options: .init(timeout: 1), client: client)
        let query = SecretQuery<Data>(service: "coffer-test", account: "a/b")
        let operations: [(String, () throws -> Void)] = [
            ("read", { _ = try backend.read(query) }),
            ("save", { try backend.save(Data("v".utf8), for: query) }),
            ("delete", { _ = try backend.delete(query) }),
            ("list", { _ = try backend.listAccounts(service: "coffer-test", accessGroup: nil) }),
            ("lock", { try backend.lock() }),
        ]
        for (name, operation) in operations {
            let error = #expect(throws: SecretsError.self, "\(name)") { try operation() }
            guard case .unavailable(let reason) = error else {
                Issue.record("\(name) threw \(String(describing: error)), not unavailable")
                continue
            }
            #expect(reason.contains("libsecret-1-0"), "\(name)")
        }
    }

    @Test(
        "the library loads, with every function Coffer calls, where it is installed",
        .enabled(if: SecretServiceEnvironment.isEnabled, "CI installs libsecret (COFFER_TEST_SECRET_SERVICE=1)"))
    func installedLibrary() throws {
        _ = try LibSecret.load(LibSecret.defaultLibrary).get()
    }
}
