/// Why a request to one of Apple's web services (passes, orders) was refused.
package enum WebServiceFailure: Error, Hashable, Sendable {
    /// No pass or order with this identifier and a matching token (or no token at all).
    case unauthorized
    /// The pass cannot do this (it is not personalizable, or was personalized already).
    case notFound(String)
    /// The request is malformed.
    case invalidRequest(String)
    /// The pass or order has as many registered devices as it may have.
    case tooManyDevices(limit: Int)
    /// The order was signed as often as its budget allows for now (``OrderWebService/signingLimit``).
    case rateLimited(retryAfter: Duration)
}
