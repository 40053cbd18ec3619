import Foundation
import Testing

/// Where the repository's fixtures live, found from this file's path so tests run from any directory.
public enum FixturePaths {
    /// The `Fixtures/` directory.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A file under `Fixtures/`.
    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The bytes of a fixture.
    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relative)))
    }

    /// The files in a fixture directory with the given extension, sorted.
    public static func files(in directory: String, withExtension ext: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(directory).path)
            .filter { $0.hasSuffix("." + ext) }.sorted()
    }
}

/// Golden-file comparison: fails on a difference; with `RECORD_SNAPSHOTS=1` writes the new golden and
/// still fails, so a recording run can never pass by accident.
public enum Golden {
    /// Whether this run records goldens.
    public static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// Compares `actual` with the golden file at `relative` under `Fixtures/`.
    public static func check(
        _ actual: [UInt8], against relative: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = FixturePaths.url(relative)
        let expected = try? Data(contentsOf: url)
        if recording {
            if expected.map([UInt8].init) != actual {
                try? FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true)
                try? Data(actual).write(to: url)
                Issue.record(
                    "recorded golden \(relative); rerun without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected else {
            Issue.record(
                "missing golden \(relative); run with RECORD_SNAPSHOTS=1 to create it",
                sourceLocation: sourceLocation)
            return
        }
        if [UInt8](expected) != actual {
            let a = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let e = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            var firstDifference = 0
            while firstDifference < min(a.count, e.count) && a[firstDifference] == e[firstDifference] {
                firstDifference += 1
            }
            let got = firstDifference < a.count ? String(a[firstDifference]) : "<end>"
            let want = firstDifference < e.count ? String(e[firstDifference]) : "<end>"
            Issue.record(
                "\(relative) differs at line \(firstDifference + 1):\n  expected: \(want)\n  actual:   \(got)",
                sourceLocation: sourceLocation)
        }
    }

    /// Compares text with a golden file.
    public static func check(
        _ actual: String, against relative: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        check(Array(actual.utf8), against: relative, sourceLocation: sourceLocation)
    }
}
