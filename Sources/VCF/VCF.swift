// The umbrella module: an app depends on the `VCF` product and writes `import VCF` to reach every layer below.
// Nothing is declared here; each layer's own module is the API (see VCF.docc, "Public API").
//
// A library module added to the package joins this list, the `VCF` target's dependencies in Package.swift and
// the API baseline (`Scripts/api-check.sh --update`).

@_exported import AddressBooks
@_exported import CardDAV
@_exported import CardIdentity
@_exported import ContactCSV
@_exported import ContactFormats
@_exported import ContactMatching
@_exported import ContactMerge
@_exported import ContactModel
@_exported import ContactPresentation
@_exported import TerminalText
@_exported import UserFiles
@_exported import VCardFormat
@_exported import VCardLint
@_exported import VCardSyntax
@_exported import Vdir

// The photo and QR layers need the C libraries (libjpeg-turbo, libpng, libqrencode), which the package links on
// Linux and macOS only; on other platforms (iOS) the umbrella leaves them out rather than fail to build.
#if canImport(PhotoProcessing)
@_exported import PhotoProcessing
#endif
#if canImport(CardPhoto)
@_exported import CardPhoto
#endif
#if canImport(QRCode)
@_exported import QRCode
#endif
#if canImport(CardQR)
@_exported import CardQR
#endif
