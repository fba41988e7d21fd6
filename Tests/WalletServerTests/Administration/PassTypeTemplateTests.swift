import CofferTestSupport
import Foundation
import Secrets
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("A pass type's template: what new passes of the type start from")
struct PassTypeTemplateTests {
    static func rewardsTemplate() throws -> PassTemplate {
        var pass = Pass(
            passTypeIdentifier: "pass.placeholder", teamIdentifier: "PLACEHOLDER", serialNumber: "TEMPLATE",
            organizationName: "Acme", description: "Rewards card", style: .storeCard,
            fields: PassFields(primaryFields: [.text("points", "0", label: "POINTS")]))
        pass.nfc = PassNFC(message: "TEMPLATE")
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        return PassTemplate(
            package: try PassPackage(
                pass: pass,
                files: [
                    "icon.png": png,
                    "personalization.json": Data(#"{"description":"Join","requiredPersonalizationFields":[]}"#.utf8),
                ]))
    }

    @Test("a valid template is stored whole, personalization.json included", arguments: Engine.available)
    func stored(_ engine: Engine) async throws {
        try await AdministrationTests().withAdministration(engine) { administration, storage in
            let passType = try await administration.developmentPassType().passType
            let template = try Self.rewardsTemplate()
            let warnings = try await administration.setTemplate(passTypeID: passType.id, template: template)
            #expect(!warnings.contains { $0.code == "binding.nfc" })
            let stored = try #require(
                try await storage.repository.passTemplate(passTypeID: passType.id))
            #expect(try PassPackage(archive: stored) == template.package)
        }
    }

    @Test(
        "a template whose passes would be invalid, or an unknown pass type, is refused and nothing is stored",
        arguments: Engine.available)
    func refused(_ engine: Engine) async throws {
        try await AdministrationTests().withAdministration(engine) { administration, storage in
            let passType = try await administration.developmentPassType().passType
            var pass = try Self.rewardsTemplate().package.pass
            pass.description = " "
            let invalid = PassTemplate(package: try PassPackage(pass: pass, files: ["icon.png": Data([1])]))
            await #expect(throws: (any Error).self) {
                try await administration.setTemplate(passTypeID: passType.id, template: invalid)
            }
            await #expect(throws: WalletServerError.self) {
                try await administration.setTemplate(passTypeID: UUID(), template: try Self.rewardsTemplate())
            }
            #expect(try await storage.repository.passTemplate(passTypeID: passType.id) == nil)
        }
    }

    @Test(
        "a pass from a personalizable template gets a 128-bit random serial; a chosen serial is refused",
        arguments: Engine.available)
    func personalizableSerials(_ engine: Engine) async throws {
        try await AdministrationTests().withAdministration(engine) { administration, storage in
            let passType = try await administration.developmentPassType().passType
            let client = try await administration.createClient(name: "Rewards")
            let template = try Self.rewardsTemplate()
            var serials: Set<String> = []
            for reference in ["MEMBER-1", "MEMBER-2"] {
                let tag = try await administration.createTag(clientID: client.id, referenceID: reference)
                await #expect(throws: WalletServerError.self) {
                    try await administration.createPass(
                        tagID: tag.id, passTypeID: passType.id, template: template, serialNumber: reference)
                }
                let pass = try await administration.createPass(
                    tagID: tag.id, passTypeID: passType.id, template: template)
                #expect(pass.serialNumber.count == 32 && pass.serialNumber.allSatisfy(\.isHexDigit))
                #expect(try PassPackage(archive: pass.passContent).pass.serialNumber == pass.serialNumber)
                serials.insert(pass.serialNumber)
            }
            #expect(serials.count == 2)
        }
    }
}
