import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletOrders
@testable import WalletPasses

@Suite("OrderLint: what Wallet rejects in an order, with the key's path")
struct OrderLintTests {
    func codes(_ order: Order, files: [String: Data]? = OrderFixtures.files()) -> [String: LintFinding.Severity] {
        var codes: [String: LintFinding.Severity] = [:]
        for finding in order.lint(files: files).findings { codes["\(finding.code) \(finding.path)"] = finding.severity }
        return codes
    }

    @Test("the fixture order lints clean")
    func fixtureIsClean() {
        let report = OrderFixtures.order().lint(files: OrderFixtures.files())
        #expect(report.findings.isEmpty, "\(report.findings)")
    }

    @Test("a missing required key, a wrong type and an unknown status are errors at their paths")
    func schema() {
        var order = OrderFixtures.order()
        order.json["orderManagementURL"] = nil
        order.json["schemaVersion"] = .string("1")
        order.json["status"] = .string("shipped")
        order.merchant.json["displayName"] = nil
        let found = codes(order)
        #expect(found["key.required orderManagementURL"] == .error)
        #expect(found["key.type schemaVersion"] == .error)
        #expect(found["value.enumeration status"] == .error)
        #expect(found["key.required merchant.displayName"] == .error)
    }

    @Test("fulfilments are checked against their own type's keys")
    func fulfillmentTypes() {
        var order = OrderFixtures.order()
        var shipment = Order.ShippingFulfillment(fulfillmentIdentifier: "p", status: .shipped)
        shipment.json["status"] = .string("readyForPickup")
        shipment.estimatedDeliveryWindowDuration = "4 hours"
        order.fulfillments = [
            .shipping(shipment), .other(["fulfillmentType": .string("drone"), "fulfillmentIdentifier": .string("q")]),
        ]
        let found = codes(order)
        #expect(found["value.enumeration fulfillments[0].status"] == .error)
        #expect(found["value.duration fulfillments[0].estimatedDeliveryWindowDuration"] == .error)
        #expect(found["value.enumeration fulfillments[1].fulfillmentType"] == .error)
    }

    @Test(
        "ISO 8601 durations",
        arguments: [
            ("PT30M", true), ("P0Y0M0DT0H30M0S", true), ("P1DT2H", true), ("PT1.5S", true), ("P2W", true),
            ("P", false), ("PT", false), ("30M", false), ("PT30", false), ("PM30", false), ("PT1.5M", false),
            ("P1H", false), ("PT2H1H", false),
        ])
    func durations(_ text: String, _ valid: Bool) {
        #expect(SchemaCheck.isDuration(text) == valid)
    }

    @Test("updatedAt before createdAt, a short token and a lone web service URL are errors")
    func datesAndWebService() {
        var order = OrderFixtures.order()
        order.updatedAt = OrderFixtures.created.addingTimeInterval(-1)
        order.webServiceURL = "https://orders.example.com"
        let found = codes(order)
        #expect(found["order.updated-at updatedAt"] == .error)
        #expect(found["web-service.pair authenticationToken"] == .error)
        order.authenticationToken = "short"
        #expect(codes(order)["web-service.token authenticationToken"] == .error)
    }

    @Test(
        "an identifier a web service path cannot carry is an error",
        arguments: ["a/b", "a b", "a?b", "50%", "a#b", "commande-été", String(repeating: "x", count: 257)])
    func identifiers(_ identifier: String) {
        var order = OrderFixtures.order()
        order.orderIdentifier = identifier
        order.orderTypeIdentifier = "order.\(identifier)"
        let found = codes(order)
        #expect(found["order.identifier orderIdentifier"] == .error)
        #expect(found["order.identifier orderTypeIdentifier"] == .error)
    }

    @Test("a date without seconds is an error in an order, as RFC 3339 has it", arguments: ["createdAt", "updatedAt"])
    func datesWithoutSeconds(_ key: String) {
        var order = OrderFixtures.order()
        order.json[key] = .string("2026-11-24T09:00Z")
        let finding = order.lint(files: OrderFixtures.files()).findings.first { $0.code == "value.date" }
        #expect(finding?.path == key)
        #expect(finding?.severity == .error)
        #expect(finding?.fix == "write it as 2026-11-24T09:00:00Z")
        order.json[key] = .string("2026-11-24T09:00:00.5+01:00")
        #expect(codes(order)["value.date \(key)"] == nil)
    }

