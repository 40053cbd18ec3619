// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for the vcf package, kept apart from it so that its `swift build`, `swift test` and CI never
// build them: each executable has no `main` of its own (libFuzzer's runs `LLVMFuzzerTestOneInput`), so it links
// only with `-sanitize=fuzzer`. Build and run them with `Scripts/fuzz.sh`; see README.md beside this file.

// One source file each, compiled as a library (no top-level code) so that libFuzzer's `main` is the only one.
let asLibrary: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func fuzzTarget(_ name: String, _ products: [String], _ local: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name, dependencies: products.map { .product(name: $0, package: "vcf") } + local,
                      swiftSettings: asLibrary)
}

let package = Package(
    name: "vcf-fuzz",
    dependencies: [.package(name: "vcf", path: "..")],
    targets: [
        fuzzTarget("FuzzLexer", ["VCardSyntax"]),
        fuzzTarget("FuzzVCardReader", ["VCardFormat", "VCardSyntax"]),
        fuzzTarget("FuzzJCard", ["VCardFormat"]),
        fuzzTarget("FuzzCSV", ["ContactCSV"]),
        fuzzTarget("FuzzJPEG", ["PhotoProcessing"], ["PhotoFuzzing"]),
        fuzzTarget("FuzzPNG", ["PhotoProcessing"], ["PhotoFuzzing"]),
        fuzzTarget("FuzzRoundTrip", ["VCardFormat"]),
        // What the two photo targets share.
        .target(name: "PhotoFuzzing", dependencies: [.product(name: "PhotoProcessing", package: "vcf")]),
    ]
)
