import HTTPTypes
import Hummingbird
import WalletServices

extension LandingPage {
    /// `page` as an answer with `status` and the headers of every page for its `nonce`
    /// (``headers(nonce:postsToItself:formRedirectsTo:)``), and `Retry-After` when `retryAfter` (whole seconds) is given.
    static func response(
        _ status: HTTPResponse.Status, _ page: String, nonce: String, retryAfter: Int? = nil,
        postsToItself: Bool = false, formRedirectsTo: String? = nil
    ) -> Response {
        var headers = Self.headers(nonce: nonce, postsToItself: postsToItself, formRedirectsTo: formRedirectsTo)
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }
}
