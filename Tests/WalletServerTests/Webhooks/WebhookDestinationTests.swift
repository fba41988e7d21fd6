import CofferTestSupport
import Foundation
import Secrets
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

/// A client chooses where webhooks go, so the server checks where they would go: every spelling of an internal
/// address when the endpoint is made, and the address a host name resolves to before every delivery.
@Suite("Webhook endpoints reach public addresses only, however the host is spelt or resolves")
struct WebhookDestinationTests {
    @Test(
        "an internal address is refused in any spelling the resolver reads",
        arguments: [
            "https://[0:0:0:0:0:ffff:7f00:1]/", "https://[0:0:0:0:0:0:0:1]/", "https://[0::]/", "https://[::1]/",
            "https://2130706433/", "https://127.1/", "https://0x7f.1/", "https://0177.0.0.1/", "https://0/",
            "https://[::ffff:10.0.0.7]/", "https://[64:ff9b::a9fe:a9fe]/", "https://[2002:c0a8:101::1]/",
            "https://[fe80::1]/", "https://[fd12::1]/", "https://169.254.169.254/", "https://100.64.0.1/",
            "https://192.168.1.1:8443/", "https://224.0.0.1/", "https://255.255.255.255/", "https://localhost/",
            "https://api.localhost/", "https://hooks%2eexample.com/", "https://hooks_example.com/",
            "http://hooks.example.com/",
        ])
    func internalSpellings(_ url: String) async throws {
        try await withEndpoints(allowsLoopback: false) { endpoints in
            #expect(throws: PassManagementFailure.self, "\(url)") { try endpoints.validate(url) }
        }
    }

    @Test(
        "public hosts and addresses are accepted",
        arguments: ["https://hooks.example.com/x", "https://93.184.215.14/x", "https://[2606:4700::1111]/x"])
    func publicHosts(_ url: String) async throws {
        try await withEndpoints(allowsLoopback: false) { endpoints in try endpoints.validate(url) }
    }

    @Test("addresses are classified by IANA's special-purpose registries, IPv6 forms by the address they embed")
    func scopes() throws {
        let expected: [(String, IPAddress.Scope)] = [
            ("8.8.8.8", .global), ("127.0.0.1", .loopback), ("127.1", .loopback), ("::1", .loopback),
            ("::ffff:127.0.0.1", .loopback), ("::ffff:8.8.8.8", .global), ("64:ff9b::808:808", .global),
            ("64:ff9b::a00:1", .internal), ("2002:0808:0808::1", .global), ("2002:0a00:0001::1", .internal),
            ("2001:4860:4860::8888", .global), ("2001:db8::1", .internal), ("::", .internal), ("0.0.0.0", .internal),
            ("fec0::1", .internal), ("ff02::1", .internal), ("4000::1", .internal), ("198.18.0.1", .internal),
        ]
        for (text, scope) in expected {
            let address = try #require(IPAddress(numeric: text), "\(text)")
            #expect(address.scope == scope, "\(text)")
        }
        #expect(IPAddress(numeric: "hooks.example.com") == nil)
        #expect(IPAddress(numeric: "::ffff:127.0.0.1")?.description == "::ffff:127.0.0.1")
        #expect(IPAddress(numeric: "2130706433")?.description == "127.0.0.1")
    }

    @Test("a host name that resolves to this machine gets no delivery unless loopback is allowed, then only there")
    func resolvedAtSendTime() async throws {
        try await WebhookReceiver.with { receiver, url in
            let port = try #require(URLComponents(string: url)?.port)
            let secrets = AggregateSecretsStore(backend: InMemoryBackend())
            let endpointID = UUID()
            try secrets.saveData(Data("whsec_test".utf8), account: WebhookEndpoint.secretPath(id: endpointID))
            receiver.expect(secret: "whsec_test")
            let delivery = PendingWebhook(
                id: UUID(), passID: UUID(), endpointID: endpointID, clientID: UUID(),
                url: "http://localhost:\(port)/hooks",
                eventID: "evt_1", eventType: .passUpdated, payload: Data("{}".utf8), attempts: 0, createdAt: Date(),
                leasedUntil: Date())

            let refused = await WebhookSender(secrets: secrets).send(delivery)
            guard case .failed(let reason) = refused else {
                Issue.record("a delivery to a name for this machine was attempted")
                return
            }
            #expect(reason.contains("internal addresses"), "\(reason)")
            #expect(receiver.deliveries.isEmpty, "nothing connected to the internal address")

            #expect(await WebhookSender(secrets: secrets, allowsLoopback: true).send(delivery) == .delivered)
            #expect(receiver.deliveries.count == 1)
            #expect(receiver.deliveries.first?.signed == true)
        }
    }

