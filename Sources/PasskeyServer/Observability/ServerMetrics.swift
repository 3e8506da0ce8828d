import Prometheus

/// The server's metrics, in its own Prometheus registry (served at `/metrics`).
struct ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    private static var ceremonies: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "passkeys",
            metricName: "ceremonies",
            unitName: "total",
            helpText: "Completed WebAuthn ceremonies by flow and outcome"
        )
    }
    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "passkeys",
            subsystem: "http",
            metricName: "requests",
            unitName: "total",
            helpText: "HTTP requests by route, method and status"
        )
    }
    private static var durations: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "passkeys",
            subsystem: "http",
            metricName: "request_duration",
            unitName: "seconds",
            helpText: "HTTP request duration"
        )
    }
    private static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(500), .seconds(1),
    ]

    func ceremony(_ flow: String, outcome: String) {
        registry.makeCounter(descriptor: Self.ceremonies, labels: [("flow", flow), ("outcome", outcome)]).increment()
    }

    func request(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.requests,
            labels: [("route", route), ("method", method), ("status", "\(status)")]
        ).increment()
        registry.makeDurationHistogram(descriptor: Self.durations, labels: [("route", route)], buckets: Self.buckets)
            .record(duration)
    }

    func exposition() -> [UInt8] {
        var buffer = [UInt8]()
        registry.emit(into: &buffer)
        return buffer
    }
}
