import Foundation
import Testing
@testable import PoolSizeModel

/// `--http`, `--http-method`, `--http-header`: checked before anything is sent.
struct HTTPTargetTests {
    @Test func aTargetKeepsItsPartsAndNamesItsHost() throws {
        let target = try HTTPTarget(
            url: "http://127.0.0.1:8080/orders?id=1", method: "post",
            headers: ["Authorization: Bearer a:b", "X-Trace:  1 "], body: Data("{}".utf8))
        #expect(target.method == "POST")
        #expect(
            target.headers == [.init(name: "Authorization", value: "Bearer a:b"), .init(name: "X-Trace", value: "1")])
        #expect(target.display == "POST http://127.0.0.1:8080/orders?id=1")
        #expect(target.host == "127.0.0.1")
        #expect(target.isLoopback)
        #expect(try !HTTPTarget(url: "https://api.example.com/").isLoopback)
        #expect(try HTTPTarget(url: "http://LOCALHOST:1/").isLoopback)
    }

    @Test(arguments: [
        (
            "ftp://127.0.0.1/",
            "error: `httpURL`: must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got 'ftp://127.0.0.1/'"
        ),
        (
            "127.0.0.1:8080",
            "error: `httpURL`: must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got '127.0.0.1:8080'"
        ),
        (
            "http:///path",
            "error: `httpURL`: must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got 'http:///path'"
        ),
        (
            "http://127.0.0.1:99999/",
            "error: `httpURL`: port 99999 is not a TCP port (1 to 65535), in 'http://127.0.0.1:99999/'"
        ),
        (
            "http://127.0.0.1:4294967377/",
            "error: `httpURL`: port 4294967377 is not a TCP port (1 to 65535), in 'http://127.0.0.1:4294967377/'"
        ),
        ("http://127.0.0.1:0/", "error: `httpURL`: port 0 is not a TCP port (1 to 65535), in 'http://127.0.0.1:0/'"),
        // Too large for an Int: URLComponents dropped the port and kept the URL, accepted before.
        (
            "http://127.0.0.1:9223372036854775808/",
            "error: `httpURL`: port 9223372036854775808 is not a TCP port (1 to 65535), in 'http://127.0.0.1:9223372036854775808/'"
        ),
        // A URL's credentials stay out of the message that quotes it (it was echoed whole).
        (
            "http://user:pw@[::1]:-1/",
            "error: `httpURL`: must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got 'http://REDACTED@[::1]:-1/'"
        ),
        (
            "http://alice:pa55@127.0.0.1:99999/",
            "error: `httpURL`: port 99999 is not a TCP port (1 to 65535), in 'http://REDACTED@127.0.0.1:99999/'"
        ),
    ])
    func aURLThatIsNotHTTPIsRefused(url: String, message: String) {
        #expect(throws: PoolSizeError.self) { try HTTPTarget(url: url) }
        do { _ = try HTTPTarget(url: url) } catch { #expect(error.description == message) }
    }

    /// A host libcurl cannot take, or a name of digits and dots that is no IPv4 address: refused
    /// now (`http://[zz]:80/` was accepted, and every request of the sweep failed).
    @Test(arguments: [
        ("http://[zz]:80/", "'[zz]' in 'http://[zz]:80/' is not an IPv6 address (brackets hold one)"),
        ("http://[]/", "'[]' in 'http://[]/' is not an IPv6 address (brackets hold one)"),
        (
            "http://999.1.1.1/",
            "'999.1.1.1' in 'http://999.1.1.1/' is not an IPv4 address (four numbers, each 0 to 255)"
        ),
        (
            "http://a!b:8080/",
            "'a!b' in 'http://a!b:8080/' is not a host name: it holds '!' (a name has letters, digits, '-' and '.')"
        ),
        (
            "http://a%20b/",
            "'a%20b' in 'http://a%20b/' is not a host name: it holds ' ' (a name has letters, digits, '-' and '.')"
        ),
        (
            "http://alice:pa55@[zz]/",
            "'[zz]' in 'http://REDACTED@[zz]/' is not an IPv6 address (brackets hold one)"
        ),
    ])
    func aHostThatIsNoneIsRefused(url: String, problem: String) {
        do {
            _ = try HTTPTarget(url: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.exitCode == 64)
            #expect(
                error.description
                    == "error: `httpURL`: host \(problem); give a host name or address, e.g. http://127.0.0.1:8080/ or http://[::1]:8080/"
            )
        }
    }

    /// Hosts libcurl takes: names, IPv4 in its short forms, IPv6 with a zone, a trailing dot.
    @Test(arguments: [
        "http://127.1:8080/", "http://[::1]/", "http://[fe80::1%25lo]:8080/", "https://api.example.com./x",
        "http://my_host-1.internal/", "http://%31%32%37.0.0.1/", "http://10.0.0.1/",
    ])
    func aHostLibcurlTakesIsAccepted(url: String) throws {
        _ = try HTTPTarget(url: url)
    }

    @Test func portsAreReadFromTheText() {
        #expect(HTTPTarget.portText("http://h:8080/x") == "8080")
        #expect(HTTPTarget.portText("http://user:pa:ss@h/x") == nil)
        #expect(HTTPTarget.portText("http://[::1]/") == nil)
        #expect(HTTPTarget.portText("http://[::1]:81/") == "81")
        #expect(HTTPTarget.portText("http://h:/") == nil)
        #expect((try? HTTPTarget(url: "http://[::1]:8080/")) != nil)
    }

    @Test func aMethodMustBeAToken() {
        do {
            _ = try HTTPTarget(url: "http://127.0.0.1/", method: "GET /x")
            Issue.record("accepted a method with a space")
        } catch {
            #expect(
                error.description
                    == "error: `httpMethod`: must be a method name such as GET, POST or PUT, got 'GET /x'")
        }
    }

    @Test(arguments: [
        ("NoColon", "error: `httpHeaders`: must be 'Name: value', got 'NoColon'"),
        // A colon left out before a credential: only the first word is quoted.
        ("Authorization Bearer t0k3n", "error: `httpHeaders`: must be 'Name: value', got 'Authorization …'"),
        (
            "Bad Name: x",
            "error: `httpHeaders`: 'Bad Name' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"
        ),
        (
            "X-Inject: a\r\nHost: evil",
            "error: `httpHeaders`: the value of X-Inject holds a control character (a line break would split the request); remove it"
        ),
        (": empty", "error: `httpHeaders`: '' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        // The body's framing is the client's: a user's value was dropped silently before.
        (
            "Content-Length: 5",
            "error: `httpHeaders`: Content-Length is sent by the client, as the length of `httpBody`; drop this header"
        ),
        (
            "transfer-encoding: chunked",
            "error: `httpHeaders`: Transfer-Encoding is chosen by the client, which sends `httpBody` with its Content-Length; drop this header"
        ),
    ])
    func aBadHeaderIsRefused(header: String, message: String) {
        do {
            _ = try HTTPTarget(url: "http://127.0.0.1/", headers: [header])
            Issue.record("accepted \(header)")
        } catch {
            #expect(error.description == message)
        }
    }
}
