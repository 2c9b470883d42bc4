import Foundation

/// The CA certificates an https:// target is verified against (`httpCACertificates`), checked
/// before anything is sent: libcurl reads the file only when a handle connects, so a garbage,
/// empty or key file failed every request of the sweep instead of once. The file must be a
/// readable regular file of PEM text in which every certificate block is an X.509 certificate
/// (OpenSSL refuses the whole file for one bad block) and at least one is there.
package enum CACertificateFile {
    /// PEM labels OpenSSL reads as a certificate (RFC 7468 §5; OpenSSL's PEM_X509_INFO_read_bio).
    static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"]
    /// More than any bundle of CA certificates holds (the system's is a few hundred KiB).
    static let maximumBytes = 16 << 20

    /// Throws `inputNotFound` (66) when `path` does not exist, `invalidInput` (65) when it is no
    /// readable regular file or holds no usable certificate, naming the file and what it holds.
    package static func check(path: String) throws(PoolSizeError) {
        let fix =
            "\(PoolSizeError.Parameter.httpCACertificates.mention) takes a PEM file of the CA certificates that issued the server's"
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .inputNotFound(path: path, hint: fix) }
            throw .invalidInput(path: path, message: "cannot be read (\(String(cString: strerror(errno)))); \(fix)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
            throw .invalidInput(path: path, message: "is \(kind); \(fix)")
        }
        guard Int(status.st_size) <= maximumBytes else {
            throw .invalidInput(path: path, message: "is \(status.st_size) bytes, more than any CA bundle; \(fix)")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .invalidInput(path: path, message: "cannot be read (\(PoolSizeError.reason(of: error))); \(fix)")
        }
        if let problem = problem(in: data) { throw .invalidInput(path: path, message: "\(problem); \(fix)") }
    }

    /// What is wrong with `data` as a file of CA certificates ("holds a private key (-----BEGIN
    /// PRIVATE KEY-----), not a certificate"), or nil when every certificate block in it parses
    /// and there is at least one.
    package static func problem(in data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }) { return "is empty" }
        guard let text = String(bytes: bytes, encoding: .utf8), !bytes.contains(0) else {
            return
                "holds binary data, not PEM text (a DER certificate? 'openssl x509 -inform der -in FILE -out FILE.pem' converts one)"
        }
        let blocks: [Block]
        switch Block.parse(text) {
        case let .success(parsed): blocks = parsed
        case let .failure(unterminated):
            return
                "its \(unterminated.label) block (line \(unterminated.line)) has no -----END \(unterminated.label)----- line"
        }
        let certificates = blocks.filter { certificateLabels.contains($0.label) }
        guard !certificates.isEmpty else {
            guard let first = blocks.first else {
                return "holds no PEM certificate (no -----BEGIN CERTIFICATE----- line)"
            }
            return "holds \(describe(first.label)) (-----BEGIN \(first.label)-----), not a certificate"
        }
        for (index, block) in certificates.enumerated() {
            let which = "certificate \(index + 1) (line \(block.line))"
            guard let der = Data(base64Encoded: block.base64) else {
                return "\(which) is not base64 text"
            }
            guard isCertificate([UInt8](der)) else {
                return "\(which) is not an X.509 certificate (its DER structure does not parse)"
            }
        }
        return nil
    }

    /// What a PEM block of `label` is, for a message: "a private key", "a certificate request".
    static func describe(_ label: String) -> String {
        if label.hasSuffix("PRIVATE KEY") { return "a private key" }
        if label.hasSuffix("PUBLIC KEY") { return "a public key" }
        if label.hasSuffix("CERTIFICATE REQUEST") { return "a certificate request" }
        if label == "X509 CRL" { return "a certificate revocation list" }
        if label.hasSuffix("PARAMETERS") { return "key parameters" }
        return "a \(label) block"
    }

    /// Whether `der` is one DER Certificate (RFC 5280 §4.1): a SEQUENCE filling it exactly,
    /// holding a SEQUENCE (tbsCertificate), a SEQUENCE (signatureAlgorithm) and a BIT STRING
    /// (signatureValue) and nothing else, with every constructed element inside made of whole
    /// elements. A private key (SEQUENCE of INTEGER, …) or damaged bytes fail; the values of the
    /// fields are OpenSSL's to judge.
    static func isCertificate(_ der: [UInt8]) -> Bool {
        guard let outer = element(der, at: 0), outer.tag == 0x30, outer.end == der.count else { return false }
        var offset = outer.content
        for tag: UInt8 in [0x30, 0x30, 0x03] {
            guard let inner = element(der, at: offset, within: outer.end), inner.tag == tag else { return false }
            offset = inner.end
        }
        return offset == outer.end && isWellFormed(der, from: outer.content, to: outer.end, depth: 0)
    }

    /// Whether [from, to) is a run of whole DER elements, each constructed one (tag bit 0x20)
    /// made of whole elements in turn, at most 32 deep.
    static func isWellFormed(_ der: [UInt8], from start: Int, to end: Int, depth: Int) -> Bool {
        guard depth < 32 else { return false }
        var offset = start
        while offset < end {
            guard let inner = element(der, at: offset, within: end) else { return false }
            if inner.tag & 0x20 != 0 && !isWellFormed(der, from: inner.content, to: inner.end, depth: depth + 1) {
                return false
            }
            offset = inner.end
        }
        return true
    }

    /// The DER element at `offset`: its tag, where its content starts and where it ends; nil
    /// when its length is not DER's (indefinite, more than 4 bytes) or runs past `within`.
    static func element(_ der: [UInt8], at offset: Int, within limit: Int? = nil) -> (
        tag: UInt8, content: Int, end: Int
    )? {
        let limit = limit ?? der.count
        guard offset + 2 <= limit else { return nil }
        let first = der[offset + 1]
        var length = 0
        var content = offset + 2
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7f)
            guard (1...4).contains(count), content + count <= limit else { return nil }
            for byte in der[content..<(content + count)] { length = length << 8 | Int(byte) }
            content += count
        }
        guard content + length <= limit else { return nil }
        return (der[offset], content, content + length)
    }

    /// One `-----BEGIN label-----` … `-----END label-----` block of PEM text (RFC 7468).
    struct Block {
        var label: String
        /// The 1-based line of its BEGIN line.
        var line: Int
        /// Its base64 text, lines joined; headers (`Proc-Type: …`) included, which fail to decode.
        var base64: String

        /// A block whose END line never came.
        struct Unterminated: Error {
            var label: String
            var line: Int
        }

        /// Every block of `text`, in order; text between blocks is ignored, as OpenSSL does.
        static func parse(_ text: String) -> Result<[Block], Unterminated> {
            var blocks: [Block] = []
            var current: Block?
            for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                if var block = current {
                    if line == "-----END \(block.label)-----" {
                        blocks.append(block)
                        current = nil
                    } else {
                        block.base64 += line
                        current = block
                    }
                } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
                    let label = String(line.dropFirst(11).dropLast(5))
                    current = Block(label: label, line: index + 1, base64: "")
                }
            }
            if let current { return .failure(Unterminated(label: current.label, line: current.line)) }
            return .success(blocks)
        }
    }
}
