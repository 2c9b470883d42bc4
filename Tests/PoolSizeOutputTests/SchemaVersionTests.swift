import Foundation
import PoolSizeModel
import Testing
@testable import PoolSizeOutput

/// Every JSON file and output carries `schema_version`; a reader refuses a newer one.
struct SchemaVersionTests {
    struct Thing: Codable, Equatable { var name: String }

    @Test func objectsAndEachArrayElementCarryTheVersion() throws {
        let one =
            try JSONSerialization.jsonObject(with: Data(JSONExport.serialize(Thing(name: "a")).utf8)) as? [String: Any]
        #expect(one?["schema_version"] as? Int == 1)
        #expect(one?["name"] as? String == "a")
        let many =
            try JSONSerialization.jsonObject(
                with: Data(JSONExport.serialize([Thing(name: "a"), Thing(name: "b")]).utf8)) as? [[String: Any]]
        #expect(many?.map { $0["schema_version"] as? Int } == [1, 1])
    }

    /// What is written reads back; an object without `schema_version` was not written by
    /// poolsize (every version wrote it) and is refused.
    @Test func versionedFilesReadBackAndUnversionedOnesAreRefused() throws {
        #expect(
            try RunDirectoryJSON.decode(Thing.self, from: JSONExport.serialize(Thing(name: "a")), path: "x.json")
                == Thing(name: "a"))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "run/x.json", message: "key 'schema_version' missing; expected the schema in results/README.md")
        ) {
            try RunDirectoryJSON.decode(Thing.self, from: "{\"name\": \"old\"}", path: "run/x.json")
        }
    }

    @Test func aNewerVersionIsRefusedNamingTheFile() {
        do {
            _ = try RunDirectoryJSON.decode(
                Thing.self, from: "{\"name\": \"a\", \"schema_version\": 2}", path: "run/machine.json")
            Issue.record("read a file of a newer layout")
        } catch {
            #expect(
                error.description
                    == "error: run/machine.json: was written by a newer poolsize (schema_version 2; this one reads 1); upgrade poolsize to read it"
            )
        }
    }
}
