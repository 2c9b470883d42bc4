import CCurl
import CPoolSizeCurl
import Foundation
import PoolSizeModel

/// The request every easy handle makes, in the C forms libcurl reads. libcurl copies string
/// options but not the header list or the body (CURLOPT_HTTPHEADER, CURLOPT_POSTFIELDS): both
/// live here, and each `CurlEasy` holds its request, so they outlive every handle.
final class CurlRequest: @unchecked Sendable {
    /// The request as the user gave it.
    let target: HTTPTarget
    /// The whole request (connect, send, answer) fails after this long (--task-timeout).
    let timeoutSeconds: Double
    /// How an https:// server's certificate is checked.
    let verification: HTTPVerification
    /// The header whose value each answer is searched for (`LoadServer.headerName`).
    let capturedHeader: String
    private let headers: UnsafeMutablePointer<curl_slist>?
    private let body: UnsafeMutableRawBufferPointer?

    /// libcurl's process-wide setup, done once (it is not thread-safe, a Swift static is
    /// initialised exactly once).
    static let globalInit: CURLcode = poolsize_curl_global_init()

    init(target: HTTPTarget, timeoutSeconds: Double, verification: HTTPVerification, capturedHeader: String)
        throws(PoolSizeError)
    {
        guard Self.globalInit == CURLE_OK else {
            throw .measurementFailed(
                "libcurl could not be initialised (\(String(cString: curl_easy_strerror(Self.globalInit)))); \(PoolSizeError.Parameter.httpURL.mention) needs a working libcurl"
            )
        }
        self.target = target
        self.timeoutSeconds = timeoutSeconds
        self.verification = verification
        self.capturedHeader = capturedHeader
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for line in Self.headerLines(target) {
            guard let longer = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw .measurementFailed(
                    "out of memory building the \(PoolSizeError.Parameter.httpHeaders.mention) list")
            }
            list = longer
        }
        headers = list
        if Self.sendsBody(target) {
            // At least one byte: a null CURLOPT_POSTFIELDS would make libcurl read the body
            // from stdin; the size option says how many of these bytes are the body.
            let buffer = UnsafeMutableRawBufferPointer.allocate(
                byteCount: max(1, target.body?.count ?? 0), alignment: 1)
            if let bytes = target.body { buffer.copyBytes(from: bytes) }
            body = buffer
        } else {
            body = nil
        }
    }

    deinit {
        curl_slist_free_all(headers)
        body?.deallocate()
    }

    /// Whether the request carries a body: one was given, or the method expects one (an empty
    /// POST then says Content-Length: 0, as a client library would).
    static func sendsBody(_ target: HTTPTarget) -> Bool {
        target.method != "HEAD" && (target.body != nil || ["POST", "PUT", "PATCH"].contains(target.method))
    }

    /// The header lines sent: the user's, in order, then lines that stop libcurl adding headers
    /// the user did not ask for (curl_easy_setopt(3) CURLOPT_HTTPHEADER: `Name:` removes an
    /// internal header, `Name;` sends an empty one). Without them a body would go out labelled
    /// as a form, large bodies would wait a round trip for `100 Continue`, and every request
    /// would carry `Accept: */*`: the request is exactly what was given, as wrk sends it.
    static func headerLines(_ target: HTTPTarget) -> [String] {
        var lines = target.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        let given = Set(target.headers.map { $0.name.lowercased() })
        for name in ["Accept", "Expect"] where !given.contains(name.lowercased()) { lines.append("\(name):") }
        if sendsBody(target) && !given.contains("content-type") { lines.append("Content-Type:") }
        return lines
    }

    /// Sets every option of the request on `handle`; the first that libcurl refuses is thrown.
    func configure(_ handle: UnsafeMutableRawPointer) throws(PoolSizeError) {
        var failed: (option: String, code: CURLcode)?
        func set(_ name: String, _ result: CURLcode) {
            if failed == nil && result != CURLE_OK { failed = (name, result) }
        }
        func set(_ name: String, _ option: CURLoption, _ value: Int) {
            set(name, poolsize_curl_setopt_long(handle, option, value))
        }
        func set(_ name: String, _ option: CURLoption, _ value: String) {
            set(name, poolsize_curl_setopt_pointer(handle, option, value))
        }
        set("URL", CURLOPT_URL, target.url)
        // Worker threads: no SIGALRM for timeouts (libcurl's docs require it with threads).
        set("NOSIGNAL", CURLOPT_NOSIGNAL, 1)
        // A redirect is an answer, not a second request (the task would measure two).
        set("FOLLOWLOCATION", CURLOPT_FOLLOWLOCATION, 0)
        set("TIMEOUT_MS", CURLOPT_TIMEOUT_MS, max(1, Int((timeoutSeconds * 1_000).rounded(.up))))
        set("CONNECTTIMEOUT_MS", CURLOPT_CONNECTTIMEOUT_MS, Int(min(10, max(1, timeoutSeconds.rounded(.up))) * 1_000))
        // The service is measured, not a proxy named by http_proxy in the environment; "no
        // proxy for any host" also spares libcurl two getenv scans per request.
        set("PROXY", CURLOPT_PROXY, "")
        set("NOPROXY", CURLOPT_NOPROXY, "*")
        // One connection per handle: the handle's worker never has two requests in flight.
        set("MAXCONNECTS", CURLOPT_MAXCONNECTS, 1)
        set("TCP_NODELAY", CURLOPT_TCP_NODELAY, 1)
        set("HTTPHEADER", poolsize_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers))
        if target.method == "HEAD" {
            set("NOBODY", CURLOPT_NOBODY, 1)
        } else if let body {
            set(
                "POSTFIELDSIZE_LARGE",
                poolsize_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(target.body?.count ?? 0)))
            set("POSTFIELDS", poolsize_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, body.baseAddress))
            if target.method != "POST" { set("CUSTOMREQUEST", CURLOPT_CUSTOMREQUEST, target.method) }
        } else if target.method != "GET" {
            set("CUSTOMREQUEST", CURLOPT_CUSTOMREQUEST, target.method)
        }
        switch verification {
        case .system:
            break
        case let .certificateAuthorities(path):
            set("CAINFO", CURLOPT_CAINFO, path)
        case .none:
            set("SSL_VERIFYPEER", CURLOPT_SSL_VERIFYPEER, 0)
            set("SSL_VERIFYHOST", CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let failed {
            throw .invalidParameter(
                .httpURL,
                message:
                    "libcurl refused CURLOPT_\(failed.option) for '\(target.redactedURL)' (\(String(cString: curl_easy_strerror(failed.code)))); check the URL and the \(PoolSizeError.Parameter.httpURL.mention)-* flags"
            )
        }
    }
}
