// swift-tools-version: 6.0
import PackageDescription

// Layers, bottom up: VCardSyntax (content lines, no meaning) -> ContactModel (neutral Contact, no syntax)
// -> VCardFormat (property meaning and mapping) -> VCFCommands (the tool's commands) -> vcf (one call).
// Photos sit beside them: CJPEG and CPNG (C over the system libjpeg-turbo and libpng) -> PhotoProcessing (images,
// no vCard) -> CardPhoto (a card's photo fitted to a record limit, where photos and vCard meet).
// ContactPresentation draws a Contact for people (text, HTML, preview JSON) and knows no file format.
// VCardLint (checks and repairs on top of VCardFormat) takes plain byte limits, so it needs no photos.
// QR codes: CQRencode (C over the system libqrencode) -> QRCode (symbols and their PNG, SVG and terminal drawings,
// no vCard) -> CardQR (a card fitted into a code, where QR codes and vCard meet, through VCardWriter only).
// TerminalText is the one sanitiser for text shown to people; UserFiles (over CSignalCleanup) owns reading and
// writing the user's files: atomic replacement, locks, concurrent-change checks, owner and mode, backups.
// CardIdentity makes UIDs from a card's content (lint --fix, convert --ensure-uid, merge share it).
// Places cards live: Vdir (a folder of .vcf files, no vCard) and CardDAV (a client for an address book on a
// server, no vCard) -> AddressBooks (merging into and uploading to either, where they meet the merge engine).

// Homebrew's prefixes, for building on macOS; Linux finds the headers in /usr/include.
let homebrew: [String] = ["/opt/homebrew", "/usr/local"]
let cFlags: [CSetting] = [.unsafeFlags(homebrew.map { "-I\($0)/include" }, .when(platforms: [.macOS]))]
func linking(_ library: String) -> [LinkerSetting] {
    [.linkedLibrary(library), .unsafeFlags(homebrew.map { "-L\($0)/lib" }, .when(platforms: [.macOS]))]
}
let package = Package(
    name: "vcf",
    products: [
        .executable(name: "vcf", targets: ["vcf"]),
        .library(name: "VCardFormat", targets: ["VCardFormat"]),
        .library(name: "ContactModel", targets: ["ContactModel"]),
        // For the fuzz targets in Fuzz/, a package of their own that depends on this one.
        .library(name: "VCardSyntax", targets: ["VCardSyntax"]),
        .library(name: "ContactCSV", targets: ["ContactCSV"]),
        .library(name: "PhotoProcessing", targets: ["PhotoProcessing"]),
    ],
    targets: [
        .target(name: "VCardSyntax"),
        .target(name: "ContactModel"),
        .target(name: "VCardFormat", dependencies: ["VCardSyntax", "ContactModel"]),
        .target(name: "CJPEG", cSettings: cFlags, linkerSettings: linking("jpeg")),
        .target(name: "CPNG", cSettings: cFlags, linkerSettings: linking("png")),
        .target(name: "PhotoProcessing", dependencies: ["CJPEG", "CPNG"]),
        .target(name: "CQRencode", linkerSettings: [.linkedLibrary("qrencode")]),
        .target(name: "QRCode", dependencies: ["CQRencode", "CPNG"]),
        .target(name: "CardQR", dependencies: ["QRCode", "VCardFormat", "ContactModel"]),
        .target(name: "CardPhoto", dependencies: ["PhotoProcessing", "VCardFormat", "ContactModel"]),
        .target(name: "ContactMatching", dependencies: ["ContactModel"]),
        .target(name: "ContactPresentation", dependencies: ["ContactModel", "TerminalText"]),
        .target(name: "TerminalText"),
        .target(name: "CSignalCleanup"),
        .target(name: "UserFiles", dependencies: ["TerminalText", "CSignalCleanup"]),
        .target(name: "ContactCSV", dependencies: ["ContactModel"]),
        .target(name: "ContactMerge", dependencies: ["CardIdentity", "ContactMatching", "ContactModel", "VCardFormat", "VCardSyntax"]),
        .target(name: "LabeledBook"),
        .target(name: "CardIdentity", dependencies: ["ContactModel", "VCardFormat"]),
        .target(name: "CardDAV"),
        .target(name: "Vdir"),
        .target(name: "AddressBooks", dependencies: ["CardDAV", "Vdir", "CardIdentity", "ContactMerge", "ContactMatching",
                                                     "ContactModel", "VCardFormat", "VCardSyntax", "VCardLint"]),
        .target(name: "VCardLint", dependencies: ["VCardSyntax", "VCardFormat", "ContactModel", "CardIdentity"]),
        .target(name: "VCFCommands", dependencies: ["VCardFormat", "VCardSyntax", "ContactModel", "CardPhoto",
                                                    "PhotoProcessing", "ContactMatching", "ContactMerge", "ContactPresentation",
                                                    "ContactCSV", "VCardLint", "CardQR", "QRCode", "TerminalText",
                                                    "UserFiles", "AddressBooks", "CardDAV", "CardIdentity", "Vdir"]),
        .executableTarget(name: "vcf", dependencies: ["VCFCommands"]),
        .executableTarget(name: "vcf-bench", dependencies: ["VCardFormat", "VCardSyntax", "ContactModel", "PhotoProcessing",
                                                           "ContactMerge", "ContactMatching", "LabeledBook"]),
        .target(name: "TestSupport", dependencies: ["VCardFormat"], path: "Tests/TestSupport"),
        .testTarget(name: "VCardSyntaxTests", dependencies: ["VCardSyntax", "TestSupport"]),
        .testTarget(name: "VCardFormatTests", dependencies: ["VCardFormat", "TestSupport"]),
        .testTarget(name: "PhotoProcessingTests", dependencies: ["PhotoProcessing", "TestSupport"]),
        .testTarget(name: "ContactCSVTests", dependencies: ["ContactCSV", "ContactModel", "TestSupport"]),
        .testTarget(name: "CardPhotoTests", dependencies: ["CardPhoto", "PhotoProcessing", "VCardFormat", "TestSupport"]),
        .testTarget(name: "ContactMatchingTests", dependencies: ["ContactMatching", "ContactMerge", "ContactModel",
                                                                 "LabeledBook", "VCardFormat", "TestSupport"]),
        .testTarget(name: "CardIdentityTests", dependencies: ["CardIdentity", "ContactModel", "VCardFormat"]),
        .testTarget(name: "CardDAVTests", dependencies: ["CardDAV", "TestSupport"]),
        .testTarget(name: "VdirTests", dependencies: ["Vdir"]),
        .testTarget(name: "AddressBooksTests", dependencies: ["AddressBooks", "CardDAV", "CardIdentity", "ContactMerge",
                                                              "ContactModel", "VCardFormat", "TestSupport"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "CardQR", "VCardFormat", "VCardSyntax", "ContactModel",
                                                        "TestSupport"]),
        .testTarget(name: "VCardLintTests", dependencies: ["VCardLint", "VCardSyntax", "TestSupport"]),
        .testTarget(name: "VCFCommandsTests", dependencies: ["VCFCommands", "LabeledBook", "ContactModel", "VCardFormat",
                                                           "ContactPresentation", "CardQR", "QRCode", "TerminalText",
                                                           "UserFiles",
                                                           "VCardSyntax", "VCardLint", "TestSupport"]),
    ]
)
