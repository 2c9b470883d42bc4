import Foundation
import Synchronization

/// A minimal HTTP/1.1 server on 127.0.0.1 for what `LoadServer` cannot show: the exact bytes of
/// each request, and an answer whose body is as large as asked, written in 64 KB chunks of one
/// buffer so the server itself holds no more than that. One connection at a time, kept alive;
/// or, given `cutAnswer`, those bytes as the whole answer, then a close.
final class RawHTTPServer: @unchecked Sendable {
    let port: Int
    let bodyBytes: Int
    let cutAnswer: String?
    private let listener: Int32
    private let connection = Atomic<Int32>(-1)
    private let stopped = Atomic<Bool>(false)
    private let requests = Mutex<[String]>([])
    private let done = DispatchSemaphore(value: 0)

    /// Listens on a free port; every request is answered 200 with `bodyBytes` zero bytes, or
    /// with `cutAnswer` and a close.
    init(bodyBytes: Int = 3, cutAnswer: String? = nil) throws {
        self.bodyBytes = bodyBytes
        self.cutAnswer = cutAnswer
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else { close(listener); throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            serve(); done.signal()
        }
    }

    var url: String { "http://127.0.0.1:\(port)/" }

    /// Each request received so far: its head and body as sent.
    var received: [String] { requests.withLock { $0 } }

    /// Stops accepting, closes the open connection and waits for the thread (bounded).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        let open = connection.load(ordering: .relaxed)
        if open >= 0 { shutdown(open, Int32(SHUT_RDWR)) }
        _ = done.wait(timeout: .now() + 5)
        close(listener)
    }

    private func serve() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { if errno == EINTR { continue } else { return } }
            connection.store(client, ordering: .relaxed)
            answer(client)
            connection.store(-1, ordering: .relaxed)
            close(client)
        }
    }

    /// Reads requests on one connection until the client closes it, answering each.
    private func answer(_ client: Int32) {
        var pending = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            // The head, then as many body bytes as Content-Length says.
            var request: [UInt8]? = nil
            while request == nil {
                if let end = pending.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                    let head = String(decoding: pending[..<end], as: UTF8.self)
                    let length =
                        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                    if pending.count >= end + length {
                        request = Array(pending[..<(end + length)])
                        pending.removeFirst(end + length)
                        break
                    }
                }
                let count = recv(client, &chunk, chunk.count, 0)
                if count <= 0 { return }
                pending += chunk[..<count]
            }
            requests.withLock { $0.append(String(decoding: request!, as: UTF8.self)) }
            if let cutAnswer {
                let bytes = Array(cutAnswer.utf8)
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                return
            }
            let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(bodyBytes)\r\n\r\n".utf8)
            guard head.withUnsafeBytes({ send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == head.count
            else { return }
            let zeros = [UInt8](repeating: 0, count: 65536)
            var left = bodyBytes
            while left > 0 {
                let sent = zeros.withUnsafeBytes {
                    send(client, $0.baseAddress, min(left, $0.count), Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return }
                left -= sent
            }
        }
    }
}
