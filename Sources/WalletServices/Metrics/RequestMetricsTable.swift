/// The request metrics of one router, by route pattern: made when the router is built, read without a lock after.
package struct RequestMetricsTable: Sendable {
    /// The routes known when the router was built.
    let routes: [String: RouteMetrics]
    /// Where requests no route took are counted.
    let unmatched: RouteMetrics
    /// Where the rest lives (and routes added to the router after the table was made).
    let metrics: ServerMetrics

    /// The metrics of the route `endpointPath` names: a known route's, ``unmatched``'s when no route took the
    /// request (Hummingbird names that `NotFound`, or nothing), else one made on first use for a route pattern the
    /// table did not know.
    package func route(_ endpointPath: String?) -> RouteMetrics {
        guard let endpointPath else { return unmatched }
        if let known = routes[endpointPath] { return known }
        // Route patterns start with "/"; anything else is Hummingbird's name for "no route".
        guard endpointPath.utf8.first == UInt8(ascii: "/") else { return unmatched }
        return metrics.lateRoute(endpointPath)
    }
}
