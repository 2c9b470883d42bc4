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

    /// One request header.
    package struct Header: Equatable, Sendable {
        /// The field name, e.g. `Authorization`.
        package let name: String
        /// The field value, without the leading space.
        package let value: String
    }

    /// Checks each part as the flag that gave it, e.g. `--http-header` for a header without a colon.
    package init(url: String, method: String = "GET", headers: [String] = [], body: Data? = nil) throws(PoolSizeError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw .invalidOption(flag: "--http", message: "must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got '\(Self.printable(url))'")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw .invalidOption(flag: "--http", message: "port \(port) is not a TCP port (1 to 65535), in '\(Self.printable(url))'")
        }
        let upper = method.uppercased()
        guard !upper.isEmpty, upper.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
            throw .invalidOption(flag: "--http-method", message: "must be a method name such as GET, POST or PUT, got '\(Self.printable(method))'")
        }
        var parsed: [Header] = []
        for line in headers {
            guard let colon = line.firstIndex(of: ":") else {
                throw .invalidOption(flag: "--http-header", message: "must be 'Name: value', got '\(Self.printable(line))'")
            }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
                throw .invalidOption(flag: "--http-header", message: "'\(Self.printable(name))' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)")
            }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f }) else {
                throw .invalidOption(flag: "--http-header", message: "the value of \(name) holds a control character (a line break would split the request); remove it")
            }
            parsed.append(Header(name: name, value: value))
        }
        self.url = url
        self.method = upper
        self.headers = parsed
        self.body = body
    }

    /// The target as in messages and reports: `GET http://127.0.0.1:8080/`, credentials in the
    /// URL masked (`Secrets`).
    package var display: String { "\(method) \(Secrets.url(url))" }

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

    /// `text` with control characters shown as `\u{…}`, so an error stays on one line.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined())
    }
}
