import Foundation
import Prometheus

/// The server's metrics in Prometheus's text format (`GET /metrics`, SPEC §9), kept by
/// swift-prometheus: requests by route and status, the time runs take, how sandboxes end,
/// the result cache's hits and misses, and the requests waiting for a sandbox.
final class PlaygroundMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let runDuration: DurationHistogram
  private let queueDepth: Gauge

  init() {
    runDuration = registry.makeDurationHistogram(
      descriptor: Self.metric("run_duration_seconds", "How long a sandboxed run or view took, cache hits excluded."),
      buckets: [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
      ])
    queueDepth = registry.makeGauge(descriptor: Self.metric("queue_depth", "Requests waiting for a sandbox."))
  }

  /// A request answered: its route (the pattern, not the path, to keep the series few).
  func request(path: String, status: Int) {
    registry.makeCounter(
      descriptor: Self.metric("http_requests_total", "Requests answered, by route and status."),
      labels: [("route", Self.route(of: path)), ("status", "\(status)")]
    ).increment()
  }

  /// A sandbox that ran: how long, and how it ended.
  func sandbox(_ duration: Duration, timedOut: Bool, truncated: Bool, exitCode: Int32) {
    runDuration.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    let outcome = timedOut ? "timeout" : truncated ? "truncated" : exitCode == 0 ? "ok" : "error"
    registry.makeCounter(
      descriptor: Self.metric("sandbox_outcomes_total", "How sandboxes ended."), labels: [("outcome", outcome)]
    ).increment()
  }

  func cache(hit: Bool) {
    registry.makeCounter(
      descriptor: Self.metric("cache_requests_total", "Sandboxed answers looked up in the result cache."),
      labels: [("result", hit ? "hit" : "miss")]
    ).increment()
  }

  func setQueueDepth(_ depth: Int) { queueDepth.set(Int64(depth)) }

  /// `kaleidoscope_NAME`, with its help text (the unit, when there is one, ends NAME).
  private static func metric(_ name: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(namespace: "kaleidoscope", metricName: name, unitName: "", helpText: help)
  }

  /// The routes of SPEC §6 and §9; anything else is `other`.
  static func route(of path: String) -> String {
    let exact = [
      "/", "/healthz", "/readyz", "/metrics", "/api/run", "/api/view", "/api/trace", "/api/share", "/api/examples",
      "/api/language",
    ]
    if exact.contains(path) { return path }
    for (prefix, route) in [
      ("/api/share/", "/api/share/:id"), ("/s/", "/s/:id"), ("/static/", "/static/:name"),
      ("/codemirror/", "/codemirror/*"),
    ] where path.hasPrefix(prefix) {
      return route
    }
    return "other"
  }
}
