import Foundation

/// Credentials the user gives for requests (URL userinfo, key and token query parameters,
/// authorization and token headers) are sent, never written: every file, report, export and console line carries the redacted form,
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

    /// Query parameter names whose values are credentials, compared as `queryKey` reduces a
    /// name (lowercased, `-` and `_` dropped, so `api_key`, `apiKey` and `API-KEY` are one): API
    /// keys, OAuth tokens (RFC 6749 §4.2.2, RFC 6750 §2.3), passwords, and the signatures of
    /// pre-signed URLs (AWS SigV4's `X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`).
    package static let queryNames: Set<String> = [
        "apikey", "key", "token", "accesstoken", "authtoken", "idtoken", "refreshtoken", "auth", "authorization",
        "secret", "clientsecret", "password", "passwd", "pwd", "pass", "signature", "sig", "session", "sessionid",
        "privatetoken", "jwt", "xamzsignature", "xamzcredential", "xamzsecuritytoken",
    ]

    /// `url` with its userinfo (`user:password@`) and the values of its credential query
    /// parameters (a known name, or one of `marked`) replaced by the mask; unchanged without
    /// either. Read from the text, so a URL too malformed to parse (a port of 99999, a stray
    /// space), which an error message quotes, is masked too.
    package static func url(_ url: String, marked: Set<String> = []) -> String {
        var text = url
        if let scheme = text.range(of: "://") {
            let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if let at = authority.lastIndex(of: "@") {
                text = String(text[..<scheme.upperBound]) + mask + String(text[at...])
            }
        }
        // The query, and a fragment in the same `name=value` form (an OAuth implicit grant
        // returns its token there).
        guard let question = text.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return text }
        var result = String(text[...question])
        var part = ""
        for character in text[text.index(after: question)...] {
            if character == "&" || character == ";" || character == "#" {
                result += queryPair(part, marked: marked) + String(character)
                part = ""
            } else {
                part.append(character)
            }
        }
        return result + queryPair(part, marked: marked)
    }

    /// `name=value` with the value masked when the name is a credential's.
    static func queryPair(_ pair: String, marked: Set<String>) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return pair }
        let name = String(pair[..<equals])
        return isSecret(query: name, marked: marked) ? name + "=" + mask : pair
    }

    /// Whether a query parameter's value is a credential: a known name, or one of `marked`
    /// (compared as `queryKey` reduces them, after percent-decoding).
    package static func isSecret(query name: String, marked: Set<String> = []) -> Bool {
        let key = queryKey(name)
        return !key.isEmpty && (queryNames.contains(key) || marked.contains { queryKey($0) == key })
    }

    /// A query parameter's name as compared: percent-decoded, lowercased, `-` and `_` dropped.
    static func queryKey(_ name: String) -> String {
        let decoded = (name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name)
        return decoded.lowercased().filter { $0 != "-" && $0 != "_" && !$0.isWhitespace }
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

    /// A command's text (a server's, a load tool's, a task's) with its credentials masked: every
    /// URL as `url` masks one (a `password` query parameter too), and the value of every
    /// `name=value` whose name is a credential's (`assignment`: `PGPASSWORD=…`, a libpq
    /// `password=…`, `--token=…`). A word runs up to the next space or quote.
    package static func commandText(_ text: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            result += word.contains("://") ? url(word, marked: ["password"]) : assignment(word)
            word = ""
        }
        for character in text {
            if character == " " || character == "'" || character == "\"" || character == "\t" {
                flush()
                result.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return result
    }

    /// `name=value` with the value masked when the name, its leading dashes dropped, is a
    /// credential's: a known query name, or one ending in password, passwd, secret or token (an
    /// environment variable such as `PGPASSWORD` or `GITHUB_TOKEN`); any other word unchanged.
    static func assignment(_ word: String) -> String {
        guard let equals = word.firstIndex(of: "=") else { return word }
        let name = word[..<equals].drop { $0 == "-" }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            return word
        }
        let key = queryKey(String(name))
        let secret =
            queryNames.contains(key) || ["password", "passwd", "secret", "token"].contains { key.hasSuffix($0) }
        return secret ? String(word[...equals]) + mask : word
    }

    /// The passwords in a libpq connection string (`conninfo`), as written and decoded: a
    /// URL's userinfo password and `password` query parameter, a `key=value` string's password.
    /// libpq quotes parts of a connection string it cannot parse in its errors, so each is
    /// masked wherever it appears in one (`scrub`).
    package static func passwords(inConninfo text: String) -> [String] {
        var found: [String] = []
        func add(_ value: Substring) {
            let raw = String(value)
            guard !raw.isEmpty else { return }
            found.append(raw)
            if let decoded = raw.removingPercentEncoding, decoded != raw, !decoded.isEmpty { found.append(decoded) }
        }
        if let scheme = text.range(of: "://") {
            let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                add(authority[authority.index(after: colon)..<at])
            }
            if let question = text.firstIndex(of: "?") {
                for pair in text[text.index(after: question)...].split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2, queryKey(String(parts[0])) == "password" { add(parts[1]) }
                }
            }
            return found
        }
        // `password = 'it''s'` or `password=plain`: libpq's quoting, backslash escapes included.
        var rest = Substring(text)
        while let range = rest.range(of: "password", options: .caseInsensitive) {
            var index = range.upperBound
            rest = text[range.upperBound...]
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            guard index < text.endIndex, text[index] == "=" else { continue }
            index = text.index(after: index)
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            guard index < text.endIndex else { break }
            if text[index] == "'" {
                var value = "", cursor = text.index(after: index)
                while cursor < text.endIndex, text[cursor] != "'" {
                    if text[cursor] == "\\", text.index(after: cursor) < text.endIndex {
                        cursor = text.index(after: cursor)
                    }
                    value.append(text[cursor])
                    cursor = text.index(after: cursor)
                }
                add(Substring(value))
            } else {
                add(text[index...].prefix { !$0.isWhitespace })
            }
        }
        return found
    }

    /// `message` (libpq's error, say) with every password of `conninfo` in it masked, and every
    /// URL in it masked as `commandText` masks one.
    package static func scrub(_ message: String, conninfo: String) -> String {
        var text = message
        for password in passwords(inConninfo: conninfo).sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: password, with: mask)
        }
        return commandText(text)
    }

    /// A libpq connection string as it may be written: a URL masked as `url` masks one (its
    /// userinfo, a `password` query parameter), a `key=value` string's password value masked.
    package static func conninfo(_ text: String) -> String {
        if text.contains("://") { return url(text, marked: ["password"]) }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.lowercased().hasPrefix("password=") ? "password=\(mask)" : String(word)
        }.joined(separator: " ")
    }

    /// A command line as recorded in machine.json: the values of the URL and the headers
    /// (separate or joined with `=`) redacted. Headers and query parameters named by the
    /// secret-header and secret-query options count as credentials too. `flag` spells each option as the command line does.
    package static func commandLine(
        _ arguments: [String], flag: (PoolSizeError.Parameter) -> String
    ) -> [String] {
        func values(of option: String) -> Set<String> {
            var found: Set<String> = []
            for (index, argument) in arguments.enumerated() {
                if argument == option, index + 1 < arguments.count { found.insert(arguments[index + 1]) }
                if argument.hasPrefix(option + "=") { found.insert(String(argument.dropFirst(option.count + 1))) }
            }
            return found
        }
        let marked = values(of: flag(.httpSecretHeaders)), markedQuery = values(of: flag(.httpSecretQuery))
        let redact: [String: (String) -> String] = [
            flag(.httpURL): { url($0, marked: markedQuery) }, flag(.httpHeaders): { header($0, marked: marked) },
            flag(.server): commandText, flag(.load): commandText, flag(.resize): commandText,
            flag(.command): commandText, flag(.commandBaseline): commandText,
            flag(.postgres): conninfo, flag(.database): conninfo,
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
