import Foundation
import Hummingbird
import WalletServices

/// JSON request and response bodies, the same way on every route: bodies capped in size, decoding errors that name
/// the key at fault, and one shared encoder and decoder.
enum JSONBody {
    /// The largest JSON body a route reads unless it says otherwise.
    static let defaultLimit = 64 * 1024

    /// Decodes the request's body as `T`.
    ///
    /// - Throws: ``APIError`` 413 for a body over `limit` bytes, 400 for a missing body, a missing key (named), a
    ///   wrong value at a key (named), or anything that is not the expected JSON object; what `T`'s own checks throw
    ///   (its initialiser's error, such as `PassManagementFailure`) as it is.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = defaultLimit) async throws
        -> T
    {
        let data = try await bytes(of: request, limit: limit)
        guard !data.isEmpty else { throw APIError.badRequest("the JSON body is missing") }
        do {
            return try decoder.decode(T.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw APIError.badRequest("'\(key.stringValue)' is required")
        } catch let error as DecodingError where !codingPath(of: error).isEmpty {
            // A wrong type, a null or an unknown value at a key.
            throw APIError.badRequest(
                "'\(codingPath(of: error).map(\.stringValue).joined(separator: "."))' is not valid")
        } catch is DecodingError {
            throw APIError.badRequest("the body is not the expected JSON object")
        }
    }

    /// The request's body, at most `limit` bytes.
    ///
    /// - Throws: ``APIError`` 413 for a body over `limit` bytes.
    static func bytes(of request: Request, limit: Int = defaultLimit) async throws -> Data {
        do {
            return Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch {
            throw APIError(
                .contentTooLarge, code: "too_large", message: "the body is larger than \(limit / 1024) KiB")
        }
    }

    /// A JSON response with `value` (keys sorted, slashes unescaped).
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        response(encoded: try encoder.encode(value), status: status)
    }

    /// A JSON response with a body already encoded.
    static func response(encoded json: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    /// Where in the body a decoding error happened; empty for the body as a whole.
    private static func codingPath(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context.codingPath
        @unknown default:
            return []
        }
    }

    /// Made once: a coder is safe to share between requests as long as no one changes its options.
    static let decoder = JSONDecoder()
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