    @Test("a name server that never answers ends the attempt at its deadline, and holds up only its own client")
    func silentNameServer() async throws {
        try await WebhookReceiver.with { receiver, url in
            let port = try #require(URLComponents(string: url)?.port)
            let secrets = AggregateSecretsStore(backend: InMemoryBackend())
            receiver.expect(secret: "whsec_test")
            // The silent lookups return only once the test is over (or, should an attempt wait for its lookup, once
            // the watchdog gives up on it): an attempt that ends before did so at its deadline.
            let silence = DispatchSemaphore(value: 0)
            let watchdogFired = Locked(false)
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                watchdogFired.withLock { $0 = true }
                for _ in 0..<8 { silence.signal() }
            }
            let lookups = Locked<[String]>([])
            let resolver = WebhookHostResolver(perClient: 2) { host in
                lookups.withLock { $0.append(host) }
                if host == "silent.example" { silence.wait() }
                return [try #require(IPAddress(numeric: "127.0.0.1"))]
            }
            defer {
                watchdog.cancel()
                for _ in 0..<2 { silence.signal() }
            }
            let sender = WebhookSender(secrets: secrets, timeout: 0.2, allowsLoopback: true, resolver: resolver)
            func delivery(to url: String, for client: UUID) throws -> PendingWebhook {
                let endpointID = UUID()
                try secrets.saveData(Data("whsec_test".utf8), account: WebhookEndpoint.secretPath(id: endpointID))
                return PendingWebhook(
                    id: UUID(), passID: UUID(), endpointID: endpointID, clientID: client, url: url, eventID: "evt_1",
                    eventType: .passUpdated, payload: Data("{}".utf8), attempts: 0, createdAt: Date(),
                    leasedUntil: Date())
            }
            let silent = UUID()
            for _ in 0..<2 {
                let outcome = await sender.send(try delivery(to: "https://silent.example/hooks", for: silent))
                guard case .failed(let reason) = outcome else { Issue.record("a silent host got a delivery"); continue }
                #expect(reason.hasPrefix("the endpoint did not answer in full within"), "\(reason)")
            }
            let third = await sender.send(try delivery(to: "https://silent.example/hooks", for: silent))
            #expect(third == .failed("earlier lookups of this client's endpoint host names have not finished"))
            #expect(lookups.withLock { $0 } == ["silent.example", "silent.example"])
            #expect(!watchdogFired.withLock { $0 }, "an attempt waited for its lookup past its deadline")

            // Another client's endpoint, through the same resolver, with time enough for a real POST.
            let patient = WebhookSender(secrets: secrets, allowsLoopback: true, resolver: resolver)
            let other = await patient.send(try delivery(to: "http://hooks.test:\(port)/hooks", for: UUID()))
            #expect(other == .delivered)
            #expect(receiver.deliveries.count == 1)
        }
    }

    @Test("a client's endpoint cap holds under concurrent creation", arguments: Engine.available)
    func concurrentCap(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let endpoints = WebhookEndpoints(
                repository: world.repository, secrets: AggregateSecretsStore(backend: InMemoryBackend()))
            let clientID = world.apiUser.clientID
            let made = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        (try? await endpoints.create(
                            clientID: clientID, url: "https://hooks.example.com/\(index)", eventTypes: nil)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let listed = try await endpoints.list(clientID: clientID)
            #expect(made == WebhookEndpoints.maximumPerClient)
            #expect(listed.count == WebhookEndpoints.maximumPerClient)
        }
    }

    func withEndpoints(allowsLoopback: Bool, _ body: (WebhookEndpoints) async throws -> Void) async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            try await body(
                WebhookEndpoints(
                    repository: world.repository, secrets: AggregateSecretsStore(backend: InMemoryBackend()),
                    allowsLoopback: allowsLoopback))
        }
    }
}
