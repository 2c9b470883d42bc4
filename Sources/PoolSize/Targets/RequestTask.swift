import Foundation
import PoolSizeModel

/// One HTTP request as a sweep's task asks for it: `--http`'s settings, also the request a
/// server sweep's driver sends. The header values and the URL are held as given, credentials
/// included; what a run records of them is `recorded`'s.
package struct RequestTask: Sendable, Equatable, Codable {
    /// The URL, with `{port}` where a server sweep's server takes its port.
    package var url: String
    /// The request method.
    package var method = "GET"
    /// `Name: value` header lines.
    package var headers: [String] = []
    /// A file whose bytes are every request's body.
    package var bodyPath: String?
    /// Header names whose values are credentials, beyond the known ones.
    package var maskedHeaders: [String] = []
    /// Query parameters whose values are credentials, beyond the known ones.
    package var maskedQuery: [String] = []
    /// A PEM file of the CA certificates that verify an https:// server.
    package var caCertificatePath: String?
    /// Whether an https:// server's certificate goes unchecked.
    package var insecure = false

    /// A GET of `url`.
    package init(url: String) {
        self.url = url
    }

    /// The body's bytes, read now: a missing or unreadable file is said before anything runs.
    package func body() throws(PoolSizeError) -> Data? {
        guard let bodyPath else { return nil }
        guard FileManager.default.fileExists(atPath: bodyPath) else {
            throw .inputNotFound(
                path: bodyPath,
                hint:
                    "\(PoolSizeError.Parameter.httpBody.mention) takes a file whose bytes are sent as the request body")
        }
        do { return try Data(contentsOf: URL(fileURLWithPath: bodyPath)) } catch {
            throw .invalidInput(
                path: bodyPath,
                message:
                    "cannot be read (\(error.localizedDescription)); \(PoolSizeError.Parameter.httpBody.mention) takes a readable file"
            )
        }
    }

    /// The request for `url` (this task's, or a server's with its port filled in).
    package func target(url: String, body: Data?) throws(PoolSizeError) -> HTTPTarget {
        try HTTPTarget(url: url, method: method, headers: headers, body: body, secretQuery: Set(maskedQuery))
    }

    /// What a run records: credential header values and query values masked, and whether any
    /// was (a resume from the record alone then needs them given again).
    package var recorded: (task: RequestTask, withheld: Bool) {
        masking { copy in
            copy.url = Secrets.url(url, marked: Set(maskedQuery))
            copy.headers = headers.map { Secrets.header($0, marked: Set(maskedHeaders)) }
        }
    }
}
