import Foundation
import Testing
import CoreSeedTestSupport

@Suite struct LayoutCommandTests {
    static let corpus = StoreOps.corpus

    @Test(.needsCorpus) func schemaPrintsOneStatementPerLineWithSemicolons() throws {
        let model = Self.corpus.appendingPathComponent("bnr-coredatastack-testmodel/model/Sample.xcdatamodeld").path
        let result = try BinaryRunner.run(["schema", model, "--model-version", "TestModel.xcdatamodel", "--framework-version", "637"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR );
            CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) );
            CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR );
            CREATE INDEX Z_1BOOKS_Z_2BOOKS_INDEX ON Z_1BOOKS (Z_2BOOKS, Z_1AUTHORS);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);

            """)
    }

    @Test func schemaWithoutAModelIsAUsageError() throws {
        let result = try BinaryRunner.run(["schema"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: missing MODEL\nUsage: coreseed schema MODEL"))
    }

    @Test(.needsCorpus) func verifyNamesTheVersionAndExitsZero() throws {
        let store = Self.corpus.appendingPathComponent("objcio-moody2/store.sqlite").path
        let model = Self.corpus.appendingPathComponent("objcio-moody2/model/Moody.xcdatamodeld").path
        let result = try BinaryRunner.run(["verify", store, "--model", model])
        #expect(result.status == 0)
        #expect(result.stdout == "\(store): written by model version 'Moody 2' (framework 637)\n\(store): OK\n")
    }

    @Test(.needsCorpus) func verifyAgainstTheWrongModelExitsOneWithALinePerDifference() throws {
        let store = Self.corpus.appendingPathComponent("iqtodolist/store.sqlite").path
        let model = Self.corpus.appendingPathComponent("wibosco-migration-1/model/CoreDataMigration_Example.xcdatamodeld").path
        let result = try BinaryRunner.run(["verify", store, "--model", model])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("\(store): error: no version of the model matches the store's version hashes") == true)
        #expect(lines.contains("\(store): error: entity ToDoItem is in the store but not in model version CoreDataMigration_Example 4"))
    }
}
