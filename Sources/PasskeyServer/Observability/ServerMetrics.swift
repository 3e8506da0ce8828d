import Prometheus

/// The server's metrics, in its own Prometheus registry (served at `/metrics`).
struct ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// The bounded set of sign-in actions that label the ceremony metric.
    let actionLabels = ActionLabels()

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

    /// Counts a completed ceremony; a sign-in's `action` (when it has one) is a label too, kept bounded by
    /// ``ActionLabels``.
    func ceremony(_ flow: String, outcome: String, action: String? = nil) {
        var labels = [("flow", flow), ("outcome", outcome)]
        if let action { labels.append(("action", actionLabels.label(for: action))) }
        registry.makeCounter(descriptor: Self.ceremonies, labels: labels).increment()
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
