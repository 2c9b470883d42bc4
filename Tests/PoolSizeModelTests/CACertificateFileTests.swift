import Foundation
import Testing
@testable import PoolSizeModel

/// The `httpCACertificates` file check on hand-made bytes: the DER walk and the PEM blocks.
struct CACertificateFileTests {
    /// SEQUENCE { SEQUENCE { NULL }, SEQUENCE { NULL }, BIT STRING 00 00 }: a certificate's shape.
    static let shape: [UInt8] = [0x30, 0x0c, 0x30, 0x02, 0x05, 0x00, 0x30, 0x02, 0x05, 0x00, 0x03, 0x02, 0x00, 0x00]

    static func pem(_ label: String, _ der: [UInt8]) -> String {
        "-----BEGIN \(label)-----\n\(Data(der).base64EncodedString())\n-----END \(label)-----\n"
    }

    @Test func theCertificateShapeIsRecognised() {
        #expect(CACertificateFile.isCertificate(Self.shape))
        // The long length form (0x81 n) reads the same.
        #expect(
            CACertificateFile.isCertificate(
                [0x30, 0x81, 0x0c, 0x30, 0x02, 0x05, 0x00, 0x30, 0x02, 0x05, 0x00, 0x03, 0x02, 0x00, 0x00]))
    }

    @Test(
        arguments: [
            // A PKCS#8 private key's start: SEQUENCE { INTEGER 0, … }.
            [0x30, 0x0b, 0x02, 0x01, 0x00, 0x30, 0x02, 0x05, 0x00, 0x03, 0x02, 0x00, 0x00],
            // A byte after the certificate.
            shape + [0x00],
            // Cut short: the outer length runs past the end.
            Array(shape.dropLast()),
            // An indefinite length (BER, not DER).
            [0x30, 0x80, 0x30, 0x02, 0x05, 0x00, 0x30, 0x02, 0x05, 0x00, 0x03, 0x02, 0x00, 0x00, 0x00, 0x00],
            // The first inner SEQUENCE holds a length that runs past it.
            [0x30, 0x0c, 0x30, 0x02, 0x05, 0x05, 0x30, 0x02, 0x05, 0x00, 0x03, 0x02, 0x00, 0x00],
            [],
        ] as [[UInt8]])
    func otherBytesAreNoCertificate(der: [UInt8]) {
        #expect(!CACertificateFile.isCertificate(der))
    }

    @Test func aFileOfCertificatesHasNoProblem() {
        let text =
            "Subject: a comment OpenSSL skips\n" + Self.pem("CERTIFICATE", Self.shape)
            + Self.pem("PRIVATE KEY", [0x30, 0x00]) + Self.pem("TRUSTED CERTIFICATE", Self.shape)
        #expect(CACertificateFile.problem(in: Data(text.utf8)) == nil)
        // CRLF line ends read the same.
        #expect(CACertificateFile.problem(in: Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)) == nil)
    }

    @Test(arguments: [
        (" \n\t\r\n", "is empty"),
        ("hello\n", "holds no PEM certificate (no -----BEGIN CERTIFICATE----- line)"),
        (
            pem("RSA PRIVATE KEY", [0x30, 0x00]),
            "holds a private key (-----BEGIN RSA PRIVATE KEY-----), not a certificate"
        ),
        (
            pem("CERTIFICATE REQUEST", [0x30, 0x00]),
            "holds a certificate request (-----BEGIN CERTIFICATE REQUEST-----), not a certificate"
        ),
        (
            pem("X509 CRL", [0x30, 0x00]),
            "holds a certificate revocation list (-----BEGIN X509 CRL-----), not a certificate"
        ),
        (
            pem("CERTIFICATE", shape) + "-----BEGIN CERTIFICATE-----\nMAA=\n",
            "its CERTIFICATE block (line 4) has no -----END CERTIFICATE----- line"
        ),
        (
            pem("CERTIFICATE", shape) + pem("CERTIFICATE", [0x30, 0x00]),
            "certificate 2 (line 4) is not an X.509 certificate (its DER structure does not parse)"
        ),
        ("-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----\n", "certificate 1 (line 1) is not base64 text"),
    ])
    func aFileWithoutUsableCertificatesSaysWhatItHolds(text: String, problem: String) {
        #expect(CACertificateFile.problem(in: Data(text.utf8)) == problem)
    }

    @Test func binaryIsNotPEM() {
        #expect(
            CACertificateFile.problem(in: Data(Self.shape))
                == "holds binary data, not PEM text (a DER certificate? 'openssl x509 -inform der -in FILE -out FILE.pem' converts one)"
        )
    }
}
