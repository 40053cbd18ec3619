import Foundation
import TestSupport
import Testing
import VCardSyntax

@testable import VCardLint

/// The linter over the real files of `../shared/corpus` (path in `VCF_CORPUS`): repairing a file twice
/// gives the same bytes, a repaired file's errors are exactly those its change log reports as not fixed,
/// and no finding names a line outside the file.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["VCF_CORPUS"] != nil, "VCF_CORPUS is not set"))
struct LintCorpusTests {
    @Test func everyCorpusFile() throws {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["VCF_CORPUS"] ?? "")
        let text = try String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let names = text.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            return columns.count >= 3 ? String(columns[2]) : nil
        }
        #expect(names.count > 400)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(name)))
            let lines = LintSource(bytes).lineCount
            let found = Linter.lint(bytes, file: name)
            #expect(found.allSatisfy { $0.line >= 1 && $0.line <= max(lines, 1) }, "\(name)")
            let repair = Linter.fix(bytes, file: name)
            #expect(Linter.fix(repair.bytes, file: name).bytes == repair.bytes, "\(name): a second repair changes it")
            let left = Linter.lint(repair.bytes, file: name).filter { $0.severity == .error }.count
            #expect(left == repair.remainingErrors, "\(name)")
        }
    }
}
