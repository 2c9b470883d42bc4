import Foundation

/// The URL a server sweep loads and probes for readiness, with `{port}` standing for the port
/// poolsize picks for the server (`ServerCommand`): `http://127.0.0.1:{port}/work`. Checked
/// against the server's command, so a port one has and the other lacks is an error before
/// anything starts, and as a URL (`HTTPTarget`) with the placeholder filled in.
package struct ServerURL: Equatable, Sendable {
    /// The URL as given, `{port}` unfilled.
    package let template: String
    /// Whether the URL holds `{port}`.
    package let usesPort: Bool

    /// A port that stands in for `{port}` while the URL is checked; an error's text shows
    /// `{port}` again in its place.
    package static let checkedPort = 65_535

    /// Checks `template` against `server`; errors name the URL's setting (`httpURL`).
    /// - Parameter secretQuery: query parameters to mask in messages besides the known ones.
    package init(_ template: String, server: ServerCommand, secretQuery: Set<String> = []) throws(PoolSizeError) {
        let found = try ServerCommand.placeholders(in: template, known: [.port], parameter: .httpURL)
        let usesPort = found.contains(.port)
        let example = "e.g. http://127.0.0.1:{port}/"
        if usesPort && HTTPTarget.portText(template) != ServerCommand.Placeholder.port.written {
            throw .invalidParameter(.httpURL, message: "{port} may only stand for the URL's port, \(example)")
        }
        if server.usesPort && !usesPort {
            throw .invalidParameter(
                .httpURL,
                message:
                    "has no {port}, but \(PoolSizeError.Parameter.server.mention) listens on the port poolsize picks; write {port} as the URL's port, \(example)"
            )
        }
        if usesPort && !server.usesPort {
            throw .invalidParameter(
                .httpURL,
                message:
                    "has {port}, but \(PoolSizeError.Parameter.server.mention) has none, so the server is never told the port; add {port} to \(PoolSizeError.Parameter.server.mention), or write the server's own port in the URL"
            )
        }
        self.template = template
        self.usesPort = usesPort
        do {
            _ = try HTTPTarget(url: url(port: Self.checkedPort), secretQuery: secretQuery)
        } catch {
            guard usesPort, case let .invalidParameter(parameter, message) = error else { throw error }
            throw .invalidParameter(
                parameter, message: message.replacingOccurrences(of: ":\(Self.checkedPort)", with: ":{port}"))
        }
    }

    /// The URL for a server listening on `port` (required when the URL has `{port}`).
    package func url(port: Int?) -> String {
        precondition(!usesPort || port != nil, "the URL has {port}: give a port")
        return ServerCommand.fill(template, port.map { [.port: String($0)] } ?? [:])
    }
}
