@testable import PoolSizeModel
import Testing

/// SHA-256 on FIPS 180-4's examples and on lengths at the padding's edges, each digest as
/// `sha256sum` prints it.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        // 56 bytes: the length no longer fits in the block, so the padding takes a second.
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
        ("SELECT 1;\n", "b4e0497804e46e0a0b0b8c31975b062152d551bac49c3c2e80932567b4085dcd"),
    ])
    func digestsAsSha256sumPrintsThem(text: String, digest: String) {
        #expect(SHA256.hex(text) == digest)
    }
}
