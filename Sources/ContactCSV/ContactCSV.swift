#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Contacts as CSV: reads Google Contacts and Outlook exports, writes Google's current layout.
public enum ContactCSV {}
