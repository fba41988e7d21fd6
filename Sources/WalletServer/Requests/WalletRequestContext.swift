import Hummingbird
import NIOCore
import WalletServices

/// The context of every request the server answers: Hummingbird's core context and the peer that connected, from
/// which ``ClientAddress`` tells who sent the request.
package struct WalletRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    package var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer: the client, or the proxy in front of the server; `nil` for a
    /// connection without one (an in-process test client).
    package let remoteAddress: SocketAddress?

    /// Creates the context of a request that arrived on `source`'s channel.
    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
