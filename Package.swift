// swift-tools-version: 6.0
import PackageDescription

// Layers, bottom up: VCardSyntax (content lines, no meaning) -> ContactModel (neutral Contact, no syntax)
// -> VCardFormat (property meaning and mapping) -> VCFCommands (the tool's commands) -> vcf (one call).
// Photos sit beside them: CJPEG and CPNG (C over the system libjpeg-turbo and libpng) -> PhotoProcessing (images,
// no vCard) -> CardPhoto (a card's photo fitted to a record limit, where photos and vCard meet).
// ContactFormats tells which format a file holds (vCard, jCard, Contact JSON, CSV) from its first bytes.
// ContactPresentation draws a Contact for people (text, HTML, preview JSON) and knows no file format.
// VCardLint (checks and repairs on top of VCardFormat) takes plain byte limits, so it needs no photos.
// QR codes: CQRencode (C over the system libqrencode) -> QRCode (symbols and their PNG, SVG and terminal drawings,
// no vCard) -> CardQR (a card fitted into a code, where QR codes and vCard meet, through VCardWriter only).
// TerminalText is the one sanitiser for text shown to people; UserFiles (over CSignalCleanup) owns reading and
// writing the user's files: atomic replacement, locks, concurrent-change checks, owner and mode, backups.
// CMallocArenas lets the tool's process keep one C heap per processor (VCFCommands.runVCF). CFileWriteback lets
// UserFiles start writing a large output to disk while it is produced, so the final fsync waits for less.
// CardIdentity makes UIDs from a card's content (lint --fix, convert --ensure-uid, merge share it).
// Places cards live: Vdir (a folder of .vcf files, no vCard) and CardDAV (a client for an address book on a
// server, no vCard) -> AddressBooks (merging into and uploading to either, where they meet the merge engine).
//
// VCF is the umbrella an app adopts: it re-exports every library product below (Sources/VCF/VCF.swift).
//
// The C libraries are system-library targets found through pkg-config (Homebrew's prefixes on macOS, the
// distribution's on Linux), so the package carries no unsafe flags and can be a versioned dependency. Only
// the photo and QR layers reach them; everything else is Swift and the toolchain's Foundation.

/// The platforms whose C libraries the photo and QR layers are built and tested against (apt on Linux,
/// Homebrew on macOS). Elsewhere (iOS) the umbrella re-exports the pure-Swift layers only.
let cLibraryPlatforms: [Platform] = [.linux, .macOS]

