import PoolSizeModel
import Testing

/// `sweep --server`'s command and URL templates: the argument vector each size runs (golden
/// argv), and one exact line for each template that cannot run.
@Suite struct ServerCommandTests {
    @Test(arguments: [
        (
            "gunicorn -k gthread --workers 1 --threads {size} -b 127.0.0.1:{port} app:app",
            ["gunicorn", "-k", "gthread", "--workers", "1", "--threads", "8", "-b", "127.0.0.1:41234", "app:app"]
        ),
        ("java Server.java --threads={size} --port={port}", ["java", "Server.java", "--threads=8", "--port=41234"]),
        // A value never splits its word, and a quoted word keeps its spaces.
        (
            "sh -c 'exec ./server -t {size} -p {port} >log 2>&1'",
            ["sh", "-c", "exec ./server -t 8 -p 41234 >log 2>&1"]
        ),
        // Twice, and beside text; {{ is a literal brace, and other braces are text.
        ("srv {size}x{size} '{{size}' '{ true; }' {} {port}", ["srv", "8x8", "{size}", "{ true; }", "{}", "41234"]),
        ("awk '{{print}' {size}", ["awk", "{print}", "8"]),
    ])
    func everyPlaceholderIsFilledInsideItsWord(line: String, argv: [String]) throws {
        let command = try ServerCommand(line)
        #expect(command.arguments(size: 8, port: 41_234) == argv)
        #expect(command.usesPort == line.contains("{port}"))
    }

    /// Without {port} the server keeps its own port and none is asked for.
    @Test func aCommandWithoutPortNeedsNone() throws {
        let command = try ServerCommand("puma -t {size}:{size} -p 9292")
        #expect(!command.usesPort)
        #expect(command.arguments(size: 3, port: nil) == ["puma", "-t", "3:3", "-p", "9292"])
        #expect(command.display == "puma -t '{size}:{size}' -p 9292")
    }

    /// With a resize command the server need not take its size.
    @Test func aResizedServerMayHaveNoSize() throws {
        let command = try ServerCommand("gunicorn -b 127.0.0.1:{port} app:app", allowsNoSize: true)
        #expect(command.arguments(size: 4, port: 80) == ["gunicorn", "-b", "127.0.0.1:80", "app:app"])
    }

    @Test(arguments: [
        (
            "",
            "error: `server`: is empty; give the command that starts the server, e.g. `server` 'gunicorn --threads {size} -b 127.0.0.1:{port} app:app'"
        ),
        (
            "srv --threads {sise} {port}",
            "error: `server`: {sise} is not a placeholder; the placeholders are {size} and {port} (write {{ for a literal {)"
        ),
        (
            "python3 -m http.server {port}",
            "error: `server`: has no {size}, so every size would start the same server; add {size} where the command takes its pool size (--threads={size}, say)"
        ),
        ("srv 'quote {size}", "error: `server`: has an unterminated ' quote; close it"),
        // A placeholder left open is named, not taken for a command without {size}.
        (
            "srv '{size {port}'",
            "error: `server`: {size is a placeholder without its closing }; write {size} (or {{ for a literal {)"
        ),
        (
            "srv --threads={size --port {port}",
            "error: `server`: {size is a placeholder without its closing }; write {size} (or {{ for a literal {)"
        ),
        (
            "srv '--threads={ size}' --port {port}",
            "error: `server`: { size is a placeholder without its closing }; write {size} (or {{ for a literal {)"
        ),
    ])
    func aBadCommandIsOneLine(line: String, message: String) {
        do {
            _ = try ServerCommand(line)
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == 64)
        }
    }

    @Test func theURLTakesThePort() throws {
        let server = try ServerCommand("srv {size} {port}")
        let url = try ServerURL("http://127.0.0.1:{port}/work?n=1", server: server)
        #expect(url.usesPort)
        #expect(url.url(port: 41_234) == "http://127.0.0.1:41234/work?n=1")
        let fixed = try ServerURL("http://127.0.0.1:9292/", server: try ServerCommand("puma -t {size}"))
        #expect(!fixed.usesPort && fixed.url(port: nil) == "http://127.0.0.1:9292/")
    }

    @Test(arguments: [
        (
            "srv {size} {port}", "http://127.0.0.1:8080/",
            "error: `httpURL`: has no {port}, but `server` listens on the port poolsize picks; write {port} as the URL's port, e.g. http://127.0.0.1:{port}/"
        ),
        (
            "srv {size}", "http://127.0.0.1:{port}/",
            "error: `httpURL`: has {port}, but `server` has none, so the server is never told the port; add {port} to `server`, or write the server's own port in the URL"
        ),
        (
            "srv {size} {port}", "http://127.0.0.1:{port}/{size}",
            "error: `httpURL`: {size} is not a placeholder; the only placeholder is {port} (write {{ for a literal {)"
        ),
        (
            "srv {size} {port}", "http://127.0.0.1/?port={port}",
            "error: `httpURL`: {port} may only stand for the URL's port, e.g. http://127.0.0.1:{port}/"
        ),
        (
            "srv {size} {port}", "ftp://127.0.0.1:{port}/",
            "error: `httpURL`: must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got 'ftp://127.0.0.1:{port}/'"
        ),
    ])
    func aBadURLIsOneLine(command: String, url: String, message: String) throws {
        let server = try ServerCommand(command)
        do {
            _ = try ServerURL(url, server: server)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.description == message)
        }
    }
}
