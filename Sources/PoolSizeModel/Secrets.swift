import Foundation

/// Credentials the user gives for requests (URL userinfo, authorization and token headers) are
/// sent, never written: every file, report, export and console line carries the redacted form,
/// since CI publishes the run directory.
package enum Secrets {
    /// What stands in for a hidden value.
    package static let mask = "REDACTED"

    /// Header names whose values are credentials, lowercased: the authorization headers of RFC
    /// 9110, cookies, and the token headers common APIs use.
    package static let headerNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token", "private-token", "x-amz-security-token",
    ]

    /// `url` with its userinfo (`user:password@`) replaced by the mask; unchanged without one.
    package static func url(_ url: String) -> String {
        guard let components = URLComponents(string: url), components.user != nil || components.password != nil,
            let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@")
        else { return url }
        return String(url[..<scheme.upperBound]) + mask + String(url[at...])
    }

    /// Whether a header's value is a credential: a known name, or one of `marked` (any case).
    package static func isSecret(header name: String, marked: Set<String> = []) -> Bool {
        let lower = name.lowercased()
        return headerNames.contains(lower) || marked.contains { $0.lowercased() == lower }
    }

    /// `Name: value` with the value masked when the header is a credential.
    package static func header(_ line: String, marked: Set<String> = []) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        return isSecret(header: name, marked: marked) ? "\(line[..<colon]): \(mask)" : line
    }

    /// A command line as recorded in machine.json: the values of `--http` and `--http-header`
    /// (separate or joined with `=`) redacted. Headers named by `--http-secret-header` count as
    /// credentials too.
    package static func commandLine(_ arguments: [String]) -> [String] {
        var marked: Set<String> = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--http-secret-header", index + 1 < arguments.count { marked.insert(arguments[index + 1]) }
            if argument.hasPrefix("--http-secret-header=") {
                marked.insert(String(argument.dropFirst("--http-secret-header=".count)))
            }
        }
        let redact: [String: (String) -> String] = [
            "--http": { url($0) }, "--http-header": { header($0, marked: marked) },
        ]
        var result: [String] = []
        var pending: ((String) -> String)?
        for argument in arguments {
            if let apply = pending {
                result.append(apply(argument))
                pending = nil
            } else if let apply = redact[argument] {
                result.append(argument)
                pending = apply
            } else if let equals = argument.firstIndex(of: "="), let apply = redact[String(argument[..<equals])] {
                result.append(String(argument[...equals]) + apply(String(argument[argument.index(after: equals)...])))
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
