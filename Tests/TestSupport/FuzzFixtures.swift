import Foundation

/// The inputs libFuzzer found, kept as regression fixtures in `Fixtures/fuzz/<target>/` (see Fuzz/README.md).
public enum FuzzFixtures {
    /// The paths, relative to `Fixtures/`, of every file kept for the fuzz target `target`, sorted; none when
    /// the target has found nothing.
    public static func files(_ target: String) -> [String] {
        let directory = "fuzz/" + target
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FixturePaths.url(directory).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
    }
}
