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
    /// Read from the text, so a URL too malformed to parse (a port of 99999, a stray space),
    /// which an error message quotes, is masked too.
    package static func url(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + mask + String(url[at...])
    }

    /// A header line as an error quotes it when it has no colon: its first word, the rest (in
    /// `Authorization Bearer t0k3n`, the credential) left out.
    package static func headerWithoutColon(_ line: String) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let first = trimmed.prefix { !$0.isWhitespace }
        return first.count == trimmed.count ? trimmed : first + " …"
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

    /// A command line as recorded in machine.json: the values of the URL and the headers
    /// (separate or joined with `=`) redacted. Headers named by the secret-header option count
    /// as credentials too. `flag` spells each option as the command line does.
    package static func commandLine(
        _ arguments: [String], flag: (PoolSizeError.Parameter) -> String
    ) -> [String] {
        let secret = flag(.httpSecretHeaders)
        var marked: Set<String> = []
        for (index, argument) in arguments.enumerated() {
            if argument == secret, index + 1 < arguments.count { marked.insert(arguments[index + 1]) }
            if argument.hasPrefix(secret + "=") { marked.insert(String(argument.dropFirst(secret.count + 1))) }
        }
        let redact: [String: (String) -> String] = [
            flag(.httpURL): { url($0) }, flag(.httpHeaders): { header($0, marked: marked) },
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