    @Test(
        "the payment keys Apple deprecates are warnings that name transactions",
        arguments: ["paymentMethods", "applePayTransactionIdentifiers"])
    func deprecatedPaymentKeys(_ key: String) throws {
        var order = OrderFixtures.order()
        order.payment?.json[key] = .array([.string("Visa 4242")])
        let finding = try #require(
            order.lint(files: OrderFixtures.files()).findings.first { $0.path == "payment.\(key)" })
        #expect(finding.code == "key.deprecated")
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("transactions"))
    }

    @Test("currency and country codes, coordinates and duplicate fulfilments are checked wherever they are")
    func values() {
        var order = OrderFixtures.order()
        order.lineItems?[0].price = .init(amount: "1", currency: "USB")
        order.payment?.summaryItems?[0].value = .init(amount: "1.0.0", currency: "USD")
        var pickup = Order.PickupFulfillment(fulfillmentIdentifier: "parcel-1", displayName: "Shop", status: .open)
        pickup.address = Order.Address(countryCode: "FRA")
        pickup.location = Order.Location(latitude: 91, longitude: 0)
        order.fulfillments?.append(.pickup(pickup))
        let found = codes(order)
        #expect(found["value.currency lineItems[0].price.currency"] == .error)
        #expect(found["value.decimal payment.summaryItems[0].value.amount"] == .error)
        #expect(found["payment.currency payment.summaryItems[0].value.currency"] == .warning)
        #expect(found["value.country-code fulfillments[2].address.countryCode"] == .error)
        #expect(found["value.coordinate fulfillments[2].location.latitude"] == .error)
        #expect(found["order.duplicate-identifier fulfillments[2].fulfillmentIdentifier"] == .error)
    }

    @Test("an amount written as a number is a warning with a fix")
    func amountNumber() {
        var order = OrderFixtures.order()
        order.payment?.total.json["amount"] = .number(89)
        let finding = order.lint(files: OrderFixtures.files()).findings.first { $0.code == "value.decimal-number" }
        #expect(finding?.severity == .warning)
        #expect(finding?.fix == "write it as the string \"89.0\"")
    }

    @Test("every file order.json names is in the package, at some scale or in every language")
    func files() {
        var files = OrderFixtures.files()
        files["sneaker@2x.png"] = nil
        files["de.lproj/logo.png"] = files.removeValue(forKey: "logo.png")
        files["fr.lproj/order.strings"] = Data("\"SUBTOTAL\" = \"Sous-total\";\n".utf8)
        files["extra.png"] = Fixtures.png(7)
        let found = codes(OrderFixtures.order(), files: files)
        #expect(found["file.missing lineItems[0].image"] == .error)
        #expect(found["file.missing fr.lproj"] == .warning)
        #expect(found["strings.missing fr.lproj/order.strings"] == .warning)
        #expect(found["file.unused extra.png"] == .note)
    }

    @Test("a file that is not what its extension says is an error")
    func fileContents() {
        var files = OrderFixtures.files()
        files["logo.png"] = Data("not a png".utf8)
        files["label.pdf"] = Data("nope".utf8)
        files["de.lproj/order.strings"] = Data("\"a\" = ".utf8)
        let found = codes(OrderFixtures.order(), files: files)
        #expect(found["file.png logo.png"] == .error)
        #expect(found["file.pdf label.pdf"] == .error)
        #expect(found["strings.syntax de.lproj/order.strings"] == .error)
    }

    @Test("order.json that is not a dictionary is one clear error")
    func notJSON() {
        #expect(OrderLint.report(orderJSON: Data("[1]".utf8), files: nil).errors.map(\.code) == ["json.invalid"])
        #expect(OrderLint.report(orderJSON: Data("{".utf8), files: nil).errors.map(\.code) == ["json.invalid"])
    }

    @Test("the example order in Examples/ lints clean")
    func example() throws {
        let package = try OrderPackage(contentsOf: SourceTree.appending("Examples/Orders/Shoes"))
        let report = package.lint()
        #expect(report.findings.isEmpty, "\(report.findings)")
    }
}
