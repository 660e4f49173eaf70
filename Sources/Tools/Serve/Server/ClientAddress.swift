import Foundation

/// The address a request comes from, for the rate limit, fair admission and the log: the
/// peer's, unless the peer is a proxy the operator trusts (`--trusted-proxy`), which then
/// says who its client was in `X-Forwarded-For`. Anyone can send that header, so it is read
/// only from a trusted peer, and from its right end: each proxy appends the address it saw,
/// and the first address from the right that is not a trusted proxy is the client.
enum ClientAddress {
  static func resolve(peer: String, forwardedFor: String?, trusted: Set<String>) -> String {
    guard trusted.contains(peer), let forwardedFor else { return peer }
    let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return hops.reversed().first { !trusted.contains($0) } ?? peer
  }
}
