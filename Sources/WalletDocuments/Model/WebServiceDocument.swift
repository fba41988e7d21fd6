/// A document Wallet keeps up to date through its issuer's web service, as passes and orders are: the service's
/// URL and the token a device presents to it.
public protocol WebServiceDocument: DocumentDictionary {}

extension WebServiceDocument {
    /// The URL of the web service that updates the document (HTTPS).
    @inlinable
    public var webServiceURL: String? {
        get { self["webServiceURL"] }
        set { self["webServiceURL"] = newValue }
    }
    /// The token the device presents to the web service (at least 16 characters).
    @inlinable
    public var authenticationToken: String? {
        get { self["authenticationToken"] }
        set { self["authenticationToken"] = newValue }
    }
}