let package = Package(
    name: "vcf",
    // macOS 13 and iOS 16: the oldest with ContinuousClock and Swift's string-processing
    // algorithms; nothing here uses a newer API (no Synchronization, Span or Observation).
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "vcf", targets: ["vcf"]),
        // One product and one import for an app: `.product(name: "VCF", package: "vcf")`, `import VCF`.
        .library(name: "VCF", targets: ["VCF"]),
        // Each layer on its own, for an app that wants fewer modules (or none of the C libraries).
        .library(name: "VCardSyntax", targets: ["VCardSyntax"]),
        .library(name: "ContactModel", targets: ["ContactModel"]),
        .library(name: "VCardFormat", targets: ["VCardFormat"]),
        .library(name: "ContactCSV", targets: ["ContactCSV"]),
        .library(name: "ContactFormats", targets: ["ContactFormats"]),
        .library(name: "ContactMatching", targets: ["ContactMatching"]),
        .library(name: "ContactMerge", targets: ["ContactMerge"]),
        .library(name: "ContactPresentation", targets: ["ContactPresentation"]),
        .library(name: "VCardLint", targets: ["VCardLint"]),
        .library(name: "PhotoProcessing", targets: ["PhotoProcessing"]),
        .library(name: "CardPhoto", targets: ["CardPhoto"]),
        .library(name: "QRCode", targets: ["QRCode"]),
        .library(name: "CardQR", targets: ["CardQR"]),
        .library(name: "TerminalText", targets: ["TerminalText"]),
        .library(name: "UserFiles", targets: ["UserFiles"]),
        .library(name: "CardIdentity", targets: ["CardIdentity"]),
        .library(name: "Vdir", targets: ["Vdir"]),
        .library(name: "CardDAV", targets: ["CardDAV"]),
        .library(name: "AddressBooks", targets: ["AddressBooks"]),
    ],
    targets: [
        // The umbrella. Every library product joins it: add the module here, to the products above and to the
        // `@_exported import` list in Sources/VCF/VCF.swift, then record its API with
        // `Scripts/api-check.sh --update` (which fails while a library product is missing from the umbrella).
        .target(
            name: "VCF",
            dependencies: [
                "VCardSyntax", "ContactModel", "VCardFormat", "ContactCSV", "ContactFormats", "ContactMatching",
                "ContactMerge", "ContactPresentation", "VCardLint", "TerminalText", "UserFiles", "CardIdentity",
                "Vdir", "CardDAV", "AddressBooks",
                .target(name: "PhotoProcessing", condition: .when(platforms: cLibraryPlatforms)),
                .target(name: "CardPhoto", condition: .when(platforms: cLibraryPlatforms)),
                .target(name: "QRCode", condition: .when(platforms: cLibraryPlatforms)),
                .target(name: "CardQR", condition: .when(platforms: cLibraryPlatforms)),
            ]),
        .target(name: "VCardSyntax"),
        // Package-internal utilities the libraries share, not a product: the JSON parser with positions
        // (Contact JSON and jCard) and the one way to run work on every processor.
        .target(name: "Utilities"),
        .target(name: "ContactModel", dependencies: ["Utilities"]),
        .target(name: "VCardFormat", dependencies: ["VCardSyntax", "ContactModel", "Utilities"]),
        .systemLibrary(
            name: "SystemJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "SystemPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "SystemQRencode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]),
        .target(name: "CJPEG", dependencies: ["SystemJPEG"]),
        .target(name: "CPNG", dependencies: ["SystemPNG"]),
        .target(name: "CQRencode", dependencies: ["SystemQRencode"]),
        .target(name: "PhotoProcessing", dependencies: ["CJPEG", "CPNG", "Utilities"]),
        .target(name: "QRCode", dependencies: ["CQRencode", "CPNG"]),
        .target(name: "CardQR", dependencies: ["QRCode", "VCardFormat", "ContactModel"]),
        .target(name: "CardPhoto", dependencies: ["PhotoProcessing", "VCardFormat", "ContactModel"]),
        .target(name: "ContactMatching", dependencies: ["ContactModel", "Utilities"]),
        .target(name: "ContactPresentation", dependencies: ["ContactModel", "TerminalText"]),
        .target(name: "TerminalText"),
        .target(name: "CSignalCleanup"),
        .target(name: "CMallocArenas"),
        .target(name: "CFileWriteback"),
        .target(name: "UserFiles", dependencies: ["TerminalText", "CSignalCleanup", "CFileWriteback", "Utilities"]),
        .target(name: "ContactCSV", dependencies: ["ContactModel", "Utilities"]),
        .target(name: "ContactFormats", dependencies: ["VCardFormat", "ContactCSV", "Utilities"]),
        .target(
            name: "ContactMerge",
            dependencies: [
                "CardIdentity", "ContactMatching", "ContactModel", "VCardFormat", "VCardSyntax", "Utilities",
            ]),
        // The seeded synthetic address books the merge tests run on. Its home is the Benchmarks package (which
        // also runs its own tests); the root compiles it only for its tests, so Sources/ holds the product only.
        .target(name: "SyntheticBook", path: "Benchmarks/Sources/SyntheticBook"),
        .target(name: "CardIdentity", dependencies: ["ContactModel", "VCardFormat"]),
        .target(name: "CardDAV"),
        .target(name: "Vdir", dependencies: ["TerminalText", "Utilities"]),
        .target(
            name: "AddressBooks",
            dependencies: [
                "CardDAV", "Vdir", "CardIdentity", "ContactMerge", "ContactMatching",
                "ContactModel", "VCardFormat", "VCardSyntax", "VCardLint", "Utilities",
            ]),
        .target(
            name: "VCardLint",
            dependencies: ["VCardSyntax", "VCardFormat", "ContactModel", "CardIdentity", "Utilities"]),
        .target(
            name: "VCFCommands",
            dependencies: [
                "VCardFormat", "VCardSyntax", "ContactModel", "CardPhoto",
                "PhotoProcessing", "ContactMatching", "ContactMerge", "ContactPresentation",
                "ContactCSV", "ContactFormats", "VCardLint", "CardQR", "QRCode", "TerminalText",
                "UserFiles", "AddressBooks", "CardDAV", "CardIdentity", "Vdir", "CMallocArenas",
            ]),
        .executableTarget(name: "vcf", dependencies: ["VCFCommands"]),
        .target(name: "TestSupport", dependencies: ["VCardFormat"], path: "Tests/TestSupport"),
        .testTarget(name: "VCardSyntaxTests", dependencies: ["VCardSyntax", "TestSupport"]),
        .testTarget(name: "VCardFormatTests", dependencies: ["VCardFormat", "TestSupport"]),
        .testTarget(name: "PhotoProcessingTests", dependencies: ["PhotoProcessing", "TestSupport"]),
        .testTarget(name: "ContactCSVTests", dependencies: ["ContactCSV", "ContactModel", "TestSupport"]),
        .testTarget(
            name: "CardPhotoTests", dependencies: ["CardPhoto", "PhotoProcessing", "VCardFormat", "TestSupport"]),
        .testTarget(
            name: "ContactMatchingTests",
            dependencies: [
                "ContactMatching", "ContactMerge", "ContactModel", "VCardFormat", "SyntheticBook", "TestSupport",
            ]),
        .testTarget(name: "ContactFormatsTests", dependencies: ["ContactFormats", "TestSupport"]),
        .testTarget(name: "CardIdentityTests", dependencies: ["CardIdentity", "ContactModel", "VCardFormat"]),
        .testTarget(name: "CardDAVTests", dependencies: ["CardDAV", "TestSupport"]),
        .testTarget(name: "VdirTests", dependencies: ["Vdir"]),
        .testTarget(
            name: "AddressBooksTests",
            dependencies: [
                "AddressBooks", "CardDAV", "CardIdentity", "ContactMerge",
                "ContactModel", "VCardFormat", "TestSupport",
            ]),
        .testTarget(
            name: "QRCodeTests",
            dependencies: [
                "QRCode", "CardQR", "VCardFormat", "VCardSyntax", "ContactModel",
                "TestSupport",
            ]),
        .testTarget(name: "VCardLintTests", dependencies: ["VCardLint", "VCardSyntax", "TestSupport"]),
        .testTarget(
            name: "VCFCommandsTests",
            dependencies: [
                "VCFCommands", "SyntheticBook", "ContactModel", "VCardFormat",
                "ContactPresentation", "CardQR", "QRCode", "TerminalText",
                "UserFiles", "ContactMerge", "ContactMatching",
                "VCardSyntax", "VCardLint", "TestSupport",
            ]),
    ]
)
