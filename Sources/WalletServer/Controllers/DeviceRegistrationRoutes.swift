import Foundation
import Hummingbird
import WalletDocuments
import WalletServices

/// The device registration routes Apple's Passes and Orders web services share: register, unregister, and the list
/// of changed documents, under either's mount path. The per-address budget of registrations and the answers to
/// refusals are the passes' web service's, one for both.
struct DeviceRegistrationRoutes: Sendable {
    /// The passes' or the orders' registrations.
    let registrations: DeviceRegistrations
    /// The passes' web service routes: the budgets and the refusals' answers.
    let webService: PassWebServiceController

    struct Registration: Decodable {
        let pushToken: String
    }

    func addRoutes(to group: RouterGroup<WalletRequestContext>) {
        group.post("v1/devices/:device/registrations/:type/:identifier", use: register)
        group.delete("v1/devices/:device/registrations/:type/:identifier", use: unregister)
        group.get("v1/devices/:device/registrations/:type", use: updated)
    }

    @Sendable func register(request: Request, context: WalletRequestContext) async throws -> Response {
        // Without a token there is nothing to look up: answered before the address's budget is counted.
        guard request.headers[.authorization] != nil else { throw PassWebServiceController.noToken }
        try await webService.limit(request, context, with: webService.registrationLimiter, what: "registrations")
        let body = try await JSONBody.decode(Registration.self, from: request, limit: 4096)
        let created = try await webService.run {
            try await registrations.register(
                deviceLibraryIdentifier: try PassWebServiceController.parameter("device", context),
                typeIdentifier: try PassWebServiceController.parameter("type", context),
                identifier: try PassWebServiceController.parameter("identifier", context), pushToken: body.pushToken,
                authorization: request.headers[.authorization])
        }
        return Response(status: created ? .created : .ok)
    }

    @Sendable func unregister(request: Request, context: WalletRequestContext) async throws -> Response {
        try await webService.run {
            try await registrations.unregister(
                deviceLibraryIdentifier: try PassWebServiceController.parameter("device", context),
                typeIdentifier: try PassWebServiceController.parameter("type", context),
                identifier: try PassWebServiceController.parameter("identifier", context),
                authorization: request.headers[.authorization])
        }
        return Response(status: .ok)
    }

    /// `204` when nothing changed; else the identifiers and the tag to ask from, under the names Apple's web service
    /// gives them (`serialNumbers` and `lastUpdated` for passes, `orderIdentifiers` and `lastModified` for orders).
    @Sendable func updated(request: Request, context: WalletRequestContext) async throws -> Response {
        let names =
            registrations.subject == .pass
            ? (since: "passesUpdatedSince", identifiers: "serialNumbers", tag: "lastUpdated")
            : (since: "ordersModifiedSince", identifiers: "orderIdentifiers", tag: "lastModified")
        guard
            let updated = try await webService.run({
                try await registrations.updated(
                    deviceLibraryIdentifier: try PassWebServiceController.parameter("device", context),
                    typeIdentifier: try PassWebServiceController.parameter("type", context),
                    since: request.uri.queryParameters.get(names.since))
            })
        else { return Response(status: .noContent) }
        let answer: [String: JSONValue] = [
            names.identifiers: .array(updated.identifiers.map { .string($0) }), names.tag: .string(updated.tag),
        ]
        return try JSONBody.response(answer)
    }
}
