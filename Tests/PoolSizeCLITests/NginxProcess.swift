import Foundation

/// nginx serving static files over HTTPS on 127.0.0.1, with a self-signed certificate made by
/// openssl: a real TLS server to point `sweep --http` at. Everything (certificate, key,
/// config, pid, logs, temp paths, files) lives in a temporary directory removed by `stop()`;
/// nginx runs in the foreground as one process (no daemon, no master), our child, killed
/// and waited for by `stop()`.
final class NginxProcess {
    /// nginx and openssl on PATH or in /usr/sbin (Debian: apt-get install nginx-light openssl).
    static let nginx = executable("nginx")
    static let openssl = executable("openssl")
    static var available: Bool { nginx != nil && openssl != nil }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-nginx-\(UUID())")
    let process = Process()
    private(set) var port = 0

    /// The certificate, also the CA that verifies it (self-signed), for `--http-cacert`.
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var url: String { "https://127.0.0.1:\(port)/" }

    /// Starts nginx with `files` (name → contents) in its root; returns once it accepts.
    init(files: [String: String] = ["index.html": "ok\n"]) throws {
        guard let nginx = Self.nginx, let openssl = Self.openssl else { throw POSIXError(.ENOENT) }
        let fm = FileManager.default
        try fm.createDirectory(at: directory.appendingPathComponent("www"), withIntermediateDirectories: true)
        try fm.createDirectory(at: directory.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        for (name, contents) in files {
            try contents.write(to: directory.appendingPathComponent("www/\(name)"), atomically: true, encoding: .utf8)
        }
        // A certificate for the address the tests use, valid for a day.
        try Self.runQuietly(
            openssl,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory.appendingPathComponent("key.pem").path,
                "-out", certificate,
            ])
        port = try Self.freePort()
        let root = directory.path
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(root)/tmp/body;
                proxy_temp_path \(root)/tmp/proxy;
                fastcgi_temp_path \(root)/tmp/fastcgi;
                uwsgi_temp_path \(root)/tmp/uwsgi;
                scgi_temp_path \(root)/tmp/scgi;
                server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(certificate);
                    ssl_certificate_key \(root)/key.pem;
                    root \(root)/www;
                }
            }
            """
        try config.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = nginx
        // -e: the log nginx opens before it reads the config, here rather than /var/log.
        process.arguments = ["-p", root, "-e", "\(root)/error.log", "-c", "\(root)/nginx.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !Self.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                let log =
                    (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                stop()
                throw NSError(
                    domain: "nginx", code: 1, userInfo: [NSLocalizedDescriptionKey: "nginx did not start: \(log)"])
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// SIGKILL, waits for it, removes the directory. Idempotent. Not SIGTERM: a test runs on a
    /// libdispatch worker thread, which blocks signals, the child inherits that mask, and nginx
    /// without a master process never unblocks them, so SIGTERM would wait forever. One process,
    /// nothing on disk it needs to clean: nothing is left behind.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.awaitExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    static func executable(_ name: String) -> URL? {
        let path =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + [
                "/usr/sbin", "/usr/local/sbin",
            ]
        return path.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    static func runQuietly(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let processExit = process.awaitExit()
        guard processExit.code == 0 else {
            throw NSError(domain: executable.lastPathComponent, code: Int(processExit.code))
        }
    }

    /// A port nothing listens on now (the kernel's pick for port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
