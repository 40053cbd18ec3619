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
    /// The corpus folder and the files its manifest lists.
    static func corpus() throws -> (root: URL, names: [String]) {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["VCF_CORPUS"] ?? "")
        let text = try String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let names = text.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            return columns.count >= 3 ? String(columns[2]) : nil
        }
        return (root, names)
    }

    @Test func everyCorpusFile() throws {
        let (root, names) = try Self.corpus()
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

    /// Every corpus file written as UTF-16 (both byte orders, with and without a mark) and linted as it is read,
    /// in pieces that cut its code units, has the findings of the whole file linted at once.
    @Test func everyCorpusFileAsUTF16StreamedIsLintedAsWhole() throws {
        let (root, names) = try Self.corpus()
        var compared = 0
        for (number, name) in names.enumerated() {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(name)))
            // UTF-8 files only (the corpus's own UTF-16 and Latin-1 files say nothing more written again).
            guard let text = String(validating: bytes, as: UTF8.self) else { continue }
            let bigEndian = number % 2 == 1
            var utf16: [UInt8] = number % 4 < 2 ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
            for unit in text.utf16 {
                utf16 += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            // A file without a card is said to be one at the end, once the streamed linter knows it.
            var whole = Linter.lint(utf16, file: name)
            whole = whole.filter { $0.code != .noCards } + whole.filter { $0.code == .noCards }
            var linter = StreamLinter(file: name)
            var streamed: [Diagnostic] = []
            var offset = 0
            while offset < utf16.count {
                let end = min(utf16.count, offset + 4_093)
                try linter.feed(Array(utf16[offset..<end])) { streamed += $0 }
                offset = end
            }
            linter.finish { streamed += $0 }
            #expect(streamed.map(\.description) == whole.map(\.description), "\(name)")
            compared += 1
        }
        #expect(compared > 300)
    }
}
