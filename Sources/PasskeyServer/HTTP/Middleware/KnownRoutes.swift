import HTTPTypes

/// Every API route's method and path segments, to tell an unknown path (404) from a known one asked with another
/// method (405).
struct KnownRoutes: Sendable {
    private let routes: [(method: HTTPRequest.Method, segments: [Substring])]

    init(service: PasskeyService) {
        routes = PasskeyRoutes.table(service).map { ($0.method, $0.path.split(separator: "/")) }
    }

    /// The methods of the routes whose template matches `path` (a `{parameter}` segment matches any value).
    func allowedMethods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        return routes.filter { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { template, actual in
                    template.hasPrefix("{") || template == actual
                }
        }.map(\.method)
    }
}
