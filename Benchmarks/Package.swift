// swift-tools-version: 6.0
import PackageDescription

// Benchmarks and test data for the vcf package, kept out of its Sources/ (which holds the product only). Depends
// on the root package by path, through its library products, as an app would.
//
// SyntheticBook: a seeded synthetic address-book generator with labelled true duplicates (and traps), for the
//   merge benchmarks and tests. The root package's merge tests also compile it, as a test-only target.
// vcf-bench: the in-process benchmark driver run by Scripts/bench.sh, bench-suite.sh, merge-bench.sh and
//   photo-bench.sh (which build it here, beside `vcf`).

let package = Package(
    name: "vcf-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "vcf", path: "..")],
    targets: [
        .target(name: "SyntheticBook"),
        .executableTarget(
            name: "vcf-bench",
            dependencies: [
                "SyntheticBook",
                .product(name: "VCardFormat", package: "vcf"),
                .product(name: "VCardSyntax", package: "vcf"),
                .product(name: "ContactModel", package: "vcf"),
                .product(name: "PhotoProcessing", package: "vcf"),
                .product(name: "ContactMerge", package: "vcf"),
                .product(name: "ContactMatching", package: "vcf"),
            ]),
        .testTarget(
            name: "SyntheticBookTests",
            dependencies: [
                "SyntheticBook",
                .product(name: "ContactMatching", package: "vcf"),
                .product(name: "ContactMerge", package: "vcf"),
                .product(name: "ContactModel", package: "vcf"),
                .product(name: "VCardFormat", package: "vcf"),
            ]),
    ]
)
