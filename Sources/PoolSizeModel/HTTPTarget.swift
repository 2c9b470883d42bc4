import Foundation

/// The request each task of `poolsize sweep --http` makes: a URL, a method, headers and an
/// optional body, checked before anything runs so a typo is a one-line error, not a sweep of
/// failed requests.
package struct HTTPTarget: Equatable, Sendable {
    /// An absolute `http://` or `https://` URL.
    package let url: String
    /// The request method, e.g. `GET`.
    package let method: String
    /// Extra request headers, in the order given.
    package let headers: [Header]
    /// The request body, sent with every request; nil for none.
    package let body: Data?
    /// Query parameters whose values are credentials besides the known ones (`Secrets`).
    package let secretQuery: Set<String>

    /// One request header.
    package struct Header: Equatable, Sendable {
        /// The field name, e.g. `Authorization`.
        package let name: String
        /// The field value, without the leading space.
        package let value: String
    }

    /// Checks each part as the flag that gave it, e.g. `--http-header` for a header without a colon.
    /// `secretQuery` names query parameters to redact besides the known ones, in messages too.
    package init(
        url: String, method: String = "GET", headers: [String] = [], body: Data? = nil, secretQuery: Set<String> = []
    ) throws(PoolSizeError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw .invalidParameter(
                .httpURL,
                message:
                    "must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got '\(Self.printable(Secrets.url(url, marked: secretQuery)))'"
            )
        }
        // Read from the text: URLComponents drops a port too large for an Int (2^63) and
        // keeps the URL, which would then fail in every task.
        if let port = Self.portText(url), !(Int(port).map { (1...65_535).contains($0) } ?? false) {
            throw .invalidParameter(
                .httpURL,
                message:
                    "port \(Self.printable(port)) is not a TCP port (1 to 65535), in '\(Self.printable(Secrets.url(url, marked: secretQuery)))'"
            )
        }
        if let host = Self.hostText(url), let problem = Self.hostProblem(host) {
            throw .invalidParameter(
                .httpURL,
                message:
                    "host '\(Self.printable(String(host)))' in '\(Self.printable(Secrets.url(url, marked: secretQuery)))' \(problem); give a host name or address, e.g. http://127.0.0.1:8080/ or http://[::1]:8080/"
            )
        }
        let upper = method.uppercased()
        guard !upper.isEmpty, upper.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
            throw .invalidParameter(
                .httpMethod, message: "must be a method name such as GET, POST or PUT, got '\(Self.printable(method))'")
        }
        var parsed: [Header] = []
        for line in headers {
            guard let colon = line.firstIndex(of: ":") else {
                throw .invalidParameter(
                    .httpHeaders,
                    message: "must be 'Name: value', got '\(Self.printable(Secrets.headerWithoutColon(line)))'")
            }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
                throw .invalidParameter(
                    .httpHeaders,
                    message: "'\(Self.printable(name))' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"
                )
            }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f }) else {
                throw .invalidParameter(
                    .httpHeaders,
                    message:
                        "the value of \(name) holds a control character (a line break would split the request); remove it"
                )
            }
            // The body's framing is libcurl's: it sends Content-Length from --http-body. A
            // header of the user's would replace or contradict it, and libcurl would drop
            // or follow it depending on its version; refused, so the request is the one asked for.
            if let framing = Self.framingHeaders.first(where: { $0.key.caseInsensitiveCompare(name) == .orderedSame }) {
                throw .invalidParameter(.httpHeaders, message: "\(framing.key) \(framing.value); drop this header")
            }
            parsed.append(Header(name: name, value: value))
        }
        self.url = url
        self.method = upper
        self.headers = parsed
        self.body = body
        self.secretQuery = secretQuery
    }

    /// The target as in messages and reports: `GET http://127.0.0.1:8080/`, credentials in the
    /// URL masked (`Secrets`).
    package var display: String { "\(method) \(redactedURL)" }

    /// The URL as every file, report and message writes it: userinfo and credential query
    /// values masked (`Secrets.url`).
    package var redactedURL: String { Secrets.url(url, marked: secretQuery) }

    /// The host the requests go to, lowercased (`127.0.0.1`, `localhost`).
    package var host: String { URLComponents(string: url)?.host?.lowercased() ?? "" }

    /// Whether the server runs on this machine, so its CPU competes with the pool's.
    package var isLoopback: Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// RFC 9110 §5.6.2 token characters.
    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
        }
    }

    /// The headers that frame the body, which the client sets, and why.
    static let framingHeaders = [
        "Content-Length": "is sent by the client, as the length of \(PoolSizeError.Parameter.httpBody.mention)",
        "Transfer-Encoding":
            "is chosen by the client, which sends \(PoolSizeError.Parameter.httpBody.mention) with its Content-Length",
    ]

    /// `text` with control characters shown as escapes, so an error stays on one line.
    static func printable(_ text: String) -> String { TerminalText.escape(text) }

    /// The port as written in `url`'s authority (`8080` in `http://user@host:8080/x`), nil
    /// when it names none.
    package static func portText(_ url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        var authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let hostEnd = authority.lastIndex(of: "]").map { authority.index(after: $0) } ?? authority.startIndex
        guard let colon = authority[hostEnd...].lastIndex(of: ":") else { return nil }
        let port = authority[authority.index(after: colon)...]
        return port.isEmpty ? nil : String(port)
    }
}
