import Foundation
import Testing

@testable import ProntoWalletSDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The provisioning flow: configuration, Wallet availability, the sheet, the delegate")
@MainActor
struct ProvisioningFlowTests {
    @Test("before configure, both APIs fail with notConfigured and nothing is presented")
    func notConfigured() async throws {
        let wallet = ProntoWallet()
        #expect(wallet.configuration == nil)
        await #expect {
            _ = try await wallet.issuerData(for: "t")
        } throws: { error in
            if case .notConfigured = error as? ProvisioningError { true } else { false }
        }
        let presenter = ScriptedPresenter()
        await #expect {
            _ = try await wallet.provisionPass(tagId: "t", presenter: presenter)
        } throws: { error in
            if case .notConfigured = error as? ProvisioningError { true } else { false }
        }
        #expect(presenter.presented.isEmpty)
    }

    @Test("where Wallet cannot add passes, the flow fails before calling the server")
    func walletNotAvailable() async throws {
        let host = StubURLProtocol.host { _ in Answers.success() }
        await #expect {
            _ = try await ProntoWallet.stubbed(host: host).provisionPass(
                tagId: "t", presenter: ScriptedPresenter(canAddPasses: false))
        } throws: { error in
            if case .walletNotAvailable = error as? ProvisioningError { true } else { false }
        }
        #expect(StubURLProtocol.requests(to: host).isEmpty)
    }

    @Test("the presenter gets the server's issuer data, and its answer is the result")
    func presents() async throws {
        let host = StubURLProtocol.host { _ in Answers.success(tagId: "T-1") }
        let wallet = ProntoWallet.stubbed(host: host)
        let adding = ScriptedPresenter(behavior: .add)
        #expect(try await wallet.provisionPass(tagId: "T-1", presenter: adding) == .added)
        #expect(adding.presented.map(\.tagId) == ["T-1"])
        #expect(adding.presented.first?.issuerData == Answers.issuerData)
        let dismissing = ScriptedPresenter(behavior: .dismiss)
        #expect(try await wallet.provisionPass(tagId: "T-1", presenter: dismissing) == .cancelled)
    }

    @Test("an error from PassKit is a passKitError")
    func passKitError() async throws {
        let host = StubURLProtocol.host { _ in Answers.success() }
        await #expect {
            _ = try await ProntoWallet.stubbed(host: host).provisionPass(
                tagId: "t", presenter: ScriptedPresenter(behavior: .fail(PassKitRefusal())))
        } throws: { error in
            if case .passKitError(let underlying) = error as? ProvisioningError {
                underlying is PassKitRefusal
            } else {
                false
            }
        }
    }

    @Test("a server error stops the flow before the sheet")
    func serverErrorStopsFlow() async throws {
        let host = StubURLProtocol.host { _ in Answers.json(404, "{}") }
        let presenter = ScriptedPresenter()
        await #expect(throws: ProvisioningError.self) {
            _ = try await ProntoWallet.stubbed(host: host).provisionPass(tagId: "t", presenter: presenter)
        }
        #expect(presenter.presented.isEmpty)
    }

    @Test("the delegate hears exactly one outcome: complete, cancel or failure")
    func delegateOutcomes() async throws {
        let host = StubURLProtocol.host { request in
            let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: String]
            return body?["tag_id"] == "missing" ? Answers.json(404, "{}") : Answers.success()
        }
        let wallet = ProntoWallet.stubbed(host: host)

        let completed = RecordingDelegate()
        await wallet.provisionPass(tagId: "t", presenter: ScriptedPresenter(behavior: .add), delegate: completed).value
        guard case .completed = try #require(completed.events.first) else {
            Issue.record("\(completed.events)"); return
        }
        #expect(completed.events.count == 1)

        let cancelled = RecordingDelegate()
        await wallet.provisionPass(tagId: "t", presenter: ScriptedPresenter(behavior: .dismiss), delegate: cancelled)
            .value
        guard case .cancelled = try #require(cancelled.events.first) else {
            Issue.record("\(cancelled.events)"); return
        }
        #expect(cancelled.events.count == 1)

        let failed = RecordingDelegate()
        await wallet.provisionPass(tagId: "missing", presenter: ScriptedPresenter(), delegate: failed).value
        guard case .failed(.notFound) = try #require(failed.events.first) else {
            Issue.record("\(failed.events)")
            return
        }
        #expect(failed.events.count == 1)
    }

    @Test(
        "cancelling the flow's task while the server is silent tells the delegate it was cancelled",
        .timeLimit(.minutes(1)))
    func cancellation() async throws {
        let started = AsyncStream<Void>.makeStream()
        let host = StubURLProtocol.host { _ in
            started.continuation.yield()
            return .silence
        }
        let wallet = ProntoWallet.stubbed(host: host)
        let delegate = RecordingDelegate()
        let presenter = ScriptedPresenter()
        let task = wallet.provisionPass(tagId: "t", presenter: presenter, delegate: delegate)
        for await _ in started.stream { break }
        task.cancel()
        await task.value
        guard case .cancelled = try #require(delegate.events.first) else { Issue.record("\(delegate.events)"); return }
        #expect(presenter.presented.isEmpty)
    }

    @Test("configure replaces the key and server for the next request")
    func reconfigure() async throws {
        let first = StubURLProtocol.host { _ in Answers.success(tagId: "first") }
        let second = StubURLProtocol.host { _ in Answers.success(tagId: "second") }
        let wallet = ProntoWallet.stubbed(host: first)
        #expect(try await wallet.issuerData(for: "t").tagId == "first")
        wallet.configure(
            with: ProntoConfiguration(apiKey: "other", environment: .custom(URL(string: "https://\(second)")!)))
        #expect(wallet.configuration?.apiKey == "other")
        #expect(try await wallet.issuerData(for: "t").tagId == "second")
        let authorization = StubURLProtocol.requests(to: second).first?.request.value(
            forHTTPHeaderField: "Authorization")
        #expect(authorization == "Basic " + Data("other:".utf8).base64EncodedString())
    }

    @Test("Wallet is not available where PassKit's sheet does not exist")
    func availability() {
        #if !canImport(UIKit)
            #expect(ProntoWallet.shared.isWalletAvailable == false)
        #endif
    }

    @Test("every error explains itself without the API key")
    func descriptions() {
        let errors: [ProvisioningError] = [
            .notConfigured, .walletNotAvailable, .networkError(URLError(.timedOut)),
            .networkError(URLError(.cannotConnectToHost)), .serverError(statusCode: 500, message: "boom"),
            .serverError(statusCode: 502, message: nil), .invalidResponse, .passKitError(PassKitRefusal()),
            .notAuthorized, .notFound, .rateLimited(retryAfter: 30), .rateLimited(retryAfter: nil),
        ]
        let descriptions = errors.map(\.localizedDescription)
        #expect(Set(descriptions).count == errors.count)
        for description in descriptions {
            #expect(description.count > 20)
            #expect(!description.contains("key-123"))
        }
        #expect(ProvisioningError.serverError(statusCode: 500, message: "boom").localizedDescription.contains("boom"))
        #expect(ProvisioningError.networkError(URLError(.timedOut)).localizedDescription.contains("timed out"))
        #expect(ProvisioningError.rateLimited(retryAfter: 29.2).localizedDescription.contains("in 30 seconds"))
    }
}
