// swift-tools-version: 6.0
import PackageDescription

// Layers, bottom up: VCardSyntax (content lines, no meaning) -> ContactModel (neutral Contact, no syntax)
// -> VCardFormat (property meaning and mapping) -> VCFCommands (the tool's commands) -> vcf (one call).
let package = Package(
    name: "vcf",
    products: [
        .executable(name: "vcf", targets: ["vcf"]),
        .library(name: "VCardFormat", targets: ["VCardFormat"]),
        .library(name: "ContactModel", targets: ["ContactModel"]),
    ],
    targets: [
        .target(name: "VCardSyntax"),
        .target(name: "ContactModel"),
        .target(name: "VCardFormat", dependencies: ["VCardSyntax", "ContactModel"]),
        .target(name: "VCFCommands", dependencies: ["VCardFormat", "VCardSyntax", "ContactModel"]),
        .executableTarget(name: "vcf", dependencies: ["VCFCommands"]),
        .executableTarget(name: "vcf-bench", dependencies: ["VCardFormat", "VCardSyntax", "ContactModel"]),
        .target(name: "TestSupport", dependencies: ["VCardFormat"], path: "Tests/TestSupport"),
        .testTarget(name: "VCardSyntaxTests", dependencies: ["VCardSyntax", "TestSupport"]),
        .testTarget(name: "VCardFormatTests", dependencies: ["VCardFormat", "TestSupport"]),
        .testTarget(name: "VCFCommandsTests", dependencies: ["VCFCommands", "TestSupport"]),
    ]
)
