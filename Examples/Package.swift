// swift-tools-version: 6.0
import PackageDescription

// Two small programs on the vcf package's public API, as an app would use it: one product, `VCF`, one import.
// They depend on the package by path, exactly as an app outside this repository would by URL or path.
// Scripts/examples.sh builds them and runs them on Fixtures/; .ci/run calls it.
let package = Package(
    name: "vcf-examples",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "vcf", path: "..")],
    targets: [
        // The sharing side: a Contact with a photo fitted to a record limit, written as vCard 3.0.
        .executableTarget(name: "share-card", dependencies: [.product(name: "VCF", package: "vcf")],
                          path: "Sources/ShareCard"),
        // The receiving side: read a card, show it, merge it into a contacts file, explain bad card data.
        .executableTarget(name: "receive-card", dependencies: [.product(name: "VCF", package: "vcf")],
                          path: "Sources/ReceiveCard"),
    ]
)
