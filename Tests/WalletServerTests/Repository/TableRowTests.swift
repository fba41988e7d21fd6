import Foundation
import SQLKit
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("The repository's row types name their tables' columns and refuse corrupt identifiers")
struct TableRowTests {
    /// Every table row type the repository reads or writes.
    static let rowTypes: [any TableRow.Type] = [
        ClientRow.self, APIUserRow.self, UserRow.self, PassTypeRow.self, TagRow.self, PassRow.self,
        PassAuthenticationRow.self, SessionRow.self, PassTypeNFCKeyRow.self, PassTypeClientRow.self,
        LandingLinkRow.self, PassRegistrationRow.self, DeliveryOutboxRow.self, PassPersonalizationRow.self,
        DeviceLogRow.self, IdempotencyKeyRow.self, SignedPassArchiveRow.self, ShareLinkRow.self, PassEventRow.self,
        WebhookEndpointRow.self,
    ]

    /// Selects every column `row` names from its table, so that a misspelled column fails the query.
    static func selectEveryColumn<Row: TableRow>(of row: Row.Type, on database: WalletDatabase) async throws {
        _ = try await database.sql.select().columns(of: Row.self).from(Row.table).limit(0).all()
    }

    @Test("every column a row type names exists in the migrated schema", arguments: Engine.available)
    func columnsExist(_ engine: Engine) async throws {
        try await engine.withRepository { _, database in
            for rowType in Self.rowTypes {
                try await Self.selectEveryColumn(of: rowType, on: database)
            }
        }
    }

    @Test("a stored identifier that is not a UUID is a corrupt record", arguments: Engine.available)
    func corruptIdentifier(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            try await database.sql.insert(into: ClientRow.table).columns(ClientRow.columns)
                .values(SQLBind("not-a-uuid"), SQLBind("Acme"), SQLBind(Int64(0))).run()
            await #expect(throws: WalletServerError.corruptRecord("id 'not-a-uuid'")) {
                _ = try await repository.clients()
            }
        }
    }
}
