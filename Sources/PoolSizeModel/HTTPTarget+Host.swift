import Foundation

extension HTTPTarget {
    /// The host as written in `url`'s authority, brackets included (`[::1]` in
    /// `http://user@[::1]:8080/x`) and anything up to the port's colon; nil when the URL has no
    /// `://`.
    package static func hostText(_ url: String) -> Substring? {
        guard let scheme = url.range(of: "://") else { return nil }
        var authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let afterClose = authority[authority.index(after: close)...]
            // Whatever follows the brackets must be the port's colon; else it is part of the host.
            return afterClose.isEmpty || afterClose.hasPrefix(":") ? authority[...close] : authority
        }
        return authority.prefix { $0 != ":" }
    }

    /// Why `host` (as `hostText` gives it) is no host libcurl can connect to, e.g. "is not an
    /// IPv6 address (brackets hold one)", or nil when it may be one: libcurl refuses such a URL
    /// in every request (CURLE_URL_MALFORMAT), and a name of digits and dots is only ever tried
    /// as an IPv4 address (resolving it fails every request). Whether a name resolves is left to
    /// the requests: DNS may answer later.
    package static func hostProblem(_ host: Substring) -> String? {
        if host.hasPrefix("[") {
            // RFC 3986 §3.2.2: brackets hold an IPv6 address, with an optional zone (RFC 6874: %25eth0).
            guard host.hasSuffix("]"), host.count >= 2 else {
                return "is not a host: only :port may follow its brackets"
            }
            let address = String(host.dropFirst().dropLast().prefix { $0 != "%" })
            var bytes = in6_addr()
            return inet_pton(AF_INET6, address, &bytes) == 1 ? nil : "is not an IPv6 address (brackets hold one)"
        }
        guard !host.isEmpty else { return "is empty" }
        guard let decoded = host.removingPercentEncoding else {
            return "is not a host name: a % must start a %XX escape"
        }
        // curl's URL parser refuses these in a host name (lib/urlapi.c, hostname_check).
        let refused = Set(" /:#?!@{}[]\\$'\"^`*<>=;,+&()%|".unicodeScalars)
        if let bad = decoded.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7f || refused.contains($0) }
        ) {
            return "is not a host name: it holds '\(printable(String(bad)))' (a name has letters, digits, '-' and '.')"
        }
        let name = decoded.hasSuffix(".") ? String(decoded.dropLast()) : decoded
        var ipv4 = in_addr()
        if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), inet_aton(name, &ipv4) == 0 {
            return "is not an IPv4 address (four numbers, each 0 to 255)"
        }
        return nil
    }
}
